/**
 * The one adapter between replay plans and a live kernel.
 *
 * It owns the execute futures, the per-cell timeout, interrupts and the
 * detection of a kernel that died, and reports progress as typed events.
 * Used by the JupyterLab plugins and by the Node command line alike.
 */
import { KernelAPI } from '@jupyterlab/services';
import type { Kernel, KernelMessage } from '@jupyterlab/services';
import { PromiseDelegate } from '@lumino/coreutils';
import { Signal } from '@lumino/signaling';
import type { ISignal } from '@lumino/signaling';

import { cellRef, english } from '../i18n';
import type { ICellRef, Translate } from '../i18n';
import { stripAnsi } from '../replay/ansi';
import { DEFAULT_OUTPUT_LIMITS, OutputCap } from '../replay/outputs';
import type { IOutputLimits } from '../replay/outputs';
import { crashLineFromTraceback } from '../replay/plan';
import type { INbOutput, IPlanStep, IReplayPlan } from '../replay/types';
import { stopFate, stopOf } from './stop';
import type { KernelFate, RunStatus, RunStop } from './stop';

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

/** Why runs end, as codes (`src/kernel/stop.ts`), for the runner's users. */
export type { KernelFate, RunStatus, RunStop } from './stop';

/** A progress event of a run. */
export type RunnerEvent =
  | { type: 'run-started'; total: number }
  | { type: 'step-started'; index: number; step: IPlanStep }
  | { type: 'output'; index: number; step: IPlanStep; output: INbOutput }
  | { type: 'clear-output'; index: number; step: IPlanStep }
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
  /**
   * What the step's instrument collected (its expression's JSON value), null
   * when the collection failed; absent for steps without an instrument.
   */
  probe?: unknown;
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
  /** Why the run ended, as a code with parameters (`renderRunStop` says it). */
  stop: RunStop;
  /** Wall time of the whole run. */
  durationMs: number;
  /** What happened to the kernel, when the run stopped because of it. */
  kernelFate?: KernelFate;
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
    this._graceMs = options.interruptGraceMs ?? 5000;
    this._limits =
      options.outputLimits === undefined
        ? DEFAULT_OUTPUT_LIMITS
        : options.outputLimits;
    this._trans = options.translate ?? english;
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
        const instrument = options.instrument?.(index, step) ?? null;
        const probing = !instrument
          ? false
          : instrument.before
            ? await this._runSilently(instrument.before).then(
                () => true,
                () => false
              )
            : true;
        const outcome = await this._runStep(index, step, state);
        if (instrument && (outcome.kind === 'ok' || outcome.kind === 'error')) {
          outcome.result.probe = probing
            ? await this._collect(instrument.after, instrument.collect)
            : null;
        }
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
          outcome.stop
        );
        break;
      }
      if (!result) {
        result = Private.result('completed', results, null, null, started);
      }
    } catch (reason) {
      const dead = this._kernel.isDisposed || this._kernel.status === 'dead';
      result = Private.result(
        dead ? 'kernel-died' : 'cancelled',
        results,
        results.length ? results[results.length - 1].index : null,
        null,
        started,
        { code: 'failed', reason: (reason as Error).message ?? String(reason) }
      );
      if (dead) {
        result.kernelFate = 'died';
      }
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
    const state = this._running;
    if (!state) {
      return;
    }
    state.interrupted = true;
    state.cancelled = true;
    const step = state.current;
    try {
      await this._kernel.interrupt();
    } catch {
      // A kernel that cannot be interrupted is handled like a deaf one below.
    }
    // A cell that ignores SIGINT would hold the run forever: give up on it
    // after the grace period.
    if (step && state.current === step) {
      step.giveUpAfter(this._graceMs);
    }
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
    const reply = await Private.whileAlive(this._kernel, future.done);
    const content = reply.content;
    if (content.status === 'error' || error) {
      const err: ICellError =
        error ?? Private.toError(content as KernelMessage.IReplyErrorContent);
      throw new Error(`Set-up code failed: ${err.ename}: ${err.evalue}`);
    }
  }

  /**
   * Run code silently and return the JSON value of an expression evaluated
   * after it (null when either failed); refused while a run is in progress.
   */
  async evaluate(code: string, expression: string): Promise<unknown> {
    if (this._running) {
      throw new Error('A replay is already running on this kernel.');
    }
    return this._collect(code, expression);
  }

  /**
   * Run code silently and evaluate an expression after it through
   * `user_expressions`: its JSON value (IPython's `application/json`
   * representation), or null when the code or the expression failed.
   */
  private async _collect(code: string, expression: string): Promise<unknown> {
    try {
      const reply = await Private.whileAlive(
        this._kernel,
        this._kernel.requestExecute({
          code,
          silent: true,
          store_history: false,
          stop_on_error: false,
          user_expressions: { junobench: expression }
        }).done
      );
      const content = reply.content;
      if (content.status !== 'ok') {
        return null;
      }
      const value = content.user_expressions?.junobench as
        { status?: string; data?: Record<string, unknown> } | undefined;
      if (value?.status !== 'ok') {
        return null;
      }
      return value.data?.['application/json'] ?? null;
    } catch {
      return null;
    }
  }

  /**
   * Run one step, racing its reply against the timeout and the fate of the
   * kernel.
   */
  private async _runStep(
    index: number,
    step: IPlanStep,
    state: Private.IRunState
  ): Promise<Private.IStepOutcome> {
    const started = now();
    const outputs: INbOutput[] = [];
    const cap = this._limits ? new OutputCap(this._limits, this._trans) : null;
    let error: ICellError | null = null;
    let executionCount: number | null = null;
    const cell = cellRef(step.cellIndex, step.executionCount);
    this._event.emit({ type: 'step-started', index, step });

    const settle = new PromiseDelegate<Private.IStepOutcome>();
    let settled = false;
    void settle.promise.then(() => (settled = true));
    const stepResult = (): IStepResult => ({
      index,
      step,
      outputs,
      executionCount,
      durationMs: now() - started,
      error
    });
    const died = (fate: KernelFate, detail?: string) =>
      settle.resolve({
        kind: 'kernel-died',
        result: stepResult(),
        stop: { code: 'kernel', fate, cell, ...(detail ? { detail } : {}) }
      });

    const onStatus = (_: unknown, status: KernelMessage.Status) => {
      if (status === 'dead' || status === 'autorestarting') {
        died('died');
      } else if (status === 'restarting') {
        // The server announces the restart of a kernel that died as
        // 'restarting' too, and the connection turns that into
        // 'autorestarting' a moment later: wait for it before concluding
        // that someone restarted the kernel on purpose.
        setTimeout(() => died('restarted'), 0);
      }
    };
    const onDisposed = () => died('shut-down');
    // A restart or shutdown asked by another client reaches every connection
    // as the kernel's broadcast shutdown reply, long before the websocket
    // closes or the kernel list is polled again.
    const onIOPub = (_: unknown, msg: KernelMessage.IIOPubMessage) => {
      if ((msg.header.msg_type as string) === 'shutdown_reply') {
        const restart = !!(msg.content as { restart?: boolean }).restart;
        const fate: KernelFate = restart ? 'restarted' : 'shut-down';
        died(fate);
      }
    };
    // A dropped websocket is retried for ever by the connection; ask the
    // server whether the kernel still exists.
    let probe: ReturnType<typeof setTimeout> | null = null;
    let lostSince: number | null = null;
    const check = async () => {
      probe = null;
      if (settled || this._kernel.connectionStatus === 'connected') {
        lostSince = null;
        return;
      }
      try {
        const model = await KernelAPI.getKernelModel(
          this._kernel.id,
          this._kernel.serverSettings
        );
        lostSince = null;
        if (!model) {
          died('shut-down');
          return;
        }
        if (model.execution_state === 'dead') {
          died('died');
          return;
        }
      } catch {
        lostSince = lostSince ?? now();
        if (now() - lostSince > Private.LOST_AFTER_MS) {
          died('lost');
          return;
        }
      }
      if (!settled) {
        probe = setTimeout(() => void check(), Private.PROBE_MS);
      }
    };
    const onConnection = (_: unknown, status: Kernel.ConnectionStatus) => {
      if (status === 'disconnected') {
        died('lost');
      } else if (status === 'connecting' && probe === null) {
        probe = setTimeout(() => void check(), Private.PROBE_MS);
      }
    };
    this._kernel.statusChanged.connect(onStatus);
    this._kernel.disposed.connect(onDisposed);
    this._kernel.iopubMessage.connect(onIOPub);
    this._kernel.connectionStatusChanged.connect(onConnection);

    let timer: ReturnType<typeof setTimeout> | null = null;
    let grace: ReturnType<typeof setTimeout> | null = null;
    const replied = new PromiseDelegate<void>();
    let timedOut = false;
    if (this._timeoutMs > 0) {
      timer = setTimeout(() => {
        timedOut = true;
        void this._timeout(cell, settle, stepResult, replied.promise);
      }, this._timeoutMs);
    }
    state.current = {
      giveUpAfter: (ms: number) => {
        if (grace === null) {
          grace = setTimeout(
            () =>
              settle.resolve({
                kind: 'interrupted',
                result: stepResult(),
                stop: { code: 'kernel', fate: 'unresponsive', cell }
              }),
            ms
          );
        }
      }
    };

    try {
      const future = this._kernel.requestExecute({
        code: step.source,
        silent: false,
        store_history: true,
        allow_stdin: false,
        stop_on_error: true
      });
      future.onIOPub = msg => {
        if (settled) {
          // Late output of a step given up on is not the next step's.
          return;
        }
        const output = Private.toOutput(msg);
        if (output === 'clear') {
          outputs.length = 0;
          cap?.clear();
          this._event.emit({ type: 'clear-output', index, step });
          return;
        }
        if (!output) {
          return;
        }
        if (output.output_type === 'error') {
          error = Private.toError((msg as KernelMessage.IErrorMsg).content);
        }
        const kept = cap ? cap.take(output) : output;
        if (!kept) {
          return;
        }
        outputs.push(kept);
        this._event.emit({ type: 'output', index, step, output: kept });
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
          // Futures are disposed when the kernel restarts: let the status
          // handler say whether that was on purpose first.
          setTimeout(
            () => died('died', (reason as Error)?.message ?? String(reason)),
            0
          );
        });
      const outcome = await settle.promise;
      const note = cap?.note();
      if (note) {
        outputs.push(note);
        this._event.emit({ type: 'output', index, step, output: note });
      }
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
      for (const handle of [timer, grace, probe]) {
        if (handle !== null) {
          clearTimeout(handle);
        }
      }
      state.current = null;
      this._kernel.statusChanged.disconnect(onStatus);
      this._kernel.disposed.disconnect(onDisposed);
      this._kernel.iopubMessage.disconnect(onIOPub);
      this._kernel.connectionStatusChanged.disconnect(onConnection);
    }
  }

  /**
   * Interrupt a cell that ran too long and settle its step as timed out,
   * whether or not the kernel heeds the interrupt.
   */
  private async _timeout(
    cell: ICellRef,
    settle: PromiseDelegate<Private.IStepOutcome>,
    stepResult: () => IStepResult,
    replied: Promise<void>
  ): Promise<void> {
    const seconds = Math.round(this._timeoutMs / 100) / 10;
    let heeded = false;
    try {
      await this._kernel.interrupt();
      // Wait for the interrupted cell's reply, so the next request is not
      // aborted by the kernel's stop-on-error; a kernel deaf to interrupts
      // does not hold the run longer than the grace period.
      heeded = await Promise.race([
        replied.then(() => true),
        new Promise<boolean>(resolve =>
          setTimeout(() => resolve(false), this._graceMs)
        )
      ]);
    } catch {
      // The kernel may already be gone; the timeout is reported either way.
    }
    settle.resolve({
      kind: 'timeout',
      result: stepResult(),
      stop: heeded
        ? { code: 'timeout', cell, seconds }
        : {
            code: 'kernel',
            fate: 'unresponsive',
            cell,
            timeoutSeconds: seconds
          }
    });
  }

  private _event = new Signal<this, RunnerEvent>(this);
  private _kernel: Kernel.IKernelConnection;
  private _timeoutMs: number;
  private _graceMs: number;
  private _limits: Readonly<IOutputLimits> | null;
  private _trans: Translate;
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
    /**
     * How long an interrupted cell may take to stop before the run gives up
     * on it (default 5000 ms).
     */
    interruptGraceMs?: number;
    /** What is kept of each cell's outputs; null keeps everything. */
    outputLimits?: Readonly<IOutputLimits> | null;
    /**
     * Words what the runner writes into outputs (the truncation note); English
     * by default. Results carry codes (`IRunResult.stop`), not sentences.
     */
    translate?: Translate;
  }

  /** Options of one run. */
  export interface IRunOptions {
    /** Start at this step (to resume). */
    fromIndex?: number;
    /** Errors in steps before this index do not stop the run. */
    continueOnErrorBefore?: number;
    /** Code run silently before the first step (e.g. to change directory). */
    setupCode?: string;
    /**
     * Probes around chosen steps: code run silently before and after the step,
     * and an expression whose JSON value lands on the step's `probe`.
     */
    instrument?: (index: number, step: IPlanStep) => IInstrument | null;
  }

  /** A probe around one step. */
  export interface IInstrument {
    /** Code run silently just before the step ('' for none). */
    before: string;
    /** Code run silently just after it (also after an error). */
    after: string;
    /** An expression evaluated after `after`, returned as JSON. */
    collect: string;
  }
}

