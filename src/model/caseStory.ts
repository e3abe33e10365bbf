/**
 * The story of the current working copy, for the case side panel: which
 * working copy is current, a signal whenever anything the panel shows of it
 * changes, and which section holds a new result (a verdict, a hint, why a
 * run crashed, a run that starts). Renders nothing; the side panel's
 * sections subscribe to it.
 */
import type { IDisposable } from '@lumino/disposable';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import type { ICellError } from '../kernel/runner';
import type { IWorkingCopy } from '../tokens';

/** The sections of the case side panel, in order. */
export const CASE_SECTIONS = [
  'verdict',
  'why',
  'order',
  'hints',
  'diagnose',
  'environment'
] as const;

/** One section of the case side panel. */
export type CaseSection = (typeof CASE_SECTIONS)[number];

/**
 * Follows the current working copy and says when its story changes.
 */
export class CaseStory implements IDisposable {
  /** Emitted when the current copy or anything shown of it changes. */
  get changed(): ISignal<this, void> {
    return this._changed;
  }

  /** Emitted with the section that holds a new result of the current copy. */
  get news(): ISignal<this, CaseSection> {
    return this._news;
  }

  /** The current working copy, or null when the current widget is not one. */
  get current(): IWorkingCopy | null {
    return this._current;
  }
  set current(copy: IWorkingCopy | null) {
    if (copy === this._current) {
      return;
    }
    this._unfollow();
    this._current = copy;
    if (copy) {
      copy.replay.stateChanged.connect(this._onReplay, this);
      copy.replay.driftChanged.connect(this._onChange, this);
      copy.check.stateChanged.connect(this._onCheck, this);
      copy.panel.disposed.connect(this._onDisposed, this);
      this._seen = CaseStory.keys(copy);
    }
    this._changed.emit();
  }

  /** Whether the story is disposed. */
  get isDisposed(): boolean {
    return this._disposed;
  }

  /** Stop following. */
  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    this._unfollow();
    this._current = null;
    Signal.clearData(this);
  }

  private _unfollow(): void {
    const copy = this._current;
    if (!copy) {
      return;
    }
    copy.replay.stateChanged.disconnect(this._onReplay, this);
    copy.replay.driftChanged.disconnect(this._onChange, this);
    copy.check.stateChanged.disconnect(this._onCheck, this);
    copy.panel.disposed.disconnect(this._onDisposed, this);
  }

  private _onDisposed(): void {
    this.current = null;
  }

  private _onChange(): void {
    this._changed.emit();
  }

  private _onReplay(): void {
    this._report();
  }

  private _onCheck(): void {
    this._report();
  }

  /** Emit the change, then the sections whose news is new since last time. */
  private _report(): void {
    const copy = this._current;
    this._changed.emit();
    if (!copy) {
      return;
    }
    const keys = CaseStory.keys(copy);
    for (const section of CASE_SECTIONS) {
      const key = keys[section];
      if (key && key !== this._seen[section]) {
        this._news.emit(section);
      }
    }
    this._seen = keys;
  }

  private _current: IWorkingCopy | null = null;
  private _seen: Partial<Record<CaseSection, string>> = {};
  private _disposed = false;
  private _changed = new Signal<this, void>(this);
  private _news = new Signal<this, CaseSection>(this);
}

/**
 * A namespace for CaseStory statics.
 */
export namespace CaseStory {
  /**
   * What identifies each section's latest result ('' for none): a new key
   * is news. A verdict by its findings, hints by their number, why it
   * crashed by the run that crashed, the order by the run that started.
   */
  export function keys(
    copy: IWorkingCopy
  ): Partial<Record<CaseSection, string>> {
    const r = copy.replay.state;
    const c = copy.check.state;
    return {
      verdict: c.verdict
        ? JSON.stringify([c.verdict.status, c.verdict.findings])
        : '',
      hints: c.hints.length ? String(c.hints.length) : '',
      why:
        r.phase === 'finished' && r.result?.status === 'crashed'
          ? `${r.kind}:${r.result.durationMs}:${r.message}`
          : '',
      order:
        r.phase === 'starting' || r.phase === 'running'
          ? `${r.kind}:running`
          : ''
    };
  }

  /** The exception the last run of a working copy crashed with, or null. */
  export function crashError(copy: IWorkingCopy | null): ICellError | null {
    const result = copy?.replay.state.result;
    return result?.status === 'crashed' ? result.error : null;
  }
}
