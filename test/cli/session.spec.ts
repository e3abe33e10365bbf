/**
 * A headless session is handed over only once its kernel has answered: a
 * kernel that never answers is reported by name within the time allowed
 * (and shut down), and a real kernel is ready for its first cell.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { startServer } from '../../src/cli/server';
import type { IServerHandle } from '../../src/cli/server';
import { sessionsFor, startSession, uniqueSuffix } from '../../src/cli/session';

jest.setTimeout(120000);

describe('startSession', () => {
  let server: IServerHandle;
  let root: string;
  let jupyterPath: string;
  const saved = process.env.JUPYTER_PATH;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'junobench-session-'));
    jupyterPath = mkdtempSync(path.join(tmpdir(), 'junobench-kernels-'));
    // A "kernel" that starts and never opens its channels.
    const spec = path.join(jupyterPath, 'kernels', 'mute');
    mkdirSync(spec, { recursive: true });
    writeFileSync(
      path.join(spec, 'kernel.json'),
      JSON.stringify({
        argv: [
          'python',
          '-c',
          'import time; time.sleep(600)',
          '{connection_file}'
        ],
        display_name: 'Mute',
        language: 'python'
      })
    );
    process.env.JUPYTER_PATH = jupyterPath;
    try {
      server = await startServer({ rootDir: root });
    } finally {
      if (saved === undefined) {
        delete process.env.JUPYTER_PATH;
      } else {
        process.env.JUPYTER_PATH = saved;
      }
    }
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
    rmSync(jupyterPath, { recursive: true, force: true });
  });

  it('waits for a real kernel to answer, then runs its first cell', async () => {
    const { sessions, dispose } = sessionsFor(server.settings);
    try {
      const connection = await startSession(sessions, {
        path: `ready-${uniqueSuffix()}.ipynb`,
        name: 'ready.ipynb'
      });
      const reply = await connection.kernel!.requestExecute({ code: '1 + 1' })
        .done;
      expect(reply.content.status).toBe('ok');
      await connection.shutdown();
    } finally {
      dispose();
    }
  });

  it('names a kernel that never answers and shuts it down', async () => {
    const { sessions, dispose } = sessionsFor(server.settings);
    try {
      await expect(
        startSession(sessions, {
          path: `mute-${uniqueSuffix()}.ipynb`,
          name: 'mute.ipynb',
          kernel: 'mute',
          readyMs: 3000
        })
      ).rejects.toThrow('the kernel "mute" did not answer within 3 s');
      await sessions.refreshRunning();
      expect([...sessions.running()].map(s => s.kernel?.name)).not.toContain(
        'mute'
      );
    } finally {
      dispose();
    }
  });
});
