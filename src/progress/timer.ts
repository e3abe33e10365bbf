/**
 * Time spent on a case: the time a case's working copy is in front of the
 * learner, counting a quiet stretch only up to an idle limit (a tab left
 * open over lunch is not two hours of debugging). Pure; the caller feeds it
 * the clock.
 */

/**
 * Accumulates active time per case between `take` calls.
 */
export class ActiveTimer {
  /** Create a timer; `idleMs` caps the time counted between two signs of activity. */
  constructor(options: ActiveTimer.IOptions = {}) {
    this._idleMs = options.idleMs ?? ActiveTimer.DEFAULT_IDLE_MS;
  }

  /** The case being timed, or null. */
  get current(): string | null {
    return this._current;
  }

  /**
   * Start timing a case (or nothing) at `now`; the time of the case timed so
   * far is kept for `take`.
   */
  focus(name: string | null, now: number): void {
    if (name === this._current) {
      this.touch(now);
      return;
    }
    this._close(now);
    this._current = name;
    this._last = now;
  }

  /** A sign of activity on the current case at `now` (a key, a click, a run). */
  touch(now: number): void {
    if (this._current === null) {
      return;
    }
    this._count(now);
    this._last = now;
  }

  /**
   * The time counted per case since the last `take`, up to `now`, in
   * milliseconds; the current case keeps being timed.
   */
  take(now: number): Map<string, number> {
    if (this._current !== null) {
      this._count(now);
      this._last = now;
    }
    const result = this._pending;
    this._pending = new Map();
    return result;
  }

  private _close(now: number): void {
    if (this._current !== null) {
      this._count(now);
    }
    this._current = null;
  }

  /** Add the time since the last activity, capped at the idle limit. */
  private _count(now: number): void {
    const gap = Math.min(Math.max(0, now - this._last), this._idleMs);
    if (gap > 0 && this._current !== null) {
      this._pending.set(
        this._current,
        (this._pending.get(this._current) ?? 0) + gap
      );
    }
  }

  private _idleMs: number;
  private _current: string | null = null;
  private _last = 0;
  private _pending = new Map<string, number>();
}

/**
 * A namespace for ActiveTimer statics.
 */
export namespace ActiveTimer {
  /** The default idle limit: five minutes. */
  export const DEFAULT_IDLE_MS = 5 * 60 * 1000;

  /** Options of a timer. */
  export interface IOptions {
    /** The most time counted between two signs of activity, in ms. */
    idleMs?: number;
  }
}
