/**
 * When the diagnosis and the reference fix may be shown. Pure.
 */

/** The instructor's reveal policy. */
export type RevealPolicy = 'after-attempt' | 'after-pass' | 'always' | 'never';

/** The reveal policies, in the settings' order. */
export const REVEAL_POLICIES: readonly RevealPolicy[] = [
  'after-attempt',
  'after-pass',
  'always',
  'never'
];

/**
 * Whether the reveal is open for a case, given the policy and the learner's
 * attempts on it (a "give up" counts as an attempt).
 */
export function canReveal(
  policy: RevealPolicy,
  progress: { attempts: number; solved: boolean }
): boolean {
  switch (policy) {
    case 'always':
      return true;
    case 'never':
      return false;
    case 'after-pass':
      return progress.solved;
    case 'after-attempt':
      return progress.attempts > 0 || progress.solved;
  }
}

/**
 * Whether "Give up and reveal" makes sense: it records an attempt, which opens
 * the reveal only under `after-attempt`.
 */
export function canGiveUp(policy: RevealPolicy): boolean {
  return policy === 'after-attempt';
}

/**
 * Read a policy from a setting value, falling back to `after-attempt`.
 */
export function toRevealPolicy(value: unknown): RevealPolicy {
  return REVEAL_POLICIES.includes(value as RevealPolicy)
    ? (value as RevealPolicy)
    : 'after-attempt';
}
