/**
 * The working copies open in JupyterLab, each with its notebook handler: made
 * when a notebook with working-copy metadata opens, disposed with it. Views
 * (the case header) subscribe to `added`.
 */
import type { NotebookPanel } from '@jupyterlab/notebook';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import { NotebookHandler } from './notebookHandler';
import { readWorkingCopyMeta } from './workingCopy';

/**
 * Tracks the open working copies.
 */
export class WorkingCopies {
  /** Build the registry. */
  constructor(options: WorkingCopies.IOptions) {
    this._options = options;
  }

  /** Emitted when a working copy is open and its handler is made. */
  get added(): ISignal<this, NotebookHandler> {
    return this._added;
  }

  /** The per-cell timeout of replays and checks, in ms (0: none). */
  get timeoutMs(): number {
    return this._timeoutMs;
  }
  set timeoutMs(value: number) {
    this._timeoutMs = value;
    this._copies.forEach(c => (c.timeoutMs = value));
  }

  /** The working copy shown in a panel, if it is one. */
  get(panel: NotebookPanel): NotebookHandler | null {
    return this._copies.get(panel) ?? null;
  }

  /**
   * Take a notebook panel: once its model is ready, a working copy (by its
   * metadata) gets its handler; any other notebook is left alone.
   */
  track(panel: NotebookPanel): void {
    void panel.context.ready.then(() => {
      const meta = readWorkingCopyMeta({
        junobench: panel.model?.getMetadata('junobench')
      });
      if (this._copies.has(panel) || panel.isDisposed || !meta) {
        return;
      }
      const copy = new NotebookHandler({
        ...this._options,
        panel,
        timeoutMs: () => this._timeoutMs
      });
      this._copies.set(panel, copy);
      panel.disposed.connect(() => {
        this._copies.delete(panel);
        copy.dispose();
      });
      this._added.emit(copy);
    });
  }

  private _options: WorkingCopies.IOptions;
  private _timeoutMs = 120000;
  private _copies = new Map<NotebookPanel, NotebookHandler>();
  private _added = new Signal<this, NotebookHandler>(this);
}

/**
 * A namespace for WorkingCopies statics.
 */
export namespace WorkingCopies {
  /** Options to build the registry: what every handler needs but its panel and timeout. */
  export type IOptions = Omit<NotebookHandler.IOptions, 'panel' | 'timeoutMs'>;
}
