/**
 * Jest's global set-up for the "kernel" project (not a spec file): starts the
 * one Jupyter server its specs share, with our command line's `startServer`
 * (the settings `junobench` uses), and hands it to them through the
 * environment (test/sharedServer.ts reads it). test/global/teardown.ts stops it.
 */
import { execFileSync } from 'child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { startServer } from '../../src/cli/server';
import type { IServerHandle } from '../../src/cli/server';
import { SHARED_SERVER_ENV } from '../sharedServer';
import type { ISharedServerInfo } from '../sharedServer';

/** What the tear-down needs, kept on `globalThis` (set-up and tear-down share jest's process). */
export interface ISharedServerState {
  /** The server. */
  server: IServerHandle;
  /** What the specs were given. */
  info: ISharedServerInfo;
}

/** The `globalThis` key of the state. */
export const STATE_KEY = '__junobenchSharedServer';

/** Start the shared server and describe it in the environment. */
export default async function setup(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'junobench-jest-'));
  // The root stands for demo/: the specs that serve demo/ keep their paths.
  const demo = path.resolve(__dirname, '../../demo');
  for (const entry of readdirSync(demo)) {
    symlinkSync(path.join(demo, entry), path.join(root, entry));
  }
  // Kernelspecs a spec adds while it runs (the server looks them up on each start).
  const jupyterPath = mkdtempSync(path.join(tmpdir(), 'junobench-jest-path-'));
  mkdirSync(path.join(jupyterPath, 'kernels'));
  nativeKernelThroughLauncher(jupyterPath);
  // The server's kernels keep their temporary files (the check's scratch copies) in a folder
  // of their own: a spec can tell what its kernels left from what other processes on the
  // machine make at the same time (CI runs the corpora and the browser tests beside jest).
  const kernelTmp = mkdtempSync(path.join(tmpdir(), 'junobench-jest-tmp-'));
  const saved = process.env.JUPYTER_PATH;
  const savedTmp = process.env.TMPDIR;
  process.env.JUPYTER_PATH = [jupyterPath, saved]
    .filter(Boolean)
    .join(path.delimiter);
  process.env.TMPDIR = kernelTmp;
  let server: IServerHandle;
  try {
    server = await startServer({
      rootDir: root,
      // scripts/test.sh prints the warnings and errors of this log when jest fails.
      logFile: process.env.JUNOBENCH_JEST_SERVER_LOG || undefined,
      extraArgs: [
        // runner.spec.ts prints more than the default IOPub rate limit lets
        // through, to reach the runner's own cap.
        '--ZMQChannelsWebsocketConnection.iopub_data_rate_limit=0',
        // A kernel being shut down is killed after a second at most (as on
        // @jupyterlab/testing's server): warmPool.spec.ts counts on a
        // replaced kernel being gone by the time its successor answers.
        '--KernelManager.shutdown_wait_time=1'
      ]
    });
  } catch (reason) {
    rmSync(root, { recursive: true, force: true });
    rmSync(jupyterPath, { recursive: true, force: true });
    rmSync(kernelTmp, { recursive: true, force: true });
    throw reason;
  } finally {
    if (saved === undefined) {
      delete process.env.JUPYTER_PATH;
    } else {
      process.env.JUPYTER_PATH = saved;
    }
    if (savedTmp === undefined) {
      delete process.env.TMPDIR;
    } else {
      process.env.TMPDIR = savedTmp;
    }
  }
  const info: ISharedServerInfo = {
    url: server.url,
    token: server.token,
    root,
    jupyterPath,
    kernelTmp
  };
  (globalThis as Record<string, unknown>)[STATE_KEY] = {
    server,
    info
  } satisfies ISharedServerState;
  // Test files run in this process or in workers forked after this: both see it.
  process.env[SHARED_SERVER_ENV] = JSON.stringify(info);
}

/**
 * The server's own `python3` kernel, started through our launcher
 * (jupyterlab_junobench/launcher.py), as the pinned and container kernels
 * are: ipykernel whose IOPub port another process took first hangs for ever,
 * and a CI run starts about a thousand kernels among busy ports (CI run 18
 * stopped on one for 29 minutes). Through the launcher that kernel exits and
 * the server's restarter starts it again. Its kernels are forked from a fork
 * server that has loaded ipykernel, numpy, pandas and scikit-learn, as the
 * pinned kernel's are (jupyterlab_junobench/forkserver.py). Everything else is
 * the native kernelspec's own.
 */
function nativeKernelThroughLauncher(jupyterPath: string): void {
  execFileSync(
    'python',
    ['-m', 'jupyterlab_junobench.forkserver', 'python3', jupyterPath],
    { encoding: 'utf8' }
  );
}
