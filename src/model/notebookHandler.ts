/**
 * The notebook handler of one working copy: it owns the notebook panel (clears
 * and writes outputs and execution counts, saves, reads the cells a plan runs,
 * keeps snapshots), drives the replay and check models through the kernel
 * service, and renders the models' codes into sentences for the views.
 */
import { PathExt } from '@jupyterlab/coreutils';
import type { ICodeCellModel } from '@jupyterlab/cells';
import type * as nbformat from '@jupyterlab/nbformat';
import type { NotebookPanel } from '@jupyterlab/notebook';
import type { Contents, Kernel } from '@jupyterlab/services';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import type { ICase } from '../casebook/types';
import { cellRef, renderCell, renderFate } from '../i18n';
import type { Translate } from '../i18n';
import type { IDriftReport } from '../kernel/drift';
import { renderStartFailure } from '../kernel/freshSession';
import { MemoryReferenceCache } from '../repair/repairCheck';
import type { IReferenceCache } from '../repair/repairCheck';
import type { IRunResult, RunnerEvent } from '../kernel/runner';
import { renderRunStop } from '../kernel/stop';
import type { IProgressTracker } from '../progress/interfaces';
import type { ICheckVerdict } from '../repair/check';
import { renderStatus } from '../repair/findings';
import { hintLadder } from '../repair/hints';
import type { IHint } from '../repair/hints';
import type { INotebookJSON, IPlanStep, IReplayPlan } from '../replay/types';
import type {
  ICheck,
  ICheckView,
  IReplay,
  IReplayView,
  IWorkingCopy
} from '../tokens';
import { CheckModel } from './checkModel';
import type { CheckStatus, ICheckState } from './checkModel';
import { KernelService, NoKernelError } from './kernelService';
import { ReplayModel } from './replayModel';
import type { IReplayState } from './replayModel';
import { readWorkingCopyMeta } from './workingCopy';
import type { IStoredStep, IWorkingCopyMeta } from './workingCopy';
import { readServerNotebook } from './workspace';

/**
 * Handles one working copy's notebook panel for its replay and check.
 */
export class NotebookHandler implements IWorkingCopy {
  /** Take a notebook panel holding a working copy. */
  constructor(options: NotebookHandler.IOptions) {
    this._options = options;
    const { panel, trans, progress } = options;
    this.panel = panel;
    const meta = this.meta;
    this.caseName = meta?.case ?? '';
    this.replayModel = new ReplayModel(meta);
    this._service = new KernelService({
      ...options,
      sessionContext: panel.sessionContext,
      translate: trans.__.bind(trans)
    });
    const __ = trans.__.bind(trans);
    this.replay = new Private.Replay(this, state =>
      Private.replayText(state, __)
    );
    this.check = new Private.Check(this, state =>
      Private.checkText(state.status, __)
    );
    // Say which library versions differ from the benchmark as soon as the
    // case's kernel is there, and again whenever the kernel changes.
    panel.sessionContext.kernelChanged.connect(
      () => void this.checkEnvironment(),
      this
    );
    void panel.sessionContext.ready.then(
      () => this.checkEnvironment(),
      () => undefined
    );
    // A recorded replay that crashed counts as "crashed" for the learner.
    this.replayModel.stateChanged.connect((_, s) => {
      if (
        progress &&
        meta &&
        s.phase === 'finished' &&
        s.kind === 'recorded' &&
        s.result?.status === 'crashed'
      ) {
        void progress.markCrashed(meta.case);
      }
    });
  }

  /** The working copy's notebook panel. */
  readonly panel: NotebookPanel;
  /** The case it is a copy of ('' when it is none). */
  readonly caseName: string;
  /** The replay state, as codes. */
  readonly replayModel: ReplayModel;
  /** The check state, as codes. */
  readonly checkModel = new CheckModel();
  /** The replay, rendered. */
  readonly replay: IReplay;
  /** The check of the learner's repair, rendered. */
  readonly check: ICheck;

