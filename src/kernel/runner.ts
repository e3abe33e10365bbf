/**
 * The one adapter between replay plans and a live kernel.
 *
 * It owns the execute futures, the per-cell timeout, interrupts and the
 * detection of a kernel that died, and reports progress as typed events.
 * Used by the JupyterLab plugins and by the Node command line alike.
 */
import type { Kernel, KernelMessage } from '@jupyterlab/services';
import { PromiseDelegate } from '@lumino/coreutils';
import { Signal } from '@lumino/signaling';
import type { ISignal } from '@lumino/signaling';

import { stripAnsi } from '../replay/ansi';
import { crashLineFromTraceback } from '../replay/plan';
import type { INbOutput, IPlanStep, IReplayPlan } from '../replay/types';

/** The error a cell raised, as the kernel reported it. */
export interface ICellError {
  /** Exception class name. */
  ename: string;
  /** Exception message. */
  evalue: string;
  /** Traceback lines, ANSI codes removed. */
  traceback: string[];
  /** 1-based line of the cell where it happened, when the traceback says. */
  line: number | null;
}

/** Why a run ended. */
export type RunStatus =
  | 'completed'
  | 'crashed'
  | 'timeout'
  | 'interrupted'
  | 'kernel-died'
  | 'cancelled';

/** A progress event of a run. */
export type RunnerEvent =
  | { type: 'run-started'; total: number }
  | { type: 'step-started'; index: number; step: IPlanStep }
  | { type: 'output'; index: number; step: IPlanStep; output: INbOutput }
  | {
      type: 'step-finished';
      index: number;
      step: IPlanStep;
      executionCount: number | null;
      durationMs: number;
    }
  | { type: 'step-error'; index: number; step: IPlanStep; error: ICellError }
  | { type: 'run-finished'; result: IRunResult };

/** The outcome of one executed step. */
export interface IStepResult {
  /** Index of the step in the plan. */
  index: number;
  /** The step. */
  step: IPlanStep;
  /** Outputs the cell produced, in nbformat shape. */
  outputs: INbOutput[];
  /** The execution count the kernel assigned. */
  executionCount: number | null;
  /** Wall time of the step. */
  durationMs: number;
  /** The error it raised, if any. */
  error: ICellError | null;
}

/** The outcome of a run. */
export interface IRunResult {
  /** Why the run ended. */
  status: RunStatus;
  /** Results of the steps that ran (including the one that failed). */
  steps: IStepResult[];
  /** Index of the step that failed, timed out or was running when the kernel died. */
  failedIndex: number | null;
  /** The first error met, when the run crashed. */
  error: ICellError | null;
  /** A sentence for people, saying what happened. */
  message: string;
  /** Wall time of the whole run. */
  durationMs: number;
}

/**
 * Runs replay plans on one kernel connection, one run at a time.
 */
export class PlanRunner {
  /**
   * Create a runner over a kernel connection it does not own.
   */
  constructor(options: PlanRunner.IOptions) {
    this._kernel = options.kernel;
    this._timeoutMs = options.timeoutMs ?? 0;
  }

  /** Progress events of the current run. */
  get event(): ISignal<this, RunnerEvent> {
    return this._event;
  }

  /** Whether a run is in progress. */
  get isRunning(): boolean {
    return this._running !== null;
  }

  /** Per-cell timeout in milliseconds; 0 means none. */
  get timeoutMs(): number {
    return this._timeoutMs;
  }
  set timeoutMs(value: number) {
    this._timeoutMs = Math.max(0, value);
  }