/**
 * Whether a kernel connection can no longer be used and must be replaced: it
 * is disposed or dead, or the server no longer knows its kernel (shut down
 * from another tab or the Running panel). A server that cannot be asked
 * leaves the connection in place.
 */
export async function replaceableKernel(
  kernel: Kernel.IKernelConnection
): Promise<boolean> {
  if (kernel.isDisposed || kernel.status === 'dead') {
    return true;
  }
  try {
    const model = await KernelAPI.getKernelModel(
      kernel.id,
      kernel.serverSettings
    );
    return !model || model.execution_state === 'dead';
  } catch {
    return false;
  }
}

/**
 * Milliseconds from a monotonic clock.
 */
function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

namespace Private {
  /** Ask the server about a kernel whose websocket dropped this often. */
  export const PROBE_MS = 1000;

  /** Give up on a kernel the server cannot be asked about after this long. */
  export const LOST_AFTER_MS = 15000;

  /**
   * What `work` resolves to, or a rejection once the kernel can no longer
   * answer: its connection disposed of or given up (`disconnected`), the
   * kernel dead, or, while its websocket is down, a server that no longer
   * knows the kernel or cannot be asked for `LOST_AFTER_MS` (as a step's
   * watch in `_runStep` decides). A silent request to a kernel that went away
   * would otherwise wait for ever.
   */
  export function whileAlive<T>(
    kernel: Kernel.IKernelConnection,
    work: Promise<T>
  ): Promise<T> {
    const gone = new PromiseDelegate<never>();
    let settled = false;
    let probe: ReturnType<typeof setTimeout> | null = null;
    let lostSince: number | null = null;
    const giveUp = () => {
      settled = true;
      gone.reject(new Error('The kernel went away.'));
    };
    const ask = async () => {
      probe = null;
      if (settled || kernel.connectionStatus === 'connected') {
        lostSince = null;
        return;
      }
      try {
        const model = await KernelAPI.getKernelModel(
          kernel.id,
          kernel.serverSettings
        );
        lostSince = null;
        if (!model || model.execution_state === 'dead') {
          giveUp();
          return;
        }
      } catch {
        lostSince = lostSince ?? now();
        if (now() - lostSince > LOST_AFTER_MS) {
          giveUp();
          return;
        }
      }
      if (!settled) {
        probe = setTimeout(() => void ask(), PROBE_MS);
      }
    };
    const check = () => {
      if (settled) {
        return;
      }
      if (
        kernel.isDisposed ||
        kernel.connectionStatus === 'disconnected' ||
        kernel.status === 'dead'
      ) {
        giveUp();
      } else if (kernel.connectionStatus !== 'connected' && probe === null) {
        probe = setTimeout(() => void ask(), PROBE_MS);
      }
    };
    kernel.connectionStatusChanged.connect(check);
    kernel.statusChanged.connect(check);
    kernel.disposed.connect(check);
    check();
    return Promise.race([work, gone.promise]).finally(() => {
      settled = true;
      if (probe !== null) {
        clearTimeout(probe);
      }
      kernel.connectionStatusChanged.disconnect(check);
      kernel.statusChanged.disconnect(check);
      kernel.disposed.disconnect(check);
    });
  }

