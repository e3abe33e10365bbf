/**
 * Drives the replay of a working copy open in a notebook panel: restarts the
 * kernel, runs the stored plan through the one kernel adapter, and mirrors
 * progress, outputs and execution counts into the notebook model; a view
 * (`CellMarks`) marks the running and crashed cells from its state.
 */
import { PathExt } from '@jupyterlab/coreutils';
import type { ICellModel, ICodeCellModel } from '@jupyterlab/cells';
import type { NotebookPanel } from '@jupyterlab/notebook';
import type { Kernel } from '@jupyterlab/services';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import { PlanRunner, replaceableKernel } from '../kernel/runner';
import type { IRunResult, RunnerEvent } from '../kernel/runner';
import {
  evidenceInstallCode,
  trackExpression,
  trackResetCode
} from '../kernel/evidenceSnippets';
import { chdirCode } from '../kernel/snippets';
import { compareEnvironment } from '../kernel/drift';
import type { IDriftReport } from '../kernel/drift';
import { BENCHMARK_PINS } from '../kernel/pins';
import { within } from '../kernel/freshSession';
import { isPristineKernel, probeEnvironment } from '../kernel/probe';
import { restartAnswering } from '../kernel/restart';
import type { IStoredStep, IWorkingCopyMeta } from './workingCopy';
import { readWorkingCopyMeta } from './workingCopy';
import { compareCrash } from '../replay/plan';
import type { IPlanStep, IReplayPlan } from '../replay/types';
import { buildTimeline, explainCrash } from '../state/timeline';
import type { IExplanation, ITimeline } from '../state/timeline';
import { cellName } from '../i18n';
import { renderRunStop } from '../kernel/stop';

/** The state of one timeline step. */
export type StepState = 'pending' | 'running' | 'done' | 'error' | 'skipped';

/** How the last replay compares with the recorded crash. */
export type ReplayVerdict =
  | 'as-recorded'
  | 'same-exception-different-message'
  | 'different-crash'
  | 'no-crash'
  | null;

/** What the replay bar shows. */
export interface IReplayState {
  /** Which plan ran last or is running. */
  kind: IReplayPlan['kind'] | null;
  /** Phase of the replay. */
  phase: 'idle' | 'starting' | 'running' | 'finished';
  /** The stored steps of the plan shown. */
  steps: IStoredStep[];
  /** State of each step. */
  stepStates: StepState[];
  /** The running step. */
  current: number | null;
  /** Cell number (1-based, document order) of the step running now, or null between steps. */
  runningCell: number | null;
  /** The last run's result. */
  result: IRunResult | null;
  /** Comparison with the recorded crash (recorded plan only). */
  verdict: ReplayVerdict;
  /** 1-based line of the crash in its cell. */
  crashLine: number | null;
  /** The text of the crash line. */
  crashLineText: string | null;
  /** Cell number (1-based, document order) of the crash. */
  crashCell: number | null;
  /** A sentence for people (and screen readers). */
  message: string;
  /** Why the last run crashed, from its state timeline (null when it did not, or untracked). */
  explanation: IExplanation | null;
}

/**
 * The replay model of one working copy.
 */
export class ReplayController {
  /**
   * Bind to a notebook panel holding a working copy.
   */
  constructor(options: ReplayController.IOptions) {
    this._options = options;
    this._panel = options.panel;
    this._timeoutMs = options.timeoutMs;
    this._trans = options.trans;
    const meta = this.meta;
    this._state = meta
      ? Private.freshState(
          'recorded',
          'idle',
          meta.recordedPlan,
          this._trans.__(
            'Ready to replay %1 cells in the recorded order.',
            meta.recordedPlan.length
          )
        )
      : Private.freshState(null, 'idle', [], '');
    // Say which library versions differ from the benchmark as soon as the
    // case's kernel is there, and again whenever the kernel changes.
    const sessionContext = this._panel.sessionContext;
    sessionContext.kernelChanged.connect(
      () => void this.checkEnvironment(),
      this
    );
    void sessionContext.ready.then(
      () => this.checkEnvironment(),
      () => undefined
    );
  }

  /** Emitted when the state changes. */
  get stateChanged(): ISignal<this, IReplayState> {
    return this._stateChanged;
  }

  /** The state. */
  get state(): IReplayState {
    return this._state;
  }

