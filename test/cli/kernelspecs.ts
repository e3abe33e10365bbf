/**
 * A Jupyter server for a spec that sees extra kernelspecs: they are written
 * into a temporary JUPYTER_PATH that only this server's start-up sees. (A
 * spec that needs one set of extra kernelspecs adds them to the shared
 * server instead: `addKernelspecs` in test/sharedServer.ts. This is for specs
 * that compare servers whose kernelspecs of the same name differ.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { startServer } from '../../src/cli/server';
import type { IServerHandle } from '../../src/cli/server';

/**
 * A stand-in kernelspec: this Python's ipykernel (the server puts its own
 * interpreter for `python`), with the given display name and any other
 * `kernel.json` fields (`env`, `metadata`, ...).
 */
export function pythonKernelspec(
  displayName: string,
  fields: Record<string, unknown> = {}
): Record<string, unknown> {
  return {
    argv: ['python', '-m', 'ipykernel_launcher', '-f', '{connection_file}'],
    display_name: displayName,
    language: 'python',
    ...fields
  };
}

/**
 * Start a server at `rootDir` whose kernelspecs include `specs` (name to
 * `kernel.json` content); `stop` stops it and removes the kernelspecs.
 */
export async function startServerWithKernelspecs(
  rootDir: string,
  specs: Record<string, Record<string, unknown>>
): Promise<{ server: IServerHandle; stop(): Promise<void> }> {
  const jupyterPath = mkdtempSync(path.join(tmpdir(), 'junobench-kernels-'));
  for (const [name, spec] of Object.entries(specs)) {
    const dir = path.join(jupyterPath, 'kernels', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'kernel.json'), JSON.stringify(spec));
  }
  const saved = process.env.JUPYTER_PATH;
  process.env.JUPYTER_PATH = jupyterPath;
  let server: IServerHandle;
  try {
    server = await startServer({ rootDir });
  } catch (reason) {
    rmSync(jupyterPath, { recursive: true, force: true });
    throw reason;
  } finally {
    if (saved === undefined) {
      delete process.env.JUPYTER_PATH;
    } else {
      process.env.JUPYTER_PATH = saved;
    }
  }
  return {
    server,
    stop: async () => {
      await server.stop();
      rmSync(jupyterPath, { recursive: true, force: true });
    }
  };
}
