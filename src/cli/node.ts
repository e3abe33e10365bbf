/**
 * The Node processes of the command line and the scripts (not the browser):
 * what they need around @jupyterlab/services, and the command line's own
 * way out: every failure in our words, and nothing it started left running.
 */

import { watchStandardOutput } from './output';

/** The rejection @jupyterlab/services leaves unhandled (see `tolerateServicesRejections`). */
const CANCELED_KERNEL_INFO =
  'Canceled future for kernel_info_request message before replies were done';

/**
 * The rejection of the reconnection a kernel connection of @jupyterlab/services
 * starts by itself after the server restarted its kernel (one that died), with
 * no handler: disposing of the connection meanwhile rejects it.
 */
const RECONNECT_DISCONNECTED = 'Kernel connection disconnected';

/**
 * Whether an unhandled rejection is that of the `kernel_info` request a
 * kernel connection sends by itself each time its websocket connects.
 */
export function isCanceledKernelInfo(reason: unknown): boolean {
  return reason instanceof Error && reason.message === CANCELED_KERNEL_INFO;
}

/**
 * A poll of @jupyterlab/services (the session and kernel managers' models) rejects its tick
 * when it is disposed of; a refresh its manager started by itself (after a request failed,
 * the server gone) may still wait on it, with nobody listening.
 */
const POLL_DISPOSED = /^Poll \(@jupyterlab\/services:[^)]*\) is disposed\.$/;

/**
 * Whether an unhandled rejection is one that @jupyterlab/services leaves
 * behind by itself: the canceled `kernel_info` request, or the failed
 * reconnection of a connection whose kernel died and that was disposed of.
 */
export function isServicesRejection(reason: unknown): boolean {
  return (
    isCanceledKernelInfo(reason) ||
    (reason instanceof Error &&
      (reason.message === RECONNECT_DISCONNECTED ||
        POLL_DISPOSED.test(reason.message)))
  );
}

let installed = false;

/**
 * A kernel connection of @jupyterlab/services sends a `kernel_info` request
 * each time its websocket connects and keeps no handler for its failure.
 * When the server restarts the kernel before it answers (its restarter, after
 * a kernel exited during its start: a port taken by another process, see
 * jupyterlab_junobench/launcher.py), the connection cancels the request and
 * the promise rejects with nobody listening. Likewise, when a kernel dies and
 * the server restarts it, the connection reconnects by itself, unawaited; a
 * check that then disposes of the connection rejects that reconnection ("Kernel
 * connection disconnected"); and a manager disposed of while its own refresh
 * waits on its poll rejects that ("Poll (…) is disposed": a check whose server
 * went away, in CI). A browser logs those; Node ends the process (a
 * CI run's check corpora stopped on the first; `junobench check` on a repair
 * that calls `os._exit` on the second). Those three rejections are ignored here;
 * any other unhandled rejection still ends the process, as Node does by
 * default, or goes to `other` when given. Installed once per process.
 */
export function tolerateServicesRejections(
  other?: (reason: unknown) => void
): void {
  if (installed) {
    return;
  }
  installed = true;
  process.on('unhandledRejection', reason => {
    if (isServicesRejection(reason)) {
      return;
    }
    if (other) {
      other(reason);
      return;
    }
    throw reason;
  });
}

/** Something the command line started that must not outlive it. */
export interface IExitTask {
  /** A kernel is shut down before the server that runs it is stopped. */
  kind: 'kernel' | 'server';
  /** Stop it in an orderly way. */
  stop(): Promise<void>;
  /** The last resort when the process is leaving now: synchronous, best effort. */
  stopNow(): void;
}

/**
 * Register what must be stopped when the process ends, however it ends (see
 * `guardCommandLine`); the function returned unregisters it, once it was
 * stopped the ordinary way.
 */
export function onExit(task: IExitTask): () => void {
  Private.tasks.add(task);
  return () => void Private.tasks.delete(task);
}

/**
 * Stop everything still registered: the kernels first (at once), then the
 * servers; each given at most `timeoutMs`, failures ignored.
 */
export async function stopRegistered(timeoutMs = 15000): Promise<void> {
  for (const kind of ['kernel', 'server'] as const) {
    const tasks = [...Private.tasks].filter(t => t.kind === kind);
    await Promise.all(
      tasks.map(async task => {
        Private.tasks.delete(task);
        await Private.within(task.stop(), timeoutMs);
      })
    );
  }
}

/**
 * Guard the command line's process: no stack for what @jupyterlab/services
 * leaves unhandled, its logs kept out of the output (`JUNOBENCH_DEBUG` shows
 * them), one line before the stack of an unexpected error, and on every way
 * out (the end, an error, SIGINT, SIGTERM) what `onExit` registered stopped:
 * kernels shut down, private servers stopped. SIGINT ends with 130, SIGTERM
 * with 143, an unexpected error with 2.
 */
export function guardCommandLine(): void {
  const debug = !!process.env.JUNOBENCH_DEBUG;
  Private.quietServices(debug);
  Private.output.failure = watchStandardOutput();
  tolerateServicesRejections(reason => Private.fatal(reason));
  process.on('uncaughtException', reason => Private.fatal(reason));
  process.on('SIGINT', () => Private.interrupted('SIGINT', 130));
  process.on('SIGTERM', () => Private.interrupted('SIGTERM', 143));
  // process.exit without the tasks run first (or a fatal error while they ran).
  process.on('exit', () => {
    for (const task of Private.tasks) {
      try {
        task.stopNow();
      } catch {
        // Best effort: the process is leaving.
      }
    }
  });
}

