/**
 * The learner's progress on whichever casebook is loaded: one progress store
 * per casebook over the same state database, behind one signal.
 */
import type { IStateDB } from '@jupyterlab/statedb';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import type { ICase } from '../casebook/types';
import type {
  DiagnosisQuestion,
  IPredictionAnswers
} from '../repair/selfDiagnosis';
import type { CaseStatus, IProgressTracker } from '../tokens';
import { ProgressStore } from './store';
import type { ICaseProgress } from './types';

/**
 * Tracks progress for the current casebook.
 */
export class ProgressTracker implements IProgressTracker {
  /**
   * Create a tracker over a state database.
   */
  constructor(options: ProgressTracker.IOptions) {
    this._state = options.state;
  }

  /** Emitted when any status changes or the casebook changes. */
  get changed(): ISignal<this, void> {
    return this._changed;
  }

  /** The store of the current casebook, or null before one is set. */
  get store(): ProgressStore | null {
    return this._store;
  }

  /** Switch to the progress of another casebook. */
  setCasebook(name: string | null): void {
    if (this._store?.casebook === name) {
      return;
    }
    this._store?.dispose();
    this._store = name
      ? new ProgressStore({ state: this._state, casebook: name })
      : null;
    this._store?.changed.connect(() => this._changed.emit(), this);
    void this._store?.ready.then(() => this._changed.emit());
    this._changed.emit();
  }

  /** The status of a case. */
  statusOf(name: string): CaseStatus {
    return this._store?.statusOf(name) ?? 'not-started';
  }

  /** The full progress record of a case. */
  get(name: string): ICaseProgress | null {
    return this._store?.get(name) ?? null;
  }

  /** Note a crash. */
  markCrashed(name: string): Promise<void> {
    return this._store?.markCrashed(name) ?? Promise.resolve();
  }

  /** Keep an attempt. */
  recordAttempt(
    name: string,
    attempt: ProgressStore.IAttemptOptions
  ): Promise<void> {
    return this._store?.recordAttempt(name, attempt) ?? Promise.resolve();
  }

  /** Record an opened hint step. */
  recordHint(name: string, step: number): Promise<void> {
    return this._store?.recordHint(name, step) ?? Promise.resolve();
  }

  /** Save a prediction of the labels (rejects once the reveal was opened). */
  recordPrediction(name: string, answers: IPredictionAnswers): Promise<void> {
    return (
      this._store?.recordPrediction(name, answers) ??
      Promise.reject(new Error('No casebook is loaded.'))
    );
  }

  /** Note that the reveal was opened, scoring the prediction the first time. */
  recordReveal(
    name: string,
    labels: Pick<ICase, DiagnosisQuestion>
  ): Promise<void> {
    return this._store?.recordReveal(name, labels) ?? Promise.resolve();
  }

  /** Add time spent on a case. */
  addTime(name: string, ms: number): Promise<void> {
    return this._store?.addTime(name, ms) ?? Promise.resolve();
  }

  /** Counts over some cases. */
  summary(names: readonly string[]): ProgressStore.ISummary {
    return (
      this._store?.summary(names) ?? {
        total: names.length,
        notStarted: names.length,
        crashed: 0,
        attempted: 0,
        solved: 0,
        fraction: 0
      }
    );
  }

  private _state: IStateDB;
  private _store: ProgressStore | null = null;
  private _changed = new Signal<this, void>(this);
}

/**
 * A namespace for ProgressTracker statics.
 */
export namespace ProgressTracker {
  /** Options to create a tracker. */
  export interface IOptions {
    /** Where progress is kept. */
    state: IStateDB;
  }
}