  /** The working copy metadata, read from the notebook. */
  get meta(): IWorkingCopyMeta | null {
    return readWorkingCopyMeta({
      junobench: this._panel.model?.getMetadata('junobench')
    });
  }

  /** Whether a replay is running (or starting). */
  get isRunning(): boolean {
    return this._busy;
  }

  /** Per-cell timeout in ms. */
  set timeoutMs(value: number) {
    this._timeoutMs = value;
    if (this._runner) {
      this._runner.timeoutMs = value;
    }
  }

  /**
   * Replay from a fresh kernel; `recorded` follows the execution counts,
   * `top-to-bottom` the document.
   */
  async replay(kind: IReplayPlan['kind']): Promise<IRunResult | null> {
    if (this._busy) {
      // A second press while one runs: refused, the running one goes on.
      this._set({
        message: this._trans.__(
          'A replay is already running; wait for it to finish or press Interrupt.'
        )
      });
      return null;
    }
    const blocked = this._options.blockedBy?.() ?? null;
    if (blocked) {
      this._set({ message: blocked });
      return null;
    }
    const meta = this.meta;
    if (!meta) {
      this._set({
        message: this._trans.__(
          'This notebook is not a JunoBench working copy.'
        )
      });
      return null;
    }
    this._busy = true;
    try {
      return await this._replay(kind, meta);
    } finally {
      this._busy = false;
      this._stateChanged.emit(this._state);
    }
  }

  private async _replay(
    kind: IReplayPlan['kind'],
    meta: IWorkingCopyMeta
  ): Promise<IRunResult | null> {
    const stored =
      kind === 'recorded' ? meta.recordedPlan : meta.topToBottomPlan;
    this._set(
      Private.freshState(
        kind,
        'starting',
        stored,
        this._trans.__('Starting a fresh kernel…')
      )
    );
    let result: IRunResult;
    try {
      const kernel = await this._freshKernel();
      // The fresh kernel's versions, next to the verdict this run will give.
      await this.checkEnvironment(kernel, 10000);
      this._clearNotebook();
      const { plan, indexOf } = this._buildPlan(stored);
      const runner = new PlanRunner({
        kernel,
        timeoutMs: this._timeoutMs,
        translate: this._trans.__.bind(this._trans)
      });
      this._runner = runner;
      runner.event.connect((_, event) => this._onEvent(event, indexOf));
      const rel = this._kernelStartsAtRoot()
        ? meta.caseFolder || '.'
        : PathExt.relative(
            PathExt.dirname(this._panel.context.path),
            meta.caseFolder
          ) || '.';
      this._set({
        phase: 'running',
        message:
          kind === 'recorded'
            ? this._trans.__(
                'Replaying %1 cells in the recorded order…',
                plan.steps.length
              )
            : this._trans.__(
                'Running %1 cells top to bottom…',
                plan.steps.length
              )
      });
      result = await runner.run(plan, {
        // The state probe reports after every step what it did to the namespace.
        setupCode: `${chdirCode(rel)}\n${evidenceInstallCode()}\n${trackResetCode()}`,
        instrument: () => ({
          before: '',
          after: '',
          collect: trackExpression(false)
        })
      });
    } catch (reason) {
      this._runner = null;
      this._set({
        phase: 'finished',
        message: this._trans.__(
          'The replay could not start: %1',
          (reason as Error).message
        )
      });
      return null;
    }
    this._finish(kind, meta, result);
    await this._panel.context.save().catch(() => undefined);
    return result;
  }

  /** The kernel's differences from the benchmark pins (null until probed). */
  get drift(): IDriftReport | null {
    return this._drift;
  }

  /** Why the last environment probe failed, or null. */
  get driftError(): string | null {
    return this._driftError;
  }

  /** Emitted when the environment has been probed. */
  get driftChanged(): ISignal<this, IDriftReport | null> {
    return this._driftChanged;
  }

