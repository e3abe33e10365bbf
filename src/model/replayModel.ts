/**
 * The replay model of one working copy: the plan shown, each step's state, the
 * last run's result, verdict and crash, the kernel's drift and the state
 * timelines. It knows no widget, no kernel and no translator: its words are
 * codes with parameters (`ReplayStatus`) that the notebook handler renders.
 */
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import { cellRef } from '../i18n';
import type { ICellRef } from '../i18n';
import type { IDriftReport } from '../kernel/drift';
import type { IRunResult } from '../kernel/runner';
import { compareCrash } from '../replay/plan';
import type { INotebookJSON, IReplayPlan } from '../replay/types';
import { buildTimeline, explainCrash } from '../state/timeline';
import type { IExplanation, ITimeline } from '../state/timeline';
import type { IStoredStep, IWorkingCopyMeta } from './workingCopy';

/** The state of one timeline step. */
export type StepState = 'pending' | 'running' | 'done' | 'error' | 'skipped';

/** How the last replay compares with the recorded crash. */
export type ReplayVerdict =
  | 'as-recorded'
  | 'same-exception-different-message'
  | 'different-crash'
  | 'no-crash'
  | null;

/** What the replay says, as a code with its parameters. */
export type ReplayStatus =
  | {
      code: `replay.${'none' | 'busy' | 'blocked' | 'not-a-copy' | 'starting' | 'restart-silent'}`;
      params?: undefined;
    }
  | { code: 'replay.ready'; params: { count: number } }
  | { code: 'replay.replacing'; params: { kernel: string; seconds: number } }
  | { code: 'replay.running'; params: { count: number } }
  | {
      code: 'replay.step';
      params: { cell: ICellRef; step: number; of: number };
    }
  | { code: 'replay.no-start'; params: { reason: unknown } }
  | {
      code: 'replay.crashed';
      params: {
        cell: ICellRef;
        line: number | null;
        ename: string;
        evalue: string;
      };
    }
  | { code: 'replay.completed'; params: { count: number } }
  | {
      code: 'replay.stopped';
      params: { cell: ICellRef | null; seconds: number };
    };

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
  /** What the replay says, for people and screen readers, as a code. */
  status: ReplayStatus;
  /** Why the last run crashed, from its state timeline (null when it did not, or untracked). */
  explanation: IExplanation | null;
}

/** The state timelines of a working copy's last runs. */
export interface IReplayTimelines {
  /** The last replay in the recorded order. */
  recorded: ITimeline | null;
  /** The last run top to bottom. */
  topToBottom: ITimeline | null;
  /** Why each of those runs crashed (null when it did not). */
  why: { recorded: IExplanation | null; topToBottom: IExplanation | null };
}

/**
 * The replay state of one working copy and its transitions.
 */
export class ReplayModel {
  /** Start idle, ready to replay the recorded plan of `meta` (nothing without one). */
  constructor(meta: IWorkingCopyMeta | null) {
    this._state = meta
      ? Private.fresh('recorded', 'idle', meta.recordedPlan, {
          code: 'replay.ready',
          params: { count: meta.recordedPlan.length }
        })
      : Private.fresh(null, 'idle', [], { code: 'replay.none' });
  }

  /** Emitted when the state changes. */
  get stateChanged(): ISignal<this, IReplayState> {
    return this._stateChanged;
  }

  /** The state. */
  get state(): IReplayState {
    return this._state;
  }

