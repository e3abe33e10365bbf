/**
 * A folder with a `work/` folder on the shared Jupyter server
 * (test/sharedServer.ts), for the authoring specs (not a spec file).
 */
import { mkdirSync } from 'fs';
import * as path from 'path';

import type { SessionManager } from '@jupyterlab/services';

import { sessionsFor } from '../../src/cli/session';
import {
  removeSharedFolder,
  sharedFolder,
  sharedServer
} from '../sharedServer';
import type { ISharedServer } from '../sharedServer';

/** A spec's folder on the shared server. */
export interface IAuthoringServer {
  /** The folder (a local path). */
  dir: string;
  /** The folder as a server path: the spec's server paths start with it. */
  path: string;
  /** The server (its root is not `dir`: `server.root`). */
  server: ISharedServer;
  /** Sessions on it. */
  sessions: SessionManager;
  /** Start a notebook session at a server path (its folder is the kernel's working directory). */
  startSession(serverPath: string): ReturnType<SessionManager['startNew']>;
  /** Dispose of the sessions manager and remove the folder. */
  stop(): Promise<void>;
}

/**
 * Make a folder (`<prefix>…/work/`) on the shared server.
 */
export async function authoringServer(
  prefix: string
): Promise<IAuthoringServer> {
  const server = sharedServer();
  const folder = sharedFolder(prefix);
  mkdirSync(path.join(folder.dir, 'work'));
  const { sessions, dispose } = sessionsFor(server.settings);
  return {
    dir: folder.dir,
    path: folder.path,
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
      removeSharedFolder(folder);
    }
  };
}
