/**
 * Self-diagnosis and the `after-pass` reveal policy: the learner predicts the
 * labels, a wrong fix fails and keeps the reveal locked, a correct fix opens
 * it, and the reveal scores the prediction, which is then final.
 */
import { expect, galata, test } from '@jupyterlab/galata';

import { openCaseSection, openDemoCase, SLOW } from './junobench';

const CASE = 'pandas_1';
/** Index (among all cells) of pandas_1's crashing lag-feature cell. */
const TARGET = 5;
const lagCell = (column: string) =>
  [
    "sales = sales.sort_values(['store', 'date'])",
    `sales['units_lag1'] = sales.groupby('store')['${column}'].shift(1)`,
    `sales['units_lag7'] = sales.groupby('store')['${column}'].shift(7)`,
    'sales = sales.dropna()',
    'sales.shape'
  ].join('\n');

test.use({
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    'jupyterlab-junobench:reveal': { revealPolicy: 'after-pass' }
  }
});

test('a prediction is scored at the reveal, which waits for a pass', async ({
  page
}) => {
  // An opening replay and two checks (the first with its reference runs): 37
  // to 90 s in CI runs 11 to 16, too close to the default 120 s.
  test.setTimeout(240_000);
  const { panel, checkBar } = await openDemoCase(page, CASE);
  const check = checkBar.getByRole('button', { name: 'Check my fix' });
  const result = checkBar.locator('.jp-Junobench-checkResult');
  const reveal = checkBar.getByRole('button', { name: 'Reveal diagnosis' });
  await expect(check).toBeEnabled({ timeout: SLOW });

  // Predict: root cause and crash type right, pipeline stage wrong. The
  // self-diagnosis is a section of the case side panel.
  const section = await openCaseSection(page, 'diagnose');
  const form = section.locator('details.jp-Junobench-diagnosis');
  await form.getByLabel('Root cause').selectOption('data confusion');
  await form.getByLabel('Crash type').selectOption('key error');
  await form.getByLabel('Pipeline stage').selectOption('data visualization');
  await form.getByRole('button', { name: 'Save prediction' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved.');

  // A wrong fix fails and the reveal stays locked under after-pass.
  await page.notebook.setCell(TARGET, 'code', lagCell('unit'));
  await check.click();
  await expect(result).toContainText('Not solved', { timeout: SLOW });
  await expect(reveal).toBeDisabled();
  // The toolbar button's tooltip says why (on the button element itself).
  await expect(
    checkBar.locator('jp-button[data-command="junobench:reveal"]')
  ).toHaveAttribute(
    'title',
    'The reveal opens once your fix passes the check.'
  );
  const item = panel.locator(`li.jp-Junobench-caseItem[data-case="${CASE}"]`);
  await expect(item).toHaveAttribute('data-status', 'attempted');

  // The correct fix passes and opens the reveal, which scores the prediction.
  await page.notebook.setCell(TARGET, 'code', lagCell('units_sold'));
  await check.click();
  await expect(result).toContainText('Solved:', { timeout: SLOW });
  await expect(reveal).toBeEnabled();
  await reveal.click();
  const view = page.getByRole('tabpanel', { name: `Reveal: ${CASE}` });
  const score = view.locator('.jp-Junobench-revealScore');
  await expect(score).toContainText('2 of 3 right.', { timeout: SLOW });
  await expect(score.locator('tr[data-correct="false"]')).toContainText(
    'data preparation'
  );
  await expect(score.locator('tr[data-correct="true"]')).toHaveCount(2);

  // The prediction is final once the reveal is open.
  await expect(form.locator('summary')).toHaveText(
    'Your diagnosis: 2 of 3 right'
  );
  await expect(form.getByLabel('Root cause')).toBeDisabled();
  await expect(
    form.getByRole('button', { name: 'Save prediction' })
  ).toBeDisabled();
});