  /** Whether a replay is running (or starting). */
  get isRunning(): boolean {
    return this._busy;
  }
  set isRunning(value: boolean) {
    this._busy = value;
    if (!value) {
      this._stateChanged.emit(this._state);
    }
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

  /** The state timelines of the last recorded and top-to-bottom runs. */
  get timelines(): IReplayTimelines {
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
  get timelinesChanged(): ISignal<this, IReplayTimelines> {
    return this._timelinesChanged;
  }

  /** Say something without changing the run. */
  say(status: ReplayStatus): void {
    this._set({ status });
  }

  /** A run of a plan starts: every step pending, the last result gone. */
  start(kind: IReplayPlan['kind'], steps: IStoredStep[]): void {
    this._set(
      Private.fresh(kind, 'starting', steps, { code: 'replay.starting' })
    );
  }

  /** The kernel is fresh and `count` steps run now; the stored steps in `skipped` cannot. */
  running(count: number, skipped: number[]): void {
    this._set({
      phase: 'running',
      stepStates: this._state.stepStates.map((s, i) =>
        skipped.includes(i) ? 'skipped' : s
      ),
      status: { code: 'replay.running', params: { count } }
    });
  }

  /** The run could not start (no kernel, a kernel that does not answer, ...). */
  failed(reason: unknown): void {
    this._set({
      phase: 'finished',
      status: { code: 'replay.no-start', params: { reason } }
    });
  }

  /** Stored step `step` starts in a cell, shown as running when the notebook has it. */
  stepStarted(step: number, cell: ICellRef, shown: boolean): void {
    this._set({
      stepStates: Private.setStep(this._state, step, 'running'),
      current: step,
      runningCell: shown ? cell.cellIndex + 1 : null,
      status: {
        code: 'replay.step',
        params: { cell, step: step + 1, of: this._state.steps.length }
      }
    });
  }

  /** Stored step `step` has ended, well or with an error. */
  stepEnded(step: number, ok: boolean): void {
    this._set({
      stepStates: Private.setStep(this._state, step, ok ? 'done' : 'error'),
      runningCell: null
    });
  }

  /** A kernel's probe starts; only the latest one's report counts. */
  probing(): number {
    return ++this._driftSeq;
  }

  /** The report (or the error) of probe `seq`. */
  probed(seq: number, report: IDriftReport | null, error: string | null): void {
    if (seq === this._driftSeq) {
      this._drift = report;
      this._driftError = error;
      this._driftChanged.emit(report);
    }
  }

  /**
   * The run has ended: the verdict against the recorded crash, where it
   * crashed, why it stopped and its state timeline.
   */
  finish(run: ReplayModel.IFinish): void {
    const { result, source } = run;
    const kind = this._state.kind ?? 'recorded';
    const failed =
      result.failedIndex !== null
        ? result.steps.find(s => s.index === result.failedIndex)
        : undefined;
    const cell = failed
      ? cellRef(failed.step.cellIndex, failed.executionCount)
      : null;
    let crashLine: number | null = null;
    let crashLineText: string | null = null;
    if (failed && source !== null && result.status === 'crashed') {
      const lines = source.split('\n');
      const line = failed.error?.line ?? null;
      // A line the cell does not have (a traceback from elsewhere) marks nothing.
      if (line !== null && line >= 1 && line <= lines.length) {
        crashLine = line;
        crashLineText = lines[line - 1] ?? null;
      }
    }
    let verdict: ReplayVerdict = null;
    let status: ReplayStatus;
    if (result.status === 'crashed' && failed?.error && cell) {
      const { ename, evalue } = failed.error;
      if (kind === 'recorded') {
        const match = compareCrash(run.recorded, failed.error);
        verdict =
          !run.atTarget || match === 'different-exception'
            ? 'different-crash'
            : match;
      }
      status = {
        code: 'replay.crashed',
        params: { cell, line: crashLine, ename, evalue }
      };
    } else if (result.status === 'completed') {
      verdict = kind === 'recorded' ? 'no-crash' : null;
      status = {
        code: 'replay.completed',
        params: { count: result.steps.length }
      };
    } else {
      const seconds = Math.round(run.timeoutMs / 100) / 10;
      status = { code: 'replay.stopped', params: { cell, seconds } };
    }
    // The hidden state of this run, step by step, and why it crashed.
    const timeline = buildTimeline(kind, result);
    const tracked = timeline.steps.some(st => st.changes !== null);
    this._timelines[kind] = tracked ? timeline : null;
    const explanation =
      tracked && run.notebook && result.status === 'crashed'
        ? explainCrash(timeline, run.notebook)
        : null;
    this._explanations[kind] = explanation;
    this._set({
      phase: 'finished',
      result,
      verdict,
      crashCell: cell ? cell.cellIndex + 1 : null,
      crashLine,
      crashLineText,
      status,
      // The step a dead, deaf or timed-out kernel was running did not finish.
      stepStates: this._state.stepStates.map(s =>
        s === 'running' ? 'error' : s
      ),
      current: null,
      runningCell: null,
      explanation
    });
    this._timelinesChanged.emit(this.timelines);
  }

  /** Forget every listener. */
  dispose(): void {
    Signal.clearData(this);
  }

  private _set(partial: Partial<IReplayState>): void {
    this._state = { ...this._state, ...partial };
    this._stateChanged.emit(this._state);
  }

  private _state: IReplayState;
  private _busy = false;
  private _stateChanged = new Signal<this, IReplayState>(this);
  private _drift: IDriftReport | null = null;
  private _driftError: string | null = null;
  private _driftSeq = 0;
  private _driftChanged = new Signal<this, IDriftReport | null>(this);
  private _timelines: Record<IReplayPlan['kind'], ITimeline | null> = {
    recorded: null,
    'top-to-bottom': null
  };
  private _explanations: Record<IReplayPlan['kind'], IExplanation | null> = {
    recorded: null,
    'top-to-bottom': null
  };
  private _timelinesChanged = new Signal<this, IReplayTimelines>(this);
}

/**
 * A namespace for ReplayModel statics.
 */
export namespace ReplayModel {
  /** What the model needs to judge a finished run. */
  export interface IFinish {
    /** The run's result. */
    result: IRunResult;
    /** The source of the cell the run failed in, as it is now (null: none, or not a code cell). */
    source: string | null;
    /** Whether the failed cell is the case's crashing cell. */
    atTarget: boolean;
    /** The recorded exception. */
    recorded: IWorkingCopyMeta['recorded'];
    /** The notebook the run ran in (for why it crashed). */
    notebook: INotebookJSON | null;
    /** The per-cell timeout the run had, in ms. */
    timeoutMs: number;
  }
}

namespace Private {
  /** The state before a run: every step pending, no result yet. */
  export function fresh(
    kind: IReplayState['kind'],
    phase: IReplayState['phase'],
    steps: IStoredStep[],
    status: ReplayStatus
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
      status,
      explanation: null
    };
  }

  /** The step states with one changed. */
  export function setStep(s: IReplayState, i: number, value: StepState) {
    return s.stepStates.map((old, j) => (j === i ? value : old));
  }
}
