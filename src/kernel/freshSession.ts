/**
 * Starting a fresh kernel that has answered: the headless commands' checks,
 * the side panel's "Check my fix" and the authoring view's verify start their
 * kernels here.
 */
import type { Session } from '@jupyterlab/services';

import { english } from '../i18n';
import type { Translate } from '../i18n';

/**
 * A new kernel that did not answer its first request in the time allowed. It
 * carries the fields (kernel name, seconds, the connection's last complaint);
 * `renderStartFailure` words them, in English for the message.
 */
export class SilentKernelError extends Error {
  constructor(
    readonly kernelName: string,
    readonly seconds: number,
    readonly failure: string
  ) {
    super();
    this.message = renderStartFailure(this);
    this.name = 'SilentKernelError';
  }
}

/**
 * Why a fresh kernel could not be started, in words: a silent kernel from its
 * fields, any other failure by its own message.
 */
export function renderStartFailure(
  reason: unknown,
  __: Translate = english
): string {
  if (reason instanceof SilentKernelError) {
    return reason.failure
      ? __(
          'the kernel "%1" did not answer within %2 s (%3)',
          reason.kernelName,
          reason.seconds,
          reason.failure
        )
      : __(
          'the kernel "%1" did not answer within %2 s',
          reason.kernelName,
          reason.seconds
        );
  }
  return (reason as Error)?.message ?? String(reason);
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
 *
 * A kernel process can also hang before it answers anything (a check in CI
 * met one in a few thousand starts on a loaded machine); a fresh kernel has
 * no state to lose, so one that has not answered for `replaceMs` (60 s) is
 * shut down and a new one started in its place, once, within `readyMs`.
 */
export async function startSession(
  sessions: Session.IManager,
  session: {
    path: string;
    name: string;
    kernel?: string;
    readyMs?: number;
    attemptMs?: number;
    replaceMs?: number;
  }
): Promise<Session.ISessionConnection> {
  const start = () =>
    sessions.startNew({
      path: session.path,
      name: session.name,
      type: 'notebook',
      kernel: { name: session.kernel ?? 'python3' }
    });
  let connection = await start();
  let kernel = connection.kernel;
  if (!kernel) {
    return connection;
  }
  const readyMs = session.readyMs ?? Private.READY_MS;
  const attemptMs = session.attemptMs ?? Private.ATTEMPT_MS;
  const deadline = Date.now() + readyMs;
  let replaceAt = Date.now() + (session.replaceMs ?? Private.REPLACE_MS);
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
      throw new SilentKernelError(
        kernel.name,
        Math.round(readyMs / 1000),
        failure
      );
    }
    if (Date.now() >= replaceAt) {
      // Once: a second silent kernel is not the start's bad luck.
      replaceAt = Infinity;
      await connection.shutdown().catch(() => undefined);
      connection.dispose();
      connection = await start();
      kernel = connection.kernel;
      if (!kernel) {
        return connection;
      }
      since = Date.now();
      continue;
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

namespace Private {
  /** How long a new kernel has to answer its first request. */
  export const READY_MS = 180000;
  /** How long a new kernel may stay silent before it is replaced by another. */
  export const REPLACE_MS = 60000;
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
