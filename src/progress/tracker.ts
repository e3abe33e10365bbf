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
import type { IProgressTracker } from './interfaces';
import type { IProgressFile } from './backup';
import { ProgressBackup } from './backup';
import { ProgressStore } from './store';
import type { CaseStatus, ICaseProgress } from './types';

/**
 * Tracks progress for the current casebook.
 */
export class ProgressTracker implements IProgressTracker {
  /**
   * Create a tracker over a state database.
   */
  constructor(options: ProgressTracker.IOptions) {
    this._state = options.state;
    this._backupFile = options.backupFile ?? null;
  }

  /** Emitted when any status changes or the casebook changes. */
  get changed(): ISignal<this, void> {
    return this._changed;
  }

  /**
   * Emitted when `backupState` changes (a write starts, fails, is done) and
   * when the casebook changes; progress itself is unchanged by it.
   */
  get backupChanged(): ISignal<this, void> {
    return this._backupChanged;
  }

  /** The store of the current casebook, or null before one is set. */
  get store(): ProgressStore | null {
    return this._store;
  }

  /**
   * Whether the backup file of the current casebook has changes not written
   * yet, and why its last write failed (null when it did not or there is no
   * backup).
   */
  get backupState(): ProgressTracker.IBackupState {
    const backup = this._store?.backup;
    return {
      path: backup?.file.path ?? null,
      pending: backup?.pending ?? false,
      error: backup?.error ?? null,
      problem: backup?.problem ?? null
    };
  }

  /** Resolves once the current casebook's backup file has every change so far. */
  async backupSaved(): Promise<void> {
    await this._store?.ready;
    await this._store?.backup?.saved();
  }

  /** Switch to the progress of another casebook. */
  setCasebook(name: string | null): void {
    if (this._store?.casebook === name) {
      return;
    }
    this._replaceStore(name);
  }

  /**
   * Change where backup files go (a function of the casebook name, or null
   * for none); the current casebook's progress is loaded again with it.
   */
  setBackupFile(
    backupFile: ((casebook: string) => IProgressFile | null) | null
  ): void {
    this._backupFile = backupFile;
    this._replaceStore(this._store?.casebook ?? null);
  }

  private _replaceStore(name: string | null): void {
    const old = this._store;
    if (old) {
      old.dispose();
      // An unfinished backup write goes on; only its signal is dropped.
      old.backup?.stateChanged.disconnect(this._emitBackupChanged, this);
    }
    const file = name ? (this._backupFile?.(name) ?? null) : null;
    const backup = file ? new ProgressBackup({ file, casebook: name! }) : null;
    this._store = name
      ? new ProgressStore({ state: this._state, casebook: name, backup })
      : null;
    this._store?.changed.connect(this._emitChanged, this);
    backup?.stateChanged.connect(this._emitBackupChanged, this);
    void this._store?.ready.then(() => this._changed.emit());
    this._changed.emit();
    this._backupChanged.emit();
  }

  private _emitChanged(): void {
    this._changed.emit();
  }

  private _emitBackupChanged(): void {
    this._backupChanged.emit();
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
  private _backupFile: ((casebook: string) => IProgressFile | null) | null;
  private _store: ProgressStore | null = null;
  private _changed = new Signal<this, void>(this);
  private _backupChanged = new Signal<this, void>(this);
}

/**
 * A namespace for ProgressTracker statics.
 */
export namespace ProgressTracker {
  /** Options to create a tracker. */
  export interface IOptions {
    /** Where progress is kept. */
    state: IStateDB;
    /** The backup file for a casebook, or null for none (default: none). */
    backupFile?: ((casebook: string) => IProgressFile | null) | null;
  }

  /** How the backup file of the current casebook stands. */
  export interface IBackupState {
    /** Its server path, or null when there is no backup. */
    readonly path: string | null;
    /** Whether some change is not in it yet. */
    readonly pending: boolean;
    /** Why the last write failed, while it is retried; null otherwise. */
    readonly error: string | null;
    /** What was wrong with the file when read, or null. */
    readonly problem: string | null;
  }
}
