/**
 * The learner's progress on each case of one casebook, kept in the state DB.
 */
import type { IStateDB } from '@jupyterlab/statedb';
import type { ReadonlyPartialJSONValue } from '@lumino/coreutils';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import type { ICase } from '../casebook/types';
import { hasAnswer, scoreDiagnosis } from '../repair/selfDiagnosis';
import type {
  DiagnosisQuestion,
  IPredictionAnswers
} from '../repair/selfDiagnosis';
import type { ICaseStatusProvider } from './interfaces';
import type { ProgressBackup } from './backup';
import { mergeProgress, sameProgress } from './merge';
import type { CaseStatus, IAttempt, ICaseProgress } from './types';
import {
  emptyProgress,
  isAhead,
  parseCaseProgress,
  parsePrediction
} from './types';

/**
 * Status, attempts, hints, self-diagnosis and time per case, saved to the
 * state DB after every change under a key of its own per casebook.
 */
export class ProgressStore implements ICaseStatusProvider {
  /** Create a store; it loads what the state DB holds for the casebook (see `ready`). */
  constructor(options: ProgressStore.IOptions) {
    this._state = options.state;
    this._casebook = options.casebook;
    this._key = `${options.namespace ?? ProgressStore.DEFAULT_NAMESPACE}:${options.casebook}`;
    this._now = options.now ?? (() => new Date());
    this._backup = options.backup ?? null;
    this.ready = this._load();
  }

  /** Resolves once the saved progress is loaded; every change waits for it. */
  readonly ready: Promise<void>;

  /** The casebook this store keeps progress for. */
  get casebook(): string {
    return this._casebook;
  }

  /** The backup file the progress is also written to, or null. */
  get backup(): ProgressBackup | null {
    return this._backup;
  }

  /** The state DB key the progress is saved under. */
  get key(): string {
    return this._key;
  }

  /** Emitted after the progress is loaded and after every change. */
  get changed(): ISignal<ProgressStore, void> {
    return this._changed;
  }

  /** Whether the store is disposed. */
  get isDisposed(): boolean {
    return this._isDisposed;
  }

