/**
 * Drives the replay of a working copy open in a notebook panel: restarts the
 * kernel, runs the stored plan through the one kernel adapter, and mirrors
 * progress, outputs and the crash into the notebook.
 */
import type { Cell, ICodeCellModel } from '@jupyterlab/cells';
import type { CodeMirrorEditor } from '@jupyterlab/codemirror';
import type { NotebookPanel } from '@jupyterlab/notebook';
import type { IOutput } from '@jupyterlab/nbformat';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import { dirname, relative } from '../casebook/paths';
import { PlanRunner } from '../kernel/runner';
import type { IRunResult, RunnerEvent } from '../kernel/runner';
import { chdirCode } from '../kernel/snippets';
import type { IStoredStep, IWorkingCopyMeta } from '../model/workingCopy';
import { readWorkingCopyMeta } from '../model/workingCopy';
import { compareCrash } from '../replay/plan';
import type { IPlanStep, IReplayPlan } from '../replay/types';
import {
  crashLineExtension,
  hasCrashLineField,
  setCrashLine
} from './crashLine';

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
}

/**
 * The replay model of one working copy.
 */
export class ReplayController {
  /**
   * Bind to a notebook panel holding a working copy.
   */
  constructor(options: ReplayController.IOptions) {
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

  /** Whether a replay is running. */
  get isRunning(): boolean {
    return this._runner?.isRunning ?? this._starting;
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
    if (this.isRunning) {
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
    this._starting = true;
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
      this._clearNotebook();
      const { plan, indexOf } = this._buildPlan(stored);
      const runner = new PlanRunner({ kernel, timeoutMs: this._timeoutMs });
      this._runner = runner;
      this._starting = false;
      runner.event.connect((_, event) => this._onEvent(event, indexOf));
      const rel =
        relative(dirname(this._panel.context.path), meta.caseFolder) || '.';
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
      result = await runner.run(plan, { setupCode: chdirCode(rel) });
    } catch (reason) {
      this._starting = false;
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
    if (!kernel) {
      await context.startKernel();
      kernel = context.session?.kernel;
    }
    if (!kernel) {
      throw new Error(
        this._trans.__('no kernel is available for this notebook')
      );
    }
    if (kernel.status !== 'starting' && kernel.status !== 'unknown') {
      await kernel.restart();
    }
    return kernel;
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
    for (const widget of this._panel.content.widgets) {
      widget.removeClass('jp-Junobench-crashCell');
      widget.removeClass('jp-Junobench-runningCell');
      this._markLine(widget, null);
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
    const widget = this._panel.content.widgets[event.step.cellIndex];
    const model = widget?.model as ICodeCellModel | undefined;
    const states = [...this._state.stepStates];
    switch (event.type) {
      case 'step-started':
        states[storedIndex] = 'running';
        if (widget && model) {
          model.outputs.clear();
          widget.addClass('jp-Junobench-runningCell');
          this._panel.content.activeCellIndex = event.step.cellIndex;
          void this._panel.content.scrollToCell(widget, 'smart');
        }
        this._set({
          stepStates: states,
          current: storedIndex,
          message: this._trans.__(
            'Running step %1 of %2: cell %3.',
            storedIndex + 1,
            this._state.steps.length,
            event.step.cellIndex + 1
          )
        });
        break;
      case 'output':
        model?.outputs.add(event.output as unknown as IOutput);
        break;
      case 'step-finished':
        states[storedIndex] = 'done';
        if (model) {
          model.executionCount = event.executionCount;
        }
        widget?.removeClass('jp-Junobench-runningCell');
        this._set({ stepStates: states });
        break;
      case 'step-error':
        states[storedIndex] = 'error';
        widget?.removeClass('jp-Junobench-runningCell');
        this._set({ stepStates: states });
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
    let crashLine: number | null = null;
    let crashLineText: string | null = null;
    if (failed) {
      const widget = this._panel.content.widgets[failed.step.cellIndex];
      const model = widget?.model as ICodeCellModel | undefined;
      if (model && failed.executionCount !== null) {
        model.executionCount = failed.executionCount;
      }
      crashCell = failed.step.cellIndex + 1;
      if (widget && result.status === 'crashed') {
        widget.addClass('jp-Junobench-crashCell');
        crashLine = failed.error?.line ?? null;
        if (crashLine !== null) {
          crashLineText =
            widget.model.sharedModel.getSource().split('\n')[crashLine - 1] ??
            null;
          this._markLine(widget, crashLine);
        }
      }
      widget?.removeClass('jp-Junobench-runningCell');
    }
    let verdict: ReplayVerdict = null;
    let message = result.message;
    if (result.status === 'crashed' && failed?.error) {
      const error = failed.error;
      const where =
        crashLine !== null
          ? trans.__(
              'Crashed in cell %1, line %2: %3: %4',
              crashCell ?? 0,
              crashLine,
              error.ename,
              error.evalue
            )
          : trans.__(
              'Crashed in cell %1: %2: %3',
              crashCell ?? 0,
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
    } else if (kind === 'top-to-bottom') {
      message = trans.__('Top to bottom: %1', result.message);
    }
    const states = [...this._state.stepStates];
    this._set({
      phase: 'finished',
      result,
      verdict,
      crashCell,
      crashLine,
      crashLineText,
      message,
      stepStates: states,
      current: null
    });
  }

  private _markLine(widget: Cell, line: number | null): void {
    const editor = widget.editor as CodeMirrorEditor | null;
    const view = editor?.editor;
    if (!editor || !view) {
      return;
    }
    if (!hasCrashLineField(view)) {
      if (line === null) {
        return;
      }
      editor.injectExtension(crashLineExtension);
    }
    view.dispatch({ effects: setCrashLine.of(line) });
    if (line !== null) {
      editor.setCursorPosition({ line: line - 1, column: 0 });
    }
  }

  private _set(partial: Partial<IReplayState>): void {
    this._state = { ...this._state, ...partial };
    this._stateChanged.emit(this._state);
  }

  private _panel: NotebookPanel;
  private _timeoutMs: number;
  private _trans: ReplayController.ITrans;
  private _runner: PlanRunner | null = null;
  private _starting = false;
  private _state: IReplayState;
  private _stateChanged = new Signal<this, IReplayState>(this);
}

/**
 * A namespace for ReplayController statics.
 */
export namespace ReplayController {
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
  }
}

namespace Private {
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
      result: null,
      verdict: null,
      crashLine: null,
      crashLineText: null,
      crashCell: null,
      message
    };
  }
}
