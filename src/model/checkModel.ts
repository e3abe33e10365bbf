/**
 * The check model of one working copy: whether "Check my fix" runs, the last
 * verdict, the snapshot kept and the hints opened. It knows no widget, no
 * kernel and no translator: its words are codes with parameters
 * (`CheckStatus`) that the notebook handler renders.
 */
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import type { ICheckVerdict } from '../repair/check';
import { nextHint } from '../repair/hints';
import type { IHint } from '../repair/hints';

/** What the check says, as a code with its parameters. */
export type CheckStatus =
  | { code: `check.${'none' | 'blocked' | 'not-a-copy' | 'running'}` }
  | { code: 'check.verdict'; params: { verdict: ICheckVerdict } }
  | { code: 'check.failed'; params: { reason: unknown } }
  | { code: 'check.no-hint'; params: { reason: unknown } };

/** What the bar shows of the last check. */
export interface ICheckState {
  /** Whether a check is running. */
  running: boolean;
  /** The last verdict. */
  verdict: ICheckVerdict | null;
  /** The verdict line, or what is happening, as a code. */
  status: CheckStatus;
  /** Where the snapshot of the checked notebook was kept. */
  snapshotPath: string | null;
  /** The hints opened so far, in ladder order. */
  hints: IHint[];
  /** Whether every hint is open. */
  hintsDone: boolean;
}

/**
 * The check state of one working copy and its transitions.
 */
export class CheckModel {
  /** Emitted when the state changes. */
  get stateChanged(): ISignal<this, ICheckState> {
    return this._stateChanged;
  }

  /** The state. */
  get state(): ICheckState {
    return this._state;
  }

  /** Say something without changing the check. */
  say(status: CheckStatus): void {
    this._set({ status });
  }

  /** A check starts: the last verdict and snapshot go. */
  start(): void {
    this._set({
      running: true,
      verdict: null,
      snapshotPath: null,
      status: { code: 'check.running' }
    });
  }

  /** The check has judged the repair. */
  judged(verdict: ICheckVerdict, snapshotPath: string | null): void {
    this._set({
      running: false,
      verdict,
      snapshotPath,
      status: { code: 'check.verdict', params: { verdict } }
    });
  }

  /** The check could not run. */
  failed(reason: unknown): void {
    this._set({
      running: false,
      status: { code: 'check.failed', params: { reason } }
    });
  }

  /**
   * Open the next hint of `ladder` not among `used` (the hints the learner's
   * progress records), kept by `record` first: resolves with it, or null when
   * every hint is open.
   */
  async openHint(
    ladder: IHint[],
    used: readonly number[],
    record: (step: number) => Promise<void>
  ): Promise<IHint | null> {
    const open = new Set([...used, ...this._state.hints.map(h => h.step)]);
    const hint = nextHint(ladder, [...open]);
    if (hint) {
      open.add(hint.step);
      await record(hint.step);
    }
    const hints = ladder.filter(h => open.has(h.step));
    this._set({ hints, hintsDone: hints.length === ladder.length });
    return hint;
  }

  /** Forget every listener. */
  dispose(): void {
    Signal.clearData(this);
  }

  private _set(partial: Partial<ICheckState>): void {
    this._state = { ...this._state, ...partial };
    this._stateChanged.emit(this._state);
  }

  private _state: ICheckState = {
    running: false,
    verdict: null,
    status: { code: 'check.none' },
    snapshotPath: null,
    hints: [],
    hintsDone: false
  };
  private _stateChanged = new Signal<this, ICheckState>(this);
}
