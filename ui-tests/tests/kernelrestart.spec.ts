/**
 * The restart race in the browser (issue #39, docs/faults.md): a case's
 * working copy on a plain ipykernel kernelspec (no launcher of ours, not
 * forked), replayed, and its kernel restarted by the learner through
 * JupyterLab's own command (the toolbar's Restart, the dialog accepted)
 * during a replay and after one, many times; after a replay with the race
 * provoked (a second websocket of the session opened while the restart is
 * pending), which leaves about half of such restarts silent unless the
 * restart watch (src/kernel/restartWatch.ts) notices and restarts again. After
 * each restart the page's own connection must run `1+1` and show `2`: a page
 * gone silent never would.
 */
import * as fs from 'fs';
import * as path from 'path';

import { expect, galata, test } from '@jupyterlab/galata';
import type { IJupyterLabPageFixture } from '@jupyterlab/galata';

import { endSessionsOf, openDemoCase, replayButton, SLOW } from './junobench';

/** A case whose replay is short: a NameError in its fourth cell. */
const CASE = 'NBspecific_1';
/** ipykernel as `jupyter kernelspec install` writes it. */
const PLAIN = 'junobench-plain-galata';
/** Restarts in all, half of them during a replay. */
const RESTARTS = 6;
/** How long the page may take to answer after a restart (the watch restarts a silent kernel again in that time). */
const ANSWER_MS = 60_000;
/** scripts/ui-tests.sh puts this folder on the test server's JUPYTER_PATH. */
const SPEC_DIR = path.join(__dirname, '..', '.forked-kernel', 'kernels', PLAIN);

// Real kernel and session REST calls: Galata's tracking proxy answers every kernel POST with
// 201, which a real restart (200) is not. The session is shut down below instead.
test.use({
  kernels: null,
  sessions: null,
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    // A workspace of its own: the working copy it leaves is on the plain kernelspec, which
    // goes at the end, and the other specs open the same case from the default workspace.
    'jupyterlab-junobench:replay': {
      warmKernel: false,
      workspaceFolder: 'restart-work'
    }
  }
});

test.beforeAll(() => {
  // The server reads its kernelspecs afresh at each kernel start.
  fs.mkdirSync(SPEC_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(SPEC_DIR, 'kernel.json'),
    JSON.stringify({
      argv: ['python', '-m', 'ipykernel_launcher', '-f', '{connection_file}'],
      display_name: 'Python 3 (plain, Galata)',
      language: 'python'
    })
  );
});

test.afterAll(() => {
  fs.rmSync(SPEC_DIR, { recursive: true, force: true });
});

test.afterEach(async ({ request }) => {
  await endSessionsOf(request, CASE);
});

/** The bits of the JupyterLab application this test reaches through `window`. */
interface IAppWindow {
  jupyterapp: {
    shell: {
      currentWidget: {
        sessionContext: {
          ready: Promise<void>;
          isRestarting: boolean;
          statusChanged: {
            connect(slot: (sender: unknown, status: string) => void): void;
            disconnect(slot: (sender: unknown, status: string) => void): void;
          };
          changeKernel(options: { name: string }): Promise<unknown>;
          session: {
            kernel: {
              name: string;
              reconnect(): Promise<void>;
              requestExecute(content: { code: string }): {
                onIOPub: (msg: {
                  header: { msg_type: string };
                  content: { data?: Record<string, string> };
                }) => void;
                done: Promise<unknown>;
              };
            } | null;
          } | null;
        };
      };
    };
    commands: {
      execute(id: string, args?: object): Promise<unknown>;
      isEnabled(id: string): boolean;
    };
  };
}

/**
 * Restart the current notebook's kernel as a learner does from the notebook's
 * toolbar (its command), the dialog accepted.
 */
async function learnerRestart(
  page: IJupyterLabPageFixture,
  provoke: boolean
): Promise<void> {
  const enabled = await page.evaluate(race => {
    const { commands, shell } = (window as unknown as IAppWindow).jupyterapp;
    if (race) {
      // The race provoked: a second websocket of the session 100 ms into the restart, while the
      // server restarts the kernel (an overlapping reconnection, docs/faults.md).
      const context = shell.currentWidget.sessionContext;
      const overlap = (_: unknown, status: string) => {
        const kernel = context.session?.kernel;
        if (status === 'restarting' && context.isRestarting && kernel) {
          context.statusChanged.disconnect(overlap);
          setTimeout(() => void kernel.reconnect().catch(() => undefined), 100);
        }
      };
      context.statusChanged.connect(overlap);
    }
    void commands.execute('notebook:restart-kernel').catch(reason => {
      console.error('notebook:restart-kernel failed', reason);
    });
    return commands.isEnabled('notebook:restart-kernel');
  }, provoke);
  expect(enabled, 'notebook:restart-kernel is enabled').toBe(true);
  const dialog = page.locator('.jp-Dialog');
  // Its accessible name is "Confirm Kernel Restart", its label "Restart".
  await dialog.getByRole('button', { name: 'Confirm Kernel Restart' }).click();
  await expect(dialog).toHaveCount(0);
}