  /** Stop emitting and ignore later changes. */
  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    Signal.clearData(this);
  }

  /** The status of a case ('not-started' when nothing is recorded). */
  statusOf(name: string): CaseStatus {
    return this._cases.get(name)?.status ?? 'not-started';
  }

  /** A copy of the progress on a case (the empty progress when nothing is recorded). */
  get(name: string): ICaseProgress {
    return Private.copy(this._cases.get(name) ?? emptyProgress());
  }

  /** A copy of the progress on every case with something recorded, by case name. */
  all(): Record<string, ICaseProgress> {
    const result: Record<string, ICaseProgress> = {};
    for (const [name, progress] of this._cases) {
      result[name] = Private.copy(progress);
    }
    return result;
  }

  /** Counts per status over the given cases, and the solved fraction for a progress bar. */
  summary(names: readonly string[]): ProgressStore.ISummary {
    const counts: Record<CaseStatus, number> = {
      'not-started': 0,
      crashed: 0,
      attempted: 0,
      solved: 0
    };
    const unique = new Set(names);
    for (const name of unique) {
      counts[this.statusOf(name)] += 1;
    }
    const total = unique.size;
    return {
      total,
      notStarted: counts['not-started'],
      crashed: counts.crashed,
      attempted: counts.attempted,
      solved: counts.solved,
      fraction: total === 0 ? 0 : counts.solved / total
    };
  }

  /** Record that a replay of the case crashed (moves only a not-started case on). */
  markCrashed(name: string): Promise<void> {
    return this._update(name, progress =>
      progress.status === 'not-started'
        ? { ...progress, status: 'crashed' }
        : progress
    );
  }

  /** Record a repair attempt; a passed one solves the case for good. */
  recordAttempt(
    name: string,
    attempt: ProgressStore.IAttemptOptions
  ): Promise<void> {
    const at = attempt.at ?? this._now();
    if (Number.isNaN(at.getTime())) {
      return Promise.reject(new RangeError('The attempt time is not a date.'));
    }
    const entry: IAttempt = {
      at: at.toISOString(),
      passed: attempt.passed,
      status: attempt.status ?? null,
      exception: attempt.exception ?? null,
      snapshotPath: attempt.snapshotPath ?? null
    };
    const reached: CaseStatus = attempt.passed ? 'solved' : 'attempted';
    return this._update(name, progress => ({
      ...progress,
      status: isAhead(reached, progress.status) ? reached : progress.status,
      attempts: [...progress.attempts, entry]
    }));
  }

  /** Record that the hint of a step was shown (once per step). */
  recordHint(name: string, step: number): Promise<void> {
    if (!Number.isInteger(step) || step < 0) {
      return Promise.reject(
        new RangeError(`A hint step is a non-negative integer, not ${step}.`)
      );
    }
    return this._update(name, progress =>
      progress.hints.includes(step)
        ? progress
        : {
            ...progress,
            hints: [...progress.hints, step].sort((a, b) => a - b)
          }
    );
  }

  /**
   * Save the learner's prediction of the case's labels, with the hint steps
   * open now. Rejects once the reveal was opened: the prediction is then
   * scored and frozen.
   */
  recordPrediction(
    name: string,
    answers: IPredictionAnswers,
    at?: Date
  ): Promise<void> {
    const when = at ?? this._now();
    let locked = false;
    let invalid: unknown = null;
    const done = this._update(name, progress => {
      if (progress.revealedAt !== null) {
        locked = true;
        return progress;
      }
      try {
        const prediction = parsePrediction(
          {
            ...answers,
            at: when.toISOString(),
            hints: [...progress.hints]
          },
          'prediction'
        );
        return { ...progress, prediction };
      } catch (error) {
        invalid = error;
        return progress;
      }
    });
    return done.then(() => {
      if (invalid) {
        throw invalid;
      }
      if (locked) {
        throw new ProgressStore.LockedError(name);
      }
    });
  }

  /**
   * Record that the reveal of the case was opened: the first time, the date
   * is kept and the saved prediction, if it answers anything, is scored
   * against the case's labels and frozen.
   */
  recordReveal(
    name: string,
    labels: Pick<ICase, DiagnosisQuestion>,
    at?: Date
  ): Promise<void> {
    const when = (at ?? this._now()).toISOString();
    return this._update(name, progress => {
      if (progress.revealedAt !== null) {
        return progress;
      }
      const prediction = progress.prediction;
      return {
        ...progress,
        revealedAt: when,
        selfDiagnosis:
          prediction && hasAnswer(prediction)
            ? scoreDiagnosis(labels, prediction)
            : progress.selfDiagnosis
      };
    });
  }

  /** Add time spent on the case, in milliseconds. */
  addTime(name: string, ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) {
      return Promise.reject(
        new RangeError(`Time spent is a non-negative number, not ${ms}.`)
      );
    }
    return this._update(name, progress =>
      ms === 0
        ? progress
        : { ...progress, timeSpentMs: progress.timeSpentMs + ms }
    );
  }

  /** Resolves once every change made so far is saved (rejects if the last save failed). */
  flush(): Promise<void> {
    return this._queued ?? this._lastWrite;
  }

  /** Apply a change once loaded, emit, and save; resolves when the change is saved. */
  private async _update(
    name: string,
    change: (progress: ICaseProgress) => ICaseProgress
  ): Promise<void> {
    await this.ready;
    if (this._isDisposed) {
      return;
    }
    const before = this._cases.get(name) ?? emptyProgress();
    const after = change(before);
    if (after === before) {
      return;
    }
    this._cases.set(name, after);
    this._changed.emit();
    this._backup?.save(this.all());
    return this._save();
  }

  /**
   * Queue a write of the whole casebook record after the writes already
   * running; changes made before it starts share it, so writes never race
   * and the last one always holds every change.
   */
  private _save(): Promise<void> {
    if (this._queued === null) {
      const write = this._settled.then(() => {
        this._queued = null;
        return this._state.save(this._key, this._toJSON());
      });
      this._queued = write;
      this._lastWrite = write;
      this._settled = write.catch(() => undefined);
    }
    return this._queued;
  }

  /**
   * Load the casebook record, keeping the cases whose record is valid, and
   * merge the backup file's copy into it: a change that reached only one of
   * the two (the server restarted before the workspace was saved, say) is
   * kept, and the copy that missed it is brought up to date.
   */
  private async _load(): Promise<void> {
    const [saved, backup] = await Promise.all([
      this._state.fetch(this._key),
      this._loadBackup()
    ]);
    const cases = Private.casesOf(saved);
    for (const [name, value] of Object.entries(cases)) {
      try {
        this._cases.set(name, parseCaseProgress(value, name));
      } catch {
        // A record this version cannot read is dropped rather than blocking
        // the whole casebook; the next save replaces it.
        continue;
      }
    }
    if (backup !== null) {
      const fromState = this.all();
      const merged = mergeProgress(fromState, backup);
      let stateMissed = false;
      let backupMissed = false;
      for (const [name, progress] of Object.entries(merged)) {
        const inState = fromState[name];
        const inBackup = backup[name];
        stateMissed ||= !inState || !sameProgress(inState, progress);
        backupMissed ||= !inBackup || !sameProgress(inBackup, progress);
        this._cases.set(name, progress);
      }
      if (stateMissed && !this._isDisposed) {
        void this._save().catch(() => undefined);
      }
      if (backupMissed && !this._isDisposed) {
        this._backup?.save(this.all());
      }
    }
    if (this._cases.size > 0 && !this._isDisposed) {
      this._changed.emit();
    }
  }

  /** The backup file's progress, or null when there is none or it cannot be read. */
  private async _loadBackup(): Promise<Record<string, ICaseProgress> | null> {
    if (!this._backup) {
      return null;
    }
    try {
      return await this._backup.load();
    } catch (reason) {
      console.warn(
        `JunoBench: could not read the progress backup ${this._backup.file.path}: ${(reason as Error).message}`
      );
      return null;
    }
  }

  /** The casebook record as saved in the state DB. */
  private _toJSON(): ReadonlyPartialJSONValue {
    const cases: Record<string, ReadonlyPartialJSONValue> = {};
    for (const [name, progress] of this._cases) {
      cases[name] = Private.toJSONValue(progress);
    }
    return { version: ProgressStore.FORMAT_VERSION, cases };
  }

  private _state: IStateDB;
  private _casebook: string;
  private _key: string;
  private _now: () => Date;
  private _backup: ProgressBackup | null;
  private _cases = new Map<string, ICaseProgress>();
  private _changed = new Signal<ProgressStore, void>(this);
  private _isDisposed = false;
  private _queued: Promise<void> | null = null;
  private _lastWrite: Promise<void> = Promise.resolve();
  private _settled: Promise<void> = Promise.resolve();
}