  /**
   * Ask the kernel (default: the notebook's) for its library versions and
   * compare them with the benchmark pins; only the latest probe counts.
   */
  async checkEnvironment(
    kernel?: Kernel.IKernelConnection | null,
    timeoutMs = 30000
  ): Promise<IDriftReport | null> {
    const target = kernel ?? this._panel.sessionContext.session?.kernel;
    if (!target || !this.meta) {
      return null;
    }
    const seq = ++this._driftSeq;
    let report: IDriftReport | null = null;
    let error: string | null = null;
    try {
      const probe = await probeEnvironment(target, BENCHMARK_PINS, {
        timeoutMs
      });
      report = compareEnvironment(probe, BENCHMARK_PINS);
    } catch (reason) {
      error = (reason as Error).message;
    }
    if (seq === this._driftSeq) {
      this._drift = report;
      this._driftError = error;
      this._driftChanged.emit(report);
    }
    return report;
  }

  /** Interrupt the running replay. */
  async interrupt(): Promise<void> {
    await this._runner?.interrupt();
  }

  /** Forget the panel. */
  dispose(): void {
    this._runner?.cancel();
    Signal.clearData(this);
  }

  private async _freshKernel() {
    const context = this._panel.sessionContext;
    await context.ready;
    let kernel = context.session?.kernel;
    const name = kernel?.name;
    if (kernel && (await replaceableKernel(kernel))) {
      // Shut down from another tab: the session went with it, so drop the
      // stale connection and start a new session for this notebook.
      context.session?.dispose();
      kernel = null;
    }
    if (!kernel) {
      if (name) {
        await context.changeKernel({ name });
      } else {
        await context.startKernel();
      }
      kernel = context.session?.kernel;
    } else if (
      kernel.status !== 'starting' &&
      kernel.status !== 'unknown' &&
      !(await isPristineKernel(kernel))
    ) {
      // A kernel that has run nothing (just started for this copy, or taken
      // warm from the pool) is as fresh as a restarted one, and faster.
      // A restart can leave the connection silent (the restart race,
      // docs/faults.md): then it is restarted again, and the learner told.
      await restartAnswering(kernel, {
        onSilent: () =>
          this._set({
            message: this._trans.__(
              'The kernel went silent after its restart; restarting it again…'
            )
          })
      });
    }
    if (!kernel) {
      throw new Error(
        this._trans.__('no kernel is available for this notebook')
      );
    }
    return this._answering(kernel);
  }

  /**
   * The kernel once it has answered a `kernel_info` request. A kernel process
   * can hang before it answers anything (ipykernel whose IOPub port another
   * process took first stays "starting" for ever); one silent for
   * `kernelReplaceMs` (60 s) is shut down and another started in its place,
   * once, on new ports, and the header says so. A fresh kernel has no state
   * to lose.
   */
  private async _answering(
    kernel: Kernel.IKernelConnection
  ): Promise<Kernel.IKernelConnection> {
    const replaceMs = this._options.kernelReplaceMs ?? Private.REPLACE_MS;
    if (await Private.answers(kernel, replaceMs)) {
      return kernel;
    }
    const seconds = Math.round(replaceMs / 1000);
    this._set({
      message: this._trans.__(
        'The kernel "%1" did not answer within %2 s; starting another…',
        kernel.name,
        seconds
      )
    });
    // The server starts a new kernel for the session and shuts the old one down.
    await this._panel.sessionContext.changeKernel({ name: kernel.name });
    const next = this._panel.sessionContext.session?.kernel;
    const readyMs = this._options.kernelReadyMs ?? Private.READY_MS;
    if (next && (await Private.answers(next, readyMs))) {
      return next;
    }
    throw new Error(
      this._trans.__(
        'the kernel "%1" did not answer within %2 s',
        kernel.name,
        Math.round(readyMs / 1000)
      )
    );
  }

  private _clearNotebook(): void {
    const model = this._panel.model;
    if (!model) {
      return;
    }
    for (let i = 0; i < model.cells.length; i++) {
      const cell = model.cells.get(i);
      if (cell.type === 'code') {
        (cell as ICodeCellModel).outputs.clear();
        (cell as ICodeCellModel).executionCount = null;
      }
    }
  }

