/**
 * The kernel traffic of one working copy: a fresh kernel for a replay (reused
 * when pristine, restarted through `restartAnswering`, replaced when silent),
 * the run of a plan through the one kernel adapter, the environment probe, and
 * the check's fresh kernels beside the learner's. It knows no notebook panel
 * and says nothing itself: its errors carry the fields the handler words.
 */
import type { ISessionContext } from '@jupyterlab/apputils';
import { PathExt } from '@jupyterlab/coreutils';
import type { Kernel, Session } from '@jupyterlab/services';

import { compareEnvironment } from '../kernel/drift';
import {
  evidenceInstallCode,
  trackExpression,
  trackResetCode
} from '../kernel/evidenceSnippets';
import type { IDriftReport } from '../kernel/drift';
import {
  SilentKernelError,
  startSession,
  uniqueSuffix,
  within
} from '../kernel/freshSession';
import { readInputHistory } from '../kernel/history';
import { BENCHMARK_PINS } from '../kernel/pins';
import { isPristineKernel, probeEnvironment } from '../kernel/probe';
import { runRepairCheck } from '../repair/repairCheck';
import type {
  IFreshKernel,
  IRepairCheckOptions,
  IRepairCheckResult
} from '../repair/repairCheck';
import { restartAnswering } from '../kernel/restart';
import { PlanRunner, replaceableKernel } from '../kernel/runner';
import type { IRunResult, RunnerEvent } from '../kernel/runner';
import { scratchSetup } from '../repair/scratchSnippets';
import { chdirCode } from '../kernel/snippets';
import type { IScratchOptions } from '../repair/scratchSnippets';
import type { Translate } from '../i18n';
import type { IReplayPlan } from '../replay/types';
import type { ReplayStatus } from './replayModel';

/** No kernel is there to run in: `forCheck` for the check's fresh kernel. */
export class NoKernelError extends Error {
  constructor(readonly forCheck: boolean) {
    super(
      forCheck
        ? 'no kernel could be started for the check'
        : 'no kernel is available for this notebook'
    );
    this.name = 'NoKernelError';
  }
}

/**
 * Talks to the kernels of one working copy.
 */
export class KernelService {
  /** Serve the session of a working copy. */
  constructor(options: KernelService.IOptions) {
    this._options = options;
  }

  /** The per-cell timeout in ms (0: none), the running plan's included. */
  get timeoutMs(): number {
    return this._options.timeoutMs();
  }
  set timeoutMs(value: number) {
    if (this._runner) {
      this._runner.timeoutMs = value;
    }
  }

