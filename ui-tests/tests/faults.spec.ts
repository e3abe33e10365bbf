/**
 * Faults during a replay (issue #6): a kernel that dies, is restarted or shut
 * down from elsewhere, a cell that hangs or ignores interrupts, huge outputs,
 * and two jobs started at once. Each test injects its fault into a fresh
 * working copy of a demo case by editing a cell the recorded plan runs, then
 * restores it and replays the recorded crash again.
 */
import { expect, galata, test } from '@jupyterlab/galata';
import type { IJupyterLabPageFixture } from '@jupyterlab/galata';
import type { Locator } from '@playwright/test';

import { endSessionsOf, openDemoPanel, SLOW } from './junobench';

/** A case no other spec edits: cells 1–5 run in order, cell 7 crashes. */
const CASE = 'sklearn_1';
/** Index (among all cells) of a cell the recorded plan runs third. */
const INJECTED = 3;
/** The same cell as the bar names it (1-based, document order). */
const INJECTED_NAME = INJECTED + 1;
/** The cell the plan runs after INJECTED. */
const NEXT = 4;

// Real kernel and session REST calls: Galata's tracking proxy answers every
// kernel POST with 201, which a real kernel restart (200) is not, and these
// tests restart and delete kernels. Their sessions are shut down below instead.
test.use({
  kernels: null,
  sessions: null,
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    // Each copy opens with its own kernel in its own folder.
    'jupyterlab-junobench:replay': { warmKernel: false }
  }
});

test.afterEach(async ({ request }) => {
  await endSessionsOf(request, CASE);
});

/** The bits of the JupyterLab application this test reaches through `window`. */
interface IAppWindow {
  jupyterapp: {
    shell: {
      currentWidget: {
        sessionContext: { session: { kernel: { id: string } | null } | null };
        content: {
          model: {
            cells: {
              get(index: number): {
                sharedModel: { setSource(source: string): void };
              };
            };
          };
        };
      };
    };
    commands: { execute(id: string, args?: object): Promise<unknown> };
  };
}

/** What a test works on: the notebook, its bars and their status lines. */
interface IWorkingCopy {
  notebook: Locator;
  replayBar: Locator;
  status: Locator;
  verdict: Locator;
  replay: Locator;
  interrupt: Locator;
  checkBar: Locator;
  check: Locator;
  checkStatus: Locator;
  /** Every cell's source when the copy was opened. */
  sources: string[];
}

/**
 * A fresh working copy of CASE ("Reset case"), so an earlier failed run's
 * edits never leak into this one.
 */
async function freshCopy(page: IJupyterLabPageFixture): Promise<IWorkingCopy> {
  await openDemoPanel(page);
  await page.evaluate(async name => {
    await (window as unknown as IAppWindow).jupyterapp.commands.execute(
      'junobench:reset-case',
      { name }
    );
  }, CASE);
  await expect(
    page.locator(
      '#jp-main-dock-panel .lm-DockPanel-tabBar .lm-TabBar-tab.jp-mod-current'
    )
  ).toContainText(CASE, { timeout: SLOW });
  const notebook = page
    .locator('#jp-main-dock-panel .jp-NotebookPanel')
    .filter({ visible: true });
  await expect(notebook).toHaveCount(1, { timeout: SLOW });
  const replayBar = notebook.locator('.jp-Junobench-caseHeader');
  const checkBar = notebook.locator('.jp-Junobench-caseHeader');
  const replay = replayBar.getByRole('button', { name: 'Replay', exact: true });
  await expect(replay).toBeEnabled({ timeout: SLOW });
  const sources = await allSources(page);
  return {
    notebook,
    replayBar,
    status: replayBar.locator('.jp-Junobench-replayStatus'),
    verdict: replayBar.locator('.jp-Junobench-verdict'),
    replay,
    interrupt: replayBar.getByRole('button', { name: 'Interrupt' }),
    checkBar,
    check: checkBar.getByRole('button', { name: 'Check my fix' }),
    checkStatus: checkBar.locator('.jp-Junobench-checkResult'),
    sources
  };
}

/** The source of every cell of the current notebook. */
async function allSources(page: IJupyterLabPageFixture): Promise<string[]> {
  const count = await page.notebook.getCellCount();
  const sources: string[] = [];
  for (let i = 0; i < count; i++) {
    sources.push((await page.notebook.getCellTextInput(i)) ?? '');
  }
  return sources;
}

/**
 * Set a cell's source in the notebook model, as an edit would (typing it
 * would let the editor auto-indent continuation lines).
 */
async function setSource(
  page: IJupyterLabPageFixture,
  index: number,
  source: string
): Promise<void> {
  await page.evaluate(
    ([i, text]) =>
      (
        window as unknown as IAppWindow
      ).jupyterapp.shell.currentWidget.content.model.cells
        .get(i as number)
        .sharedModel.setSource(text as string),
    [index, source]
  );
}

/**
 * Put `code` at the top of the injected cell, before its original source
 * (the fault the test injects; `restoreAndReproduce` takes it out again).
 */