  private _buildPlan(stored: IStoredStep[]): {
    plan: IReplayPlan;
    indexOf: number[];
  } {
    const model = this._panel.model!;
    const position = new Map<string, number>();
    let code = 0;
    const codeIndex = new Map<number, number>();
    for (let i = 0; i < model.cells.length; i++) {
      const cell = model.cells.get(i);
      position.set(cell.id, i);
      if (cell.type === 'code') {
        codeIndex.set(i, code++);
      }
    }
    const steps: IPlanStep[] = [];
    const indexOf: number[] = [];
    stored.forEach((s, storedIndex) => {
      const at = position.get(s.cellId);
      if (at === undefined) {
        // The learner deleted this cell: it cannot run, the timeline says so.
        this._state.stepStates[storedIndex] = 'skipped';
        return;
      }
      steps.push({
        cellIndex: at,
        codeCellIndex: codeIndex.get(at) ?? -1,
        executionCount: s.count,
        source: model.cells.get(at).sharedModel.getSource(),
        run: s.run,
        isTarget: s.target
      });
      indexOf.push(storedIndex);
    });
    return { plan: { kind: 'recorded', steps, target: null }, indexOf };
  }

  private _onEvent(event: RunnerEvent, indexOf: number[]): void {
    if (event.type === 'run-started' || event.type === 'run-finished') {
      return;
    }
    const storedIndex = indexOf[event.index];
    const model = Private.codeCellAt(this._panel, event.step.cellIndex);
    const states = [...this._state.stepStates];
    switch (event.type) {
      case 'step-started':
        states[storedIndex] = 'running';
        model?.outputs.clear();
        this._set({
          stepStates: states,
          current: storedIndex,
          runningCell: model ? event.step.cellIndex + 1 : null,
          message: this._trans.__(
            'Running step %1 of %2: %3.',
            storedIndex + 1,
            this._state.steps.length,
            cellName(
              event.step.cellIndex,
              model?.executionCount ?? null,
              this._trans.__.bind(this._trans)
            )
          )
        });
        break;
      case 'output':
        model?.outputs.add(event.output);
        break;
      case 'clear-output':
        model?.outputs.clear();
        break;
      case 'step-finished':
        states[storedIndex] = 'done';
        if (model) {
          model.executionCount = event.executionCount;
        }
        this._set({ stepStates: states, runningCell: null });
        break;
      case 'step-error':
        states[storedIndex] = 'error';
        this._set({ stepStates: states, runningCell: null });
        break;
    }
  }

  private _finish(
    kind: IReplayPlan['kind'],
    meta: IWorkingCopyMeta,
    result: IRunResult
  ): void {
    const trans = this._trans;
    this._runner = null;
    const failed =
      result.failedIndex !== null
        ? result.steps.find(s => s.index === result.failedIndex)
        : undefined;
    let crashCell: number | null = null;
    // The crashing cell as the learner sees it after the run: position and prompt.
    let crashName: string | null = null;
    let crashLine: number | null = null;
    let crashLineText: string | null = null;
    if (failed) {
      const model = Private.codeCellAt(this._panel, failed.step.cellIndex);
      if (model && failed.executionCount !== null) {
        model.executionCount = failed.executionCount;
      }
      crashCell = failed.step.cellIndex + 1;
      crashName = cellName(
        failed.step.cellIndex,
        failed.executionCount,
        trans.__.bind(trans)
      );
      if (model && result.status === 'crashed') {
        const lines = model.sharedModel.getSource().split('\n');
        crashLine = failed.error?.line ?? null;
        // A line the cell does not have (a traceback from elsewhere) marks nothing.
        if (
          crashLine !== null &&
          !(crashLine >= 1 && crashLine <= lines.length)
        ) {
          crashLine = null;
        }
        if (crashLine !== null) {
          crashLineText = lines[crashLine - 1] ?? null;
        }
      }
    }
    let verdict: ReplayVerdict = null;
    let message: string;
    if (result.status === 'crashed' && failed?.error) {
      const error = failed.error;
      const where =
        crashLine !== null
          ? trans.__(
              'Crashed in %1, line %2: %3: %4',
              crashName ?? '',
              crashLine,
              error.ename,
              error.evalue
            )
          : trans.__(
              'Crashed in %1: %2: %3',
              crashName ?? '',
              error.ename,
              error.evalue
            );
      if (kind === 'recorded') {
        const atTarget =
          meta.targetCellId !== null &&
          this._panel.model?.cells.get(failed.step.cellIndex)?.id ===
            meta.targetCellId;
        const match = compareCrash(meta.recorded, error);
        verdict =
          !atTarget || match === 'different-exception'
            ? 'different-crash'
            : match;
        message = where;
      } else {
        message = trans.__('Top to bottom: %1', where);
      }
    } else if (result.status === 'completed') {
      if (kind === 'recorded') {
        verdict = 'no-crash';
        message = trans.__(
          'The replay ran all %1 cells without the recorded crash.',
          result.steps.length
        );
      } else {
        message = trans.__(
          'Top to bottom: all %1 cells ran without error.',
          result.steps.length
        );
      }
    } else {
      message =
        this._stopMessage(result, crashName) ??
        renderRunStop(result.stop, trans.__.bind(trans));
      if (kind === 'top-to-bottom') {
        message = trans.__('Top to bottom: %1', message);
      }
    }
    // The step a dead, deaf or timed-out kernel was running did not finish.
    const states = this._state.stepStates.map((s): StepState =>
      s === 'running' ? 'error' : s
    );
    // The hidden state of this run, step by step, and why it crashed.
    const timeline = buildTimeline(
      kind === 'recorded' ? 'recorded' : 'top-to-bottom',
      result
    );
    const tracked = timeline.steps.some(st => st.changes !== null);
    this._timelines[kind] = tracked ? timeline : null;
    const notebook = this._panel.model?.sharedModel.toJSON();
    const explanation =
      tracked && notebook && result.status === 'crashed'
        ? explainCrash(timeline, notebook)
        : null;
    this._explanations[kind] = explanation;
    this._set({
      phase: 'finished',
      result,
      verdict,
      crashCell,
      crashLine,
      crashLineText,
      message,
      stepStates: states,
      current: null,
      runningCell: null,
      explanation
    });
    this._timelinesChanged.emit(this.timelines);
  }