  export interface IRunState {
    cancelled: boolean;
    interrupted: boolean;
    current: IRunningStep | null;
  }

  /** The running step, as the interrupt sees it. */
  export interface IRunningStep {
    /** Settle the step as interrupted unless it ends within `ms`. */
    giveUpAfter(ms: number): void;
  }

  export type IStepOutcome =
    | { kind: 'ok'; result: IStepResult }
    | { kind: 'error'; result: IStepResult }
    | {
        kind: 'timeout' | 'kernel-died' | 'interrupted';
        result: IStepResult;
        stop: RunStop;
      };

  /**
   * Turn an IOPub message into an nbformat output, 'clear', or null.
   */
  export function toOutput(
    msg: KernelMessage.IIOPubMessage
  ): INbOutput | 'clear' | null {
    const type = msg.header.msg_type;
    switch (type) {
      case 'stream': {
        const content = (msg as KernelMessage.IStreamMsg).content;
        return {
          output_type: 'stream',
          name: content.name,
          text: content.text
        };
      }
      case 'display_data':
      case 'update_display_data': {
        const content = (msg as KernelMessage.IDisplayDataMsg).content;
        return {
          output_type: 'display_data',
          data: content.data,
          metadata: content.metadata ?? {}
        };
      }
      case 'execute_result': {
        const content = (msg as KernelMessage.IExecuteResultMsg).content;
        return {
          output_type: 'execute_result',
          data: content.data,
          metadata: content.metadata ?? {},
          execution_count: content.execution_count
        };
      }
      case 'error': {
        const content = (msg as KernelMessage.IErrorMsg).content;
        return {
          output_type: 'error',
          ename: content.ename,
          evalue: content.evalue,
          traceback: content.traceback
        };
      }
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
   * Assemble a run result: why it ended (from the status unless the step
   * said), in a code and in English.
   */
  export function result(
    status: RunStatus,
    steps: IStepResult[],
    failedIndex: number | null,
    error: ICellError | null,
    started: number,
    given?: RunStop
  ): IRunResult {
    const failed = failedIndex === null ? undefined : steps[failedIndex];
    const stop =
      given ??
      stopOf(
        status,
        steps.length,
        failed
          ? cellRef(failed.step.cellIndex, failed.step.executionCount)
          : null,
        error
      );
    const fate = stopFate(stop);
    return {
      status,
      steps,
      failedIndex,
      error,
      stop,
      durationMs: now() - started,
      ...(fate ? { kernelFate: fate } : {})
    };
  }
}
