/**
 * The hidden state made visible, on the three notebook-specific demo cases:
 * Replay and Run top to bottom track the state after every step, the State
 * view shows both timelines side by side (keyboard navigable, every change in
 * words), and "Why it crashed" explains the crash from the state.
 */
import { expect, test } from '@jupyterlab/galata';

import { openCaseSection, openDemoCase, SLOW } from './junobench';

const CASES: Array<{
  name: string;
  why: RegExp;
  row: string;
  topToBottomCrashes: boolean;
}> = [
  {
    name: 'NBspecific_1',
    why: /`scaler` is defined in cell 9 \[ \], which never ran before the crash/,
    row: 'X_train',
    topToBottomCrashes: true
  },
  {
    name: 'NBspecific_2',
    why: /`df` last changed at step \d+ \(cell 5 \[5\], its first run\)/,
    row: 'df',
    topToBottomCrashes: false
  },
  {
    name: 'NBspecific_3',
    why: /`X` last changed at step \d+ \(cell 5 \[5\], its second run\)/,
    row: 'X',
    topToBottomCrashes: false
  }
];

// A replay restarts the kernel that ran before: Galata's kernel mock would answer
// the restart itself, so the kernels are the server's own here.
test.use({ kernels: null });

for (const c of CASES) {
  test(`${c.name}: the State view and why it crashed`, async ({ page }) => {
    const { replayBar } = await openDemoCase(page, c.name);
    const replay = replayBar.getByRole('button', {
      name: 'Replay',
      exact: true
    });
    await expect(replay).toBeEnabled({ timeout: SLOW });
    await replay.click();
    await expect(replayBar.locator('.jp-Junobench-verdict')).toContainText(
      'Reproduced as recorded',
      { timeout: SLOW }
    );

    // Why it crashed, in the case side panel: state only.
    const why = await openCaseSection(page, 'why');
    await expect(why).toContainText(c.why);

    // Top to bottom as well, then the State view beside the notebook.
    await replayBar.getByRole('button', { name: 'Run top to bottom' }).click();
    await expect(replayBar.locator('.jp-Junobench-replayStatus')).toContainText(
      /top to bottom/i,
      {
        timeout: SLOW
      }
    );
    await expect(
      replayBar.getByRole('button', { name: 'Run top to bottom' })
    ).toBeEnabled({ timeout: SLOW });
    // The State view opens from the case side panel's "Why it crashed".
    await (
      await openCaseSection(page, 'why')
    )
      .getByRole('button', { name: 'Open the State view' })
      .click();
    const view = page.locator('.jp-Junobench-stateView');
    await expect(view).toBeVisible({ timeout: SLOW });
    const recorded = view.locator('table[data-order="recorded"]');
    const topToBottom = view.locator('table[data-order="top-to-bottom"]');
    await expect(recorded).toBeVisible();
    await expect(topToBottom).toBeVisible();
    if (process.env.JUNOBENCH_STATE_SHOT) {
      await page.setViewportSize({ width: 1500, height: 900 });
      await page.screenshot({ path: process.env.JUNOBENCH_STATE_SHOT });
    }
    await expect(view.locator('.jp-Junobench-stateWhy').first()).toContainText(
      c.why
    );

    // The recorded run ends in an error column; top to bottom only where the order is wrong.
    await expect(recorded.locator('thead th[data-error]')).toHaveCount(1);
    await expect(topToBottom.locator('thead th[data-error]')).toHaveCount(
      c.topToBottomCrashes ? 1 : 0
    );
    // A row per name, each change said in words.
    const row = recorded.locator(`tbody tr[data-name="${c.row}"]`);
    await expect(row).toHaveCount(1);
    const created = row.locator('td[data-change="created"]').first();
    await expect(created).toHaveAttribute(
      'aria-label',
      new RegExp(`^${c.row} created at step \\d+ \\(cell \\d+ \\[\\d+\\]\\)`)
    );

    // Keyboard: one cell in the tab order, arrows move the focus.
    const first = recorded.locator('tbody th').first();
    await expect(first).toHaveAttribute('tabindex', '0');
    await first.focus();
    await page.keyboard.press('ArrowRight');
    await expect(
      recorded.locator('tbody tr').first().locator('td').first()
    ).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(
      recorded.locator('tbody tr').nth(1).locator('td').first()
    ).toBeFocused();
  });
}
