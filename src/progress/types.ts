/**
 * The learner's progress on each case, as JSON-serialisable records, and the
 * checks that read them back from untrusted JSON (the state DB or an exported file).
 */
import type {
  DiagnosisQuestion,
  IDiagnosisAnswer,
  IPrediction
} from '../repair/selfDiagnosis';
import { DIAGNOSIS_QUESTIONS } from '../repair/selfDiagnosis';

/** The status of a case for the learner. */
export type CaseStatus = 'not-started' | 'crashed' | 'attempted' | 'solved';

/** One repair attempt on a case. */
export interface IAttempt {
  /** When the attempt was checked, as an ISO 8601 string. */
  readonly at: string;
  /** Whether the repair check passed. */
  readonly passed: boolean;
  /** The result reported by the repair check (for example 'still-crashes'), or null. */
  readonly status: string | null;
  /** The exception the attempt raised (for example 'NameError: x'), or null. */
  readonly exception: string | null;
  /** The server path of the snapshot of the learner's notebook, or null. */
  readonly snapshotPath: string | null;
}

/** A self-diagnosis score, frozen at the first reveal. */
export interface ISelfDiagnosis {
  /** Correct answers given before the hint naming them was opened. */
  readonly correct: number;
  /** How many diagnosis questions were asked. */
  readonly total: number;
  /** Correct answers given after their hint was opened (no point). */
  readonly hinted: number;
  /** Each question with the predicted and the actual label. */
  readonly answers: readonly IDiagnosisAnswer[];
}

/** The learner's progress on one case. */
export interface ICaseProgress {
  /** The status shown by the badge. */
  readonly status: CaseStatus;
  /** Every attempt, oldest first. */
  readonly attempts: readonly IAttempt[];
  /** The hint steps used, ascending and without repeats (their count is `hints.length`). */
  readonly hints: readonly number[];
  /** The learner's prediction of the labels, or null before one is saved. */
  readonly prediction: IPrediction | null;
  /** The self-diagnosis score (the prediction scored at the first reveal), or null. */
  readonly selfDiagnosis: ISelfDiagnosis | null;
  /** When the reveal was first opened, as an ISO 8601 string, or null. */
  readonly revealedAt: string | null;
  /** The time spent on the case, in milliseconds. */
  readonly timeSpentMs: number;
}

/** The case statuses, from least to most advanced. */
export const CASE_STATUSES: readonly CaseStatus[] = [
  'not-started',
  'crashed',
  'attempted',
  'solved'
];

/** The progress of a case nobody has touched yet. */
export function emptyProgress(): ICaseProgress {
  return {
    status: 'not-started',
    attempts: [],
    hints: [],
    prediction: null,
    selfDiagnosis: null,
    revealedAt: null,
    timeSpentMs: 0
  };
}

/** Whether status `a` is further along than status `b`. */
export function isAhead(a: CaseStatus, b: CaseStatus): boolean {
  return CASE_STATUSES.indexOf(a) > CASE_STATUSES.indexOf(b);
}

/**
 * A progress record that does not have the expected shape; `path` names the
 * offending value (for example `cases["NB_1"].attempts[0].passed`).
 */
export class ProgressFormatError extends Error {
  /** Create an error naming the offending value and what was expected of it. */
  constructor(
    readonly path: string,
    readonly problem: string
  ) {
    super(`${path}: ${problem}`);
    this.name = 'ProgressFormatError';
  }
}

/** Check an untrusted value is a case progress record; throws `ProgressFormatError` naming what is wrong. */
export function parseCaseProgress(value: unknown, path: string): ICaseProgress {
  const record = Private.object(value, path);
  const status = record.status;
  if (
    typeof status !== 'string' ||
    !(CASE_STATUSES as readonly string[]).includes(status)
  ) {
    throw new ProgressFormatError(
      `${path}.status`,
      `expected one of ${CASE_STATUSES.join(', ')}, got ${describeValue(status)}`
    );
  }
  const attempts = Private.array(record.attempts, `${path}.attempts`).map(
    (item, i) => parseAttempt(item, `${path}.attempts[${i}]`)
  );
  const hints = Private.array(record.hints, `${path}.hints`).map((item, i) =>
    Private.count(item, `${path}.hints[${i}]`)
  );
  const selfDiagnosis =
    record.selfDiagnosis === null || record.selfDiagnosis === undefined
      ? null
      : parseSelfDiagnosis(record.selfDiagnosis, `${path}.selfDiagnosis`);
  const prediction =
    record.prediction === null || record.prediction === undefined
      ? null
      : parsePrediction(record.prediction, `${path}.prediction`);
  const revealedAt = Private.nullableDate(
    record.revealedAt,
    `${path}.revealedAt`
  );
  const timeSpentMs = record.timeSpentMs;
  if (
    typeof timeSpentMs !== 'number' ||
    !Number.isFinite(timeSpentMs) ||
    timeSpentMs < 0
  ) {
    throw new ProgressFormatError(
      `${path}.timeSpentMs`,
      `expected a non-negative number, got ${describeValue(timeSpentMs)}`
    );
  }
  return {
    status: status as CaseStatus,
    attempts,
    hints: [...new Set(hints)].sort((a, b) => a - b),
    prediction,
    selfDiagnosis,
    revealedAt,
    timeSpentMs
  };
}

