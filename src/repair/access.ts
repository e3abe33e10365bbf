/**
 * What a notebook touched outside its data, from the guard of the check's
 * scratch copy (`jupyterlab_junobench/scratch.py`): the answer key reached for,
 * inputs rewritten, the casebook written. A report is read and validated here
 * and turned into findings; reading the answer key or rewriting an input is
 * "not solved". Pure logic.
 */
import type { CheckFinding } from './findings';

/** One thing the guard saw. */
export interface IAccessEvent {
  /** What was touched: the answer key, an input file, the casebook. */
  kind: 'answer' | 'input' | 'casebook';
  /** The file (relative to the copy or the casebook where it lies there), or the name used. */
  file: string;
  /** How: the audit event (`open`, `os.remove`, `magic`, …) or `changed` (found by its stat). */
  how: string;
}

/** The guard's report of one kernel. */
export interface IAccessReport {
  /** What it saw, first ones first. */
  events: IAccessEvent[];
}

/** The guard reports of one check's runs that are judged (the learner's, the live replay). */
export interface IAccessEvidence {
  /** The learner's fresh run (null when its guard could not report). */
  fresh: IAccessReport | null;
  /** The replay of the live kernel (null when there was none or it could not report). */
  live: IAccessReport | null;
}

/** At most this many findings of each kind are said. */
const MAX_PER_KIND = 3;

/**
 * A guard report as sent by the kernel, or null when it is not one (a kernel
 * without the guard, an answer of another shape).
 */
export function readAccessReport(value: unknown): IAccessReport | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return null;
  }
  const events = (value as { events?: unknown }).events;
  if (!Array.isArray(events)) {
    return null;
  }
  const out: IAccessEvent[] = [];
  for (const e of events) {
    if (e === null || typeof e !== 'object') {
      continue;
    }
    const { kind, file, how } = e as Record<string, unknown>;
    if (
      (kind === 'answer' || kind === 'input' || kind === 'casebook') &&
      typeof file === 'string' &&
      typeof how === 'string'
    ) {
      out.push({ kind, file, how });
    }
  }
  return { events: out };
}

/**
 * The findings of a check's guard reports, each file once, at most a few of
 * each kind: the answer key reached for, inputs rewritten, the casebook written.
 */
export function accessFindings(
  evidence: IAccessEvidence | null | undefined
): CheckFinding[] {
  if (!evidence) {
    return [];
  }
  const out: CheckFinding[] = [];
  const seen = new Set<string>();
  const counts: Record<IAccessEvent['kind'], number> = {
    answer: 0,
    input: 0,
    casebook: 0
  };
  for (const report of [evidence.fresh, evidence.live]) {
    for (const e of report?.events ?? []) {
      const key = `${e.kind}\u0000${e.file}`;
      if (seen.has(key) || counts[e.kind] >= MAX_PER_KIND) {
        continue;
      }
      seen.add(key);
      counts[e.kind]++;
      out.push(
        e.kind === 'answer'
          ? { code: 'reads-answer-key', file: e.file }
          : e.kind === 'input'
            ? { code: 'rewrites-input', file: e.file }
            : { code: 'writes-casebook', file: e.file }
      );
    }
  }
  return out;
}