  /** The working copy metadata, read from the notebook. */
  get meta(): IWorkingCopyMeta | null {
    return readWorkingCopyMeta({
      junobench: this.panel.model?.getMetadata('junobench')
    });
  }

  /** The per-cell timeout changed (a running replay takes it too). */
  set timeoutMs(value: number) {
    this._service.timeoutMs = value;
  }

  /**
   * Replay from a fresh kernel; `recorded` follows the execution counts,
   * `top-to-bottom` the document. One job at a time per working copy: a
   * replay and a check both save the notebook, and two saves can clash.
   */
  async runReplay(kind: IReplayPlan['kind']): Promise<IRunResult | null> {
    const model = this.replayModel;
    const meta = this.meta;
    const checking = this.checkModel.state.running;
    if (model.isRunning || checking || !meta) {
      model.say({
        code: model.isRunning
          ? 'replay.busy'
          : checking
            ? 'replay.blocked'
            : 'replay.not-a-copy'
      });
      return null;
    }
    model.isRunning = true;
    model.start(
      kind,
      kind === 'recorded' ? meta.recordedPlan : meta.topToBottomPlan
    );
    try {
      return await this._replay(meta);
    } catch (reason) {
      model.failed(reason);
      return null;
    } finally {
      model.isRunning = false;
    }
  }

  /** Interrupt the running replay. */
  async interrupt(): Promise<void> {
    await this._service.interrupt();
  }

  /**
   * Ask the kernel (default: the notebook's) for its library versions and
   * compare them with the benchmark pins; only the latest probe counts.
   */
  async checkEnvironment(
    kernel?: Kernel.IKernelConnection | null,
    timeoutMs = 30000
  ): Promise<IDriftReport | null> {
    const target = kernel ?? this.panel.sessionContext.session?.kernel;
    if (!target || !this.meta) {
      return null;
    }
    const seq = this.replayModel.probing();
    let report: IDriftReport | null = null;
    let error: string | null = null;
    try {
      report = await this._service.probe(target, timeoutMs);
    } catch (reason) {
      error = (reason as Error).message;
    }
    this.replayModel.probed(seq, report, error);
    return report;
  }

  /** Check the learner's repair; resolves with the verdict, or null when it could not run. */
  async runCheck(): Promise<ICheckVerdict | null> {
    const model = this.checkModel;
    if (model.state.running) {
      return null;
    }
    if (this.replayModel.isRunning) {
      model.say({ code: 'check.blocked' });
      return null;
    }
    const found = this._case();
    if (!found) {
      model.say({ code: 'check.not-a-copy' });
      return null;
    }
    const { meta, c } = found;
    const { panel } = this;
    model.start();
    try {
      await panel.context.save();
      const learner: nbformat.INotebookContent =
        panel.model!.sharedModel.toJSON();
      const [reproduced, fixed] = await Promise.all([
        this._read(meta, c, 'reproduced'),
        this._read(meta, c, 'fixed')
      ]);
      const here = PathExt.dirname(panel.context.path);
      const scratch = {
        caseFolder: PathExt.relative(here, meta.caseFolder) || '.',
        casebook: Private.casebookFrom(here, meta.caseFolder, c.files.folder),
        caseName: c.name
      };
      const { run, verdict } = await this._service.check(
        panel.context.path,
        scratch,
        {
          caseName: `${meta.casebook}/${c.name}`,
          learner,
          reproduced,
          fixed,
          notebookSpecific: c.notebookSpecific,
          cache: this._options.referenceCache ?? this._cache
        }
      );
      const snapshotPath = await this._snapshot(learner);
      await this._options.progress?.recordAttempt(c.name, {
        passed: verdict.passed,
        status: verdict.status,
        exception: run.error ? `${run.error.ename}: ${run.error.evalue}` : null,
        snapshotPath
      });
      model.judged(verdict, snapshotPath);
      return verdict;
    } catch (reason) {
      model.failed(reason);
      return null;
    }
  }

