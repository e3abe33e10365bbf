/**
 * The learner's progress as the rest of the extension sees it: a case's
 * status, and where attempts, hints, predictions and time are kept. The
 * tokens (`IProgressTracker` in `tokens.ts`) name these interfaces.
 */
import type { ISignal } from '@lumino/signaling';

import type { ICase } from '../casebook/types';
import type {
  DiagnosisQuestion,
  IPredictionAnswers
} from '../repair/selfDiagnosis';
import type { CaseStatus, ICaseProgress } from './types';

/**
 * Provides the status badge of each case (wired up by the repair loop).
 */
export interface ICaseStatusProvider {
  /** The status of a case. */
  statusOf(name: string): CaseStatus;
  /** Emitted when any status changes. */
  readonly changed: ISignal<ICaseStatusProvider, void>;
}

/**
 * Where the learner's progress on the current casebook is kept.
 */
export interface IProgressTracker extends ICaseStatusProvider {
  /** Note that a replay of the case crashed. */
  markCrashed(name: string): Promise<void>;
  /** Keep a repair attempt. */
  recordAttempt(
    name: string,
    attempt: {
      passed: boolean;
      status?: string;
      exception?: string | null;
      snapshotPath?: string | null;
    }
  ): Promise<void>;
  /** The progress record of a case, or null before a casebook is loaded. */
  get(name: string): ICaseProgress | null;
  /** Record that the learner opened a hint step (once per step). */
  recordHint(name: string, step: number): Promise<void>;
  /** Save the learner's prediction of the labels (rejects once the reveal was opened). */
  recordPrediction(name: string, answers: IPredictionAnswers): Promise<void>;
  /** Note that the reveal was opened; the first time, the prediction is scored against the labels. */
  recordReveal(
    name: string,
    labels: Pick<ICase, DiagnosisQuestion>
  ): Promise<void>;
  /** Add time spent on a case, in milliseconds. */
  addTime(name: string, ms: number): Promise<void>;
  /**
   * How the progress backup file on the server stands: its path, whether a
   * change is not in it yet, why the last write failed (while it is retried)
   * and what was wrong with it when read.
   */
  readonly backupState: {
    path: string | null;
    pending: boolean;
    error: string | null;
    problem: string | null;
  };
  /** Emitted when `backupState` changes. */
  readonly backupChanged: ISignal<IProgressTracker, void>;
  /** Solved, attempted, crashed and not-started counts over some cases. */
  summary(names: readonly string[]): {
    total: number;
    solved: number;
    attempted: number;
    crashed: number;
    notStarted: number;
    fraction: number;
  };
}
