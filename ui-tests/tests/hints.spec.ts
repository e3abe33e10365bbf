/**
 * The hint ladder: each click opens one more step, up to four.
 */
import { expect, test } from '@jupyterlab/galata';

import { casePanel, openDemoCase, SLOW } from './junobench';

const CASE = 'NBspecific_2';

test('hints open one step at a time', async ({ page }) => {
  const { checkBar } = await openDemoCase(page, CASE);
  const hint = checkBar.getByRole('button', { name: 'Hint', exact: true });
  const hints = casePanel(page)
    .getByRole('list', { name: 'Hints' })
    .locator('li');
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
