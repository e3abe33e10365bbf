/**
 * A temporary server root with a `work/` folder and a Jupyter server serving
 * it, for the authoring specs (not a spec file).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import type { SessionManager } from '@jupyterlab/services';

import { startServer } from '../../src/cli/server';
import type { IServerHandle } from '../../src/cli/server';
import { sessionsFor } from '../../src/cli/session';

/** A running server on a temporary root. */
export interface IAuthoringServer {
  /** The server root. */
  dir: string;
  /** The server. */
  server: IServerHandle;
  /** Sessions on it. */
  sessions: SessionManager;
  /** Start a notebook session at a server path (its folder is the kernel's working directory). */
  startSession(serverPath: string): ReturnType<SessionManager['startNew']>;
  /** Stop the server and remove the root. */
  stop(): Promise<void>;
}

/**
 * Make a temporary root (`<prefix>…/work/`) and start a server on it.
 */
export async function authoringServer(
  prefix: string
): Promise<IAuthoringServer> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  mkdirSync(path.join(dir, 'work'));
  const server = await startServer({ rootDir: dir });
  const { sessions, dispose } = sessionsFor(server.settings);
  return {
    dir,
    server,
    sessions,
    startSession: serverPath =>
      sessions.startNew({
        path: serverPath,
        name: path.posix.basename(serverPath),
        type: 'notebook',
        kernel: { name: 'python3' }
      }),
    stop: async () => {
      dispose();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
