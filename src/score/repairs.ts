/**
 * Repair rates from a batch grading (`junobench check <casebook> --submissions
 * DIR --json FILE`): per library, per root cause, for the notebook-specific
 * cases and overall, over the cases whose repair the check can grade. A case
 * counts as repaired when its submission passes; a case without a submission,
 * or whose submission was not graded, counts as not repaired. Pure logic.
 */
import type { ScoreError, ScoreWarning } from './messages';
import { firstPerCase } from './score';
import type { IGroundTruth } from './score';

/** One submission as the batch report gives it (the fields read here). */
export interface IRepairSubmission {
  /** The case folder it sits in (null for a file directly in the submissions folder). */
  case: string | null;
  /** Its path relative to the submissions folder. */
  file: string;
  /** Whether the check passed it (null when it was not graded). */
  passed: boolean | null;
  /** Why it was not graded (null when it was). */
  error: string | null;
}

/** A repair rate. */
export interface IRepairRate {
  /** Cases repaired. */
  repaired: number;
  /** Cases counted. */
  total: number;
  /** repaired / total, null when total is 0. */
  rate: number | null;
}

/** The repair rates of a tool. */
export interface IRepairScore {
  /** The batch report. */
  file: string;
  /** Over every gradable case. */
  overall: IRepairRate;
  /** Per library (the case name's prefix). */
  byLibrary: Record<string, IRepairRate>;
  /** Per root cause, as the casebook spells it. */
  byRootCause: Record<string, IRepairRate>;
  /** Over the notebook-specific cases. */
  notebookSpecific: IRepairRate;
  /** The cases counted as repaired. */
  repairedCases: string[];
}

/**
 * Read the text of a batch report (`check --submissions --json FILE`): its
 * `results`, each with `case`, `file`, `report.passed` and `error`.
 */
export function parseRepairs(
  text: string,
  file: string
):
  | { ok: true; submissions: IRepairSubmission[] }
  | { ok: false; error: ScoreError } {
  const fail = (reason: string) => ({
    ok: false as const,
    error: { code: 'bad-repairs' as const, file, reason }
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (reason) {
    return fail((reason as Error).message);
  }
  const results = (value as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) {
    return fail('no "results" list');
  }
  const submissions: IRepairSubmission[] = [];
  for (const [i, result] of results.entries()) {
    const r = result as Record<string, unknown> | null;
    const report = r?.report as { passed?: unknown } | null | undefined;
    if (
      typeof r !== 'object' ||
      r === null ||
      (r.case !== null && typeof r.case !== 'string') ||
      typeof r.file !== 'string' ||
      (report !== null && typeof report?.passed !== 'boolean')
    ) {
      return fail(`results[${i}] has no case, file and report.passed`);
    }
    submissions.push({
      case: r.case as string | null,
      file: r.file,
      passed: report === null ? null : (report.passed as boolean),
      error: typeof r.error === 'string' ? r.error : null
    });
  }
  return { ok: true, submissions };
}

/**
 * The repair rates of the submissions against the ground truth; the first
 * submission of a case counts, and every submission left out is named.
 */
export function scoreRepairs(
  truth: IGroundTruth,
  submissions: readonly IRepairSubmission[],
  file: string,
  warnings: ScoreWarning[]
): IRepairScore {
  const known = new Map(
    truth.cases.filter(c => c.gradable).map(c => [c.name, c])
  );
  const first = firstPerCase(
    submissions,
    s => (s.case === null ? undefined : known.get(s.case)),
    {
      unknown: s =>
        warnings.push({
          code: 'unknown-submission',
          file,
          submission: s.file,
          case: s.case
        }),
      again: (s, earlier, c) =>
        warnings.push({
          code: 'duplicate-submission',
          file,
          submission: s.file,
          case: c.name,
          first: earlier.file
        })
    }
  );
  for (const [name, s] of first) {
    if (s.passed === null) {
      warnings.push({
        code: 'not-graded',
        file,
        submission: s.file,
        case: name,
        error: s.error ?? ''
      });
    }
  }
  const gradable = truth.cases.filter(c => c.gradable);
  const repaired = new Set(
    gradable.filter(c => first.get(c.name)?.passed === true).map(c => c.name)
  );
  const rate = (names: readonly string[]): IRepairRate => {
    const hits = names.filter(n => repaired.has(n)).length;
    return {
      repaired: hits,
      total: names.length,
      rate: names.length ? hits / names.length : null
    };
  };
  const groups = (key: (c: (typeof gradable)[number]) => string) => {
    const names = new Map<string, string[]>();
    for (const c of gradable) {
      const k = key(c);
      names.set(k, [...(names.get(k) ?? []), c.name]);
    }
    return Object.fromEntries(
      [...names].map(([k, members]) => [k, rate(members)])
    );
  };
  return {
    file,
    overall: rate(gradable.map(c => c.name)),
    byLibrary: groups(c => c.labels.library),
    byRootCause: groups(c => c.labels.rootCause),
    notebookSpecific: rate(
      gradable.filter(c => c.notebookSpecific).map(c => c.name)
    ),
    repairedCases: gradable.filter(c => repaired.has(c.name)).map(c => c.name)
  };
}
