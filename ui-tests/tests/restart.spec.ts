/**
 * The server restarts while a working copy is open (issue #6): progress
 * recorded during the outage reaches the server once it is back and is there
 * after a reload, the learner's edit is kept and saved, and Replay works on a
 * new kernel. This spec runs its own JupyterLab server (same test config) on
 * another port, so it can stop and start it on the same root and workspaces
 * folder; the state database is not mocked, so the workspace is the real one.
 */
import { spawn } from 'child_process';
import type { ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { expect, galata, test } from '@jupyterlab/galata';
import type { IJupyterLabPageFixture } from '@jupyterlab/galata';

import { casePanel, openDemoCase, openDemoPanel, SLOW } from './junobench';

const CASE = 'numpy_1';
const PORT = Number(process.env.JUNOBENCH_UI_PORT || '8888') + 21;
const URL = `http://localhost:${PORT}`;
const ROOT = fs.mkdtempSync(path.join(os.tmpdir(), 'junobench-restart-root-'));
const WORKSPACES = fs.mkdtempSync(
  path.join(os.tmpdir(), 'junobench-restart-ws-')
);
const LOG = path.join(__dirname, '..', 'restart-server.log');
const EDIT = '# edited while the server was down\n';

test.describe.configure({ mode: 'serial' });

test.use({
  baseURL: URL,
  // The real workspace on the server, as a learner has it.
  mockState: false,
  // No fixture may call the server while the test has it stopped.
  terminals: null,
  kernels: null,
  sessions: null,
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    'jupyterlab-junobench:replay': { warmKernel: false }
  }
});

let server: ChildProcess | null = null;

/** Start the spec's server and wait until it answers. */
async function startServer(): Promise<void> {
  const log = fs.openSync(LOG, 'a');
  server = spawn(
    'jupyter',
    [
      'lab',
      '--config',
      path.join(__dirname, '..', 'jupyter_server_test_config.py'),
      `--LabApp.workspaces_dir=${WORKSPACES}`
    ],
    {
      cwd: path.join(__dirname, '..'),
      env: {
        ...process.env,
        JUNOBENCH_UI_PORT: String(PORT),
        JUPYTERLAB_GALATA_ROOT_DIR: ROOT
      },
      stdio: ['ignore', log, log]
    }
  );
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (server.exitCode !== null) {
      throw new Error(`the server exited with ${server.exitCode}; see ${LOG}`);
    }
    try {
      if ((await fetch(`${URL}/api/status`)).ok) {
        return;
      }
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      throw new Error(`the server did not answer within 90 s; see ${LOG}`);
    }
    await new Promise(resolve => setTimeout(resolve, 200));
  }
}

