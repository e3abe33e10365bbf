/**
 * The learner's surface at laptop and desktop sizes, light and dark: the
 * panel shows cases first (at least 5 at 1280×720, the list at least 60% of
 * the panel), is driven from the keyboard (`/` to search, arrows between
 * cases, Enter opens), shows a case card that gives nothing away before the
 * reveal, and has no serious or critical accessibility violation (axe).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@jupyterlab/galata';
import type { IJupyterLabPageFixture } from '@jupyterlab/galata';
import type { Locator } from '@playwright/test';

import { caseItems, caseList, openDemoPanel, SLOW } from './junobench';

/** Serious and critical axe violations inside a part of the page. */
async function axeViolations(
  page: IJupyterLabPageFixture,
  selector: string
): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include(selector).analyze();
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(
      v =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map(n => n.target.join(' '))
          .join('; ')}`
    );
}

/** How many case rows are entirely visible inside the list's own box. */
async function fullyVisibleRows(panel: Locator): Promise<number> {
  return caseList(panel).evaluate(list => {
    const box = list.getBoundingClientRect();
    return [...list.querySelectorAll('li.jp-Junobench-caseItem')].filter(li => {
      const r = li.getBoundingClientRect();
      return (
        r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 && r.height > 0
      );
    }).length;
  });
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 }
]) {
  for (const theme of ['light', 'dark'] as const) {
    test.describe(`${viewport.width}×${viewport.height}, ${theme}`, () => {
      test.use({ viewport });

      test('the panel shows cases first and passes axe', async ({ page }) => {
        if (theme === 'dark') {
          await page.theme.setDarkTheme();
        }
        const { panel } = await openDemoPanel(page);
        const panelBox = (await panel.boundingBox())!;
        const listBox = (await caseList(panel).boundingBox())!;
        expect(listBox.height / panelBox.height).toBeGreaterThanOrEqual(0.6);
        expect(await fullyVisibleRows(panel)).toBeGreaterThanOrEqual(5);
        // Nothing of the panel is cut off at the right edge.
        const overflow = await panel.evaluate(
          p => p.scrollWidth - p.clientWidth
        );
        expect(overflow).toBeLessThanOrEqual(1);
        expect(await axeViolations(page, '#jp-junobench-panel')).toEqual([]);

        // With the filters and a case card open, still no violation.
        await panel.locator('.jp-Junobench-filters > summary').click();
        await panel
          .getByRole('button', { name: 'Details of case numpy_1' })
          .click();
        await expect(
          panel.getByRole('region', { name: 'Case numpy_1' })
        ).toBeVisible();
        expect(await axeViolations(page, '#jp-junobench-panel')).toEqual([]);
        // The open filters leave room for the list.
        expect(
          (await caseList(panel).boundingBox())!.height / panelBox.height
        ).toBeGreaterThanOrEqual(0.35);
      });
    });
  }
}

test.describe('keyboard', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('`/` focuses the search, arrows move between cases, Enter opens one', async ({
    page
  }) => {
    const { panel } = await openDemoPanel(page);
    const search = panel.getByRole('searchbox', { name: 'Search cases' });
    await panel.locator('.jp-Junobench-title').click();
    await page.keyboard.press('/');
    await expect(search).toBeFocused();
    // `/` typed in the search is a character, not a shortcut.
    await page.keyboard.type('n/a');
    await expect(search).toHaveValue('n/a');
    await search.fill('');

    await page.keyboard.press('ArrowDown');
    const rows = caseItems(panel);
    await expect(rows.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(rows.nth(1)).toBeFocused();
    await page.keyboard.press('End');
    await expect(rows.last()).toBeFocused();
    await page.keyboard.press('Home');
    await expect(rows.nth(0)).toBeFocused();
    // One row in the tab order: Tab leaves the list for what follows it.
    await expect(caseList(panel).locator('li[tabindex="0"]')).toHaveCount(1);

    await page.keyboard.press('ArrowDown');
    const name = await rows.nth(1).getAttribute('data-case');
    await page.keyboard.press('Enter');
    const currentTab = page.locator(
      '#jp-main-dock-panel .lm-DockPanel-tabBar .lm-TabBar-tab.jp-mod-current'
    );
    await expect(currentTab).toContainText(name!, { timeout: SLOW });
  });

  test('the case card describes the case from its README and keeps the labels for the reveal', async ({
    page
  }) => {
    const { panel } = await openDemoPanel(page);
    await panel
      .getByRole('button', { name: 'Details of case numpy_1' })
      .click();
    const card = panel.getByRole('region', { name: 'Case numpy_1' });
    await expect(card).toContainText('Nearest-centroid classifier');
    await expect(card).toContainText('licence: CC0: Public Domain');
    // Before any attempt (policy "after your first check") the labels stay hidden.
    await expect(card.locator('.jp-Junobench-caseLabels')).toContainText(
      'hidden until the reveal'
    );
    await expect(card).not.toContainText('unsupported broadcast');
    await expect(card).not.toContainText('implementation error');
    // Collapsing gives the focus back to the button.
    const toggle = panel.getByRole('button', {
      name: 'Details of case numpy_1'
    });
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await toggle.click();
    await expect(card).toHaveCount(0);
    await expect(toggle).toBeFocused();
  });
});
