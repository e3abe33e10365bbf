/**
 * Smoke test: JupyterLab loads with the jupyterlab-junobench extension, whose
 * side panel and server routes are present.
 */
import { expect, test } from '@jupyterlab/galata';
import { PANEL_ID } from './junobench';

test.describe('jupyterlab-junobench is installed', () => {
  test('the left sidebar has the JunoBench panel', async ({ page }) => {
    const tab = page.sidebar.getTabLocator(PANEL_ID);
    await expect(tab).toHaveCount(1);

    await page.sidebar.openTab(PANEL_ID);
    expect(await page.sidebar.isTabOpen(PANEL_ID)).toBe(true);

    const panel = page.locator(`#${PANEL_ID}`);
    await expect(panel).toBeVisible();
    // The panel is a region labelled JunoBench, or holds a heading that says so.
    const labelled = page
      .getByRole('region', { name: /JunoBench/ })
      .and(panel)
      .or(panel.getByRole('heading', { name: /JunoBench/ }));
    await expect(labelled.first()).toBeVisible();
  });

  // The REST API alone: no page to load.
  test('the server extension answers /junobench/info', async ({ request }) => {
    const response = await request.get('/junobench/info');
    expect(
      response.ok(),
      `GET /junobench/info answered ${response.status()}`
    ).toBe(true);
    const info = await response.json();
    expect(typeof info.version).toBe('string');
    expect(info.demo_available).toBe(true);
  });
});
