/**
 * Running a plan in a kernel of its own, for the headless commands.
 */
import { KernelManager, SessionManager } from '@jupyterlab/services';
import type { Kernel, ServerConnection, Session } from '@jupyterlab/services';

import { PlanRunner } from '../kernel/runner';
import type { IRunResult } from '../kernel/runner';
import type { IReplayPlan } from '../replay/types';

/**
 * Start a session at `path` (its folder becomes the kernel's working
 * directory), run the plan, and shut the session down; a string says why the
 * plan could not run. `beforeRun` may ask the kernel questions first.
 */
export async function runInFreshKernel(
  sessions: SessionManager,
  session: {
    path: string;
    name: string;
    kernel?: string;
    timeoutMs?: number;
    beforeRun?: (kernel: Kernel.IKernelConnection) => Promise<void>;
  },
  plan: IReplayPlan,
  runOptions: PlanRunner.IRunOptions = {}
): Promise<IRunResult | string> {
  let connection: Session.ISessionConnection;
  try {
    connection = await startSession(sessions, session);
  } catch (reason) {
    return `Could not start a kernel: ${(reason as Error).message}`;
  }
  try {
    const kernel = connection.kernel;
    if (!kernel) {
      return 'The session has no kernel.';
    }
    await session.beforeRun?.(kernel);
    const runner = new PlanRunner({
      kernel,
      timeoutMs: session.timeoutMs ?? 0
    });
    return await runner.run(plan, runOptions);
  } finally {
    await connection.shutdown().catch(() => undefined);
    connection.dispose();
  }
}

/**
 * A suffix that makes a session path unique, so parallel runs never share a kernel.
 */
export function uniqueSuffix(): string {
  return `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/**
 * Start a notebook session at `path` (its folder becomes the kernel's working
 * directory) with a fresh kernel of the given name (default python3), and
 * wait until the kernel has answered over the session's own websocket.
 *
 * A kernel behind a gateway (or a slow start) may drop the first websocket
 * while its channels come up, or keep it open and pass nothing back, and a
 * request sent on it is lost for good; a `kernel_info` request answered end
 * to end proves the path is up. The request is repeated until one is
 * answered, for at most `readyMs`, and a websocket that carries no answer for
 * `attemptMs` (10 s) is replaced by a new one.
 */
export async function startSession(
  sessions: SessionManager,
  session: {
    path: string;
    name: string;
    kernel?: string;
    readyMs?: number;
    attemptMs?: number;
  }
): Promise<Session.ISessionConnection> {
  const connection = await sessions.startNew({
    path: session.path,
    name: session.name,
    type: 'notebook',
    kernel: { name: session.kernel ?? 'python3' }
  });
  const kernel = connection.kernel;
  if (!kernel) {
    return connection;
  }
  const readyMs = session.readyMs ?? Private.READY_MS;
  const attemptMs = session.attemptMs ?? Private.ATTEMPT_MS;
  const deadline = Date.now() + readyMs;
  let failure = '';
  let since = Date.now();
  for (;;) {
    const started = Date.now();
    const answered = await Private.within(
      kernel.requestKernelInfo().then(
        reply => !!reply,
        (reason: Error) => {
          failure = reason?.message ?? String(reason);
          return false;
        }
      ),
      attemptMs
    );
    if (answered) {
      return connection;
    }
    if (kernel.isDisposed || Date.now() >= deadline) {
      await connection.shutdown().catch(() => undefined);
      connection.dispose();
      throw new Error(
        `the kernel "${kernel.name}" did not answer within ${Math.round(
          readyMs / 1000
        )} s${failure ? ` (${failure})` : ''}`
      );
    }
    // A websocket that has carried no answer for a whole attempt is replaced by
    // a new one: one that has not come up (a handshake left hanging, or the
    // connection's own retries spent), and one that says it is connected but
    // passes nothing back (behind a Kernel Gateway, a websocket opened twice
    // for a session is replaced as stale on the gateway's side and stays open
    // on ours).
    if (Date.now() - since >= attemptMs) {
      since = Date.now();
      void kernel.reconnect().catch(() => undefined);
    }
    // A request refused at once is retried after a pause, never in a loop
    // that would starve the websocket it waits for.
    await Private.sleep(Math.max(0, Private.RETRY_MS - (Date.now() - started)));
  }
}

/**
 * A session manager (over its own kernel manager) for a server, and how to
 * dispose of both.
 */
export function sessionsFor(settings: ServerConnection.ISettings): {
  sessions: SessionManager;
  dispose(): void;
} {
  const kernelManager = new KernelManager({ serverSettings: settings });
  const sessions = new SessionManager({
    kernelManager,
    serverSettings: settings
  });
  return {
    sessions,
    dispose: () => {
      sessions.dispose();
      kernelManager.dispose();
    }
  };
}

namespace Private {
  /** How long a new kernel has to answer its first request. */
  export const READY_MS = 180000;
  /** How long one `kernel_info` request is waited for before it is repeated. */
  export const ATTEMPT_MS = 10000;
  /** The least time between two `kernel_info` requests. */
  export const RETRY_MS = 500;

  export function sleep(ms: number): Promise<void> {
    return new Promise(resolve => setTimeout(resolve, ms));
  }

  /**
   * What `answer` resolves to, or false when it takes longer than `ms`; the
   * timer is cleared either way, so an answered attempt leaves none behind.
   */
  export function within(
    answer: Promise<boolean>,
    ms: number
  ): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>(resolve => {
      timer = setTimeout(() => resolve(false), ms);
    });
    return Promise.race([answer, late]).finally(() => clearTimeout(timer));
  }
}