  /** The state timelines of the last recorded and top-to-bottom runs. */
  get timelines(): ReplayController.ITimelines {
    return {
      recorded: this._timelines.recorded,
      topToBottom: this._timelines['top-to-bottom'],
      why: {
        recorded: this._explanations.recorded,
        topToBottom: this._explanations['top-to-bottom']
      }
    };
  }

  /** Emitted when a run's state timeline is ready. */
  get timelinesChanged(): ISignal<this, ReplayController.ITimelines> {
    return this._timelinesChanged;
  }

  /**
   * A translated sentence for a run stopped by the kernel, a timeout or an
   * interrupt, naming the cell (1-based, document order) and what to do.
   */
  private _stopMessage(result: IRunResult, cell: string | null): string | null {
    const trans = this._trans;
    const n = cell ?? '';
    const seconds = Math.round(this._timeoutMs / 100) / 10;
    switch (result.kernelFate) {
      case 'died':
        return trans.__(
          'The kernel died while running %1; its state is lost. Press Replay to run again in a fresh kernel.',
          n
        );
      case 'restarted':
        return trans.__(
          'The kernel was restarted while running %1; its state is lost. Press Replay to run again.',
          n
        );
      case 'shut-down':
        return trans.__(
          'The kernel was shut down while running %1. Press Replay to start a new kernel and run again.',
          n
        );
      case 'lost':
        return trans.__(
          'The connection to the kernel was lost while running %1. Check that the server is running, then press Replay.',
          n
        );
      case 'unresponsive':
        return result.status === 'timeout'
          ? trans.__(
              'The replay gave up on %1: it ran longer than %2 s and the kernel did not respond to the interrupt. Press Replay to restart the kernel.',
              n,
              seconds
            )
          : trans.__(
              'The kernel did not respond to the interrupt of %1, so the replay gave up on it. Press Replay to restart the kernel.',
              n
            );
      case undefined:
      default:
        break;
    }
    switch (result.status) {
      case 'timeout':
        return trans.__(
          'The replay interrupted %1: it ran longer than %2 s (the per-cell timeout is a JunoBench replay setting).',
          n,
          seconds
        );
      case 'interrupted':
        return cell !== null
          ? trans.__('The replay was interrupted in %1.', n)
          : trans.__('The replay was interrupted.');
      case 'cancelled':
        // The runner's sentence carries the reason (e.g. failed set-up code).
        return null;
      case 'kernel-died':
        return trans.__(
          'The kernel stopped during the replay. Press Replay to run again.'
        );
      case 'completed':
      case 'crashed':
      default:
        return null;
    }
  }

