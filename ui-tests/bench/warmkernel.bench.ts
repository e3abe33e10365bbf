/**
 * "Open case" with and without the warm kernel (the `warmKernel` setting),
 * printed as `BENCH ...` lines: time from the click to the notebook's kernel
 * being idle, and to the crash shown after pressing Replay at once. Each mode
 * uses its own workspace folder, so no working copy or session carries over.
 */
import { expect, galata, test } from '@jupyterlab/galata';
import type { IJupyterLabPageFixture } from '@jupyterlab/galata';

import {
  caseItems,
  ensureDemoCasebook,
  openPanel,
  SLOW,
  timeOpenToCrash
} from '../tests/junobench';

const CASES = (process.env.BENCH_WARM_CASES || 'numpy_1,pandas_1,sklearn_1')
  .split(',')
  .filter(Boolean);

test.describe.configure({ mode: 'serial' });

// Real kernel and session REST calls: Galata's tracking proxy answers every
// kernel POST with 201, so the replay's restart of an idle (warm) kernel,
// which the server answers with 200, would fail. Sessions are shut down below.
test.use({ kernels: null, sessions: null });

/** Wait until the server has an idle kernel no session uses (the warm one). */
async function warmKernelIdle(page: IJupyterLabPageFixture): Promise<void> {
  await expect
    .poll(
      async () => {
        const kernels = (await (
          await page.request.get('/api/kernels')
        ).json()) as {
          id: string;
          execution_state: string;
        }[];
        const sessions = (await (
          await page.request.get('/api/sessions')
        ).json()) as {
          kernel: { id: string } | null;
        }[];
        const used = new Set(sessions.map(s => s.kernel?.id));
        return kernels.some(
          k => !used.has(k.id) && k.execution_state === 'idle'
        );
      },
      { timeout: SLOW }
    )
    .toBe(true);
}

/** Close the notebooks and shut their kernels down (not the warm one: it has no session). */
async function closeAll(page: IJupyterLabPageFixture): Promise<void> {
  await page.evaluate(async () => {
    const app = window.jupyterapp;
    await app.serviceManager.sessions.shutdownAll();
    await app.commands.execute('application:close-all');
  });
}

for (const warm of [false, true]) {
  test.describe(`warm kernel ${warm ? 'on' : 'off'}`, () => {
    test.use({
      mockSettings: {
        ...galata.DEFAULT_SETTINGS,
        'jupyterlab-junobench:replay': {
          warmKernel: warm,
          workspaceFolder: `bench-${warm ? 'warm' : 'cold'}-${Date.now()}`
        }
      }
    });

    test(`open case → crash shown, warm kernel ${warm ? 'on' : 'off'}`, async ({
      page
    }) => {
      await ensureDemoCasebook(page);
      const panel = await openPanel(page);
      await expect(caseItems(panel).first()).toBeVisible({ timeout: SLOW });
      const results: string[] = [];
      const idle: number[] = [];
      const crash: number[] = [];
      for (const name of CASES) {
        await openPanel(page);
        if (warm) {
          // A learner browsing the list gives the warm kernel time to start.
          await warmKernelIdle(page);
        }
        const { pressed, total, verdict } = await timeOpenToCrash(
          page,
          panel,
          name
        );
        crash.push(total);
        results.push(
          `${name} ${(total / 1000).toFixed(2)} s (Replay pressed at ${(pressed / 1000).toFixed(2)} s) — ${verdict}`
        );
        // A kernel in the wrong folder would crash differently (no data/).
        expect(verdict).toMatch(/^Reproduced as recorded/);
        await closeAll(page);
      }
      // Open → kernel idle, without replaying: the case opened again in a
      // new attempt (Reset), so a new session and kernel are needed.
      for (const name of CASES) {
        await openPanel(page);
        if (warm) {
          await warmKernelIdle(page);
        }
        const ms = await page.evaluate(async name => {
          const app = window.jupyterapp;
          const t0 = performance.now();
          await app.commands.execute('junobench:reset-case', { name });
          for (;;) {
            const widget = app.shell.currentWidget as unknown as {
              context?: { path: string };
              sessionContext?: { session?: { kernel?: { status: string } } };
            } | null;
            const status = widget?.sessionContext?.session?.kernel?.status;
            if (
              widget?.context?.path.includes(`${name}-`) &&
              status === 'idle'
            ) {
              return performance.now() - t0;
            }
            await new Promise(r => setTimeout(r, 20));
          }
        }, name);
        idle.push(ms);
        await closeAll(page);
      }
      const med = (xs: number[]) =>
        [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      console.log(
        `BENCH open case → crash shown, warm kernel ${warm ? 'on' : 'off'}: median ${(med(crash) / 1000).toFixed(2)} s — ${results.join('; ')}`
      );
      console.log(
        `BENCH open case (new attempt) → notebook kernel idle, warm kernel ${warm ? 'on' : 'off'}: median ${(med(idle) / 1000).toFixed(2)} s (${idle.map(x => (x / 1000).toFixed(2)).join(', ')} s)`
      );
    });
  });
}
