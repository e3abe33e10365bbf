/**
 * "Check my fix": re-runs the learner's repair from a fresh kernel (never the
 * learner's live one), judges it with the repair rules, keeps the attempt with
 * a snapshot of the notebook, and tells the replay bar.
 */
import { PathExt } from '@jupyterlab/coreutils';
import type * as nbformat from '@jupyterlab/nbformat';
import type { NotebookPanel } from '@jupyterlab/notebook';
import type { Contents, Session } from '@jupyterlab/services';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import type { ICase } from '../casebook/types';
import {
  renderStartFailure,
  startSession,
  uniqueSuffix
} from '../kernel/freshSession';
import { MemoryReferenceCache, runRepairCheck } from '../repair/repairCheck';
import type { IFreshKernel, IReferenceCache } from '../repair/repairCheck';
import { readInputHistory } from '../kernel/history';
import { scratchSetup } from '../repair/scratchSnippets';
import type { IScratchOptions } from '../repair/scratchSnippets';
import { readWorkingCopyMeta } from './workingCopy';
import { readServerNotebook } from './workspace';
import { renderStatus } from '../repair/findings';
import { hintLadder, nextHint } from '../repair/hints';
import type { IHint } from '../repair/hints';
import type { ICheckVerdict } from '../repair/check';
import type { INotebookJSON } from '../replay/types';
import type { IProgressTracker } from '../progress/interfaces';

/** What the bar shows of the last check. */
export interface ICheckState {
  /** Whether a check is running. */
  running: boolean;
  /** The last verdict. */
  verdict: ICheckVerdict | null;
  /** A sentence for people and screen readers: the verdict line, or what is happening. */
  message: string;
  /** Where the snapshot of the checked notebook was kept. */
  snapshotPath: string | null;
  /** The hints opened so far, in ladder order. */
  hints: IHint[];
  /** Whether every hint is open. */
  hintsDone: boolean;
}

/**
 * Checks the repair in one working copy.
 */
export class CheckController {
  /**
   * Bind to a working copy.
   */
  constructor(options: CheckController.IOptions) {
    this._options = options;
  }

  /** Emitted when the state changes. */
  get stateChanged(): ISignal<this, ICheckState> {
    return this._stateChanged;
  }

  /** The state. */
  get state(): ICheckState {
    return this._state;
  }

