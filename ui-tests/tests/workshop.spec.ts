/**
 * Workshops: starting the example workshop from the file browser sets the
 * panel to its playlist (title, cases in its order, countdown) and locks the
 * reveal policy to the workshop's, even against the learner's own setting;
 * the workshop survives a reload and can be left.
 */
import * as path from 'path';

import { expect, galata, test } from '@jupyterlab/galata';
import type { IJupyterLabPageFixture } from '@jupyterlab/galata';

import {
  caseItems,
  clearProgressBackups,
  ensureDemoCasebook,
  openPanel,
  SLOW
} from './junobench';

const EXAMPLE = path.resolve(
  __dirname,
  '../../demo/workshops/intro.junobench-workshop.json'
);
const FILE = 'intro.junobench-workshop.json';
const TITLE = 'Intro: reading a notebook crash';
const CASES = ['NBspecific_1', 'numpy_1', 'pandas_1'];

/** The bits of the JupyterLab application this test reaches through `window`. */
interface IAppWindow {
  jupyterapp: {
    commands: { execute(id: string, args: object): Promise<unknown> };
  };
}

/** Run a JupyterLab command in the page without waiting for it to finish. */
async function runCommand(
  page: IJupyterLabPageFixture,
  id: string,
  args: object = {}
): Promise<void> {
  await page.evaluate(
    ([command, a]) => {
      void (window as unknown as IAppWindow).jupyterapp.commands.execute(
        command as string,
        a as object
      );
    },
    [id, args] as const
  );
}

// The learner's own setting would open the reveal at any time. The state
// goes to the real server workspace (cleared by the ?reset of the test page),
// so that the reload below reads what JupyterLab really saved.
test.use({
  mockState: false,
  // The page is loaded by the test, once earlier specs' progress is gone.
  autoGoto: false,
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    'jupyterlab-junobench:reveal': { revealPolicy: 'always' }
  }
});

test('the example workshop sets the panel to its playlist and its reveal policy', async ({
  page,
  tmpPath
}) => {
  // Under after-pass, a case an earlier spec solved would open its reveal.
  await clearProgressBackups(page.request);
  await page.goto('?reset');
  await ensureDemoCasebook(page);
  await page.contents.uploadFile(EXAMPLE, `${tmpPath}/${FILE}`);
  const panel = await openPanel(page);
  await expect(caseItems(panel).first()).toBeVisible({ timeout: SLOW });
  const fullCount = await caseItems(panel).count();
  expect(fullCount).toBeGreaterThan(CASES.length);

  // Start it from the file browser's context menu on the workshop file.
  await page.sidebar.openTab('filebrowser');
  await page.filebrowser.openDirectory(tmpPath);
  const item = page.locator('.jp-DirListing-item', { hasText: FILE });
  await expect(item).toHaveAttribute('data-file-type', 'junobench-workshop');
  await item.click({ button: 'right' });
  await page
    .getByRole('menuitem', { name: 'Start JunoBench Workshop…' })
    .click();

  await expect(panel).toBeVisible();
  const workshop = panel.getByRole('region', { name: 'Workshop' });
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText(TITLE);
  await expect(caseItems(panel)).toHaveCount(CASES.length, { timeout: SLOW });
  expect(
    await caseItems(panel).evaluateAll(items =>
      items.map(li => (li as HTMLElement).dataset.case)
    )
  ).toEqual(CASES);
  await expect(panel.locator('.jp-Junobench-count')).toHaveText(
    /3\s+of\s+3\s+cases/
  );
  await expect(workshop).toContainText(
    'Reveal: after a pass (set by the workshop)'
  );
  await expect(workshop.getByRole('timer')).toHaveText(
    /^Time left: 4[45]:\d\d$/
  );

  // The lock: the workshop's after-pass wins over the setting's "always".
  await runCommand(page, 'junobench:reveal', { name: 'numpy_1' });
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('The reveal is closed');
  await expect(dialog).toContainText(
    'The reveal opens once your fix passes the check.'
  );
  await dialog.getByRole('button', { name: /ok|dismiss|close/i }).click();
  await expect(dialog).toHaveCount(0);

  // The workshop survives a reload: wait until JupyterLab has saved it to
  // the server workspace, then load the page again (not page.reload(): the
  // test page was opened with ?reset, which clears the saved state).
  await expect
    .poll(
      async () => {
        const response = await page.request.get('/lab/api/workspaces');
        return JSON.stringify(await response.json());
      },
      { message: 'the workspace holds the active workshop', timeout: 30_000 }
    )
    .toContain('jupyterlab-junobench:workshop');
  await page.goto(`tree/${tmpPath}`);
  const again = await openPanel(page);
  await expect(
    again.getByRole('heading', { level: 2 }),
    'the workshop is restored after a reload'
  ).toHaveText(TITLE, { timeout: 30_000 });
  await expect(caseItems(again)).toHaveCount(CASES.length, { timeout: SLOW });

  // Leaving it lists the whole casebook and gives the setting back.
  await again.getByRole('button', { name: 'Leave workshop' }).click();
  await expect(again.getByRole('region', { name: 'Workshop' })).toBeHidden();
  await expect(caseItems(again)).toHaveCount(fullCount, { timeout: SLOW });
  await runCommand(page, 'junobench:reveal', { name: 'numpy_1' });
  await expect(page.getByRole('tab', { name: /Reveal: numpy_1/ })).toBeVisible({
    timeout: SLOW
  });
});
