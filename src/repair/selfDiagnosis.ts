/**
 * Self-diagnosis: before the reveal the learner predicts the case's root
 * cause, crash type and pipeline stage from the casebook's own label sets;
 * at the reveal the prediction is scored against the labels. A question
 * answered after the hint that names its label was opened is marked as
 * hinted and earns no point. Pure.
 */
import type { ICase } from '../casebook/types';

/** The labels the learner predicts. */
export type DiagnosisQuestion = 'rootCause' | 'crashType' | 'pipelineStage';

/** The questions, in the order they are asked. */
export const DIAGNOSIS_QUESTIONS: readonly DiagnosisQuestion[] = [
  'rootCause',
  'crashType',
  'pipelineStage'
];

/** The hint-ladder step (see `hints.ts`) that names each question's label. */
export const HINT_STEP_OF: Readonly<Record<DiagnosisQuestion, number>> = {
  pipelineStage: 1,
  crashType: 2,
  rootCause: 4
};

/** A prediction: one chosen label per question, null for "not sure". */
export type IPredictionAnswers = Readonly<
  Record<DiagnosisQuestion, string | null>
>;

/** A saved prediction. */
export interface IPrediction extends IPredictionAnswers {
  /** When it was saved, as an ISO 8601 string. */
  readonly at: string;
  /** The hint steps that were open when it was saved. */
  readonly hints: readonly number[];
}

/** How one question was answered. */
export interface IDiagnosisAnswer {
  /** The question. */
  readonly question: DiagnosisQuestion;
  /** The learner's label, or null when not answered. */
  readonly predicted: string | null;
  /** The casebook's label. */
  readonly actual: string;
  /** Whether the prediction matches the label. */
  readonly correct: boolean;
  /** Whether the hint naming the label was open when the prediction was saved. */
  readonly hinted: boolean;
}

/** A scored prediction. */
export interface IDiagnosisScore {
  /** Correct answers made before their hint was opened (the score). */
  readonly correct: number;
  /** Questions asked (those the case has a label for). */
  readonly total: number;
  /** Correct answers made after their hint was opened (no point). */
  readonly hinted: number;
  /** Each question. */
  readonly answers: readonly IDiagnosisAnswer[];
}

/** The choices per question: the distinct labels of the cases, alphabetical. */
export function diagnosisChoices(
  cases: readonly ICase[]
): Record<DiagnosisQuestion, string[]> {
  const result = {} as Record<DiagnosisQuestion, string[]>;
  for (const question of DIAGNOSIS_QUESTIONS) {
    const seen = new Map<string, string>();
    for (const c of cases) {
      const label = c[question].trim();
      const key = normaliseLabel(label);
      if (key && !seen.has(key)) {
        seen.set(key, label);
      }
    }
    result[question] = [...seen.values()].sort((a, b) =>
      a.localeCompare(b, 'en', { sensitivity: 'base' })
    );
  }
  return result;
}

/** A label as compared: trimmed, lower case, inner white space collapsed. */
export function normaliseLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Score a prediction against a case's labels. Questions the case has no
 * label for are left out of the total.
 */
export function scoreDiagnosis(
  c: Pick<ICase, DiagnosisQuestion>,
  prediction: Pick<IPrediction, DiagnosisQuestion | 'hints'>
): IDiagnosisScore {
  const answers: IDiagnosisAnswer[] = [];
  for (const question of DIAGNOSIS_QUESTIONS) {
    const actual = c[question].trim();
    if (!normaliseLabel(actual)) {
      continue;
    }
    const predicted = prediction[question];
    answers.push({
      question,
      predicted,
      actual,
      correct:
        predicted !== null &&
        normaliseLabel(predicted) === normaliseLabel(actual),
      hinted: prediction.hints.includes(HINT_STEP_OF[question])
    });
  }
  return {
    correct: answers.filter(a => a.correct && !a.hinted).length,
    total: answers.length,
    hinted: answers.filter(a => a.correct && a.hinted).length,
    answers
  };
}

/** Whether a prediction answers at least one question. */
export function hasAnswer(prediction: IPredictionAnswers | null): boolean {
  return !!prediction && DIAGNOSIS_QUESTIONS.some(q => prediction[q] !== null);
}
