/**
 * Questions asked of a kernel silently (no execution count, no history):
 * which Python and library versions it has, for the environment drift check,
 * and whether it has run anything yet, so a replay can skip its restart.
 */
import type { Kernel, KernelMessage } from '@jupyterlab/services';

import type { IEnvironmentProbe, IPins, PinGroup } from './drift';
import { DEFAULT_DRIFT_GROUPS, probedDistributions, readProbe } from './drift';
import {
  environmentQuestion,
  isPristineAnswer,
  pristineQuestion
} from './snippets';
import type { IKernelQuestion } from './snippets';

/**
 * Run the environment probe for the pinned libraries in a kernel and parse
 * its answer; rejects with a sentence when the kernel fails or is too slow.
 */
export async function probeEnvironment(
  kernel: Kernel.IKernelConnection,
  pins: IPins,
  options: { groups?: readonly PinGroup[]; timeoutMs?: number } = {}
): Promise<IEnvironmentProbe> {
  const question = environmentQuestion(
    probedDistributions(pins, options.groups ?? DEFAULT_DRIFT_GROUPS)
  );
  const answer = await ask(
    kernel,
    question,
    options.timeoutMs ?? 30000,
    'The environment probe'
  );
  return readProbe(answer);
}

/**
 * Whether a kernel has run nothing yet, so a replay can use it as it is
 * instead of restarting it: no execution with history, no user-defined
 * names, and no earlier replay setup (which moves the working directory).
 * Resolves false for any kernel that cannot say (not IPython, busy past the
 * timeout, failing); a replay then restarts it as before.
 */
export async function isPristineKernel(
  kernel: Kernel.IKernelConnection,
  timeoutMs = 3000
): Promise<boolean> {
  try {
    const answer = await ask(
      kernel,
      pristineQuestion(),
      timeoutMs,
      'The fresh-kernel check'
    );
    return isPristineAnswer(answer);
  } catch {
    return false;
  }
}

/**
 * Ask a kernel a question silently (no execution count, no history) and return
 * the JSON answer of its `user_expressions` entry; rejects with a sentence
 * starting with `what` when the code or the expression fails or the kernel
 * does not answer within `timeoutMs`.
 */
async function ask(
  kernel: Kernel.IKernelConnection,
  question: IKernelQuestion,
  timeoutMs: number,
  what: string
): Promise<unknown> {
  const future = kernel.requestExecute({
    code: question.code,
    silent: true,
    store_history: false,
    allow_stdin: false,
    stop_on_error: false,
    user_expressions: { junobench: question.expression }
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(`${what} got no answer within ${timeoutMs / 1000} s.`)
        ),
      timeoutMs
    );
  });
  try {
    const reply = await Promise.race([future.done, timeout]);
    const content = reply.content;
    if (content.status !== 'ok') {
      const failed = content as KernelMessage.IReplyErrorContent;
      throw new Error(
        `${what} failed in the kernel: ${failed.ename ? `${failed.ename}: ${failed.evalue}` : content.status}`
      );
    }
    const answer = content.user_expressions?.junobench as
      | {
          status?: string;
          ename?: string;
          evalue?: string;
          data?: Record<string, unknown>;
        }
      | undefined;
    if (answer?.status !== 'ok') {
      throw new Error(
        `${what} failed in the kernel: ${answer?.ename ?? 'no answer'}: ${answer?.evalue ?? ''}`
      );
    }
    return answer.data?.['application/json'] ?? null;
  } finally {
    clearTimeout(timer);
    future.dispose();
  }
}