  /** Run the check; resolves with the verdict, or null when it could not run. */
  async check(): Promise<ICheckVerdict | null> {
    if (this._state.running) {
      return null;
    }
    const blocked = this._options.blockedBy?.() ?? null;
    if (blocked) {
      this._set({ message: blocked });
      return null;
    }
    const { panel, trans } = this._options;
    const meta = readWorkingCopyMeta({
      junobench: panel.model?.getMetadata('junobench')
    });
    const c = meta ? this._options.caseOf(meta.case) : null;
    if (!meta || !c) {
      this._set({
        message: trans.__(
          'This notebook is not a working copy of a loaded case.'
        )
      });
      return null;
    }
    this._set({
      running: true,
      verdict: null,
      snapshotPath: null,
      message: trans.__(
        'Checking your fix from a fresh kernel (and the reference fix, the first time)…'
      )
    });
    try {
      await panel.context.save();
      const learner: nbformat.INotebookContent =
        panel.model!.sharedModel.toJSON();
      const [reproduced, fixed] = await Promise.all([
        this._readNotebook(
          PathExt.join(meta.caseFolder, `${c.name}_reproduced.ipynb`)
        ),
        this._readNotebook(
          PathExt.join(meta.caseFolder, `${c.name}_fixed.ipynb`)
        )
      ]);
      const live = panel.sessionContext.session?.kernel ?? null;
      const kernelName = live?.name ?? 'python3';
      // A notebook-specific case is judged on the live kernel too: its own input history is
      // the evidence of what ran there (the saved prompts are claims); the prompts are the
      // fallback when the kernel cannot say (not IPython, busy, gone).
      const liveHistory =
        c.notebookSpecific && live
          ? await readInputHistory(live, 10000)
              .then(h => h.history)
              .catch(() => null)
          : null;
      const rel =
        PathExt.relative(
          PathExt.dirname(panel.context.path),
          meta.caseFolder
        ) || '.';
      const result = await runRepairCheck({
        caseName: `${meta.casebook}/${c.name}`,
        learner,
        reproduced,
        fixed,
        notebookSpecific: c.notebookSpecific,
        liveHistory,
        startKernel: (role, start) =>
          this._startKernel(
            kernelName,
            {
              perturb: start?.perturb,
              caseFolder: rel,
              casebook: Private.casebookFrom(
                PathExt.dirname(panel.context.path),
                meta.caseFolder,
                c.files.folder
              ),
              caseName: c.name
            },
            role
          ),
        timeoutMs: this._options.timeoutMs(),
        cache: this._options.referenceCache ?? this._cache
      });
      const { run, verdict } = result;
      const snapshotPath = await this._snapshot(learner);
      await this._options.progress?.recordAttempt(c.name, {
        passed: verdict.passed,
        status: verdict.status,
        exception: run.error ? `${run.error.ename}: ${run.error.evalue}` : null,
        snapshotPath
      });
      this._set({
        running: false,
        verdict,
        snapshotPath,
        message: renderStatus(
          verdict.status,
          trans.__.bind(trans),
          verdict.noted
        )
      });
      return verdict;
    } catch (reason) {
      this._set({
        running: false,
        message: trans.__(
          'The check could not run: %1',
          (reason as Error).message ?? String(reason)
        )
      });
      return null;
    }
  }

  /**
   * Open the next hint of the ladder (recorded in the learner's progress),
   * together with the hints opened earlier.
   */
  async nextHint(): Promise<IHint | null> {
    const { panel, trans, progress } = this._options;
    const meta = readWorkingCopyMeta({
      junobench: panel.model?.getMetadata('junobench')
    });
    const c = meta ? this._options.caseOf(meta.case) : null;
    if (!meta || !c) {
      return null;
    }
    try {
      if (!this._ladder) {
        const reproduced = await this._readNotebook(
          PathExt.join(meta.caseFolder, `${c.name}_reproduced.ipynb`)
        );
        const fixed = await this._readNotebook(
          PathExt.join(meta.caseFolder, `${c.name}_fixed.ipynb`)
        ).catch(() => null);
        this._ladder = hintLadder(c, reproduced, fixed, trans);
      }
      const used = new Set([
        ...(progress?.get(c.name)?.hints ?? []),
        ...this._state.hints.map(h => h.step)
      ]);
      const hint = nextHint(this._ladder, [...used]);
      if (hint) {
        used.add(hint.step);
        await progress?.recordHint(c.name, hint.step);
      }
      const shown = this._ladder.filter(h => used.has(h.step));
      this._set({
        hints: shown,
        hintsDone: shown.length === this._ladder.length
      });
      return hint;
    } catch (reason) {
      this._set({
        message: trans.__(
          'No hint could be made: %1',
          (reason as Error).message ?? String(reason)
        )
      });
      return null;
    }
  }

  /** Forget the panel. */
  dispose(): void {
    Signal.clearData(this);
  }

  /**
   * A fresh kernel beside the working copy (never the learner's live one) that
   * moves into a scratch copy of the case folder, without the answer key, first.
   */
  private async _startKernel(
    kernelName: string,
    scratch: IScratchOptions,
    role: 'learner' | 'reference'
  ): Promise<IFreshKernel> {
    const { panel, sessions, trans } = this._options;
    let session: Session.ISessionConnection;
    try {
      session = await startSession(sessions, {
        path: `${panel.context.path}.junobench-${role}-${uniqueSuffix()}`,
        name: PathExt.basename(panel.context.path),
        kernel: kernelName,
        readyMs: this._options.kernelReadyMs
      });
    } catch (reason) {
      throw new Error(renderStartFailure(reason, trans.__.bind(trans)));
    }
    const kernel = session.kernel;
    if (!kernel) {
      await session.shutdown().catch(() => undefined);
      session.dispose();
      throw new Error(trans.__('no kernel could be started for the check'));
    }
    const setup = scratchSetup(scratch);
    return {
      kernel,
      setupCode: setup.setupCode,
      reportExpression: setup.reportExpression,
      dispose: async () => {
        await session.shutdown().catch(() => undefined);
        session.dispose();
      }
    };
  }

