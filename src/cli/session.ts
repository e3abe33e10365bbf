/**
 * Running a plan in a kernel of its own, for the headless commands.
 */
import { KernelManager, SessionManager } from '@jupyterlab/services';
import type { Kernel, ServerConnection, Session } from '@jupyterlab/services';

import { startSession } from '../kernel/freshSession';
import { PlanRunner } from '../kernel/runner';
import type { IRunResult } from '../kernel/runner';
import type { IReplayPlan } from '../replay/types';
import { onExit } from './node';

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
 * A session manager (over its own kernel manager) for a server, and how to
 * dispose of both. Each session it starts is registered with `onExit` until
 * its connection is disposed of, so that an interrupted command shuts its
 * kernels down, on a private server or on one given with `--server`.
 */
export function sessionsFor(settings: ServerConnection.ISettings): {
  sessions: SessionManager;
  dispose(): void;
} {
  const kernelManager = new KernelManager({ serverSettings: settings });
  const sessions = new Private.ShutDownOnExit({
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
  /** A session manager whose sessions are shut down when the process ends. */
  export class ShutDownOnExit extends SessionManager {
    /** Start a session, and register it until its connection is disposed of. */
    async startNew(
      ...args: Parameters<SessionManager['startNew']>
    ): Promise<Session.ISessionConnection> {
      const connection = await super.startNew(...args);
      const unregister = onExit({
        kind: 'kernel',
        stop: () => connection.shutdown(),
        stopNow: () => undefined
      });
      connection.disposed.connect(unregister);
      return connection;
    }
  }
}