  /**
   * Run a plan from `fromIndex` on, stopping at the first error unless
   * `continueOnErrorBefore` allows errors in steps before that index.
   */
  async run(
    plan: IReplayPlan,
    options: PlanRunner.IRunOptions = {}
  ): Promise<IRunResult> {
    if (this._running) {
      throw new Error('A replay is already running on this kernel.');
    }
    const state: Private.IRunState = {
      cancelled: false,
      interrupted: false,
      current: null
    };
    this._running = state;
    const started = now();
    const results: IStepResult[] = [];
    const from = options.fromIndex ?? 0;
    const allowBefore = options.continueOnErrorBefore ?? -1;
    this._event.emit({ type: 'run-started', total: plan.steps.length });
    let result: IRunResult | null = null;
    try {
      if (options.setupCode) {
        await this._runSilently(options.setupCode);
      }
      for (let index = from; index < plan.steps.length; index++) {
        if (state.cancelled) {
          result = Private.result('cancelled', results, null, null, started);
          break;
        }
        const step = plan.steps[index];
        const outcome = await this._runStep(index, step, state);
        results.push(outcome.result);
        if (outcome.kind === 'ok') {
          continue;
        }
        if (outcome.kind === 'error') {
          if (index < allowBefore && !state.interrupted) {
            continue;
          }
          const status: RunStatus = state.interrupted
            ? 'interrupted'
            : 'crashed';
          result = Private.result(
            status,
            results,
            index,
            outcome.result.error,
            started
          );
          break;
        }
        result = Private.result(
          outcome.kind,
          results,
          index,
          outcome.result.error,
          started,
          outcome.message
        );
        break;
      }
      if (!result) {
        result = Private.result('completed', results, null, null, started);
      }
    } catch (reason) {
      result = Private.result(
        this._kernel.isDisposed || this._kernel.status === 'dead'
          ? 'kernel-died'
          : 'cancelled',
        results,
        results.length ? results[results.length - 1].index : null,
        null,
        started,
        `The replay stopped: ${(reason as Error).message ?? String(reason)}`
      );
    } finally {
      this._running = null;
    }
    this._event.emit({ type: 'run-finished', result });
    return result;
  }

  /**
   * Interrupt the running cell; the run ends as `interrupted`.
   */
  async interrupt(): Promise<void> {
    if (!this._running) {
      return;
    }
    this._running.interrupted = true;
    this._running.cancelled = true;
    await this._kernel.interrupt();
  }

  /**
   * Stop after the running cell finishes, without interrupting it.
   */
  cancel(): void {
    if (this._running) {
      this._running.cancelled = true;
    }
  }

  /**
   * Execute code without recording it in the history (set-up snippets).
   */
  private async _runSilently(code: string): Promise<void> {
    const future = this._kernel.requestExecute({
      code,
      silent: true,
      store_history: false,
      stop_on_error: true
    });
    let error: ICellError | null = null;
    future.onIOPub = msg => {
      if (msg.header.msg_type === 'error') {
        error = Private.toError((msg as KernelMessage.IErrorMsg).content);
      }
    };
    const reply = await future.done;
    const content = reply.content;
    if (content.status === 'error' || error) {
      const err: ICellError =
        error ?? Private.toError(content as KernelMessage.IReplyErrorContent);
      throw new Error(`Set-up code failed: ${err.ename}: ${err.evalue}`);
    }
  }

