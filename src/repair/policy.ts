/**
 * The check's policy: its thresholds and tolerances by name, each with its
 * reason in `jupyterlab_junobench/check_policy.json`, the one place they are
 * edited (copied here at build time by `scripts/embed-probe.js`, which writes
 * them into the probe's text too; the corpus validators read the file).
 */
import policy from './policy.generated.json';

/** The policy's values by name. */
export const POLICY = Object.fromEntries(
  Object.entries(policy).map(([name, entry]) => [name, entry.value])
) as { readonly [K in keyof typeof policy]: number };