/**
 * Run `1+1` on the page's own connection to the current notebook's kernel,
 * once per 5 s until it shows `2` or `ANSWER_MS` passed; resolves with the
 * attempts it took (0: it never answered).
 */
async function answers(page: IJupyterLabPageFixture): Promise<number> {
  return page.evaluate(async answerMs => {
    const deadline = Date.now() + answerMs;
    for (let attempt = 1; Date.now() < deadline; attempt++) {
      const kernel = (window as unknown as IAppWindow).jupyterapp.shell
        .currentWidget.sessionContext.session?.kernel;
      if (kernel) {
        const future = kernel.requestExecute({ code: '1+1' });
        const shown = new Promise<boolean>(resolve => {
          future.onIOPub = msg => {
            if (msg.header.msg_type === 'execute_result') {
              resolve(msg.content.data?.['text/plain'] === '2');
            }
          };
          future.done.catch(() => resolve(false));
          setTimeout(() => resolve(false), 5000);
        });
        if (await shown) {
          return attempt;
        }
      } else {
        await new Promise(resolve => setTimeout(resolve, 1000));
      }
    }
    return 0;
  }, ANSWER_MS);
}

test('a case’s kernel restarted by the learner during and after replays keeps answering', async ({
  page
}) => {
  test.setTimeout(240_000);
  const { replayBar } = await openDemoCase(page, CASE);
  const replay = replayButton(replayBar);
  const status = replayBar.locator('.jp-Junobench-replayStatus');
  await expect(replay).toBeEnabled({ timeout: SLOW });
  // The working copy moves to the plain kernelspec; the replay keeps the notebook's kernel.
  const name = await page.evaluate(async kernel => {
    const context = (window as unknown as IAppWindow).jupyterapp.shell
      .currentWidget.sessionContext;
    // After the session the case opener started for the copy is the notebook's.
    await context.ready;
    await context.changeKernel({ name: kernel });
    return context.session?.kernel?.name;
  }, PLAIN);
  expect(name).toBe(PLAIN);
  // The server's session of the copy is on it too (the page's view could lag).
  await expect
    .poll(async () => {
      const sessions = (await (
        await page.request.get('/api/sessions')
      ).json()) as { path: string; kernel: { name: string } }[];
      return sessions
        .filter(s => s.path.includes(CASE))
        .map(s => s.kernel.name);
    })
    .toEqual([PLAIN]);
  expect(await answers(page)).toBeGreaterThan(0);

  // The watch's notification, as it says the silence or, updated, its end.
  const silentNotice = page.getByText(
    /went silent after its restart|answers again after another restart|was replaced by a new/
  );
  let during = 0;
  let provoked = 0;
  let silences = 0;
  let slow = 0;
  let noticed = 0;
  for (let i = 0; i < RESTARTS; i++) {
    await replay.click();
    if (i % 2 === 0) {
      // During the replay: once it runs the recorded cells. (A restart while the replay's own
      // restart is pending collides with it: the server answers 500 and the kernel dies.)
      await expect(status).toContainText('Running step', { timeout: SLOW });
      await learnerRestart(page, false);
      await expect(replay).toBeEnabled({ timeout: SLOW });
      if (
        /was restarted while running/.test((await status.textContent()) ?? '')
      ) {
        during += 1;
      }
    } else {
      // After the replay reached the recorded crash.
      await expect(replay).toBeEnabled({ timeout: SLOW });
      await expect(
        replayBar.locator('.jp-Junobench-verdict'),
        `the replay ended with: ${await status.textContent()}`
      ).toContainText('Reproduced as recorded');
      await learnerRestart(page, true);
      provoked += 1;
    }
    const attempts = await answers(page);
    if (attempts === 0) {
      silences += 1;
    } else if (attempts > 1) {
      slow += 1;
    }
    if (await silentNotice.count()) {
      noticed += 1;
    }
  }
  // The numbers of the restart test (goal: 0 silences).
  console.info(
    `kernel restart: ${RESTARTS} restarts by the learner (${during} while a replay ran, ${provoked} after one with the race provoked), ${silences} left silent, ${slow} answered only after a retry, ${noticed} with the learner told of a silence`
  );
  expect(silences).toBe(0);
  // The kernel is still the plain one, and the replay still reaches the crash.
  await replay.click();
  await expect(replay).toBeEnabled({ timeout: SLOW });
  await expect(replayBar.locator('.jp-Junobench-verdict')).toContainText(
    'Reproduced as recorded'
  );
});
