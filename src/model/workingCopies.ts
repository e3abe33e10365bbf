/**
 * The working copies open in JupyterLab, each with its replay and check
 * controllers: made when a notebook with working-copy metadata opens,
 * disposed with it. Views (the case header) subscribe to `added`.
 */
import type { NotebookPanel } from '@jupyterlab/notebook';
import type { Contents, Session } from '@jupyterlab/services';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import type { ICase } from '../casebook/types';
import type { IReferenceCache } from '../repair/repairCheck';
import type { IProgressTracker } from '../progress/interfaces';
import { CheckController } from './checkController';
import { ReplayController } from './replayController';
import { readWorkingCopyMeta } from './workingCopy';

/** One open working copy and its controllers. */
export interface IOpenWorkingCopy {
  /** Its notebook panel. */
  panel: NotebookPanel;
  /** The case it is a copy of. */
  caseName: string;
  /** Replays it. */
  replay: ReplayController;
  /** Checks the learner's repair in it. */
  check: CheckController;
}

/**
 * Tracks the open working copies.
 */
export class WorkingCopies {
  /** Build the registry. */
  constructor(options: WorkingCopies.IOptions) {
    this._options = options;
  }

  /** Emitted when a working copy is open and its controllers are made. */
  get added(): ISignal<this, IOpenWorkingCopy> {
    return this._added;
  }

  /** The per-cell timeout of replays, in ms (0: none). */
  get timeoutMs(): number {
    return this._timeoutMs;
  }
  set timeoutMs(value: number) {
    this._timeoutMs = value;
    this._copies.forEach(c => (c.replay.timeoutMs = value));
  }

  /** The working copy shown in a panel, if it is one. */
  get(panel: NotebookPanel): IOpenWorkingCopy | null {
    return this._copies.get(panel) ?? null;
  }

  /**
   * Take a notebook panel: once its model is ready, a working copy (by its
   * metadata) gets its controllers; any other notebook is left alone.
   */
  track(panel: NotebookPanel): void {
    void panel.context.ready.then(() => {
      if (this._copies.has(panel) || panel.isDisposed) {
        return;
      }
      const meta = readWorkingCopyMeta({
        junobench: panel.model?.getMetadata('junobench')
      });
      if (!meta) {
        return;
      }
      const { trans } = this._options;
      // One job at a time per working copy: a replay and a check both save
      // the notebook, and two saves at once can clash.
      const replay: ReplayController = new ReplayController({
        panel,
        timeoutMs: this._timeoutMs,
        trans,
        blockedBy: () =>
          check.state.running
            ? trans.__(
                'A check of your fix is running; replay when it has finished.'
              )
            : null
      });
      const check = new CheckController({
        panel,
        sessions: this._options.sessions,
        contents: this._options.contents,
        caseOf: this._options.caseOf,
        progress: this._options.progress,
        timeoutMs: () => this._timeoutMs,
        referenceCache: this._options.referenceCache,
        trans,
        blockedBy: () =>
          replay.isRunning
            ? trans.__(
                'A replay is running; check your fix when it has finished.'
              )
            : null
      });
      const copy: IOpenWorkingCopy = {
        panel,
        caseName: meta.case,
        replay,
        check
      };
      this._copies.set(panel, copy);
      // A recorded replay that crashed counts as "crashed" for the learner.
      const progress = this._options.progress;
      replay.stateChanged.connect((_, state) => {
        if (
          progress &&
          state.phase === 'finished' &&
          state.kind === 'recorded' &&
          state.result?.status === 'crashed'
        ) {
          void progress.markCrashed(meta.case);
        }
      });
      panel.disposed.connect(() => {
        this._copies.delete(panel);
        check.dispose();
        replay.dispose();
      });
      this._added.emit(copy);
    });
  }

  private _options: WorkingCopies.IOptions;
  private _timeoutMs = 120000;
  private _copies = new Map<NotebookPanel, IOpenWorkingCopy>();
  private _added = new Signal<this, IOpenWorkingCopy>(this);
}

/**
 * A namespace for WorkingCopies statics.
 */
export namespace WorkingCopies {
  /** Options to build the registry. */
  export interface IOptions {
    /** Sessions of the server (the check's fresh kernels). */
    sessions: Session.IManager;
    /** Contents of the server (the case's notebooks). */
    contents: Contents.IManager;
    /** A case of the casebook by name. */
    caseOf: (name: string) => ICase | null;
    /** The learner's progress, when kept. */
    progress: IProgressTracker | null;
    /** What reference fixes do, learned once per page and environment. */
    referenceCache: IReferenceCache | null;
    /** Translation bundle. */
    trans: ReplayController.IOptions['trans'];
  }
}
