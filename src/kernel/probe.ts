/**
 * Asking a kernel which Python and library versions it has, silently (no
 * execution count, no history), for the environment drift check.
 */
import type { Kernel, KernelMessage } from '@jupyterlab/services';

import type { IEnvironmentProbe, IPins, PinGroup } from './drift';
import {
  DEFAULT_DRIFT_GROUPS,
  parseProbeOutput,
  probedDistributions
} from './drift';
import { environmentProbeCode } from './snippets';

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
  const timeoutMs = options.timeoutMs ?? 30000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `The environment probe got no answer within ${timeoutMs / 1000} s.`
          )
        ),
      timeoutMs
    );
  });
  try {
    const reply = await Promise.race([future.done, timeout]);
    if (reply.content.status !== 'ok' || error) {
      throw new Error(
        `The environment probe failed in the kernel: ${error ?? reply.content.status}`
      );
    }
  } finally {
    clearTimeout(timer);
    future.dispose();
  }
  return parseProbeOutput(stdout);
}
