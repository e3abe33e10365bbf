/**
 * "Fetch this case": a casebook made by a sparse fetch (`junobench fetch
 * --cases`) from a local repository laid out like the dataset, holding one of
 * its ten cases. The panel starts on "Runnable here" (most cases cannot run),
 * shows a visibly disabled Open with the reason as text, and a case card with
 * the dataset's licence and what is missing; "Fetch this case" fetches the
 * folder through the server extension and the case then replays.
 */
import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { expect, galata, test } from '@jupyterlab/galata';

import { caseItems, openPanel, SLOW } from './junobench';

const REPO = path.resolve(__dirname, '../..');
const ROOT = process.env.JUPYTERLAB_GALATA_ROOT_DIR ?? '';
/** The copy's folder under the server root (one per run of this file). */
const FOLDER = `sparse-copy-${process.pid}`;
const CASE = 'NBspecific_1';
const PYTHON = process.env.VIRTUAL_ENV
  ? path.join(process.env.VIRTUAL_ENV, 'bin', 'python')
  : 'python3';

test.use({
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    'jupyterlab-junobench:casebook': {
      casebookPath: `${FOLDER}/JunoBench`,
      autoDetect: false
    }
  }
});

test.beforeAll(() => {
  expect(ROOT, 'playwright.config.js sets the server root').not.toBe('');
  // A fresh copy with one case, also when a retry runs this file again.
  const copy = path.join(ROOT, FOLDER);
  rmSync(copy, { recursive: true, force: true });
  const source = path.join(
    mkdtempSync(path.join(tmpdir(), 'junobench-src-')),
    'JunoBench'
  );
  execFileSync(PYTHON, [
    path.join(REPO, 'scripts/make_fetch_fixture.py'),
    source
  ]);
  execFileSync(PYTHON, [
    '-m',
    'jupyterlab_junobench',
    'fetch',
    copy,
    '--source',
    source,
    '--cases',
    'sklearn_1'
  ]);
});

test('an incomplete case becomes runnable through "Fetch this case", then replays', async ({
  page
}) => {
  const panel = await openPanel(page);
  const runnable = panel.getByRole('checkbox', { name: /Runnable here/ });
  // Nine of ten cases have no folder here: the panel starts on runnable ones.
  await expect(runnable).toBeChecked({ timeout: SLOW });
  await expect(panel.locator('.jp-Junobench-runOnly')).toHaveText(
    'Runnable here (1)'
  );
  await expect(caseItems(panel)).toHaveCount(1);
  await expect(caseItems(panel).first()).toHaveAttribute(
    'data-case',
    'sklearn_1'
  );

  await runnable.uncheck();
  await expect(caseItems(panel)).toHaveCount(10);
  const item = panel.locator(`li.jp-Junobench-caseItem[data-case="${CASE}"]`);
  const open = item.getByRole('button', { name: `Open case ${CASE}` });
  await expect(open).toBeDisabled();
  // The reason is text on screen, and the button is described by it.
  const why = item.locator('.jp-Junobench-caseBlocked');
  await expect(why).toBeVisible();
  await expect(why).toHaveText(
    'Cannot open here: the case folder (notebooks and input data)'
  );
  await expect(open).toHaveAccessibleDescription(/Cannot open here/);
  // Disabled looks disabled: not the accent colour of an enabled Open.
  const enabledOpen = panel
    .locator('li.jp-Junobench-caseItem[data-case="sklearn_1"]')
    .getByRole('button', { name: 'Open case sklearn_1' });
  const look = (l: typeof open) =>
    l.evaluate(b => {
      const s = getComputedStyle(b);
      return `${s.backgroundColor}|${s.borderStyle}|${s.cursor}`;
    });
  expect(await look(open)).not.toBe(await look(enabledOpen));

  await item.getByRole('button', { name: `Details of case ${CASE}` }).click();
  const card = item.getByRole('region', { name: `Case ${CASE}` });
  await expect(card).toContainText('licence: CC0: Public Domain');
  await expect(card).toContainText('Synthetic house prices (generated)');
  await expect(card.getByRole('list', { name: 'Missing here' })).toContainText(
    'the case folder (notebooks and input data)'
  );
  await card.getByRole('button', { name: `Fetch case ${CASE}` }).click();

  // The casebook reloads with the folder in it: Open is enabled.
  await expect(open).toBeEnabled({ timeout: SLOW });
  await expect(item.locator('.jp-Junobench-caseBlocked')).toHaveCount(0);
  await expect(panel.locator('.jp-Junobench-runOnly')).toHaveText(
    'Runnable here (2)'
  );
  expect(
    existsSync(
      path.join(
        ROOT,
        FOLDER,
        'JunoBench',
        'benchmark',
        CASE,
        `${CASE}_reproduced.ipynb`
      )
    )
  ).toBe(true);

  await open.click();
  const notebook = page.locator('.jp-NotebookPanel').filter({ visible: true });
  const replay = notebook.getByRole('button', { name: 'Replay', exact: true });
  await expect(replay).toBeEnabled({ timeout: SLOW });
  await replay.click();
  await expect(
    page.locator('.jp-Junobench-verdict').filter({ visible: true })
  ).toContainText('Reproduced as recorded', { timeout: SLOW });
});

test('"Runnable here" is remembered for the casebook', async ({ page }) => {
  const panel = await openPanel(page);
  const runnable = panel.getByRole('checkbox', { name: /Runnable here/ });
  await expect(caseItems(panel).first()).toBeVisible({ timeout: SLOW });
  // JupyterLab writes its state database to the workspace a moment later.
  const saved = page.waitForRequest(
    r =>
      r.method() === 'PUT' &&
      /\/api\/workspaces\//.test(r.url()) &&
      (r.postData() ?? '').includes('jupyterlab-junobench:runnable-only')
  );
  await runnable.setChecked(false);
  await expect(caseItems(panel)).toHaveCount(10);
  await saved;
  await page.reload();
  await page.waitForSelector(`#jp-junobench-panel`, { state: 'attached' });
  const again = await openPanel(page);
  await expect(caseItems(again)).toHaveCount(10, { timeout: SLOW });
  await expect(
    again.getByRole('checkbox', { name: /Runnable here/ })
  ).not.toBeChecked();
});
