/**
 * Watches the restarts a learner asks for (the notebook toolbar, the Kernel
 * menu, "Restart and Run All") on one notebook's session: after each, the
 * kernel must answer within a bound, or it went silent in the restart race
 * (docs/faults.md); then it is restarted again, and, still silent, replaced by
 * a new kernel of the same name. Each step is told as an event with a code,
 * which the UI words. The replay's own restarts are not seen here: they go
 * through `restartAnswering`, which watches them itself.
 */
import type { ISessionContext } from '@jupyterlab/apputils';
import type { Kernel } from '@jupyterlab/services';
import type { IDisposable } from '@lumino/disposable';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import { answersFromNow, recoverAfterRestart } from './restart';
import type { IRestartOptions } from './restart';

/**
 * Watches the restarts of a session context's kernel that go through
 * `ISessionContext.restartKernel` (every restart JupyterLab's commands make).
 */
export class RestartWatch implements IDisposable {
  /** Watch a session context; nothing is sent until it restarts. */
  constructor(options: RestartWatch.IOptions) {
    this._options = options;
    this._session = options.session;
    this._session.statusChanged.connect(this._onStatus, this);
  }

  /** Emitted at each step of a watch that met a silence. */
  get event(): ISignal<this, RestartWatch.IEvent> {
    return this._event;
  }

  /** The watch in progress (resolved with its outcome), or null. */
  get current(): Promise<RestartWatch.IOutcome> | null {
    return this._current;
  }

  /** How many restarts were watched. */
  get watched(): number {
    return this._watched;
  }

  /** Whether the watch was disposed. */
  get isDisposed(): boolean {
    return this._disposed;
  }

  /** Stop watching (a watch in progress finishes quietly). */
  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    this._session.statusChanged.disconnect(this._onStatus, this);
    Signal.clearData(this);
  }

  private _onStatus(session: ISessionContext): void {
    // `restartKernel` says "restarting" with `isRestarting` set, and its next status once the
    // kernel's restart returned; a restart made on the connection alone (the replay's) never
    // sets `isRestarting`.
    if (session.isRestarting) {
      this._restarting = true;
      return;
    }
    if (!this._restarting) {
      return;
    }
    this._restarting = false;
    const kernel = session.session?.kernel;
    if (!kernel || this._current) {
      return;
    }
    this._watched += 1;
    const watch = this._watch(kernel).finally(() => {
      this._current = null;
    });
    this._current = watch;
  }

  private async _watch(
    kernel: Kernel.IKernelConnection
  ): Promise<RestartWatch.IOutcome> {
    const options: IRestartOptions = {
      answerMs: this._options.answerMs,
      retries: this._options.retries,
      onSilent: silence =>
        this._emit({ code: 'silent', kernel: kernel.name, silence })
    };
    let result;
    try {
      result = await recoverAfterRestart(kernel, options);
      // The second websocket that takes the connection's place can come after the first
      // answer (seen on a loaded machine): asked again a moment later, and recovered again.
      if (result.answered && !kernel.isDisposed) {
        await new Promise(resolve =>
          setTimeout(resolve, this._options.settleMs ?? Private.SETTLE_MS)
        );
        const again = await recoverAfterRestart(kernel, {
          ...options,
          onSilent: n => options.onSilent?.(result!.silences + n)
        });
        result = {
          silences: result.silences + again.silences,
          answered: again.answered
        };
      }
    } catch {
      // The kernel is gone (shut down, or the server with it): the next Replay starts another.
      return { silences: 0, answered: false, replaced: false };
    }
    const { silences, answered } = result;
    if (answered) {
      if (silences) {
        this._emit({ code: 'answered', kernel: kernel.name, silences });
      }
      return { silences, answered, replaced: false };
    }
    if (this._disposed || this._session.isDisposed) {
      return { silences, answered, replaced: false };
    }
    this._emit({ code: 'replacing', kernel: kernel.name, silences });
    try {
      // The server starts a new kernel for the session and shuts the silent one down.
      await this._session.changeKernel({ name: kernel.name });
      const next = this._session.session?.kernel;
      const readyMs = this._options.readyMs ?? Private.READY_MS;
      if (!next || !(await answersFromNow(next, readyMs))) {
        throw new Error(`no answer within ${Math.round(readyMs / 1000)} s`);
      }
    } catch (reason) {
      this._emit({
        code: 'lost',
        kernel: kernel.name,
        silences,
        error: (reason as Error).message
      });
      return { silences, answered, replaced: false };
    }
    this._emit({ code: 'replaced', kernel: kernel.name, silences });
    return { silences, answered, replaced: true };
  }

  private _emit(event: RestartWatch.IEvent): void {
    if (!this._disposed) {
      this._event.emit(event);
    }
  }

  private _options: RestartWatch.IOptions;
  private _session: ISessionContext;
  private _restarting = false;
  private _current: Promise<RestartWatch.IOutcome> | null = null;
  private _watched = 0;
  private _disposed = false;
  private _event = new Signal<this, RestartWatch.IEvent>(this);
}

/** The types of `RestartWatch`. */
export namespace RestartWatch {
  /** What a watch is made with. */
  export interface IOptions {
    /** The notebook's session context. */
    session: ISessionContext;
    /** How long the first request after a restart is waited for (default 5 s, doubled after each silence). */
    answerMs?: number;
    /** How many more restarts are tried after a silence (default 3). */
    retries?: number;
    /** How long the replacing kernel is waited for (default 60 s). */
    readyMs?: number;
    /** How long after the first answer the kernel is asked again (default 2 s). */
    settleMs?: number;
  }

  /**
   * A step of a watch: `silent` (restarting again, the n-th time),
   * `answered` (after silences), `replacing` (still silent: a new kernel is
   * started), `replaced` (the new kernel answers), `lost` (it could not be).
   */
  export type IEvent =
    | { code: 'silent'; kernel: string; silence: number }
    | { code: 'answered'; kernel: string; silences: number }
    | { code: 'replacing'; kernel: string; silences: number }
    | { code: 'replaced'; kernel: string; silences: number }
    | { code: 'lost'; kernel: string; silences: number; error: string };

  /** How a watch ended. */
  export interface IOutcome {
    /** Silences met (each followed by another restart). */
    silences: number;
    /** Whether the restarted kernel answered in the end. */
    answered: boolean;
    /** Whether it was replaced by a new kernel that answers. */
    replaced: boolean;
  }
}

namespace Private {
  /** How long a replacing kernel has to answer. */
  export const READY_MS = 60000;
  /** How long after its first answer a restarted kernel is asked again. */
  export const SETTLE_MS = 2000;
}
