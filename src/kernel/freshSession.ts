/**
 * Starting a fresh kernel that has answered: the headless commands' checks,
 * the side panel's "Check my fix" and the authoring view's verify start their
 * kernels here.
 */
import type { Kernel, Session } from '@jupyterlab/services';

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
 *
 * A fresh IPython kernel is also told to end quickly when it is shut down:
 * every exit function still runs (the notebook's own, IPython's, which
 * clears the namespace and so closes and flushes what the notebook left
 * open, and ipykernel's), then the process ends without tearing the
 * interpreter's modules down. That tear-down is a third of a second of CPU
 * for a kernel that imported pandas and scikit-learn, and nothing of it is
 * seen once the kernel is gone. The kernel's user namespace, history and
 * execution count are left as they were.
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
    let language = '';
    const answered = await within(
      kernel.requestKernelInfo().then(
        reply => {
          const content = reply?.content;
          if (content && 'language_info' in content) {
            language = content.language_info?.name ?? '';
          }
          return !!reply;
        },
        (reason: Error) => {
          failure = reason?.message ?? String(reason);
          return false;
        }
      ),
      attemptMs
    );
    if (answered) {
      if (language === 'python') {
        await Private.endQuickly(kernel, attemptMs);
      }
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

/**
 * What `answer` resolves to, or false when it takes longer than `ms`; the
 * timer is cleared either way, so an answered attempt leaves none behind.
 */
export function within(answer: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>(resolve => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
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

  /**
   * Python, run silently: when the kernel is asked to shut down, an exit
   * function is registered last, so that it runs first; it runs every other
   * exit function once (`atexit._run_exitfuncs`), collects the garbage left
   * in cycles (so their files are closed too), flushes the process's own
   * streams and ends the process with `os._exit`. It leaves no name in the
   * user namespace; a kernel that is not ipykernel ends as usual.
   */
  export const END_QUICKLY = [
    'def _junobench_end_quickly():',
    '    import atexit, gc, os, sys',
    '',
    '    def end():',
    '        atexit.unregister(end)',
    '        try:',
    '            atexit._run_exitfuncs()',
    '            gc.collect()',
    '            for stream in (sys.__stdout__, sys.__stderr__):',
    '                try:',
    '                    stream.flush()',
    '                except Exception:',
    '                    pass',
    '        finally:',
    '            os._exit(0)',
    '',
    '    kernel = getattr(get_ipython(), "kernel", None)',
    '    do_shutdown = getattr(kernel, "do_shutdown", None)',
    '    if do_shutdown is None or not hasattr(atexit, "_run_exitfuncs"):',
    '        return',
    '',
    '    def shutting_down(restart):',
    '        atexit.unregister(end)',
    '        atexit.register(end)',
    '        return do_shutdown(restart)',
    '',
    '    kernel.do_shutdown = shutting_down',
    '',
    '',
    'try:',
    '    _junobench_end_quickly()',
    'except Exception:',
    '    pass',
    'finally:',
    '    del _junobench_end_quickly',
    ''
  ].join('\n');

  /**
   * Tell a fresh IPython kernel to end quickly when it is shut down (see
   * `END_QUICKLY`); a kernel that does not take it in `ms` ends as usual.
   */
  export async function endQuickly(
    kernel: Kernel.IKernelConnection,
    ms: number
  ): Promise<void> {
    await within(
      kernel
        .requestExecute(
          { code: END_QUICKLY, silent: true, store_history: false },
          true
        )
        .done.then(
          () => true,
          () => false
        ),
      ms
    );
  }

  export function sleep(ms: number): Promise<void> {
    return new Promise(resolve => setTimeout(resolve, ms));
  }
}
