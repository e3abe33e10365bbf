/**
 * A second copy of the learner's progress in a file on the server, written
 * after every change and retried until the server takes it.
 *
 * JupyterLab keeps the state database in the page and writes it to the
 * server's workspace once per change, without retrying. A change made while
 * the server restarts would then live only in the page. The backup file holds
 * it as soon as the server is back, and the progress store merges the two
 * copies when it loads. The file is in the progress export format, so the
 * cohort report reads it as it is.
 */
import type { IDisposable } from '@lumino/disposable';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import { fromJSON, toJSON } from './export';
import { mergeProgress } from './merge';
import type { ICaseProgress } from './types';

/** Where the backup lives: read and write its whole text. */
export interface IProgressFile {
  /** The server path, for messages. */
  readonly path: string;
  /** The file's text, or null when there is no file yet. */
  read(): Promise<string | null>;
  /** Replace the file's text (creating its folder when needed). */
  write(text: string): Promise<void>;
}

/**
 * Writes the latest progress to the backup file, one write at a time; a
 * failed write is retried (with the latest progress by then) after a delay
 * that grows to `retryDelaysMs`'s last value, for as long as the page is
 * open. Each write first merges what the file holds, so two pages of the same
 * learner do not undo each other's changes.
 */
export class ProgressBackup implements IDisposable {
  /** Create a backup over a file; nothing is read or written until asked. */
  constructor(options: ProgressBackup.IOptions) {
    this._file = options.file;
    this._casebook = options.casebook;
    this._delays = options.retryDelaysMs ?? ProgressBackup.RETRY_DELAYS_MS;
    this._now = options.now ?? (() => new Date());
    this._sleep =
      options.sleep ??
      (ms => new Promise<void>(resolve => setTimeout(resolve, ms)));
  }

  /** The backup file. */
  get file(): IProgressFile {
    return this._file;
  }

  /** Whether some change is not in the file yet (a write or its retry is under way). */
  get pending(): boolean {
    return this._writing;
  }

  /** Why the last write failed, while it is being retried; null otherwise. */
  get error(): string | null {
    return this._error;
  }

  /** What was wrong with the file when it was last read, or null. */
  get problem(): string | null {
    return this._problem;
  }

  /** Emitted when `pending`, `error` or `problem` changes. */
  get stateChanged(): ISignal<this, void> {
    return this._stateChanged;
  }

  /** Whether the backup is disposed. */
  get isDisposed(): boolean {
    return this._isDisposed;
  }

  /** Stop writing (a write already sent still completes) and emitting. */
  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._latest = null;
    Signal.clearData(this);
  }

  /**
   * Read the file's progress. A file that cannot be read back gives no
   * progress and sets `problem` (naming the file and what is wrong); the next
   * write replaces it. A server that cannot be reached rejects.
   */
  async load(): Promise<Record<string, ICaseProgress>> {
    const text = await this._file.read();
    return text === null ? {} : this._parse(text);
  }

  /** Queue the progress to be written; only the latest queued one is written. */
  save(progress: Readonly<Record<string, ICaseProgress>>): void {
    if (this._isDisposed) {
      return;
    }
    this._latest = progress;
    if (!this._writing) {
      this._writing = true;
      this._emit();
      this._done = this._loop();
    }
  }

  /** Resolves once everything queued so far is in the file (or the backup is disposed). */
  async saved(): Promise<void> {
    while (this._writing) {
      await this._done;
    }
  }

  /** Write until nothing is queued, retrying failures after a delay. */
  private async _loop(): Promise<void> {
    let failures = 0;
    while (this._latest !== null && !this._isDisposed) {
      const progress = this._latest;
      this._latest = null;
      try {
        const text = await this._file.read();
        const merged =
          text === null ? progress : mergeProgress(this._parse(text), progress);
        await this._file.write(
          toJSON(merged, { casebook: this._casebook, exportedAt: this._now() })
        );
        failures = 0;
        this._setProblem(null);
        if (this._error !== null) {
          this._error = null;
          this._emit();
        }
      } catch (reason) {
        // Keep the newest of what failed and what came meanwhile.
        this._latest = this._latest
          ? mergeProgress(progress, this._latest)
          : progress;
        this._error = `${this._file.path}: ${(reason as Error).message ?? reason}`;
        this._emit();
        const delay = this._delays[Math.min(failures, this._delays.length - 1)];
        failures += 1;
        await this._sleep(delay);
      }
    }
    this._writing = false;
    this._emit();
  }

  private _parse(text: string): Record<string, ICaseProgress> {
    try {
      const cases = fromJSON(text).cases;
      this._setProblem(null);
      return cases;
    } catch (reason) {
      this._setProblem(
        `${this._file.path}: ${(reason as Error).message}; it will be replaced by the progress in this page`
      );
      return {};
    }
  }

  private _setProblem(problem: string | null): void {
    if (problem !== this._problem) {
      this._problem = problem;
      if (problem) {
        console.warn(`JunoBench progress backup: ${problem}`);
      }
      this._emit();
    }
  }

  private _emit(): void {
    if (!this._isDisposed) {
      this._stateChanged.emit();
    }
  }

  private _file: IProgressFile;
  private _casebook: string;
  private _delays: readonly number[];
  private _now: () => Date;
  private _sleep: (ms: number) => Promise<void>;
  private _latest: Readonly<Record<string, ICaseProgress>> | null = null;
  private _writing = false;
  private _done: Promise<void> = Promise.resolve();
  private _error: string | null = null;
  private _problem: string | null = null;
  private _isDisposed = false;
  private _stateChanged = new Signal<this, void>(this);
}

/** The options and defaults of the progress backup. */
export namespace ProgressBackup {
  /** The waits before retrying a failed write, in ms; the last one repeats. */
  export const RETRY_DELAYS_MS: readonly number[] = [500, 1000, 2000];

  /** The name of the backup file in the casebook's workspace folder. */
  export const FILE_NAME = 'progress.json';

  /** The options of a progress backup. */
  export interface IOptions {
    /** The file to keep the backup in. */
    file: IProgressFile;
    /** The casebook the progress belongs to (written into the file). */
    casebook: string;
    /** Waits before retries (default `RETRY_DELAYS_MS`). */
    retryDelaysMs?: readonly number[];
    /** The clock for the file's date (default: the system clock). */
    now?: () => Date;
    /** How to wait (tests pass a fake). */
    sleep?: (ms: number) => Promise<void>;
  }
}