async function inject(
  page: IJupyterLabPageFixture,
  copy: IWorkingCopy,
  code: string
): Promise<void> {
  await setSource(page, INJECTED, `${code}\n${copy.sources[INJECTED]}`);
}

/** The id of the current notebook's kernel. */
async function kernelId(page: IJupyterLabPageFixture): Promise<string> {
  const id = await page.evaluate(
    () =>
      (window as unknown as IAppWindow).jupyterapp.shell.currentWidget
        .sessionContext.session?.kernel?.id ?? ''
  );
  expect(id, 'the working copy has a kernel').not.toBe('');
  return id;
}

/**
 * Wait until the replay runs the injected cell (or already stopped in it: a
 * fast fault may end the run between two polls).
 */
async function runningInjected(copy: IWorkingCopy): Promise<void> {
  await expect(copy.status).toContainText(
    new RegExp(`cell ${INJECTED_NAME}\\b`),
    { timeout: SLOW }
  );
}

/**
 * Put the original source back, check that no cell of the learner's notebook
 * changed, and replay the recorded crash again.
 */
async function restoreAndReproduce(
  page: IJupyterLabPageFixture,
  copy: IWorkingCopy
): Promise<void> {
  await setSource(page, INJECTED, copy.sources[INJECTED]);
  await setSource(page, NEXT, copy.sources[NEXT]);
  expect(await allSources(page)).toEqual(copy.sources);
  await expect(copy.replay).toBeEnabled({ timeout: SLOW });
  await copy.replay.click();
  await expect(copy.verdict).toContainText('Reproduced as recorded', {
    timeout: SLOW
  });
  await expect(copy.status).toContainText('ValueError');
}

test.describe('The kernel goes away during a replay', () => {
  test('a kernel that dies is reported, and the replay resumes', async ({
    page
  }) => {
    const copy = await freshCopy(page);
    await inject(page, copy, `import os; os._exit(1)`);
    const edited = await allSources(page);
    await copy.replay.click();
    await runningInjected(copy);

    // JupyterLab's own notice is the moment the death is observable in the
    // page; the bar must say so within 2 s of it.
    const dialog = page.locator('.jp-Dialog').filter({
      hasText: 'Kernel Restarting'
    });
    await expect(dialog).toBeVisible({ timeout: SLOW });
    await expect(copy.status).toContainText(
      `The kernel died while running cell ${INJECTED_NAME}`,
      { timeout: 2000 }
    );
    await expect(copy.status).toHaveAttribute('data-kernel-fate', 'died');
    await dialog.getByRole('button', { name: 'Ok' }).click();
    // The learner's notebook is as it was, injected line included.
    expect(await allSources(page)).toEqual(edited);

    await restoreAndReproduce(page, copy);
  });

  test('a kernel restarted or shut down from elsewhere is reported', async ({
    page
  }) => {
    const copy = await freshCopy(page);
    await inject(page, copy, `import time; time.sleep(60)`);

    // Restarted through the REST API, as another tab would.
    await copy.replay.click();
    await runningInjected(copy);
    let id = await kernelId(page);
    const restart = page.request.post(`/api/kernels/${id}/restart`);
    await expect(copy.status).toContainText(
      `The kernel was restarted while running cell ${INJECTED_NAME}`,
      { timeout: 2000 }
    );
    expect((await restart).ok()).toBe(true);

    // Shut down through the REST API (the Running panel of another tab).
    await expect(copy.replay).toBeEnabled();
    await copy.replay.click();
    await runningInjected(copy);
    id = await kernelId(page);
    const shutdown = page.request.delete(`/api/kernels/${id}`);
    await expect(copy.status).toContainText(
      `The kernel was shut down while running cell ${INJECTED_NAME}`,
      { timeout: 2000 }
    );
    await expect(copy.status).toHaveAttribute('data-kernel-fate', 'shut-down');
    expect((await shutdown).ok()).toBe(true);

    // Replay starts a new kernel in place of the deleted one.
    await restoreAndReproduce(page, copy);
    expect(await kernelId(page)).not.toBe(id);
  });
});

test.describe('A cell that runs too long', () => {
  test.use({
    mockSettings: {
      ...galata.DEFAULT_SETTINGS,
      'jupyterlab-junobench:replay': { cellTimeout: 10, warmKernel: false }
    }
  });

  test('the per-cell timeout interrupts it, even a deaf one', async ({
    page
  }) => {
    // Two runs that each wait out the timeout, then a full replay.
    test.setTimeout(240_000);
    const copy = await freshCopy(page);
    await inject(page, copy, `import time; time.sleep(60)`);
    await copy.replay.click();
    await runningInjected(copy);
    await expect(copy.status).toContainText(
      new RegExp(
        `The replay interrupted cell ${INJECTED_NAME} \\[[ *\\d]*\\]: it ran longer than 10 s`
      ),
      { timeout: 30_000 }
    );
    await expect(copy.status).toHaveAttribute('data-result', 'timeout');

    // A cell that ignores SIGINT: the replay gives up after the grace period.
    await inject(
      page,
      copy,
      `import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(60)`
    );
    await copy.replay.click();
    await runningInjected(copy);
    await expect(copy.status).toContainText(
      'the kernel did not respond to the interrupt',
      { timeout: 40_000 }
    );
    await expect(copy.status).toHaveAttribute(
      'data-kernel-fate',
      'unresponsive'
    );

    await restoreAndReproduce(page, copy);
  });
});