  /**
   * Run one step, racing its reply against the timeout and kernel death.
   */
  private async _runStep(
    index: number,
    step: IPlanStep,
    state: Private.IRunState
  ): Promise<Private.IStepOutcome> {
    const started = now();
    const outputs: INbOutput[] = [];
    let error: ICellError | null = null;
    let executionCount: number | null = null;
    this._event.emit({ type: 'step-started', index, step });

    const settle = new PromiseDelegate<Private.IStepOutcome>();
    const stepResult = (): IStepResult => ({
      index,
      step,
      outputs,
      executionCount,
      durationMs: now() - started,
      error
    });

    const onStatus = (_: unknown, status: KernelMessage.Status) => {
      if (
        status === 'dead' ||
        status === 'autorestarting' ||
        status === 'restarting'
      ) {
        settle.resolve({
          kind: 'kernel-died',
          result: stepResult(),
          message: Private.deathMessage(status)
        });
      }
    };
    const onDisposed = () => {
      settle.resolve({
        kind: 'kernel-died',
        result: stepResult(),
        message: 'The kernel connection was closed (the kernel was shut down).'
      });
    };
    this._kernel.statusChanged.connect(onStatus);
    this._kernel.disposed.connect(onDisposed);

    let timer: ReturnType<typeof setTimeout> | null = null;
    const replied = new PromiseDelegate<void>();
    let timedOut = false;
    if (this._timeoutMs > 0) {
      timer = setTimeout(() => {
        timedOut = true;
        void this._timeout(index, settle, stepResult, replied.promise);
      }, this._timeoutMs);
    }

    try {
      const future = this._kernel.requestExecute({
        code: step.source,
        silent: false,
        store_history: true,
        allow_stdin: false,
        stop_on_error: true
      });
      state.current = future;
      future.onIOPub = msg => {
        const output = Private.toOutput(msg);
        if (output === 'clear') {
          outputs.length = 0;
          return;
        }
        if (!output) {
          return;
        }
        if (output.output_type === 'error') {
          error = Private.toError((msg as KernelMessage.IErrorMsg).content);
        }
        outputs.push(output);
        this._event.emit({ type: 'output', index, step, output });
      };
      void future.done.then(
        () => replied.resolve(),
        () => replied.resolve()
      );
      future.done
        .then(reply => {
          const content = reply.content;
          executionCount =
            'execution_count' in content
              ? ((content.execution_count as number | null) ?? null)
              : null;
          if (timedOut) {
            // The timeout path settles the step once the interrupt lands.
            return;
          }
          if (content.status === 'ok') {
            settle.resolve({ kind: 'ok', result: stepResult() });
          } else {
            if (!error && content.status === 'error') {
              error = Private.toError(
                content as KernelMessage.IReplyErrorContent
              );
            }
            if (!error) {
              error = {
                ename: 'Aborted',
                evalue: 'The kernel aborted the execution.',
                traceback: [],
                line: null
              };
            }
            settle.resolve({ kind: 'error', result: stepResult() });
          }
        })
        .catch((reason: unknown) => {
          settle.resolve({
            kind: 'kernel-died',
            result: stepResult(),
            message: `The kernel stopped answering: ${
              (reason as Error)?.message ?? String(reason)
            }`
          });
        });
      const outcome = await settle.promise;
      if (outcome.kind === 'error' && outcome.result.error) {
        this._event.emit({
          type: 'step-error',
          index,
          step,
          error: outcome.result.error
        });
      } else if (outcome.kind === 'ok') {
        this._event.emit({
          type: 'step-finished',
          index,
          step,
          executionCount,
          durationMs: outcome.result.durationMs
        });
      }
      return outcome;
    } finally {
      if (timer) {
        clearTimeout(timer);
      }
      state.current = null;
      this._kernel.statusChanged.disconnect(onStatus);
      this._kernel.disposed.disconnect(onDisposed);
    }
  }

  /**
   * Interrupt a cell that ran too long and settle its step as timed out.
   */
  private async _timeout(
    index: number,
    settle: PromiseDelegate<Private.IStepOutcome>,
    stepResult: () => IStepResult,
    replied: Promise<void>
  ): Promise<void> {
    const seconds = Math.round(this._timeoutMs / 100) / 10;
    const message = `Cell ${index + 1} of the replay ran longer than ${seconds} s and was interrupted.`;
    try {
      await this._kernel.interrupt();
      // Wait for the interrupted cell's reply, so the next request is not
      // aborted by the kernel's stop-on-error; a kernel deaf to interrupts
      // does not hold the replay for more than a few seconds.
      await Promise.race([
        replied,
        new Promise(resolve => setTimeout(resolve, 5000))
      ]);
    } catch {
      // The kernel may already be gone; the timeout is reported either way.
    }
    settle.resolve({ kind: 'timeout', result: stepResult(), message });
  }

  private _event = new Signal<this, RunnerEvent>(this);
  private _kernel: Kernel.IKernelConnection;
  private _timeoutMs: number;
  private _running: Private.IRunState | null = null;
}

/**
 * A namespace for PlanRunner statics.
 */
export namespace PlanRunner {
  /** Options to create a runner. */
  export interface IOptions {
    /** The kernel to run on. */
    kernel: Kernel.IKernelConnection;
    /** Per-cell timeout in milliseconds; 0 or absent means none. */
    timeoutMs?: number;
  }