/**
 * The types and defaults of the progress store.
 */
export namespace ProgressStore {
  /** The state DB namespace used when none is given. */
  export const DEFAULT_NAMESPACE = 'jupyterlab-junobench:progress';

  /** The version of the record saved in the state DB. */
  export const FORMAT_VERSION = 1;

  /** The options of a progress store. */
  export interface IOptions {
    /** The state DB to load from and save to (`new StateDB()` in tests). */
    state: IStateDB;
    /** The state DB namespace (default `jupyterlab-junobench:progress`). */
    namespace?: string;
    /** The casebook name, so that two casebooks keep separate progress. */
    casebook: string;
    /** The clock used to date attempts (default: the system clock). */
    now?: () => Date;
    /**
     * A file to keep a second copy in, merged in at load (default: none).
     * The store writes to it but does not dispose it.
     */
    backup?: ProgressBackup | null;
  }

  /** A repair attempt to record. */
  export interface IAttemptOptions {
    /** Whether the repair check passed. */
    passed: boolean;
    /** The result reported by the repair check. */
    status?: string;
    /** The exception the attempt raised, if any. */
    exception?: string | null;
    /** The server path of the snapshot of the learner's notebook. */
    snapshotPath?: string | null;
    /** When the attempt was checked (default: now). */
    at?: Date;
  }

  /** The prediction cannot change: the reveal of the case was opened. */
  export class LockedError extends Error {
    /** Create the error for a case. */
    constructor(readonly caseName: string) {
      super(
        `The prediction for ${caseName} is locked: the reveal was opened and it was scored.`
      );
      this.name = 'LockedError';
    }
  }

  /** Counts per status over a list of cases. */
  export interface ISummary {
    /** How many distinct cases were counted. */
    readonly total: number;
    /** How many are not started. */
    readonly notStarted: number;
    /** How many crashed but have no attempt. */
    readonly crashed: number;
    /** How many have attempts but are not solved. */
    readonly attempted: number;
    /** How many are solved. */
    readonly solved: number;
    /** The solved fraction, from 0 to 1 (0 when there are no cases). */
    readonly fraction: number;
  }
}

/** Private helpers of the progress store. */
namespace Private {
  /** The case records of a saved value, or none when it has another shape. */
  export function casesOf(saved: unknown): Record<string, unknown> {
    if (saved === null || typeof saved !== 'object' || Array.isArray(saved)) {
      return {};
    }
    const cases = (saved as { cases?: unknown }).cases;
    if (cases === null || typeof cases !== 'object' || Array.isArray(cases)) {
      return {};
    }
    return cases as Record<string, unknown>;
  }

  /** A case record as a JSON value for the state DB. */
  export function toJSONValue(
    progress: ICaseProgress
  ): ReadonlyPartialJSONValue {
    return copy(progress) as unknown as ReadonlyPartialJSONValue;
  }

  /** A deep copy of a case record, so callers cannot change the store's. */
  export function copy(progress: ICaseProgress): ICaseProgress {
    return JSON.parse(JSON.stringify(progress)) as ICaseProgress;
  }
}
