/**
 * Replaying a demo case: open it as a working copy, replay the recorded order
 * until the recorded crash, then run the same cells top to bottom.
 */
import { expect, test } from '@jupyterlab/galata';
import type { IJupyterLabPageFixture } from '@jupyterlab/galata';
import type { Locator } from '@playwright/test';
import { openDemoCase, SLOW } from './junobench';

/** The case whose recorded crash is a NameError in the demo casebook. */
const CASE = 'NBspecific_1';

/**
 * The final "top to bottom" status: says "top to bottom" and is no longer
 * the running message (which ends with an ellipsis).
 */
const TOP_TO_BOTTOM_DONE =
  /^(?![\s\S]*(…|\.\.\.))[\s\S]*top to bottom[\s\S]*$/i;

/** Open CASE from the panel and return its notebook panel and replay bar. */
async function openCase(
  page: IJupyterLabPageFixture
): Promise<{ notebook: Locator; replayBar: Locator }> {
  // The working copy opens as the current notebook in the main area.
  const { notebook, replayBar } = await openDemoCase(page, CASE);
  await expect(notebook.locator('.jp-Cell').first()).toBeVisible();
  await expect(replayBar).toBeVisible();
  return { notebook, replayBar };
}

test.describe('Replaying a case', () => {
  test(`Replay reproduces ${CASE}'s recorded NameError`, async ({ page }) => {
    const { notebook, replayBar } = await openCase(page);
    const replay = replayBar.getByRole('button', {
      name: 'Replay',
      exact: true
    });
    await expect(replay).toBeEnabled({ timeout: SLOW });

    await replay.click();

    await expect(
      notebook.locator('.jp-Cell.jp-Junobench-crashCell')
    ).toHaveCount(1, {
      timeout: SLOW
    });
    await expect(replayBar.locator('.jp-Junobench-replayStatus')).toContainText(
      'NameError'
    );
    await expect(
      page.locator('.jp-Junobench-verdict').filter({ visible: true })
    ).toContainText('Reproduced as recorded');
    // The crashing line is marked in the editor and quoted in the bar.
    await expect(
      notebook.locator('.jp-Junobench-crashCell .jp-Junobench-crashLine')
    ).toHaveCount(1);
    await expect(
      replayBar.locator('.jp-Junobench-crashLineText')
    ).toContainText('scaler');
    // The case now counts as crashed in the panel (progress kept in IStateDB).
    const item = page.locator(`li.jp-Junobench-caseItem[data-case="${CASE}"]`);
    await expect(item).toHaveAttribute('data-status', 'crashed');
    await expect(item.locator('.jp-Junobench-badge')).toHaveText('crashed');
    await expect(page.locator('.jp-Junobench-progressText')).toContainText(
      'crashed 1'
    );
  });

  test(`Run top to bottom runs ${CASE} to the end or to a crash`, async ({
    page
  }) => {
    const { replayBar } = await openCase(page);
    const topToBottom = replayBar.getByRole('button', {
      name: 'Run top to bottom'
    });
    await expect(topToBottom).toBeEnabled({ timeout: SLOW });

    await topToBottom.click();

    await expect(replayBar.locator('.jp-Junobench-replayStatus')).toHaveText(
      TOP_TO_BOTTOM_DONE,
      {
        timeout: SLOW
      }
    );
  });
});
