/**
 * The JunoBench side panel on the bundled demo casebook: listing, facets,
 * search, keyboard access and its look in the light and dark themes.
 */
import { expect, test } from '@jupyterlab/galata';
import type { Locator } from '@playwright/test';
import {
  caseItems,
  clearProgressBackups,
  caseList,
  COUNT_TEXT,
  facetCount,
  facetOption,
  MIN_DEMO_CASES,
  openDemoPanel,
  openFilters,
  SLOW,
  useSharedPage
} from './junobench';

/** The parts of the panel that show the learner's progress. */
function progressParts(panel: Locator): Locator[] {
  return [
    panel.locator('.jp-Junobench-progress'),
    panel.locator('.jp-Junobench-badge'),
    panel.locator('.jp-Junobench-facet[data-facet="status"]')
  ];
}

test.describe('JunoBench panel', () => {
  // These read the panel and put back what they change: one page for all of them.
  test.describe('on one page', () => {
    const sharedPage = useSharedPage(test);

    test('lists the demo casebook with its name, count and facets', async () => {
      const page = sharedPage();
      const { panel, total } = await openDemoPanel(page);

      expect(total).toBeGreaterThanOrEqual(MIN_DEMO_CASES);
      await expect(panel.locator('.jp-Junobench-count')).toHaveText(
        new RegExp(`${total}\\s+of\\s+${total}\\s+cases`)
      );
      await expect(caseItems(panel)).toHaveCount(total);
      // The header names the casebook (the demo copy's folder).
      await expect(panel).toContainText(/JunoBench-demo|demo/i);

      await expect(
        panel.getByRole('searchbox', { name: 'Search cases' })
      ).toBeVisible();
      // The filters are one closed line at first; opened, they show every facet.
      const filters = panel.locator('details.jp-Junobench-filters');
      await expect(filters).not.toHaveAttribute('open', '');
      await expect(filters.locator('summary')).toHaveText('Filters');
      await openFilters(panel);
      for (const legend of [
        'Library',
        'Crash type',
        'Root cause',
        'Pipeline stage'
      ]) {
        const group = panel.getByRole('group', { name: legend });
        await expect(group, `facet "${legend}"`).toBeVisible();
        await expect(group.getByRole('checkbox').first()).toBeVisible();
      }
      await expect(
        panel.getByRole('checkbox', { name: 'Notebook-specific only' })
      ).toBeVisible();

      // Every case offers its own open button.
      const first = caseItems(panel).first();
      const name = await first.getAttribute('data-case');
      expect(name).toBeTruthy();
      await expect(
        first.getByRole('button', { name: `Open case ${name}` })
      ).toBeVisible();
    });

    test('ticking library "pandas" narrows the list to the pandas cases', async () => {
      const page = sharedPage();
      const { panel, total } = await openDemoPanel(page);
      const count = panel.locator('.jp-Junobench-count');
      await openFilters(panel);
      const pandas = facetOption(panel, 'Library', 'pandas');
      await expect(pandas).toBeVisible();
      const expected = await facetCount(pandas);
      expect(expected).toBeGreaterThan(0);
      expect(expected).toBeLessThan(total);

      await pandas.check();

      await expect(pandas).toBeChecked();
      // The closed filters still say that one is active.
      await expect(
        panel.locator('details.jp-Junobench-filters > summary')
      ).toHaveText('Filters (1 active)');
      await expect(caseItems(panel)).toHaveCount(expected);
      await expect(count).toHaveText(
        new RegExp(`${expected}\\s+of\\s+${total}\\s+cases`)
      );

      // Unticking brings every case back.
      await pandas.uncheck();
      await expect(caseItems(panel)).toHaveCount(total);
      await expect(count).toHaveText(
        new RegExp(`${total}\\s+of\\s+${total}\\s+cases`)
      );
    });

    test('searching "NameError" narrows the list to the NameError case', async () => {
      const page = sharedPage();
      const { panel, total } = await openDemoPanel(page);
      const search = panel.getByRole('searchbox', { name: 'Search cases' });

      await search.fill('NameError');

      const list = caseList(panel);
      await expect(
        list.locator('li.jp-Junobench-caseItem[data-case="NBspecific_1"]')
      ).toBeVisible();
      await expect
        .poll(async () => caseItems(panel).count(), { timeout: SLOW })
        .toBeLessThan(total);
      await expect(panel.locator('.jp-Junobench-count')).toHaveText(COUNT_TEXT);
      await expect(panel.locator('.jp-Junobench-count')).not.toHaveText(
        new RegExp(`^\\s*${total}\\s+of\\s+${total}\\b`)
      );

      // Clearing the search lists everything again.
      await search.fill('');
      await expect(caseItems(panel)).toHaveCount(total);
    });

    test('the search box is reachable with Tab and takes typed text', async () => {
      const page = sharedPage();
      const { panel, total } = await openDemoPanel(page);
      const search = panel.getByRole('searchbox', { name: 'Search cases' });

      // Clicking plain text sets the sequential-focus start point; from the
      // header, Tab must reach the search box within a few presses.
      await panel.locator('.jp-Junobench-count').click();
      let reached = false;
      for (let presses = 0; presses < 10 && !reached; presses++) {
        await page.keyboard.press('Tab');
        reached = await search.evaluate(el => el === document.activeElement);
      }
      expect(
        reached,
        'Tab reaches the "Search cases" box from the panel header'
      ).toBe(true);
      await expect(search).toBeFocused();

      await page.keyboard.type('NameError');
      await expect(search).toHaveValue('NameError');
      await expect
        .poll(async () => caseItems(panel).count(), { timeout: SLOW })
        .toBeLessThan(total);
    });
  });

  test.describe('looks', () => {
    // No progress from earlier specs: the backup file outlives their pages.
    test.use({ autoGoto: false });
    test.beforeEach(async ({ page, request }) => {
      await clearProgressBackups(request);
      await page.goto();
    });

    test('right in the light theme', async ({ page }) => {
      const { panel, total } = await openDemoPanel(page);
      await expect(caseItems(panel)).toHaveCount(total);

      // Progress is masked all the same (working copies may exist).
      await expect(panel).toHaveScreenshot('panel-light.png', {
        mask: progressParts(panel)
      });
    });

    test('right in the dark theme', async ({ page }) => {
      const { panel, total } = await openDemoPanel(page);
      await expect(caseItems(panel)).toHaveCount(total);

      await page.theme.setDarkTheme();
      await expect(page.locator('body')).toHaveAttribute(
        'data-jp-theme-light',
        'false'
      );
      await expect(panel).toBeVisible();

      await expect(panel).toHaveScreenshot('panel-dark.png', {
        mask: progressParts(panel)
      });
    });
  });
});