  /** Options of one run. */
  export interface IRunOptions {
    /** Start at this step (to resume). */
    fromIndex?: number;
    /** Errors in steps before this index do not stop the run. */
    continueOnErrorBefore?: number;
    /** Code run silently before the first step (e.g. to change directory). */
    setupCode?: string;
  }
}

/**
 * Milliseconds from a monotonic clock.
 */
function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

namespace Private {
  export interface IRunState {
    cancelled: boolean;
    interrupted: boolean;
    current: unknown;
  }

  export type IStepOutcome =
    | { kind: 'ok'; result: IStepResult }
    | { kind: 'error'; result: IStepResult }
    | { kind: 'timeout'; result: IStepResult; message: string }
    | { kind: 'kernel-died'; result: IStepResult; message: string };

  /**
   * Turn an IOPub message into an nbformat output, 'clear', or null.
   */
  export function toOutput(
    msg: KernelMessage.IIOPubMessage
  ): INbOutput | 'clear' | null {
    const type = msg.header.msg_type;
    const content = msg.content as Record<string, unknown>;
    switch (type) {
      case 'stream':
        return {
          output_type: 'stream',
          name: content.name as string,
          text: content.text as string
        };
      case 'display_data':
      case 'update_display_data':
        return {
          output_type: 'display_data',
          data: content.data as Record<string, unknown>,
          metadata: content.metadata ?? {}
        };
      case 'execute_result':
        return {
          output_type: 'execute_result',
          data: content.data as Record<string, unknown>,
          metadata: content.metadata ?? {},
          execution_count: content.execution_count as number
        };
      case 'error':
        return {
          output_type: 'error',
          ename: content.ename as string,
          evalue: content.evalue as string,
          traceback: content.traceback as string[]
        };
      case 'clear_output':
        return 'clear';
      // Messages that carry no output.
      case 'status':
      case 'execute_input':
      case 'comm_open':
      case 'comm_msg':
      case 'comm_close':
      case 'debug_event':
      case 'shutdown_reply':
      default:
        return null;
    }
  }

  /**
   * Read an error message into an ICellError.
   */
  export function toError(content: {
    ename?: string;
    evalue?: string;
    traceback?: string[];
  }): ICellError {
    const traceback = (content.traceback ?? []).map(line =>
      stripAnsi(String(line))
    );
    return {
      ename: String(content.ename ?? ''),
      evalue: String(content.evalue ?? ''),
      traceback,
      line: crashLineFromTraceback(traceback)
    };
  }

  /**
   * Explain a kernel status that ends a run.
   */
  export function deathMessage(status: KernelMessage.Status): string {
    switch (status) {
      case 'autorestarting':
        return 'The kernel died during the replay and is restarting; its state is lost.';
      case 'restarting':
        return 'The kernel was restarted during the replay; its state is lost.';
      case 'dead':
      case 'unknown':
      case 'starting':
      case 'idle':
      case 'busy':
      case 'terminating':
      default:
        return 'The kernel died during the replay.';
    }
  }

  /**
   * Assemble a run result with a sentence for people.
   */
  export function result(
    status: RunStatus,
    steps: IStepResult[],
    failedIndex: number | null,
    error: ICellError | null,
    started: number,
    message?: string
  ): IRunResult {
    let text = message;
    if (!text) {
      switch (status) {
        case 'completed':
          text = `All ${steps.length} cells ran without error.`;
          break;
        case 'crashed':
          text = `Cell ${(failedIndex ?? 0) + 1} raised ${error?.ename}: ${error?.evalue}`;
          break;
        case 'interrupted':
          text = 'The replay was interrupted.';
          break;
        case 'cancelled':
          text = 'The replay was stopped.';
          break;
        // Timeouts and kernel deaths normally bring their own message.
        case 'timeout':
        case 'kernel-died':
        default:
          text = status;
      }
    }
    return {
      status,
      steps,
      failedIndex,
      error,
      message: text,
      durationMs: now() - started
    };
  }
}