  /**
   * The session's kernel as fresh as a new one: reused when it has run
   * nothing, else restarted; a new session when the old one is gone; a
   * replacement when it does not answer; `say` tells what happens.
   */
  async freshKernel(
    say: (status: ReplayStatus) => void
  ): Promise<Kernel.IKernelConnection> {
    const context = this._options.sessionContext;
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
      await (name ? context.changeKernel({ name }) : context.startKernel());
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
        onSilent: () => say({ code: 'replay.restart-silent' })
      });
    }
    if (!kernel) {
      throw new NoKernelError(false);
    }
    // A kernel process can hang before it answers anything (ipykernel whose
    // IOPub port another process took first stays "starting" for ever): one
    // silent for `kernelReplaceMs` is replaced, once, on new ports. A fresh
    // kernel has no state to lose.
    const replaceMs = this._options.kernelReplaceMs ?? Private.REPLACE_MS;
    if (await Private.answers(kernel, replaceMs)) {
      return kernel;
    }
    const seconds = Math.round(replaceMs / 1000);
    say({ code: 'replay.replacing', params: { kernel: kernel.name, seconds } });
    // The server starts a new kernel for the session and shuts the old one down.
    await context.changeKernel({ name: kernel.name });
    const next = context.session?.kernel;
    const readyMs = this._options.kernelReadyMs ?? Private.READY_MS;
    if (next && (await Private.answers(next, readyMs))) {
      return next;
    }
    throw new SilentKernelError(kernel.name, Math.round(readyMs / 1000), '');
  }

  /** The library versions of a kernel against the benchmark pins. */
  async probe(
    kernel: Kernel.IKernelConnection,
    timeoutMs: number
  ): Promise<IDriftReport> {
    const probe = await probeEnvironment(kernel, BENCHMARK_PINS, { timeoutMs });
    return compareEnvironment(probe, BENCHMARK_PINS);
  }

  /**
   * Run a plan in a kernel from the case folder (relative to the kernel's
   * working directory), each event told as it happens; the state probe
   * reports after every step what it did to the namespace.
   */
  async run(
    kernel: Kernel.IKernelConnection,
    plan: IReplayPlan,
    caseFolder: string,
    onEvent: (event: RunnerEvent) => void
  ): Promise<IRunResult> {
    const runner = new PlanRunner({
      kernel,
      timeoutMs: this.timeoutMs,
      translate: this._options.translate
    });
    this._runner = runner;
    runner.event.connect((_, event) => onEvent(event));
    try {
      return await runner.run(plan, {
        setupCode: `${chdirCode(caseFolder)}\n${evidenceInstallCode()}\n${trackResetCode()}`,
        instrument: () => ({
          before: '',
          after: '',
          collect: trackExpression(false)
        })
      });
    } finally {
      this._runner = null;
    }
  }

  /** Interrupt the running plan. */
  async interrupt(): Promise<void> {
    await this._runner?.interrupt();
  }

  /**
   * Check a repair from fresh kernels beside the working copy at `path`,
   * never the learner's live one; a notebook-specific case also reads the
   * live kernel's own input history (the evidence of what ran there).
   */
  async check(
    path: string,
    scratch: IScratchOptions,
    options: Omit<
      IRepairCheckOptions,
      'startKernel' | 'liveHistory' | 'timeoutMs'
    >
  ): Promise<IRepairCheckResult> {
    const live = this._options.sessionContext.session?.kernel ?? null;
    const kernelName = live?.name ?? 'python3';
    // The prompts are the fallback when the kernel cannot say (not IPython, busy, gone).
    const liveHistory =
      options.notebookSpecific && live
        ? await readInputHistory(live, 10000)
            .then(h => h.history)
            .catch(() => null)
        : null;
    return runRepairCheck({
      ...options,
      liveHistory,
      timeoutMs: this.timeoutMs,
      startKernel: (role, start) =>
        this._scratchKernel(path, kernelName, role, {
          ...scratch,
          perturb: start?.perturb,
          plain: start?.plain
        })
    });
  }

  /** Stop the running plan. */
  dispose(): void {
    this._runner?.cancel();
  }

  /**
   * A fresh kernel beside the working copy that moves into a scratch copy of
   * the case folder, without the answer key, first.
   */
  private async _scratchKernel(
    path: string,
    kernelName: string,
    role: 'learner' | 'reference',
    scratch: IScratchOptions
  ): Promise<IFreshKernel> {
    const session: Session.ISessionConnection = await startSession(
      this._options.sessions,
      {
        path: `${path}.junobench-${role}-${uniqueSuffix()}`,
        name: PathExt.basename(path),
        kernel: kernelName,
        readyMs: this._options.kernelReadyMs
      }
    );
    const end = async () => {
      await session.shutdown().catch(() => undefined);
      session.dispose();
    };
    if (!session.kernel) {
      await end();
      throw new NoKernelError(true);
    }
    return { kernel: session.kernel, ...scratchSetup(scratch), dispose: end };
  }

  private _options: KernelService.IOptions;
  private _runner: PlanRunner | null = null;
}

/**
 * A namespace for KernelService statics.
 */
export namespace KernelService {
  /** Options of the service. */
  export interface IOptions {
    /** The working copy's session. */
    sessionContext: ISessionContext;
    /** Sessions of the server, for the check's fresh kernels. */
    sessions: Session.IManager;
    /** The per-cell timeout in ms (0: none). */
    timeoutMs: () => number;
    /** The words of the notes the runner writes into capped outputs. */
    translate?: Translate;
    /** How long a kernel may stay silent before a replay replaces it (default 60 s). */
    kernelReplaceMs?: number;
    /** How long a fresh kernel has to answer its first request (default 180 s). */
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
}
