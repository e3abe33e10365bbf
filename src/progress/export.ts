/**
 * Export of the learner's progress to JSON and CSV, and the reading back of
 * an exported JSON file (for a cohort report over learners' files).
 */
import type { ICaseProgress } from './types';
import { describeValue, parseCaseProgress, ProgressFormatError } from './types';

/** The `format` field of an exported progress file. */
export const EXPORT_FORMAT = 'jupyterlab-junobench-progress';

/** The version of the exported progress file. */
export const EXPORT_VERSION = 1;

/** The columns of the CSV export, in order. */
export const CSV_COLUMNS = [
  'case',
  'status',
  'attempts',
  'passed_attempts',
  'hints_used',
  'self_diagnosis_correct',
  'self_diagnosis_total',
  'self_diagnosis_hinted',
  'time_spent_s',
  'revealed_at',
  'last_attempt_at',
  'last_exception'
] as const;

/** What an export says about itself. */
export interface IExportMeta {
  /** The casebook the progress belongs to. */
  readonly casebook: string;
  /** When the export was made (a date or an ISO 8601 string). */
  readonly exportedAt: Date | string;
  /** Who the learner is, if known. */
  readonly learner?: string | null;
}

/** An exported progress file, read back. */
export interface IProgressExport {
  /** The file format version. */
  readonly version: number;
  /** The casebook the progress belongs to. */
  readonly casebook: string;
  /** When the export was made, as an ISO 8601 string. */
  readonly exportedAt: string;
  /** Who the learner is, or null. */
  readonly learner: string | null;
  /** The progress per case name. */
  readonly cases: Record<string, ICaseProgress>;
}

/** The progress as an indented JSON document with its casebook, date and learner. */
export function toJSON(
  progress: Record<string, ICaseProgress>,
  meta: IExportMeta
): string {
  const cases: Record<string, ICaseProgress> = {};
  for (const name of Private.sortedNames(progress)) {
    cases[name] = progress[name];
  }
  const document = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    casebook: meta.casebook,
    exportedAt: Private.isoDate(meta.exportedAt),
    learner: meta.learner ?? null,
    cases
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The progress as RFC 4180 CSV: a header row, then one row per case (CRLF line ends). */
export function toCSV(progress: Record<string, ICaseProgress>): string {
  const rows: string[][] = [[...CSV_COLUMNS]];
  for (const name of Private.sortedNames(progress)) {
    const item = progress[name];
    const last = item.attempts[item.attempts.length - 1];
    rows.push([
      name,
      item.status,
      String(item.attempts.length),
      String(item.attempts.filter(attempt => attempt.passed).length),
      String(item.hints.length),
      item.selfDiagnosis ? String(item.selfDiagnosis.correct) : '',
      item.selfDiagnosis ? String(item.selfDiagnosis.total) : '',
      item.selfDiagnosis ? String(item.selfDiagnosis.hinted) : '',
      String(Math.round(item.timeSpentMs / 100) / 10),
      item.revealedAt ?? '',
      last?.at ?? '',
      last?.exception ?? ''
    ]);
  }
  return rows.map(row => row.map(csvField).join(',') + '\r\n').join('');
}

/** One CSV field, quoted (with doubled quotes) when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Read an exported progress file; throws `ProgressFormatError` naming what is wrong. */
export function fromJSON(text: string): IProgressExport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ProgressFormatError(
      '(file)',
      `not valid JSON (${(error as Error).message})`
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ProgressFormatError('(file)', 'expected a JSON object');
  }
  const record = parsed as Record<string, unknown>;
  if (record.format !== EXPORT_FORMAT) {
    throw new ProgressFormatError(
      'format',
      `expected "${EXPORT_FORMAT}", got ${describeValue(record.format)}; is this a progress export?`
    );
  }
  if (record.version !== EXPORT_VERSION) {
    throw new ProgressFormatError(
      'version',
      `expected ${EXPORT_VERSION}, got ${describeValue(record.version)}`
    );
  }
  if (typeof record.casebook !== 'string' || record.casebook === '') {
    throw new ProgressFormatError(
      'casebook',
      `expected a casebook name, got ${describeValue(record.casebook)}`
    );
  }
  if (
    typeof record.exportedAt !== 'string' ||
    Number.isNaN(Date.parse(record.exportedAt))
  ) {
    throw new ProgressFormatError(
      'exportedAt',
      `expected an ISO 8601 date string, got ${describeValue(record.exportedAt)}`
    );
  }
  const learner = record.learner ?? null;
  if (learner !== null && typeof learner !== 'string') {
    throw new ProgressFormatError(
      'learner',
      `expected a string or null, got ${describeValue(learner)}`
    );
  }
  const rawCases = record.cases;
  if (
    rawCases === null ||
    typeof rawCases !== 'object' ||
    Array.isArray(rawCases)
  ) {
    throw new ProgressFormatError(
      'cases',
      `expected an object of cases by name, got ${describeValue(rawCases)}`
    );
  }
  const cases: Record<string, ICaseProgress> = {};
  for (const [name, value] of Object.entries(rawCases)) {
    cases[name] = parseCaseProgress(value, `cases[${JSON.stringify(name)}]`);
  }
  return {
    version: EXPORT_VERSION,
    casebook: record.casebook,
    exportedAt: record.exportedAt,
    learner,
    cases
  };
}

/** Private helpers of the export. */
namespace Private {
  /** Case names in natural order (NB_2 before NB_10). */
  export function sortedNames(progress: Record<string, unknown>): string[] {
    return Object.keys(progress).sort((a, b) =>
      a.localeCompare(b, 'en', { numeric: true })
    );
  }

  /** A date as an ISO 8601 string. */
  export function isoDate(value: Date | string): string {
    return typeof value === 'string' ? value : value.toISOString();
  }
}
