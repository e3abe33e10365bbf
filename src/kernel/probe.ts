/**
 * Questions asked of a kernel silently (no execution count, no history):
 * which Python and library versions it has, for the environment drift check,
 * and whether it has run anything yet, so a replay can skip its restart.
 */
import type { Kernel, KernelMessage } from '@jupyterlab/services';

import type { IEnvironmentProbe, IPins, PinGroup } from './drift';
import {
  DEFAULT_DRIFT_GROUPS,
  parseProbeOutput,
  probedDistributions
} from './drift';
import {
  environmentProbeCode,
  parsePristineOutput,
  pristineProbeCode
} from './snippets';

/**
 * Run the environment probe for the pinned libraries in a kernel and parse
 * its answer; rejects with a sentence when the kernel fails or is too slow.
 */
export async function probeEnvironment(
  kernel: Kernel.IKernelConnection,
  pins: IPins,
  options: { groups?: readonly PinGroup[]; timeoutMs?: number } = {}
): Promise<IEnvironmentProbe> {
  const code = environmentProbeCode(
    probedDistributions(pins, options.groups ?? DEFAULT_DRIFT_GROUPS)
  );
  const stdout = await runSilently(
    kernel,
    code,
    options.timeoutMs ?? 30000,
    'The environment probe'
  );
  return parseProbeOutput(stdout);
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
    const stdout = await runSilently(
      kernel,
      pristineProbeCode(),
      timeoutMs,
      'The fresh-kernel check'
    );
    return parsePristineOutput(stdout);
  } catch {
    return false;
  }
}

/**
 * Run code silently (no execution count, no history) and collect its stdout;
 * rejects with a sentence starting with `what` when the code fails or the
 * kernel does not answer within `timeoutMs`.
 */
async function runSilently(
  kernel: Kernel.IKernelConnection,
  code: string,
  timeoutMs: number,
  what: string
): Promise<string> {
  const future = kernel.requestExecute({
    code,
    silent: true,
    store_history: false,
    allow_stdin: false,
    stop_on_error: false
  });
  let stdout = '';
  let error: string | null = null;
  future.onIOPub = msg => {
    if (msg.header.msg_type === 'stream') {
      const content = (msg as KernelMessage.IStreamMsg).content;
      if (content.name === 'stdout') {
        stdout += content.text;
      }
    } else if (msg.header.msg_type === 'error') {
      const content = (msg as KernelMessage.IErrorMsg).content;
      error = `${content.ename}: ${content.evalue}`;
    }
  };
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
    if (reply.content.status !== 'ok' || error) {
      throw new Error(
        `${what} failed in the kernel: ${error ?? reply.content.status}`
      );
    }
  } finally {
    clearTimeout(timer);
    future.dispose();
  }
  return stdout;
}