/**
 * End the process with `code` once everything registered was stopped.
 */
export async function exitWith(code: number): Promise<never> {
  if (Private.leaving) {
    // A signal or an error is already ending the process, with its own code.
    return new Promise<never>(() => undefined);
  }
  await stopRegistered();
  // What is still queued for a pipe is written before the process ends: `process.exit` drops
  // it (a `--json` report read by another program stopped at 64 KiB).
  await Promise.all([
    Private.flushed(process.stdout),
    Private.flushed(process.stderr)
  ]);
  // A failed write to standard output is reported on a later tick.
  await new Promise(resolve => setImmediate(resolve));
  const failure = Private.output.failure();
  if (failure) {
    // A report cut short by a full disk is no result: say so, and not with 0.
    process.stderr.write(`junobench: ${failure}\n`);
    process.exit(code === 0 ? 2 : code);
  }
  process.exit(code);
}

namespace Private {
  /** When everything written to `stream` so far has left the process (or failed to). */
  export function flushed(stream: NodeJS.WriteStream): Promise<void> {
    return new Promise(resolve => {
      if (stream.destroyed || !stream.writable) {
        resolve();
        return;
      }
      stream.write('', () => resolve());
    });
  }

  /** What must be stopped before the process ends. */
  export const tasks = new Set<IExitTask>();

  /** What standard output failed to write, if it did (see `watchStandardOutput`). */
  export const output: { failure: () => string | null } = {
    failure: () => null
  };

  /** Whether a signal or an error is already ending the process. */
  export let leaving = false;

  /** What `promise` resolves to, or nothing after `ms`; its failure is ignored. */
  export function within(promise: Promise<void>, ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return Promise.race([
      promise.catch(() => undefined),
      new Promise<void>(resolve => {
        timer = setTimeout(resolve, ms);
      })
    ]).finally(() => clearTimeout(timer));
  }

  /** Keep the rest of a run that is cut short from printing. */
  function mute(): void {
    const nothing = () => undefined;
    console.log = nothing;
    console.info = nothing;
    console.warn = nothing;
    console.error = nothing;
  }

  /**
   * A signal: say so in one line, stop what was started, end with `code`.
   * A second signal ends the process at once (the `exit` handler still asks
   * each server to stop).
   */
  export function interrupted(signal: NodeJS.Signals, code: number): void {
    if (leaving) {
      process.exit(code);
    }
    leaving = true;
    process.stderr.write(
      `junobench: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}; stopping the kernels and the Jupyter server it started\n`
    );
    mute();
    void stopRegistered().finally(() => process.exit(code));
  }

  /**
   * An error nobody expected: one line that says so, then its stack, then the
   * same way out as a signal, with exit code 2.
   */
  export function fatal(reason: unknown): void {
    if (leaving) {
      return;
    }
    leaving = true;
    const message =
      reason instanceof Error ? reason.message : String(reason ?? '');
    const code = (reason as NodeJS.ErrnoException | null)?.code ?? '';
    if (SYSTEM_ERRORS.has(code)) {
      // The machine's doing, not ours (a full disk, a closed pipe): its words are enough.
      process.stderr.write(`junobench: ${message.split('\n')[0]}\n`);
    } else {
      process.stderr.write(
        `junobench: unexpected error: ${message.split('\n')[0]} (a bug in junobench; the details follow)\n`
      );
      if (reason instanceof Error && reason.stack) {
        process.stderr.write(`${reason.stack}\n`);
      }
    }
    mute();
    void stopRegistered().finally(() => process.exit(2));
  }

  /** Errors of the machine, not of junobench: said in one line, without a stack. */
  const SYSTEM_ERRORS = new Set([
    'ENOSPC',
    'EDQUOT',
    'EROFS',
    'EACCES',
    'EPERM',
    'EPIPE',
    'EIO',
    'ENOMEM'
  ]);

  /** What @jupyterlab/services logs that says nothing to the command line's reader. */
  const SERVICES_NOISE = [
    // A kernel's websocket dropped (a kernel that died); the runner says what happened.
    /^Connection lost, reconnecting in \d+ seconds\.$/,
    // A future canceled as its kernel connection is disposed of.
    /^Canceled future for \w+ message before replies were done$/,
    /^Kernel connection disconnected$/
  ];

  /**
   * Keep @jupyterlab/services' own logs (a dropped websocket, a canceled
   * future, an error it caught, with its stack) out of the command line's
   * output: known noise is dropped, any other error it logs is one line.
   * Our own messages are strings and pass unchanged.
   */
  export function quietServices(debug: boolean): void {
    if (debug) {
      return;
    }
    const noise = (text: string) => SERVICES_NOISE.some(r => r.test(text));
    const warn = console.warn.bind(console);
    console.warn = (...args: unknown[]) => {
      if (args.length === 1 && typeof args[0] === 'string' && noise(args[0])) {
        return;
      }
      warn(...args);
    };
    const error = console.error.bind(console);
    console.error = (...args: unknown[]) => {
      const caught = args.find((a): a is Error => a instanceof Error);
      if (!caught) {
        error(...args);
        return;
      }
      if (!noise(caught.message)) {
        error(`junobench: ${caught.message.split('\n')[0]}`);
      }
    };
  }
}
