/**
 * Running a plan in a kernel of its own, for the headless commands.
 */
import type { Session, SessionManager } from '@jupyterlab/services';

import { PlanRunner } from '../kernel/runner';
import type { IRunResult } from '../kernel/runner';
import type { IReplayPlan } from '../replay/types';

/**
 * Start a session at `path` (its folder becomes the kernel's working
 * directory), run the plan, and shut the session down; a string says why the
 * plan could not run.
 */
export async function runInFreshKernel(
  sessions: SessionManager,
  session: { path: string; name: string; kernel?: string; timeoutMs?: number },
  plan: IReplayPlan,
  runOptions: PlanRunner.IRunOptions = {}
): Promise<IRunResult | string> {
  let connection: Session.ISessionConnection;
  try {
    connection = await sessions.startNew({
      path: session.path,
      name: session.name,
      type: 'notebook',
      kernel: { name: session.kernel ?? 'python3' }
    });
  } catch (reason) {
    return `Could not start a kernel: ${(reason as Error).message}`;
  }
  try {
    const kernel = connection.kernel;
    if (!kernel) {
      return 'The session has no kernel.';
    }
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