/** Check an untrusted value is an attempt; throws `ProgressFormatError` naming what is wrong. */
export function parseAttempt(value: unknown, path: string): IAttempt {
  const record = Private.object(value, path);
  const at = record.at;
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) {
    throw new ProgressFormatError(
      `${path}.at`,
      `expected an ISO 8601 date string, got ${describeValue(at)}`
    );
  }
  return {
    at,
    passed: Private.boolean(record.passed, `${path}.passed`),
    status: Private.nullableString(record.status, `${path}.status`),
    exception: Private.nullableString(record.exception, `${path}.exception`),
    snapshotPath: Private.nullableString(
      record.snapshotPath,
      `${path}.snapshotPath`
    )
  };
}

/** Check an untrusted value is a self-diagnosis score; throws `ProgressFormatError` naming what is wrong. */
export function parseSelfDiagnosis(
  value: unknown,
  path: string
): ISelfDiagnosis {
  const record = Private.object(value, path);
  const correct = Private.count(record.correct, `${path}.correct`);
  const total = Private.count(record.total, `${path}.total`);
  const hinted =
    record.hinted === undefined
      ? 0
      : Private.count(record.hinted, `${path}.hinted`);
  if (correct + hinted > total) {
    throw new ProgressFormatError(
      path,
      `correct (${correct}) and hinted (${hinted}) add up to more than total (${total})`
    );
  }
  const answers =
    record.answers === undefined
      ? []
      : Private.array(record.answers, `${path}.answers`).map((item, i) =>
          parseAnswer(item, `${path}.answers[${i}]`)
        );
  return { correct, total, hinted, answers };
}

/** Check an untrusted value is one scored answer; throws `ProgressFormatError` naming what is wrong. */
export function parseAnswer(value: unknown, path: string): IDiagnosisAnswer {
  const record = Private.object(value, path);
  const question = Private.question(record.question, `${path}.question`);
  const actual = record.actual;
  if (typeof actual !== 'string') {
    throw new ProgressFormatError(
      `${path}.actual`,
      `expected a string, got ${describeValue(actual)}`
    );
  }
  return {
    question,
    predicted: Private.nullableString(record.predicted, `${path}.predicted`),
    actual,
    correct: Private.boolean(record.correct, `${path}.correct`),
    hinted: Private.boolean(record.hinted, `${path}.hinted`)
  };
}

/** Check an untrusted value is a saved prediction; throws `ProgressFormatError` naming what is wrong. */
export function parsePrediction(value: unknown, path: string): IPrediction {
  const record = Private.object(value, path);
  const at = Private.nullableDate(record.at, `${path}.at`);
  if (at === null) {
    throw new ProgressFormatError(
      `${path}.at`,
      'expected an ISO 8601 date string, got nothing'
    );
  }
  const hints = Private.array(record.hints, `${path}.hints`).map((item, i) =>
    Private.count(item, `${path}.hints[${i}]`)
  );
  const answers = {} as Record<DiagnosisQuestion, string | null>;
  for (const question of DIAGNOSIS_QUESTIONS) {
    answers[question] = Private.nullableString(
      record[question],
      `${path}.${question}`
    );
  }
  return { ...answers, at, hints };
}

/** A short description of an unexpected value, for an error message. */
export function describeValue(value: unknown): string {
  if (value === undefined) {
    return 'nothing';
  }
  if (Array.isArray(value)) {
    return 'an array';
  }
  if (value !== null && typeof value === 'object') {
    return 'an object';
  }
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** Private helpers of the progress checks. */
namespace Private {
  /** The value as a plain object, or an error. */
  export function object(
    value: unknown,
    path: string
  ): Record<string, unknown> {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ProgressFormatError(
        path,
        `expected an object, got ${describeValue(value)}`
      );
    }
    return value as Record<string, unknown>;
  }

  /** The value as an array, or an error. */
  export function array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) {
      throw new ProgressFormatError(
        path,
        `expected an array, got ${describeValue(value)}`
      );
    }
    return value;
  }

  /** The value as a non-negative integer, or an error. */
  export function count(value: unknown, path: string): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new ProgressFormatError(
        path,
        `expected a non-negative integer, got ${describeValue(value)}`
      );
    }
    return value;
  }

  /** The value as a boolean, or an error. */
  export function boolean(value: unknown, path: string): boolean {
    if (typeof value !== 'boolean') {
      throw new ProgressFormatError(
        path,
        `expected true or false, got ${describeValue(value)}`
      );
    }
    return value;
  }

  /** The value as a diagnosis question name, or an error. */
  export function question(value: unknown, path: string): DiagnosisQuestion {
    if (
      typeof value !== 'string' ||
      !(DIAGNOSIS_QUESTIONS as readonly string[]).includes(value)
    ) {
      throw new ProgressFormatError(
        path,
        `expected one of ${DIAGNOSIS_QUESTIONS.join(', ')}, got ${describeValue(value)}`
      );
    }
    return value as DiagnosisQuestion;
  }

  /** The value as an ISO 8601 date string or null (missing counts as null), or an error. */
  export function nullableDate(value: unknown, path: string): string | null {
    const text = nullableString(value, path);
    if (text !== null && Number.isNaN(Date.parse(text))) {
      throw new ProgressFormatError(
        path,
        `expected an ISO 8601 date string, got ${describeValue(text)}`
      );
    }
    return text;
  }

  /** The value as a string or null (missing counts as null), or an error. */
  export function nullableString(value: unknown, path: string): string | null {
    if (value === undefined || value === null) {
      return null;
    }
    if (typeof value !== 'string') {
      throw new ProgressFormatError(
        path,
        `expected a string or null, got ${describeValue(value)}`
      );
    }
    return value;
  }
}
