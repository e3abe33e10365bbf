/**
 * The one Jupyter server the kernel specs share (not a spec file): started
 * once by jest's global set-up (test/global/setup.ts), found by the specs
 * through an environment variable.
 *
 * Its root stands for the repository's `demo/` folder: each entry of `demo/`
 * (`casebook/`, ...) is a link there, so a spec that serves `demo/` passes
 * `serverRoot: <repo>/demo` and reaches the demo casebook. A spec that writes
 * files makes its own folder with `sharedFolder`, so specs do not see each
 * other's files; kernels started without a path run in the root.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import * as path from 'path';

import { PageConfig } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';

import { externalServer } from '../src/cli/server';
import type { IServerHandle } from '../src/cli/server';

/** The environment variable that carries the shared server (JSON) to the specs. */
export const SHARED_SERVER_ENV = 'JUNOBENCH_JEST_SERVER';

/** What the global set-up hands to the specs. */
export interface ISharedServerInfo {
  /** Base URL, ending with `/`. */
  url: string;
  /** Token. */
  token: string;
  /** The server root (a local folder). */
  root: string;
  /** A folder on the server's JUPYTER_PATH whose `kernels/` a spec may add kernelspecs to. */
  jupyterPath: string;
  /** The temporary folder (`TMPDIR`) of the server and its kernels. */
  kernelTmp: string;
}

/** The shared server as a spec sees it. */
export interface ISharedServer extends IServerHandle {
  /** The server root (a local folder standing for the repository's `demo/`). */
  root: string;
  /** The temporary folder (`TMPDIR`) of the server and its kernels. */
  kernelTmp: string;
}

/** A spec's own folder on the shared server. */
export interface ISharedFolder {
  /** The folder, a local path. */
  dir: string;
  /** The folder as a server path (relative to the root, no slashes at the ends). */
  path: string;
}

/**
 * The shared server; also points PageConfig (base URL, websocket URL,
 * token) at it, as `JupyterServer` from `@jupyterlab/testing` does, so that
 * `ServerConnection.makeSettings()` and `new ServiceManager()` reach it.
 * Its `stop` is a no-op: the global tear-down stops it.
 */
export function sharedServer(): ISharedServer {
  const info = Private.info();
  PageConfig.setOption('baseUrl', info.url);
  PageConfig.setOption('wsUrl', info.url.replace(/^http/, 'ws'));
  PageConfig.setOption('token', info.token);
  return {
    ...externalServer(info.url, info.token),
    root: info.root,
    kernelTmp: info.kernelTmp
  };
}

/**
 * Make a new folder of the shared server's root, named `<prefix>` plus
 * random characters, for one spec's files.
 */
export function sharedFolder(prefix: string): ISharedFolder {
  const dir = mkdtempSync(path.join(Private.info().root, prefix));
  return { dir, path: path.basename(dir) };
}

/** Remove a folder made by `sharedFolder`. */
export function removeSharedFolder(folder: ISharedFolder): void {
  rmSync(folder.dir, { recursive: true, force: true });
}

/**
 * Offer kernelspecs (name to `kernel.json` content) on the shared server,
 * which reads its kernelspecs afresh on each kernel start; the function
 * returned removes them. A spec removes what it added: the kernel project
 * runs its specs one at a time, so no other spec sees them.
 */
export function addKernelspecs(
  specs: Record<string, Record<string, unknown>>
): () => void {
  const dirs = Object.entries(specs).map(([name, spec]) => {
    const dir = path.join(Private.info().jupyterPath, 'kernels', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'kernel.json'), JSON.stringify(spec));
    return dir;
  });
  return () => {
    for (const dir of dirs) {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/**
 * A "kernel" (kernel.json content) that starts and never opens its channels,
 * as ipykernel does when another process took its IOPub port first.
 */
export function muteKernelspec(displayName: string): Record<string, unknown> {
  return {
    argv: ['python', '-c', 'import time; time.sleep(600)', '{connection_file}'],
    display_name: displayName,
    language: 'python'
  };
}

/**
 * A kernel (kernel.json content) whose first process hangs before it opens
 * its channels; every later one is ipykernel. The file `marker` says a
 * process has started: it must not exist before the first start.
 */
export function hangOnceKernelspec(
  marker: string,
  displayName: string
): Record<string, unknown> {
  return {
    argv: [
      'python',
      '-c',
      [
        'import os, sys, time',
        'marker, connection = sys.argv[1], sys.argv[2]',
        'if not os.path.exists(marker):',
        '    open(marker, "w").close()',
        '    time.sleep(600)',
        'os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", "-f", connection])'
      ].join('\n'),
      marker,
      '{connection_file}'
    ],
    display_name: displayName,
    language: 'python'
  };
}

/**
 * Shut a kernel down on the shared server by id, whatever its connection
 * saw: the server restarts a kernel that died, and refuses (500) for a
 * moment to shut down one in the middle of a restart. A kernel already gone
 * is fine.
 */
export async function shutdownKernel(id: string): Promise<void> {
  const info = Private.info();
  const settings = externalServer(info.url, info.token).settings;
  for (let attempt = 1; ; attempt++) {
    const response = await ServerConnection.makeRequest(
      `${info.url}api/kernels/${encodeURIComponent(id)}`,
      { method: 'DELETE' },
      settings
    );
    if (response.status === 204 || response.status === 404) {
      return;
    }
    if (attempt === 40) {
      throw new Error(
        `the shared server did not shut down kernel ${id}: ${response.status}`
      );
    }
    await new Promise(resolve => setTimeout(resolve, 250));
  }
}

namespace Private {
  /**
   * The shared server's description from the environment, or an error that
   * says how to get one.
   */
  export function info(): ISharedServerInfo {
    const text = process.env[SHARED_SERVER_ENV];
    if (!text) {
      throw new Error(
        `no shared Jupyter server (${SHARED_SERVER_ENV} is not set): a spec that needs a server belongs to the "kernel" project of jest.config.js, whose global set-up starts it`
      );
    }
    return JSON.parse(text) as ISharedServerInfo;
  }
}