  /**
   * Open the next hint of the ladder (recorded in the learner's progress),
   * together with the hints opened earlier.
   */
  async nextHint(): Promise<IHint | null> {
    const found = this._case();
    if (!found) {
      return null;
    }
    const { meta, c } = found;
    const { progress, trans } = this._options;
    try {
      this._ladder ??= hintLadder(
        c,
        await this._read(meta, c, 'reproduced'),
        await this._read(meta, c, 'fixed').catch(() => null),
        trans
      );
      return await this.checkModel.openHint(
        this._ladder,
        progress?.get(c.name)?.hints ?? [],
        async step => void (await progress?.recordHint(c.name, step))
      );
    } catch (reason) {
      this.checkModel.say({ code: 'check.no-hint', params: { reason } });
      return null;
    }
  }

  /** Stop the running replay and forget the panel. */
  dispose(): void {
    this._service.dispose();
    this.replayModel.dispose();
    this.checkModel.dispose();
    Signal.clearData(this);
    Signal.clearData(this.replay);
    Signal.clearData(this.check);
  }

  /** A replay from a fresh kernel to its verdict; rejects when it cannot start. */
  private async _replay(meta: IWorkingCopyMeta): Promise<IRunResult> {
    const model = this.replayModel;
    const kernel = await this._service.freshKernel(status => model.say(status));
    // The fresh kernel's versions, next to the verdict this run will give.
    await this.checkEnvironment(kernel, 10000);
    const { plan, indexOf, skipped } = this._plan(model.state.steps);
    const dir = PathExt.dirname(this.panel.context.path);
    const folder = this._kernelStartsAtRoot()
      ? meta.caseFolder || '.'
      : PathExt.relative(dir, meta.caseFolder) || '.';
    model.running(plan.steps.length, skipped);
    const result = await this._service.run(kernel, plan, folder, event =>
      this._onEvent(event, indexOf)
    );
    const failed = result.steps.find(s => s.index === result.failedIndex);
    const cell =
      failed && Private.codeCellAt(this.panel, failed.step.cellIndex);
    if (cell && failed.executionCount !== null) {
      cell.executionCount = failed.executionCount;
    }
    model.finish({
      result,
      source: cell ? cell.sharedModel.getSource() : null,
      atTarget:
        !!failed &&
        meta.targetCellId !== null &&
        this.panel.model?.cells.get(failed.step.cellIndex)?.id ===
          meta.targetCellId,
      recorded: meta.recorded,
      notebook: this.panel.model?.sharedModel.toJSON() ?? null,
      timeoutMs: this._options.timeoutMs()
    });
    await this.panel.context.save().catch(() => undefined);
    return result;
  }

  /**
   * The plan of the stored steps on the notebook as it is now, with the
   * outputs and counts of its code cells cleared; steps whose cell the
   * learner deleted cannot run (`skipped`).
   */
  private _plan(stored: IStoredStep[]): {
    plan: IReplayPlan;
    indexOf: number[];
    skipped: number[];
  } {
    const cells = this.panel.model!.cells;
    const position = new Map<string, number>();
    const codeIndex = new Map<number, number>();
    for (let i = 0; i < cells.length; i++) {
      const cell = cells.get(i);
      position.set(cell.id, i);
      if (cell.type === 'code') {
        codeIndex.set(i, codeIndex.size);
        (cell as ICodeCellModel).outputs.clear();
        (cell as ICodeCellModel).executionCount = null;
      }
    }
    const steps: IPlanStep[] = [];
    const indexOf: number[] = [];
    const skipped: number[] = [];
    stored.forEach((s, storedIndex) => {
      const at = position.get(s.cellId);
      if (at === undefined) {
        skipped.push(storedIndex);
        return;
      }
      steps.push({
        cellIndex: at,
        codeCellIndex: codeIndex.get(at) ?? -1,
        executionCount: s.count,
        source: cells.get(at).sharedModel.getSource(),
        run: s.run,
        isTarget: s.target
      });
      indexOf.push(storedIndex);
    });
    const plan: IReplayPlan = { kind: 'recorded', steps, target: null };
    return { plan, indexOf, skipped };
  }

