/**
 * The self-diagnosis of one working copy: the learner predicts the root
 * cause, crash type and pipeline stage from the casebook's label sets before
 * the reveal; once the reveal is open the prediction is final and scored.
 * No DOM: the case side panel renders it on `stateChanged`.
 */
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import type { ICaseProgress } from '../progress/types';
import { DIAGNOSIS_QUESTIONS } from '../repair/selfDiagnosis';
import type {
  DiagnosisQuestion,
  IPredictionAnswers
} from '../repair/selfDiagnosis';

/**
 * The learner's choices, unsaved or saved, and how saving them went.
 */
export class DiagnosisModel {
  /** Follow a case's progress; nothing is read before the first render. */
  constructor(options: DiagnosisModel.IOptions) {
    this._options = options;
  }

  /** Emitted when the choices or how saving them went change. */
  get stateChanged(): ISignal<this, void> {
    return this._stateChanged;
  }

  /** The case's progress, or null when no progress is kept. */
  get progress(): ICaseProgress | null {
    return this._options.progress();
  }

  /** Whether the reveal is open, so that the prediction is final. */
  get locked(): boolean {
    return !!this.progress?.revealedAt;
  }

  /**
   * How the prediction stands: 'final' once the reveal is open, 'saved',
   * 'unsaved' while the learner changes it, 'failed' when saving failed
   * (with `error`), or null before anything happened.
   */
  get status(): DiagnosisModel.Status {
    if (this.locked) {
      return 'final';
    }
    return !this._draft && this.progress?.prediction ? 'saved' : this._status;
  }

  /** Why the last save failed ('' when it did not). */
  get error(): string {
    return this._error;
  }

  /** The choice shown for a question ('' for "not sure"). */
  value(question: DiagnosisQuestion): string {
    return this._draft
      ? this._draft[question]
      : (this.progress?.prediction?.[question] ?? '');
  }

  /** The values offered for a question: "not sure", the casebook's labels, the choice. */
  choices(question: DiagnosisQuestion): string[] {
    const offered = ['', ...this._options.choices()[question]];
    const wanted = this.value(question);
    return wanted && !offered.includes(wanted) ? [...offered, wanted] : offered;
  }

  /** The learner picks a value: not saved yet. */
  choose(question: DiagnosisQuestion, value: string): void {
    const draft = this._draft ?? Private.values(q => this.value(q));
    this._draft = { ...draft, [question]: value };
    this._status = 'unsaved';
    this._stateChanged.emit();
  }

  /** Save the choices as the prediction. */
  async save(): Promise<void> {
    const answers = Private.values(q => this.value(q) || null);
    try {
      await this._options.save(answers);
      this._draft = null;
      this._status = 'saved';
    } catch (reason) {
      this._status = 'failed';
      this._error = (reason as Error).message ?? String(reason);
    }
    this._stateChanged.emit();
  }

  private _options: DiagnosisModel.IOptions;
  private _draft: Record<DiagnosisQuestion, string> | null = null;
  private _status: DiagnosisModel.Status = null;
  private _error = '';
  private _stateChanged = new Signal<this, void>(this);
}

/**
 * A namespace for DiagnosisModel statics.
 */
export namespace DiagnosisModel {
  /** What the model reads and writes. */
  export interface IOptions {
    /** The choices per question (the casebook's label sets). */
    choices: () => Record<DiagnosisQuestion, string[]>;
    /** The case's progress, or null when no progress is kept. */
    progress: () => ICaseProgress | null;
    /** Save a prediction. */
    save: (answers: IPredictionAnswers) => Promise<void>;
  }

  /** How the prediction stands. */
  export type Status = 'final' | 'saved' | 'unsaved' | 'failed' | null;
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /** One value per question. */
  export function values<T>(
    value: (question: DiagnosisQuestion) => T
  ): Record<DiagnosisQuestion, T> {
    return Object.fromEntries(
      DIAGNOSIS_QUESTIONS.map(q => [q, value(q)])
    ) as Record<DiagnosisQuestion, T>;
  }
}
