/**
 * Merging two copies of the learner's progress (the state database's and the
 * backup file's, or two tabs'), so that whichever copy missed a change, the
 * merge has it.
 *
 * Every change the store makes only moves a record forward (a status further
 * along, one more attempt or hint, more time, the first reveal), except a new
 * prediction, which replaces the old one until the reveal freezes it. The
 * merge keeps the furthest of each, so it is the same in either order and
 * merging a copy into a merge that already has it changes nothing.
 */
import type { IPrediction } from '../repair/selfDiagnosis';
import type { IAttempt, ICaseProgress } from './types';
import { isAhead } from './types';

/** Merge two records of the same case; see the module comment for the rules. */
export function mergeCaseProgress(
  a: ICaseProgress,
  b: ICaseProgress
): ICaseProgress {
  const revealedAt = Private.earliest(a.revealedAt, b.revealedAt);
  // The score frozen at the first reveal, from the copy that saw it.
  return {
    status: isAhead(b.status, a.status) ? b.status : a.status,
    attempts: Private.attempts(a.attempts, b.attempts),
    hints: [...new Set([...a.hints, ...b.hints])].sort((x, y) => x - y),
    prediction: Private.prediction(a.prediction, b.prediction, revealedAt),
    selfDiagnosis: Private.selfDiagnosis(a, b),
    revealedAt,
    timeSpentMs: Math.max(a.timeSpentMs, b.timeSpentMs)
  };
}

/** Merge two progress maps by case name (a case in only one is kept as it is). */
export function mergeProgress(
  a: Readonly<Record<string, ICaseProgress>>,
  b: Readonly<Record<string, ICaseProgress>>
): Record<string, ICaseProgress> {
  const result: Record<string, ICaseProgress> = { ...a };
  for (const [name, progress] of Object.entries(b)) {
    result[name] =
      name in result ? mergeCaseProgress(result[name], progress) : progress;
  }
  return result;
}

/** Whether two case records hold the same progress. */
export function sameProgress(a: ICaseProgress, b: ICaseProgress): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Private helpers of the merge. */
namespace Private {
  /**
   * The two values in a fixed order (by their JSON text), so that where the
   * rules tie, the merge does not depend on which copy came first.
   */
  export function ordered<T>(a: T, b: T): [T, T] {
    return JSON.stringify(b) < JSON.stringify(a) ? [b, a] : [a, b];
  }

  /** The score frozen at the first reveal, from the copy that saw it. */
  export function selfDiagnosis(
    a: ICaseProgress,
    b: ICaseProgress
  ): ICaseProgress['selfDiagnosis'] {
    const key = (p: ICaseProgress) =>
      `${p.revealedAt ?? '~'} ${JSON.stringify(p.selfDiagnosis)}`;
    const scored = [a, b].filter(p => p.selfDiagnosis !== null);
    if (scored.length === 0) {
      return null;
    }
    return scored.reduce((x, y) => (key(y) < key(x) ? y : x)).selfDiagnosis;
  }

  /** The earlier of two ISO dates, ignoring nulls. */
  export function earliest(a: string | null, b: string | null): string | null {
    if (a === null || b === null) {
      return a ?? b;
    }
    return Date.parse(b) < Date.parse(a) ? b : a;
  }

  /** Both lists of attempts without repeats, oldest first. */
  export function attempts(
    a: readonly IAttempt[],
    b: readonly IAttempt[]
  ): IAttempt[] {
    const byKey = new Map<string, IAttempt>();
    for (const attempt of [...a, ...b]) {
      byKey.set(JSON.stringify(attempt), attempt);
    }
    return [...byKey.entries()]
      .sort(
        ([kx, x], [ky, y]) =>
          Date.parse(x.at) - Date.parse(y.at) || (kx < ky ? -1 : 1)
      )
      .map(([, attempt]) => attempt);
  }

  /**
   * The latest prediction, but none saved after the first reveal: that one
   * froze the prediction, so a later one (from a copy that had not seen the
   * reveal yet) does not count.
   */
  export function prediction(
    a: IPrediction | null,
    b: IPrediction | null,
    revealedAt: string | null
  ): IPrediction | null {
    const limit = revealedAt === null ? Infinity : Date.parse(revealedAt);
    const all = ordered(a, b).filter((p): p is IPrediction => p !== null);
    const before = all.filter(p => Date.parse(p.at) <= limit);
    if (before.length === 0) {
      // Only predictions saved after the reveal: keep the one closest to it.
      return all.length === 0
        ? null
        : all.reduce((x, y) => (Date.parse(y.at) < Date.parse(x.at) ? y : x));
    }
    return before.reduce((x, y) =>
      Date.parse(y.at) > Date.parse(x.at) ? y : x
    );
  }
}