  /** Mirror a runner event into the notebook and the model. */
  private _onEvent(event: RunnerEvent, indexOf: number[]): void {
    if (event.type === 'run-started' || event.type === 'run-finished') {
      return;
    }
    const step = indexOf[event.index];
    const cell = Private.codeCellAt(this.panel, event.step.cellIndex);
    switch (event.type) {
      case 'step-started':
        cell?.outputs.clear();
        this.replayModel.stepStarted(
          step,
          cellRef(event.step.cellIndex, cell?.executionCount ?? null),
          !!cell
        );
        break;
      case 'output':
        cell?.outputs.add(event.output);
        break;
      case 'clear-output':
        cell?.outputs.clear();
        break;
      case 'step-finished':
        if (cell) {
          cell.executionCount = event.executionCount;
        }
        this.replayModel.stepEnded(step, true);
        break;
      case 'step-error':
        this.replayModel.stepEnded(step, false);
        break;
    }
  }

  /**
   * Whether the probed kernel started outside the notebook's folder: a Kernel
   * Gateway starts kernels in its own working directory, which must then be
   * the server root (docs/environment.md).
   */
  private _kernelStartsAtRoot(): boolean {
    const cwd = this.replayModel.drift?.cwd
      .replace(/\\/g, '/')
      .replace(/\/+$/, '');
    const dir = PathExt.dirname(this.panel.context.path);
    if (!cwd || !dir) {
      return false;
    }
    return cwd !== dir && !cwd.endsWith(`/${dir}`);
  }

  /** The working copy's metadata and its case in the loaded casebook, or null. */
  private _case(): { meta: IWorkingCopyMeta; c: ICase } | null {
    const meta = this.meta;
    const c = meta ? this._options.caseOf(meta.case) : null;
    return meta && c ? { meta, c } : null;
  }

  /** The case's reproduced or fixed notebook on the server. */
  private _read(
    meta: IWorkingCopyMeta,
    c: ICase,
    which: 'reproduced' | 'fixed'
  ): Promise<INotebookJSON> {
    const path = PathExt.join(meta.caseFolder, `${c.name}_${which}.ipynb`);
    return readServerNotebook(this._options.contents, path);
  }

  /**
   * Keep a copy of the checked notebook beside the working copy, under
   * `attempts/`; the learner's notebook itself is never touched.
   */
  private async _snapshot(
    nb: nbformat.INotebookContent
  ): Promise<string | null> {
    const { contents } = this._options;
    const path = this.panel.context.path;
    const dir = PathExt.join(PathExt.dirname(path), 'attempts');
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const name = PathExt.basename(path).replace(/\.ipynb$/, '');
    const snapshot = PathExt.join(dir, `${name}-check-${stamp}.ipynb`);
    try {
      try {
        await contents.get(dir, { content: false });
      } catch {
        await contents.save(dir, { type: 'directory' });
      }
      await contents.save(snapshot, {
        type: 'notebook',
        format: 'json',
        content: nb
      });
      return snapshot;
    } catch {
      return null;
    }
  }

  private _options: NotebookHandler.IOptions;
  private _service: KernelService;
  private _ladder: IHint[] | null = null;
  private _cache = new MemoryReferenceCache();
}

/**
 * A namespace for NotebookHandler statics.
 */
export namespace NotebookHandler {
  /** Options to handle a working copy (the kernel service's, but the session and words). */
  export interface IOptions extends Omit<
    KernelService.IOptions,
    'sessionContext' | 'translate'
  > {
    /** The notebook panel with the working copy. */
    panel: NotebookPanel;
    /** Contents of the server, for the case's notebooks and the snapshots. */
    contents: Contents.IManager;
    /** The case of a name in the loaded casebook. */
    caseOf: (name: string) => ICase | null;
    /** The learner's progress, when kept. */
    progress: IProgressTracker | null;
    /**
     * Where the reference fix's evidence is kept between checks (shared by the
     * working copies of a page); a cache of the handler's own when absent.
     */
    referenceCache?: IReferenceCache | null;
    /** Translation bundle. */
    trans: { __: Translate };
  }
}

