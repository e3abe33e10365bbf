/**
 * Guards the UI-test harness itself: Galata, the system Chromium, the test
 * Jupyter server and a Python kernel. Nothing here depends on our extension,
 * so a failure here means the harness (not the extension) is broken.
 */
import { expect, test } from '@jupyterlab/galata';

test.describe('UI-test harness', () => {
  test('JupyterLab starts and shows the launcher', async ({ page }) => {
    await expect(page.locator('#jp-main-dock-panel')).toBeVisible();
    await expect(page.locator('.jp-Launcher')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'File Browser' })).toBeVisible();
  });

  test('a notebook created from the launcher runs 1+1 in a Python kernel', async ({
    page
  }) => {
    const notebookCard = page
      .locator('.jp-Launcher')
      .locator('.jp-LauncherCard[data-category="Notebook"]')
      .first();
    await expect(notebookCard).toBeVisible();
    await notebookCard.click();

    const notebook = page.locator('.jp-NotebookPanel');
    await expect(notebook).toBeVisible({ timeout: 60_000 });
    // The kernel must be idle before a run is meaningful on a slow machine.
    await expect(
      page.locator(
        '.jp-NotebookPanel-toolbar .jp-Notebook-ExecutionIndicator[data-status="idle"]'
      )
    ).toHaveCount(1, { timeout: 90_000 });

    await page.notebook.setCell(0, 'code', '1+1');
    await page.notebook.runCell(0);

    const output = notebook
      .locator('.jp-Cell')
      .first()
      .locator('.jp-OutputArea-output');
    await expect(output).toHaveText('2', { timeout: 60_000 });
  });

  test('a notebook uploaded through the contents helper opens and runs', async ({
    page,
    tmpPath
  }) => {
    const name = 'harness.ipynb';
    const notebook = {
      cells: [
        {
          cell_type: 'code',
          execution_count: null,
          id: 'harness-0',
          metadata: {},
          outputs: [],
          source: ["print('harness' + ' ok')"]
        }
      ],
      metadata: {
        kernelspec: {
          display_name: 'Python 3 (ipykernel)',
          language: 'python',
          name: 'python3'
        },
        language_info: { name: 'python' }
      },
      nbformat: 4,
      nbformat_minor: 5
    };
    expect(
      await page.contents.uploadContent(
        JSON.stringify(notebook),
        'text',
        `${tmpPath}/${name}`
      )
    ).toBe(true);

    // Galata's file-browser helpers need the File Browser tab shown; an
    // extension panel opened on start may hold the left area instead.
    await page.sidebar.openTab('filebrowser');
    expect(await page.notebook.openByPath(`${tmpPath}/${name}`)).toBe(true);
    await page.notebook.activate(name);
    await page.notebook.runCell(0);

    const output = page
      .locator('.jp-NotebookPanel')
      .locator('.jp-Cell')
      .first()
      .locator('.jp-OutputArea-output');
    await expect(output).toHaveText('harness ok', { timeout: 60_000 });
  });
});