test('the Interrupt button stops a long cell', async ({ page }) => {
  const copy = await freshCopy(page);
  await inject(page, copy, `import time; time.sleep(60)`);
  await copy.replay.click();
  await runningInjected(copy);
  await expect(copy.interrupt).toBeEnabled();
  await copy.interrupt.click();
  await expect(copy.status).toContainText(
    new RegExp(
      `The replay was interrupted in cell ${INJECTED_NAME} \\[[ *\\d]*\\]\\.`
    ),
    { timeout: 15_000 }
  );
  await expect(copy.replay).toBeEnabled();
  await restoreAndReproduce(page, copy);
});

test('huge outputs are capped and the page stays responsive', async ({
  page
}) => {
  const copy = await freshCopy(page);
  // A 10,000-row table (its 1.3 MB of HTML is over the cap, its text is not)
  // and a 50 MB print in the next cell.
  await setSource(
    page,
    INJECTED,
    `${copy.sources[INJECTED]}\nwith pd.option_context('display.max_rows', None):\n    display(pd.DataFrame(np.random.rand(10000, 4)))`
  );
  await setSource(page, NEXT, `print('x' * 50_000_000)\n${copy.sources[NEXT]}`);
  await copy.replay.click();
  await expect(copy.verdict).toContainText('Reproduced as recorded', {
    timeout: SLOW
  });
  const table = copy.notebook.locator('.jp-Cell').nth(INJECTED);
  await expect(table.locator('.jp-OutputArea')).toContainText(
    /\[output truncated by JunoBench: 1\.\d MB not shown\]/
  );
  await expect(table.locator('.jp-OutputArea-output table')).toHaveCount(0);

  // The page still answers: the panel's search box takes typing.
  const search = page.getByRole('searchbox', { name: 'Search cases' });
  await search.fill('sklearn');
  await expect(search).toHaveValue('sklearn', { timeout: 5000 });
  await search.fill('');
  await restoreAndReproduce(page, copy);
});

/** Run a command as the palette or a shortcut would (whether or not it is enabled). */
async function runCommand(
  page: IJupyterLabPageFixture,
  id: string
): Promise<void> {
  await page.evaluate(async command => {
    const commands = (window as unknown as IAppWindow).jupyterapp.commands;
    void commands.execute(command);
  }, id);
}

test('two jobs at once: the second is refused, nothing is corrupted', async ({
  page
}) => {
  // Replays and a check that each wait out the injected sleep, then a clean
  // replay: 78 to 90 s in CI runs 11 to 16, too close to the default 120 s.
  test.setTimeout(240_000);
  const copy = await freshCopy(page);
  await inject(page, copy, `import time; time.sleep(6)`);
  const edited = await allSources(page);

  // The replay command twice in a row: one replay, one refusal.
  const second = await page.evaluate(async () => {
    const commands = (window as unknown as IAppWindow).jupyterapp.commands;
    const first = commands.execute('junobench:replay-case');
    const again = await commands.execute('junobench:replay-case');
    await first;
    return again;
  });
  expect(second).toBeNull();
  await expect(copy.verdict).toContainText('Reproduced as recorded', {
    timeout: SLOW
  });
  // One run: the crashing cell got the sixth execution count, not a later one.
  await expect(
    copy.notebook.locator('.jp-Junobench-crashCell .jp-InputPrompt')
  ).toContainText('[6]');

  // Check my fix while a replay runs: the button is disabled, and the
  // command run anyway (palette, shortcut) is refused with a message.
  await copy.replay.click();
  await runningInjected(copy);
  await expect(copy.check).toBeDisabled();
  await runCommand(page, 'junobench:check-fix');
  await expect(copy.checkStatus).toContainText('A replay is running');
  await expect(copy.verdict).toContainText('Reproduced as recorded', {
    timeout: SLOW
  });

  // Replay while a check runs: disabled too, refused with a message; the check finishes.
  await expect(copy.check).toBeEnabled();
  await copy.check.click();
  await expect(copy.checkStatus).toContainText('Checking your fix');
  await expect(copy.replay).toBeDisabled();
  await runCommand(page, 'junobench:replay-case');
  await expect(copy.status).toContainText('A check of your fix is running');
  await expect(copy.checkStatus).toContainText('Not solved', {
    timeout: SLOW
  });
  expect(await allSources(page)).toEqual(edited);
  await expect(page.locator('.jp-Dialog')).toHaveCount(0);
  await restoreAndReproduce(page, copy);
});
