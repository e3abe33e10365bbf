/**
 * Whether a case can be replayed here, and what its folder is missing. Pure.
 *
 * With the real descriptor and only some case folders present (a sparse
 * fetch, or the dataset without its input data), most cases cannot run; the
 * panel filters on this and says why, and the case card lists what is missing.
 */
import type { ICase } from './types';

/** A part of a case that its folder lacks. */
export type MissingPart =
  /** No case folder at all (nothing of the case is here). */
  | 'folder'
  /** No `<case>_reproduced.ipynb`: nothing to replay. */
  | 'reproduced'
  /** The descriptor credits a dataset, but the folder has no data files. */
  | 'data'
  /** No `<case>_fixed.ipynb`: it replays, but a repair cannot be checked against a reference. */
  | 'fixed';

/** What `runnability` says of a case. */
export interface IRunnability {
  /** Whether Replay can run it here (a reproduced notebook and, when it reads data, its data). */
  runnable: boolean;
  /** What is missing, most important first; may be non-empty for a runnable case (`fixed`). */
  missing: MissingPart[];
}

/**
 * Whether a case is runnable here and what it misses.
 */
export function runnability(
  c: Pick<ICase, 'files' | 'datasets'>
): IRunnability {
  if (c.files.folder === null) {
    return { runnable: false, missing: ['folder'] };
  }
  const missing: MissingPart[] = [];
  if (!c.files.reproduced) {
    missing.push('reproduced');
  }
  if (c.datasets.length > 0 && c.files.data.length === 0) {
    missing.push('data');
  }
  const runnable = missing.length === 0;
  if (!c.files.fixed) {
    missing.push('fixed');
  }
  return { runnable, missing };
}

/**
 * Whether most of these cases cannot run here (the panel then starts with
 * "Runnable here" on).
 */
export function mostlyIncomplete(
  cases: readonly Pick<ICase, 'files' | 'datasets'>[]
): boolean {
  let blocked = 0;
  for (const c of cases) {
    if (!runnability(c).runnable) {
      blocked++;
    }
  }
  return blocked * 2 > cases.length;
}
