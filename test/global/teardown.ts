/**
 * Jest's global tear-down for the "kernel" project (not a spec file): says
 * which kernels the specs left running, stops the shared server and removes
 * its folders.
 */
import { rmSync } from 'fs';

import { SHARED_SERVER_ENV } from '../sharedServer';
import { STATE_KEY } from './setup';
import type { ISharedServerState } from './setup';

/** Stop the shared server started by test/global/setup.ts. */
export default async function teardown(): Promise<void> {
  const state = (globalThis as Record<string, unknown>)[STATE_KEY] as
    ISharedServerState | undefined;
  if (!state) {
    return;
  }
  const { server, info } = state;
  try {
    const left = await Private.leftovers(info.url, info.token).catch(
      (reason: Error) =>
        `could not list the kernels left on the shared Jupyter server: ${reason.message}`
    );
    if (left) {
      process.stderr.write(`\n${left}\n`);
    }
  } finally {
    await server.stop();
    rmSync(info.root, { recursive: true, force: true });
    rmSync(info.jupyterPath, { recursive: true, force: true });
    rmSync(info.kernelTmp, { recursive: true, force: true });
    delete (globalThis as Record<string, unknown>)[STATE_KEY];
    delete process.env[SHARED_SERVER_ENV];
  }
}

namespace Private {
  /**
   * A sentence naming the kernels still running, with their sessions' paths,
   * or '' when none is.
   */
  export async function leftovers(url: string, token: string): Promise<string> {
    const get = async <T>(api: string): Promise<T> => {
      const response = await fetch(`${url}${api}`, {
        headers: { Authorization: `token ${token}` }
      });
      if (!response.ok) {
        throw new Error(`GET /${api} answered ${response.status}`);
      }
      return (await response.json()) as T;
    };
    const kernels = await get<{ id: string }[]>('api/kernels');
    if (kernels.length === 0) {
      return '';
    }
    const sessions =
      await get<{ path: string; kernel: { id: string } | null }[]>(
        'api/sessions'
      );
    const paths = sessions
      .filter(s => s.kernel && kernels.some(k => k.id === s.kernel!.id))
      .map(s => s.path);
    return (
      `The kernel specs left ${kernels.length} kernel(s) running on the shared Jupyter server` +
      `${paths.length ? ` (sessions: ${paths.join(', ')})` : ''}: a spec shuts down what it starts.`
    );
  }
}