/** Stop the spec's server (as an administrator would: SIGTERM). */
async function stopServer(): Promise<void> {
  const child = server;
  server = null;
  if (!child || child.exitCode !== null) {
    return;
  }
  const exited = new Promise(resolve => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** The progress backup files under the workspace folder. */
function backupFiles(): string[] {
  const work = path.join(ROOT, 'junobench-work');
  if (!fs.existsSync(work)) {
    return [];
  }
  return fs
    .readdirSync(work)
    .map(name => path.join(work, name, 'progress.json'))
    .filter(file => fs.existsSync(file));
}

/** The backup's record of CASE, or null. */
function backedUp(): { status: string; hints: number[] } | null {
  const [file] = backupFiles();
  if (!file) {
    return null;
  }
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')).cases[CASE] ?? null;
  } catch {
    return null; // being written
  }
}

/** Run a JupyterLab command in the page. */
function execute(page: IJupyterLabPageFixture, id: string, args = {}) {
  return page.evaluate(
    ([command, options]) =>
      (
        window as unknown as {
          jupyterapp: {
            commands: { execute(id: string, args: object): Promise<unknown> };
          };
        }
      ).jupyterapp.commands.execute(command as string, options as object),
    [id, args] as const
  );
}

test.beforeAll(async () => {
  fs.writeFileSync(LOG, '');
  await startServer();
});

test.afterAll(async () => {
  await stopServer();
  fs.rmSync(ROOT, { recursive: true, force: true });
  fs.rmSync(WORKSPACES, { recursive: true, force: true });
});

test('progress and edits made while the server restarts are kept', async ({
  page
}) => {
  const { panel, notebook, replayBar, checkBar } = await openDemoCase(
    page,
    CASE
  );
  const replay = replayBar.getByRole('button', { name: 'Replay', exact: true });
  await expect(replay).toBeEnabled({ timeout: SLOW });
  await replay.click();
  await expect(notebook.locator('.jp-Cell.jp-Junobench-crashCell')).toHaveCount(
    1,
    { timeout: SLOW }
  );
  // The first hint reads the case's notebooks, so it is opened before.
  const hint = checkBar.getByRole('button', { name: 'Hint', exact: true });
  const hints = casePanel(page)
    .getByRole('list', { name: 'Hints' })
    .locator('li');
  await hint.click();
  await expect(hints).toHaveCount(1);
  await expect
    .poll(() => backedUp(), { timeout: SLOW })
    .toMatchObject({ status: 'crashed', hints: [expect.any(Number)] });
  const [firstHint] = backedUp()!.hints;
  const path0 = await page.evaluate(
    () =>
      (
        window as unknown as {
          jupyterapp: {
            shell: { currentWidget: { context: { path: string } } };
          };
        }
      ).jupyterapp.shell.currentWidget.context.path
  );

  // JupyterLab's own "Server Connection Error" dialog, which the learner
  // dismisses, may open at any point of the outage.
  const connectionError = page.locator(
    '.jp-Dialog[aria-label^="Server Connection Error"]'
  );
  await page.addLocatorHandler(connectionError, async () => {
    await connectionError.getByRole('button', { name: 'Close' }).click();
  });
  await stopServer();

  // During the outage: a hint (progress) and an edit (the learner's work).
  await hint.click();
  await expect(hints).toHaveCount(2);
  const saving = panel.locator('.jp-Junobench-saving');
  await expect(saving).toBeVisible({ timeout: SLOW });
  await expect(saving).toContainText('Progress not saved to the server yet');
  await page.evaluate(text => {
    const cell = (
      window as unknown as {
        jupyterapp: {
          shell: {
            currentWidget: {
              content: {
                model: {
                  cells: {
                    get(i: number): {
                      sharedModel: {
                        getSource(): string;
                        setSource(s: string): void;
                      };
                    };
                  };
                };
              };
            };
          };
        };
      }
    ).jupyterapp.shell.currentWidget.content.model.cells.get(0);
    cell.sharedModel.setSource(text + cell.sharedModel.getSource());
  }, EDIT);
  expect(backedUp()?.hints).toEqual([firstHint]);

  await startServer();

  // The backup is retried until the server takes it.
  await expect(saving).toBeHidden({ timeout: SLOW });
  const hinted = backedUp()!.hints;
  expect(hinted).toHaveLength(2);
  expect(hinted).toContain(firstHint);
  expect(backedUp()?.status).toBe('crashed');
  // The edit is still in the notebook and saves now.
  await execute(page, 'docmanager:save');
  await expect
    .poll(
      () =>
        [
          JSON.parse(fs.readFileSync(path.join(ROOT, path0), 'utf8')).cells[0]
            .source
        ]
          .flat()
          .join(''),
      { timeout: SLOW }
    )
    .toContain('edited while the server was down');
  // The kernel went with the server: Replay starts a new one.
  await replay.click();
  await expect(replay).toBeDisabled();
  await expect(replay).toBeEnabled({ timeout: SLOW });
  const status =
    (await replayBar.locator('.jp-Junobench-replayStatus').textContent()) ?? '';
  await expect(
    replayBar.locator('.jp-Junobench-verdict'),
    `the replay after the restart ended with: ${status}`
  ).toContainText('Reproduced as recorded');

  // A reload (whatever the workspace got) still has the hint.
  // Leave even with something unsaved (JupyterLab asks before unloading).
  page.on('dialog', dialog => void dialog.accept());
  // Playwright's own reload: Galata's also waits on `jupyterapp.started`
  // through an evaluate that a reload racing the restored layout can miss.
  const [raw] = page.context().pages();
  await raw.reload({ waitUntil: 'domcontentloaded' });
  await raw.waitForFunction(
    () => {
      const w = window as unknown as {
        jupyterapp?: { started: Promise<void>; restored: Promise<void> };
        junobenchStarted?: boolean;
      };
      void w.jupyterapp?.started
        .then(() => w.jupyterapp?.restored)
        .then(() => (w.junobenchStarted = true));
      return w.junobenchStarted === true;
    },
    null,
    { timeout: SLOW, polling: 250 }
  );
  await openDemoPanel(page);
  await execute(page, 'junobench:export-progress-json');
  await expect
    .poll(
      () =>
        fs
          .readdirSync(ROOT)
          .filter(name => /^junobench-progress-.*\.json$/.test(name)).length,
      { timeout: SLOW }
    )
    .toBe(1);
  const exported = fs
    .readdirSync(ROOT)
    .find(name => /^junobench-progress-.*\.json$/.test(name))!;
  const record = JSON.parse(fs.readFileSync(path.join(ROOT, exported), 'utf8'))
    .cases[CASE];
  expect(record).toMatchObject({ status: 'crashed', hints: hinted });
});
