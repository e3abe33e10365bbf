/**
 * A kernel connection that answers after a restart. jupyter_server can close
 * the websocket a connection uses as a "stale connection" of its own session
 * when a second websocket of that session registers after it (a reconnection
 * that overlaps the restart); frames still arriving on the closed handler are
 * read with the legacy protocol and dropped (`struct.error`), and the
 * connection goes silent while it says it is connected (docs/faults.md, "The
 * restart race"). A `kernel_info` request with a timeout notices the silence;
 * another restart ends it.
 */
import { KernelAPI } from '@jupyterlab/services';
import type { Kernel, KernelMessage } from '@jupyterlab/services';

import { within } from './freshSession';

/** How the restart came through. */
export interface IRestartResult {
  /** The restarts after which the kernel stayed silent, each followed by another restart. */
  silences: number;
  /** Whether the kernel answered in the end. */
  answered: boolean;
}

/** Options of `restartAnswering`. */
export interface IRestartOptions {
  /**
   * How long a `kernel_info` request after a restart is waited for (default 5 s), twice as
   * long after each further restart (a kernel on a busy machine may only be slow).
   */
  answerMs?: number;
  /** How many more restarts are tried after a silence (default 3). */
  retries?: number;
  /** Told before each further restart (a status line: "restarting again…"). */
  onSilent?: (silence: number) => void;
}

/**
 * Restart the kernel and ask it for its info; a kernel that stays silent for
 * `answerMs` is restarted again, at most `retries` times (`recoverAfterRestart`).
 */
export async function restartAnswering(
  kernel: Kernel.IKernelConnection,
  options: IRestartOptions = {}
): Promise<IRestartResult> {
  await kernel.restart();
  return recoverAfterRestart(kernel, options);
}

/**
 * Ask a kernel that has just restarted for its info; one that stays silent
 * for `answerMs` is restarted again, at most `retries` times. A new websocket
 * alone does not end that silence (a connection with a session of its own
 * does not answer either, measured in docs/faults.md); another restart does,
 * and loses nothing: the kernel has run nothing since the first.
 */
export async function recoverAfterRestart(
  kernel: Kernel.IKernelConnection,
  options: IRestartOptions = {}
): Promise<IRestartResult> {
  const answerMs = options.answerMs ?? Private.ANSWER_MS;
  const retries = options.retries ?? Private.RETRIES;
  let silences = 0;
  for (;;) {
    if (await answersFromNow(kernel, answerMs * 2 ** silences)) {
      return { silences, answered: true };
    }
    if (kernel.isDisposed || silences >= retries) {
      return { silences, answered: false };
    }
    silences += 1;
    options.onSilent?.(silences);
    // Through the REST API, then a new websocket: `kernel.restart()` would cancel the
    // kernel_info request the connection sent by itself, which @jupyterlab/services leaves
    // unhandled (an error in the console, a failed test).
    await KernelAPI.restartKernel(kernel.id, kernel.serverSettings);
    await kernel.reconnect();
  }
}

/**
 * Whether the kernel answers, within `ms`, a message this connection sends
 * from now on: the `kernel_info` request sent here, or a cell run meanwhile
 * (its `busy` status comes as soon as the kernel takes it, while a
 * `kernel_info` request on the shell channel waits behind the cell).
 */
export function answersFromNow(
  kernel: Kernel.IKernelConnection,
  ms: number
): Promise<boolean> {
  const sent = new Set<string>();
  let settle: (answered: boolean) => void = () => undefined;
  const answered = new Promise<boolean>(resolve => (settle = resolve));
  const onMessage = (
    _: Kernel.IKernelConnection,
    { msg, direction }: Kernel.IAnyMessageArgs
  ) => {
    if (direction === 'send') {
      sent.add(msg.header.msg_id);
    } else if (
      sent.has(
        (msg.parent_header as Partial<KernelMessage.IHeader>).msg_id ?? ''
      )
    ) {
      settle(true);
    }
  };
  kernel.anyMessage.connect(onMessage);
  kernel.requestKernelInfo().then(
    reply => reply && settle(true),
    () => undefined
  );
  return within(answered, ms).finally(() =>
    kernel.anyMessage.disconnect(onMessage)
  );
}

namespace Private {
  /** How long one `kernel_info` request is waited for: a restarted kernel answers in well under 1 s. */
  export const ANSWER_MS = 5000;
  /** Further restarts tried before the kernel is said silent. */
  export const RETRIES = 3;
}