  /**
   * Whether the probed kernel started outside the notebook's folder: a Kernel
   * Gateway starts kernels in its own working directory, which must then be
   * the server root (docs/environment.md).
   */
  private _kernelStartsAtRoot(): boolean {
    const cwd = this._drift?.cwd.replace(/\\/g, '/').replace(/\/+$/, '');
    const dir = PathExt.dirname(this._panel.context.path);
    if (!cwd || !dir) {
      return false;
    }
    return cwd !== dir && !cwd.endsWith(`/${dir}`);
  }

  private _timelines: Record<IReplayPlan['kind'], ITimeline | null> = {
    recorded: null,
    'top-to-bottom': null
  };
  private _explanations: Record<IReplayPlan['kind'], IExplanation | null> = {
    recorded: null,
    'top-to-bottom': null
  };
  private _timelinesChanged = new Signal<this, ReplayController.ITimelines>(
    this
  );

  private _set(partial: Partial<IReplayState>): void {
    this._state = { ...this._state, ...partial };
    this._stateChanged.emit(this._state);
  }

  private _panel: NotebookPanel;
  private _timeoutMs: number;
  private _trans: ReplayController.ITrans;
  private _runner: PlanRunner | null = null;
  private _busy = false;
  private _options: ReplayController.IOptions;
  private _state: IReplayState;
  private _stateChanged = new Signal<this, IReplayState>(this);
  private _drift: IDriftReport | null = null;
  private _driftError: string | null = null;
  private _driftSeq = 0;
  private _driftChanged = new Signal<this, IDriftReport | null>(this);
}

/**
 * A namespace for ReplayController statics.
 */
export namespace ReplayController {
  /** The state timelines of a working copy's last runs. */
  export interface ITimelines {
    /** The last replay in the recorded order. */
    recorded: ITimeline | null;
    /** The last run top to bottom. */
    topToBottom: ITimeline | null;
    /** Why each of those runs crashed (null when it did not). */
    why: { recorded: IExplanation | null; topToBottom: IExplanation | null };
  }

  /** The translation calls the controller uses. */
  export interface ITrans {
    __(msgid: string, ...args: unknown[]): string;
  }

  /** Options to create a controller. */
  export interface IOptions {
    /** The notebook panel with the working copy. */
    panel: NotebookPanel;
    /** Per-cell timeout in ms (0: none). */
    timeoutMs: number;
    /** Translation bundle. */
    trans: ITrans;
    /**
     * Why a replay cannot start now (e.g. a check of this copy is running),
     * or null when it can.
     */
    blockedBy?: () => string | null;
    /** How long a kernel may stay silent before it is replaced (default 60 s). */
    kernelReplaceMs?: number;
    /** How long its replacement has to answer (default 180 s). */
    kernelReadyMs?: number;
  }
}

namespace Private {
  /** How long a kernel may stay silent before the replay replaces it. */
  export const REPLACE_MS = 60000;
  /** How long the replacement has to answer. */
  export const READY_MS = 180000;

  /**
   * Whether the kernel answers a `kernel_info` request within `ms`: the
   * connection's own request, made when it connects, resolves `info` once
   * per connection. (A kernel the replay restarts has answered before; the
   * server's restart itself waits for the restarted kernel to answer.)
   */
  export function answers(
    kernel: Kernel.IKernelConnection,
    ms: number
  ): Promise<boolean> {
    return within(
      kernel.info.then(
        () => true,
        () => false
      ),
      ms
    );
  }

  /**
   * The code cell at a document index of the panel's notebook, if there is one.
   */
  export function codeCellAt(
    panel: NotebookPanel,
    index: number
  ): ICodeCellModel | undefined {
    const cells = panel.model?.cells;
    const cell: ICellModel | undefined =
      cells && index >= 0 && index < cells.length
        ? cells.get(index)
        : undefined;
    return cell?.type === 'code' ? (cell as ICodeCellModel) : undefined;
  }

  /**
   * The state before a run: every step pending, no result yet.
   */
  export function freshState(
    kind: IReplayState['kind'],
    phase: IReplayState['phase'],
    steps: IStoredStep[],
    message: string
  ): IReplayState {
    return {
      kind,
      phase,
      steps,
      stepStates: steps.map((): StepState => 'pending'),
      current: null,
      runningCell: null,
      result: null,
      verdict: null,
      crashLine: null,
      crashLineText: null,
      crashCell: null,
      message,
      explanation: null
    };
  }
}