namespace Private {
  /** A model's state with its sentence, re-emitted as the model changes. */
  class Rendered<S, V extends S & { message: string }> {
    constructor(
      model: { state: S; stateChanged: ISignal<unknown, S> },
      render: (state: S) => string
    ) {
      const words = (state: S) => ({ ...state, message: render(state) }) as V;
      this._state = words(model.state);
      model.stateChanged.connect((_, state) => {
        this._state = words(state);
        this._stateChanged.emit(this._state);
      });
    }

    /** The state with its sentence. */
    get state(): V {
      return this._state;
    }

    /** Emitted when the state changes. */
    get stateChanged(): ISignal<this, V> {
      return this._stateChanged;
    }

    private _state: V;
    private _stateChanged = new Signal<this, V>(this);
  }

  /** The replay of a handler, rendered. */
  export class Replay
    extends Rendered<IReplayState, IReplayView>
    implements IReplay
  {
    constructor(
      private _handler: NotebookHandler,
      render: (state: IReplayState) => string
    ) {
      super(_handler.replayModel, render);
    }
    get meta() {
      return this._handler.meta;
    }
    get isRunning() {
      return this._handler.replayModel.isRunning;
    }
    get drift() {
      return this._handler.replayModel.drift;
    }
    get driftError() {
      return this._handler.replayModel.driftError;
    }
    get driftChanged() {
      return this._handler.replayModel.driftChanged;
    }
    get timelines() {
      return this._handler.replayModel.timelines;
    }
    get timelinesChanged() {
      return this._handler.replayModel.timelinesChanged;
    }
    replay(kind: IReplayPlan['kind']) {
      return this._handler.runReplay(kind);
    }
    interrupt() {
      return this._handler.interrupt();
    }
  }

  /** The check of a handler, rendered. */
  export class Check
    extends Rendered<ICheckState, ICheckView>
    implements ICheck
  {
    constructor(
      private _handler: NotebookHandler,
      render: (state: ICheckState) => string
    ) {
      super(_handler.checkModel, render);
    }
    check() {
      return this._handler.runCheck();
    }
    nextHint() {
      return this._handler.nextHint();
    }
  }

  /** Why a job could not run, in words. */
  function reason(reason: unknown, __: Translate): string {
    if (reason instanceof NoKernelError) {
      return reason.forCheck
        ? __('no kernel could be started for the check')
        : __('no kernel is available for this notebook');
    }
    return renderStartFailure(reason, __);
  }

  /** The replay state's sentence, for people and screen readers. */
  export function replayText(s: IReplayState, __: Translate): string {
    const { status } = s;
    const top = (text: string) =>
      s.kind === 'top-to-bottom' ? __('Top to bottom: %1', text) : text;
    switch (status.code) {
      case 'replay.none':
        return '';
      case 'replay.ready':
        return __(
          'Ready to replay %1 cells in the recorded order.',
          status.params.count
        );
      case 'replay.busy':
        return __(
          'A replay is already running; wait for it to finish or press Interrupt.'
        );
      case 'replay.blocked':
        return __(
          'A check of your fix is running; replay when it has finished.'
        );
      case 'replay.not-a-copy':
        return __('This notebook is not a JunoBench working copy.');
      case 'replay.starting':
        return __('Starting a fresh kernel…');
      case 'replay.restart-silent':
        return __(
          'The kernel went silent after its restart; restarting it again…'
        );
      case 'replay.replacing':
        return __(
          'The kernel "%1" did not answer within %2 s; starting another…',
          status.params.kernel,
          status.params.seconds
        );
      case 'replay.running':
        return s.kind === 'recorded'
          ? __('Replaying %1 cells in the recorded order…', status.params.count)
          : __('Running %1 cells top to bottom…', status.params.count);
      case 'replay.step': {
        const { step, of, cell } = status.params;
        return __('Running step %1 of %2: %3.', step, of, renderCell(cell, __));
      }
      case 'replay.no-start':
        return __(
          'The replay could not start: %1',
          reason(status.params.reason, __)
        );
      case 'replay.crashed': {
        const { cell, line, ename, evalue } = status.params;
        const name = renderCell(cell, __);
        return top(
          line !== null
            ? __('Crashed in %1, line %2: %3: %4', name, line, ename, evalue)
            : __('Crashed in %1: %2: %3', name, ename, evalue)
        );
      }
      case 'replay.completed':
        return s.kind === 'recorded'
          ? __(
              'The replay ran all %1 cells without the recorded crash.',
              status.params.count
            )
          : __(
              'Top to bottom: all %1 cells ran without error.',
              status.params.count
            );
      case 'replay.stopped': {
        const { cell, seconds } = status.params;
        const name = cell ? renderCell(cell, __) : null;
        return s.result
          ? top(
              stopText(s.result, name, seconds, __) ??
                renderRunStop(s.result.stop, __)
            )
          : '';
      }
    }
  }

