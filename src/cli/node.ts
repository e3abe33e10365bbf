/**
 * The Node processes of the command line and the scripts (not the browser):
 * what they need around @jupyterlab/services.
 */

/** The rejection @jupyterlab/services leaves unhandled (see `tolerateCanceledKernelInfo`). */
const CANCELED_KERNEL_INFO =
  'Canceled future for kernel_info_request message before replies were done';

/**
 * Whether an unhandled rejection is that of the `kernel_info` request a
 * kernel connection sends by itself each time its websocket connects.
 */
export function isCanceledKernelInfo(reason: unknown): boolean {
  return reason instanceof Error && reason.message === CANCELED_KERNEL_INFO;
}

let installed = false;

/**
 * A kernel connection of @jupyterlab/services sends a `kernel_info` request
 * each time its websocket connects and keeps no handler for its failure.
 * When the server restarts the kernel before it answers (its restarter, after
 * a kernel exited during its start: a port taken by another process, see
 * jupyterlab_junobench/launcher.py), the connection cancels the request and
 * the promise rejects with nobody listening. A browser logs that; Node ends
 * the process (a CI run's check corpora stopped on it). That one rejection is
 * ignored here; any other unhandled rejection still ends the process, as Node
 * does by default. Installed once per process.
 */
export function tolerateCanceledKernelInfo(): void {
  if (installed) {
    return;
  }
  installed = true;
  process.on('unhandledRejection', reason => {
    if (isCanceledKernelInfo(reason)) {
      return;
    }
    throw reason;
  });
}