  private _readNotebook(path: string): Promise<INotebookJSON> {
    return readServerNotebook(this._options.contents, path);
  }

  /**
   * Keep a copy of the checked notebook beside the working copy, under
   * `attempts/`; the learner's notebook itself is never touched.
   */
  private async _snapshot(
    nb: nbformat.INotebookContent
  ): Promise<string | null> {
    const { panel, contents } = this._options;
    const dir = PathExt.join(PathExt.dirname(panel.context.path), 'attempts');
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const name = PathExt.basename(panel.context.path).replace(/\.ipynb$/, '');
    const path = PathExt.join(dir, `${name}-check-${stamp}.ipynb`);
    try {
      try {
        await contents.get(dir, { content: false });
      } catch {
        await contents.save(dir, { type: 'directory' });
      }
      await contents.save(path, {
        type: 'notebook',
        format: 'json',
        content: nb
      });
      return path;
    } catch {
      return null;
    }
  }

  private _set(partial: Partial<ICheckState>): void {
    this._state = { ...this._state, ...partial };
    this._stateChanged.emit(this._state);
  }

  private _options: CheckController.IOptions;
  private _state: ICheckState = {
    running: false,
    verdict: null,
    message: '',
    snapshotPath: null,
    hints: [],
    hintsDone: false
  };
  private _ladder: IHint[] | null = null;
  private _cache = new MemoryReferenceCache();
  private _stateChanged = new Signal<this, ICheckState>(this);
}

/**
 * A namespace for CheckController statics.
 */
export namespace CheckController {
  /** The translation calls used. */
  export interface ITrans {
    __(msgid: string, ...args: unknown[]): string;
  }

  /** Options to create a check controller. */
  export interface IOptions {
    /** The working copy's panel. */
    panel: NotebookPanel;
    /** Session manager, for the fresh kernel. */
    sessions: Session.IManager;
    /** Contents manager, for the reference notebooks and snapshots. */
    contents: Contents.IManager;
    /** The case of a name in the loaded casebook. */
    caseOf: (name: string) => ICase | null;
    /** Where attempts are kept. */
    progress: IProgressTracker | null;
    /** The per-cell timeout in ms. */
    timeoutMs: () => number;
    /**
     * Where the reference fix's evidence is kept between checks (shared by the
     * working copies of a page); a cache of the controller's own when absent.
     */
    referenceCache?: IReferenceCache | null;
    /** Translation bundle. */
    trans: ITrans;
    /**
     * Why a check cannot start now (e.g. a replay of this copy is running),
     * or null when it can.
     */
    blockedBy?: () => string | null;
    /** How long a fresh kernel has to answer its first request (default 180 s). */
    kernelReadyMs?: number;
  }
}

namespace Private {
  /**
   * The casebook's root folder seen from `from` (the working copy's folder): the case
   * folder without the case's casebook-relative path, or null when it does not end so.
   */
  export function casebookFrom(
    from: string,
    caseFolder: string,
    folder: string | null
  ): string | null {
    if (!folder || !caseFolder.endsWith(folder)) {
      return null;
    }
    const root = caseFolder.slice(0, caseFolder.length - folder.length);
    if (root !== '' && !root.endsWith('/')) {
      return null;
    }
    return PathExt.relative(from, root.replace(/\/+$/, '')) || '.';
  }
}
