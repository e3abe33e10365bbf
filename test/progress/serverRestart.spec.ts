/**
 * The server restarts while the learner works (issue #6): a change made while
 * it is down reaches the backup file once it is back, and a page loaded
 * afterwards has it even though the JupyterLab workspace missed it. Against a
 * real Jupyter server, stopped and started again on the same port and root.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { ContentsManager } from '@jupyterlab/services';
import { StateDB } from '@jupyterlab/statedb';
import type { ReadonlyPartialJSONObject } from '@lumino/coreutils';

import { startServer } from '../../src/cli/server';
import type { IServerHandle } from '../../src/cli/server';
import {
  progressBackupPath,
  serverProgressFile
} from '../../src/model/progressFile';
import { fromJSON } from '../../src/progress/export';
import { ProgressTracker } from '../../src/progress/tracker';

jest.setTimeout(180000);

/** Wait until a condition holds, checking every 50 ms. */
async function until(what: string, check: () => boolean, ms = 30000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise(resolve => setTimeout(resolve, 50));
  }
}

describe('progress across a server restart', () => {
  let root: string;
  let server: IServerHandle | null = null;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'junobench-restart-'));
  });

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('keeps a hint and time recorded while the server was down', async () => {
    server = await startServer({ rootDir: root });
    const { url, token, settings } = server;
    const port = Number(new URL(url).port);
    const contents = new ContentsManager({ serverSettings: settings });
    const backupFile = (casebook: string) =>
      serverProgressFile(
        contents,
        progressBackupPath('junobench-work', casebook)
      );

    // The page: its state DB is what JupyterLab keeps in the browser.
    const pageState = new StateDB();
    const tracker = new ProgressTracker({ state: pageState, backupFile });
    tracker.setCasebook('demo');
    await tracker.markCrashed('numpy_1');
    await tracker.recordAttempt('numpy_1', {
      passed: false,
      status: 'still-crashes',
      exception: 'ValueError: shapes'
    });
    await tracker.backupSaved();
    const onDisk = path.join(root, 'junobench-work', 'demo', 'progress.json');
    expect(fromJSON(fs.readFileSync(onDisk, 'utf8')).cases.numpy_1.status).toBe(
      'attempted'
    );
    // What the server's workspace holds: JupyterLab saved the state DB
    // before the outage, and cannot save it during it.
    const workspace = (await pageState.toJSON()) as ReadonlyPartialJSONObject;

    await server.stop();
    server = null;
    await tracker.recordHint('numpy_1', 0);
    await tracker.recordHint('numpy_1', 1);
    await tracker.addTime('numpy_1', 42000);
    await until('the backup to report the failed write', () =>
      Boolean(tracker.backupState.error)
    );
    expect(tracker.backupState).toMatchObject({
      path: 'junobench-work/demo/progress.json',
      pending: true
    });
    expect(tracker.backupState.error).toContain(
      'junobench-work/demo/progress.json'
    );

    server = await startServer({ rootDir: root, port, token });
    await tracker.backupSaved();
    expect(tracker.backupState).toMatchObject({ pending: false, error: null });
    const saved = fromJSON(fs.readFileSync(onDisk, 'utf8')).cases.numpy_1;
    expect(saved).toMatchObject({
      status: 'attempted',
      hints: [0, 1],
      timeSpentMs: 42000
    });
    expect(saved.attempts).toHaveLength(1);

    // A reload: the state DB comes from the workspace that missed the changes.
    const reloaded = (withBackup: boolean) => {
      const state = new StateDB({
        transform: Promise.resolve({
          type: 'overwrite' as const,
          contents: workspace
        })
      });
      const page = new ProgressTracker({
        state,
        backupFile: withBackup ? backupFile : null
      });
      page.setCasebook('demo');
      return page;
    };
    const without = reloaded(false);
    await without.store!.ready;
    // Without the backup, the changes made during the outage are gone.
    expect(without.get('numpy_1')).toMatchObject({
      status: 'attempted',
      hints: [],
      timeSpentMs: 0
    });
    const page = reloaded(true);
    await page.store!.ready;
    expect(page.get('numpy_1')).toMatchObject({
      status: 'attempted',
      hints: [0, 1],
      timeSpentMs: 42000
    });
    expect(page.get('numpy_1')!.attempts).toHaveLength(1);
    await page.backupSaved();
  });
});
