/**
 * "Check my fix" on a demo case: the unrepaired notebook fails the check, a
 * correct repair of the crashing cell passes and the case counts as solved.
 */
import { expect, test } from '@jupyterlab/galata';

import {
  casePanel,
  NUMPY_1,
  openDemoCase,
  openFilters,
  SLOW
} from './junobench';

const { name: CASE, target: TARGET, broken: BROKEN, fixed: FIXED } = NUMPY_1;

test('a wrong fix fails the check, a correct one passes', async ({ page }) => {
  const { panel, checkBar } = await openDemoCase(page, CASE);
  const check = checkBar.getByRole('button', { name: 'Check my fix' });
  const result = checkBar.locator('.jp-Junobench-checkResult');
  await expect(check).toBeEnabled({ timeout: SLOW });

  // The crashing cell as recorded (a retry may find an earlier edit).
  await page.notebook.setCell(TARGET, 'code', BROKEN);
  await check.click();
  await expect(result).toContainText('Not solved', { timeout: SLOW });
  await expect(
    casePanel(page).locator('.jp-Junobench-checkReasons li').first()
  ).toBeVisible();

  await page.notebook.setCell(TARGET, 'code', FIXED);
  await check.click();
  await expect(result).toContainText('Solved:', { timeout: SLOW });

  const item = panel.locator(`li.jp-Junobench-caseItem[data-case="${CASE}"]`);
  await expect(item).toHaveAttribute('data-status', 'solved');
  // The status filter lists only solved cases when ticked.
  await openFilters(panel);
  const solved = panel
    .locator('fieldset[data-facet="status"]')
    .getByRole('checkbox', { name: /^solved \(\d+\)$/ });
  await solved.check();
  await expect(
    panel.locator('li.jp-Junobench-caseItem[data-status="solved"]')
  ).toHaveCount(await panel.locator('li.jp-Junobench-caseItem').count());
  await expect(item).toBeVisible();
  await solved.uncheck();
  // The notebook the learner typed is intact.
  expect(await page.notebook.getCellTextInput(TARGET)).toBe(FIXED);

  // After an attempt the reveal opens: labels, diagnosis and the reference fix.
  const reveal = checkBar.getByRole('button', { name: 'Reveal diagnosis' });
  await expect(reveal).toBeEnabled();
  await reveal.click();
  const view = page.getByRole('tabpanel', { name: `Reveal: ${CASE}` });
  await expect(view).toBeVisible({ timeout: SLOW });
  await expect(view.locator('.jp-Junobench-revealDiagnosis')).not.toBeEmpty();
  await expect(view.locator('.jp-Junobench-revealException')).toContainText(
    'ValueError: operands could not be broadcast'
  );
  // CodeMirror's merge view shows the fixed line and the line it replaced.
  const merge = view.locator('.jp-Junobench-mergeView').first();
  await expect(merge.locator('.cm-changedLine').first()).toContainText(
    'axis=0'
  );
  await expect(merge.locator('.cm-deletedChunk').first()).toContainText(
    'axis=1'
  );
  await expect(view.locator('.jp-Junobench-diffAdd').first()).toContainText(
    'axis=0'
  );
});
