/**
 * The warm kernel (replay setting `warmKernel`): showing the panel starts a
 * kernel no session uses; opening a case hands that kernel to the working
 * copy, a new one is warmed, and the replay still runs in the case folder
 * (the demo notebooks read data/ relative to it).
 */
import { expect, galata, test } from '@jupyterlab/galata';
import type { APIRequestContext } from '@playwright/test';

import { caseItems, ensureDemoCasebook, openPanel, SLOW } from './junobench';

const CASE = 'numpy_1';

// Real kernel and session REST calls: Galata's tracking proxy answers every
// kernel POST with 201, so the replay's restart of an idle (warm) kernel,
// which the server answers with 200, would fail under it.
test.use({ kernels: null, sessions: null });

interface IKernel {
  id: string;
  execution_state: string;
}

/**
 * A list from the server's REST API. A busy server has answered one of these
 * with an error page (CI run 19: "kernels.filter is not a function"): such an
 * answer is asked again, a few times, and then reported with its status.
 */
async function list<T>(request: APIRequestContext, url: string): Promise<T[]> {
  let last = '';
  for (let attempt = 0; attempt < 10; attempt++) {
    const response = await request.get(url);
    const body = response.ok() ? await response.json().catch(() => null) : null;
    if (Array.isArray(body)) {
      return body as T[];
    }
    last = `${response.status()} ${(await response.text()).slice(0, 200)}`;
    await new Promise(resolve => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer with a list: ${last}`);
}

/** Kernels no session uses. */
async function unclaimed(request: APIRequestContext): Promise<IKernel[]> {
  const kernels = await list<IKernel>(request, '/api/kernels');
  const sessions = await list<{ kernel: { id: string } | null }>(
    request,
    '/api/sessions'
  );
  const used = new Set(sessions.map(s => s.kernel?.id));
  return kernels.filter(k => !used.has(k.id));
}

/** Shut down every session, then every kernel no session uses. */
async function shutDownAll(request: APIRequestContext): Promise<void> {
  const sessions = await list<{ id: string }>(request, '/api/sessions');
  for (const s of sessions) {
    await request.delete(`/api/sessions/${s.id}`);
  }
  for (const k of await unclaimed(request)) {
    await request.delete(`/api/kernels/${k.id}`);
  }
}

// Before: what earlier spec files left running (a closed page's warm kernel,
// CI runs 25 and 29) must not pass for this page's warm kernel. After: what
// this test started.
test.beforeEach(async ({ request }) => shutDownAll(request));
test.afterEach(async ({ request }) => shutDownAll(request));

test.describe('warm kernel on', () => {
  test.use({
    mockSettings: {
      ...galata.DEFAULT_SETTINGS,
      'jupyterlab-junobench:replay': {
        warmKernel: true,
        workspaceFolder: 'warm-work'
      }
    }
  });

  test('opening a case takes the warm kernel and the replay reproduces', async ({
    page,
    request
  }) => {
    await ensureDemoCasebook(page);
    const panel = await openPanel(page);
    await expect(caseItems(panel).first()).toBeVisible({ timeout: SLOW });
    // Showing the panel warmed a kernel: one, idle, and no other (a kernel the
    // pool replaced may still be shutting down while a forked successor
    // already answers).
    await expect
      .poll(
        async () => {
          const kernels = await unclaimed(request);
          return kernels.length === 1 && kernels[0].execution_state === 'idle';
        },
        { timeout: SLOW }
      )
      .toBe(true);
    const [warm] = await unclaimed(request);

    await panel
      .getByRole('button', { name: `Open case ${CASE}`, exact: true })
      .click();
    const notebook = page
      .locator('#jp-main-dock-panel .jp-NotebookPanel')
      .filter({ visible: true });
    const bar = notebook.locator('.jp-Junobench-caseHeader');
    const replay = bar.getByRole('button', { name: 'Replay', exact: true });
    await expect(replay).toBeEnabled({ timeout: SLOW });
    // The working copy's session runs the warm kernel.
    await expect
      .poll(
        async () => {
          const sessions = (await (
            await request.get('/api/sessions')
          ).json()) as { path: string; kernel: { id: string } }[];
          return sessions.find(s => s.path.includes(`${CASE}-`))?.kernel.id;
        },
        { timeout: SLOW }
      )
      .toBe(warm.id);
    // And the next kernel is warmed.
    await expect
      .poll(
        async () =>
          (await unclaimed(request)).filter(k => k.id !== warm.id).length,
        { timeout: SLOW }
      )
      .toBe(1);

    await replay.click();
    // A kernel outside the case folder would fail on data/ with another error.
    await expect(bar.locator('.jp-Junobench-verdict')).toContainText(
      'Reproduced as recorded',
      { timeout: SLOW }
    );
  });
});

test.describe('warm kernel off', () => {
  test.use({
    mockSettings: {
      ...galata.DEFAULT_SETTINGS,
      'jupyterlab-junobench:replay': {
        warmKernel: false,
        workspaceFolder: 'cold-work'
      }
    }
  });

  test('no kernel starts before a case is opened', async ({
    page,
    request
  }) => {
    await ensureDemoCasebook(page);
    const panel = await openPanel(page);
    await expect(caseItems(panel).first()).toBeVisible({ timeout: SLOW });
    // Five samples a second apart, all without a kernel (one seen spoils it).
    let zeros = 0;
    await expect
      .poll(
        async () => {
          zeros = (await unclaimed(request)).length === 0 ? zeros + 1 : -1000;
          return zeros;
        },
        { timeout: 15000, intervals: [1000] }
      )
      .toBeGreaterThanOrEqual(5);
  });
});
