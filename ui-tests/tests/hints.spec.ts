/**
 * The hint ladder: each click opens one more step, up to four.
 */
import { expect, test } from '@jupyterlab/galata';

import { openDemoPanel, SLOW } from './junobench';

const CASE = 'NBspecific_2';

test('hints open one step at a time', async ({ page }) => {
  const { panel } = await openDemoPanel(page);
  await panel.getByRole('button', { name: `Open case ${CASE}` }).click();
  await expect(
    page.locator(
      '#jp-main-dock-panel .lm-DockPanel-tabBar .lm-TabBar-tab.jp-mod-current'
    )
  ).toContainText(CASE, { timeout: SLOW });
  const checkBar = page
    .locator('#jp-main-dock-panel .jp-NotebookPanel')
    .filter({ visible: true })
    .locator('.jp-Junobench-checkBar');
  const hint = checkBar.getByRole('button', { name: 'Hint', exact: true });
  const hints = checkBar.getByRole('list', { name: 'Hints' }).locator('li');
  await expect(hint).toBeEnabled({ timeout: SLOW });

  await hint.click();
  await expect(hints).toHaveCount(1);
  await expect(hints.first()).toContainText('data preparation');

  // Step 3 points at the cell that ran twice in a row.
  await hint.click();
  await hint.click();
  await expect(hints).toHaveCount(3);
  await expect(hints.nth(2)).toContainText('twice');

  await hint.click();
  await expect(hints).toHaveCount(4);
  await expect(hint).toBeDisabled();
});