  /**
   * A run stopped by the kernel, a timeout or an interrupt, in words naming
   * the cell and what to do; null when the runner's own words say it.
   */
  function stopText(
    result: IRunResult,
    cell: string | null,
    seconds: number,
    __: Translate
  ): string | null {
    const n = cell ?? '';
    const fate = result.kernelFate;
    // What happened to the kernel, then what to do.
    const then = (todo: string) => __('%1 %2', renderFate(fate!, n, __), todo);
    switch (fate) {
      case 'died':
        return then(__('Press Replay to run again in a fresh kernel.'));
      case 'restarted':
        return then(__('Press Replay to run again.'));
      case 'shut-down':
        return then(__('Press Replay to start a new kernel and run again.'));
      case 'lost':
        return then(__('Check that the server is running, then press Replay.'));
      case 'unresponsive':
        return result.status === 'timeout'
          ? __(
              'The replay gave up on %1: it ran longer than %2 s and the kernel did not respond to the interrupt. Press Replay to restart the kernel.',
              n,
              seconds
            )
          : __(
              'The kernel did not respond to the interrupt of %1, so the replay gave up on it. Press Replay to restart the kernel.',
              n
            );
      case undefined:
      default:
        break;
    }
    switch (result.status) {
      case 'timeout':
        return __(
          'The replay interrupted %1: it ran longer than %2 s (the per-cell timeout is a JunoBench replay setting).',
          n,
          seconds
        );
      case 'interrupted':
        return cell !== null
          ? __('The replay was interrupted in %1.', n)
          : __('The replay was interrupted.');
      case 'kernel-died':
        return __(
          'The kernel stopped during the replay. Press Replay to run again.'
        );
      // A cancelled run: the runner's sentence carries the reason (e.g. failed set-up code).
      case 'cancelled':
      case 'completed':
      case 'crashed':
        return null;
    }
  }

  /** The check state's sentence: the verdict line, or what is happening. */
  export function checkText(status: CheckStatus, __: Translate): string {
    switch (status.code) {
      case 'check.none':
        return '';
      case 'check.blocked':
        return __('A replay is running; check your fix when it has finished.');
      case 'check.not-a-copy':
        return __('This notebook is not a working copy of a loaded case.');
      case 'check.running':
        return __(
          'Checking your fix from a fresh kernel (and the reference fix, the first time)…'
        );
      case 'check.verdict': {
        const { verdict } = status.params;
        return renderStatus(verdict.status, __, verdict.noted);
      }
      case 'check.failed':
        return __(
          'The check could not run: %1',
          reason(status.params.reason, __)
        );
      case 'check.no-hint':
        return __(
          'No hint could be made: %1',
          reason(status.params.reason, __)
        );
    }
  }

  /** The code cell at a document index of the panel's notebook, if there is one. */
  export function codeCellAt(
    panel: NotebookPanel,
    index: number
  ): ICodeCellModel | undefined {
    const cells = panel.model?.cells;
    const cell =
      cells && index >= 0 && index < cells.length ? cells.get(index) : null;
    return cell?.type === 'code' ? (cell as ICodeCellModel) : undefined;
  }

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
