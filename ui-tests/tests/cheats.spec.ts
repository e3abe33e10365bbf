/**
 * "Check my fix" cannot be fooled, in the browser: on pandas_2 (the crash is in
 * the last cell, so no later cell catches a cheat by accident) a swallowed
 * crash and a made-up value each fail with their sentence and keep the reveal
 * locked under `after-pass`; a genuine alternative fix passes and opens it.
 */
import { expect, galata, test } from '@jupyterlab/galata';

import { casePanel, openDemoCase, SLOW } from './junobench';

const CASE = 'pandas_2';
/** Index (among all cells) of pandas_2's crashing cell, the last one. */
const TARGET = 6;

const SWALLOWED = [
  'try:',
  "    avg_by_region = homes.groupby('Region')['monthly_kwh'].mean().round(1)",
  'except Exception:',
  '    pass'
].join('\n');
const MADE_UP = [
  "avg_by_region = homes['monthly_kwh'].mean().round(1)",
  'avg_by_region'
].join('\n');
/** A cell magic that hands the repaired cell's text to a shell that does nothing. */
const SCRIPT = [
  '%%script true',
  "avg_by_region = homes.groupby('region')['monthly_kwh'].mean().round(1)",
  'avg_by_region.sort_values(ascending=False)'
].join('\n');
/** The repaired statement on one line under a condition that is never true. */
const IF_FALSE =
  "if False: avg_by_region = homes.groupby('region')['monthly_kwh'].mean().round(1)";
/** The right values in another container: a one-column frame for the reference's Series. */
const OTHER_TYPE = [
  "avg_by_region = homes.groupby('region')[['monthly_kwh']].mean().round(1)",
  "avg_by_region.sort_values('monthly_kwh', ascending=False)"
].join('\n');
const ALTERNATIVE = [
  "avg_by_region = homes.groupby(homes['region'])['monthly_kwh'].mean().round(1)",
  'avg_by_region.sort_values(ascending=False)'
].join('\n');

test.use({
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    'jupyterlab-junobench:reveal': { revealPolicy: 'after-pass' }
  }
});

test('a swallowed crash and a made-up value fail, a genuine alternative passes', async ({
  page
}) => {
  const { checkBar } = await openDemoCase(page, CASE);
  const check = checkBar.getByRole('button', { name: 'Check my fix' });
  const result = checkBar.locator('.jp-Junobench-checkResult');
  const reasons = casePanel(page).locator('.jp-Junobench-checkReasons li');
  const reveal = checkBar.getByRole('button', { name: 'Reveal diagnosis' });
  await expect(check).toBeEnabled({ timeout: SLOW });

  // The failing statement wrapped in try/except: the crash is hidden, not fixed.
  await page.notebook.setCell(TARGET, 'code', SWALLOWED);
  await check.click();
  await expect(result).toHaveText(
    'Not solved: the repair hides the crash instead of fixing it.',
    { timeout: SLOW }
  );
  await expect(reasons.first()).toContainText(
    "line 2 raised KeyError: 'Region', and the cell swallowed it"
  );
  // Cells are named as the learner sees them: position and prompt.
  await expect(reasons.first()).toContainText('In cell 7 [');
  await expect(reveal).toBeDisabled();

  // A made-up value: the cell runs but computes something else.
  await page.notebook.setCell(TARGET, 'code', MADE_UP);
  await check.click();
  await expect(result).toHaveText(
    'Not solved: the repaired cell runs but computes something else than the reference fix.',
    { timeout: SLOW }
  );
  await expect(reasons.first()).toContainText(
    'After the target cell, `avg_by_region` differs from the reference fix’s (type)'
  );
  // Each reason once, and the verdict line is not repeated among them.
  const texts = await reasons.allTextContents();
  expect(new Set(texts).size).toBe(texts.length);
  expect(texts).not.toContain(await result.textContent());
  await expect(reveal).toBeDisabled();

  // Grouping by the column itself instead of its name: the same effect, a pass.
  await page.notebook.setCell(TARGET, 'code', ALTERNATIVE);
  await check.click();
  await expect(result).toHaveText(
    'Solved: your repair runs from a fresh kernel and does what the reference fix does.',
    { timeout: SLOW }
  );
  await expect(
    reasons.filter({
      hasText: 'what the reference fix sets matches yours: `avg_by_region`'
    })
  ).toHaveCount(1);
  // What the learner typed is intact.
  expect(await page.notebook.getCellTextInput(TARGET)).toBe(ALTERNATIVE);
  await expect(reveal).toBeEnabled();
  await reveal.click();
  const view = page.getByRole('tabpanel', { name: `Reveal: ${CASE}` });
  await expect(view).toBeVisible({ timeout: SLOW });
  await expect(view.locator('.jp-Junobench-revealException')).toContainText(
    'KeyError'
  );
});

test('a cell magic and a one-line dead branch fail with their sentence, another container passes with its difference noted', async ({
  page
}) => {
  const { checkBar } = await openDemoCase(page, CASE);
  const check = checkBar.getByRole('button', { name: 'Check my fix' });
  const result = checkBar.locator('.jp-Junobench-checkResult');
  const reasons = casePanel(page).locator('.jp-Junobench-checkReasons li');
  await expect(check).toBeEnabled({ timeout: SLOW });

  // %%script true: the repaired statement is text handed to a shell, never Python.
  await page.notebook.setCell(TARGET, 'code', SCRIPT);
  await check.click();
  await expect(result).toHaveText(
    'Not solved: the repair hides the crash instead of fixing it.',
    { timeout: SLOW }
  );
  await expect(reasons.first()).toContainText(
    'never ran as Python: the cell magic %%script hands the cell’s text to something else'
  );

  // `if False: stmt` on one line: the line's header runs, the statement does not.
  await page.notebook.setCell(TARGET, 'code', IF_FALSE);
  await check.click();
  await expect(reasons.first()).toContainText(
    'never ran from a fresh kernel: code that does not run cannot fix the crash',
    { timeout: SLOW }
  );
  await expect(result).toHaveText(
    'Not solved: the repair hides the crash instead of fixing it.'
  );

  // The same values in a one-column frame instead of a Series: solved, the difference said.
  await page.notebook.setCell(TARGET, 'code', OTHER_TYPE);
  await check.click();
  await expect(result).toHaveText(
    'Solved, with differences noted: your repair runs from a fresh kernel and computes what the reference fix computes; what it does differently is listed below.',
    { timeout: SLOW }
  );
  await expect(
    reasons.filter({
      hasText:
        '`avg_by_region` is a pandas.DataFrame where the reference fix has a pandas.Series, with the same values.'
    })
  ).toHaveCount(1);
  expect(await page.notebook.getCellTextInput(TARGET)).toBe(OTHER_TYPE);
});
