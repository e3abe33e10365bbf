/**
 * Shared helpers for the jupyterlab-junobench UI tests (not a spec file).
 *
 * The selectors here are the UI contract of the extension: panel id, roles,
 * accessible names and `jp-Junobench-*` classes.
 */
import { expect } from '@jupyterlab/galata';
import type { IJupyterLabPageFixture } from '@jupyterlab/galata';
import type { APIRequestContext, Locator } from '@playwright/test';

/** Id of the JunoBench side panel (and of its left sidebar tab). */
export const PANEL_ID = 'jp-junobench-panel';

/** Generous wait for anything that needs the casebook loaded or a kernel. */
export const SLOW = 120_000;

/** The demo casebook has at least this many cases. */
export const MIN_DEMO_CASES = 6;

/**
 * Ask the server extension to put the bundled demo casebook into the server
 * root (idempotent), so a test never depends on what an earlier one did.
 */
export async function ensureDemoCasebook(
  page: IJupyterLabPageFixture
): Promise<void> {
  const response = await page.request.post('/junobench/demo-casebook');
  expect(
    response.ok(),
    `POST /junobench/demo-casebook answered ${response.status()}: ${await response.text()}`
  ).toBe(true);
}

/** Open the JunoBench panel from the left sidebar and return its locator. */
export async function openPanel(
  page: IJupyterLabPageFixture
): Promise<Locator> {
  await page.sidebar.openTab(PANEL_ID);
  const panel = page.locator(`#${PANEL_ID}`);
  await expect(panel).toBeVisible();
  return panel;
}

/** The list of cases inside the panel. */
export function caseList(panel: Locator): Locator {
  return panel.getByRole('list', { name: 'Cases' });
}

/** The case entries currently listed. */
export function caseItems(panel: Locator): Locator {
  return caseList(panel).locator('li.jp-Junobench-caseItem');
}

/**
 * Open the panel on the demo casebook and wait until its cases are listed.
 *
 * @returns the panel and the total number of cases in the count text.
 */
export async function openDemoPanel(
  page: IJupyterLabPageFixture
): Promise<{ panel: Locator; total: number }> {
  await ensureDemoCasebook(page);
  const panel = await openPanel(page);
  await expect(caseItems(panel).first()).toBeVisible({ timeout: SLOW });
  const total = await countOf(panel);
  return { panel, total };
}

/** Matches the count text, e.g. "6 of 6 cases" (shown of total). */
export const COUNT_TEXT = /(\d+)\s+of\s+(\d+)\s+cases?/;

/** Read the total number of cases from the count text (`N of TOTAL cases`). */
export async function countOf(panel: Locator): Promise<number> {
  const count = panel.locator('.jp-Junobench-count');
  await expect(count).toHaveText(COUNT_TEXT);
  const match = COUNT_TEXT.exec((await count.textContent()) ?? '');
  return Number(match?.[2] ?? NaN);
}

/**
 * A facet option checkbox: its accessible name starts with the value and ends
 * with the number of cases in parentheses, e.g. "numpy (1)".
 */
export function facetOption(
  panel: Locator,
  legend: string,
  value: string
): Locator {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return panel.getByRole('group', { name: legend }).getByRole('checkbox', {
    name: new RegExp(`^${escaped}(?![\\w-]).*\\(\\d+\\)$`)
  });
}

/** The count in parentheses at the end of a facet option's accessible name. */
export async function facetCount(option: Locator): Promise<number> {
  const label = await option.evaluate(el => {
    const input = el as HTMLInputElement;
    const text =
      input.labels?.[0]?.textContent ?? input.getAttribute('aria-label') ?? '';
    return text.trim();
  });
  const match = /\((\d+)\)$/.exec(label);
  expect(
    match,
    `facet option label "${label}" ends with "(count)"`
  ).not.toBeNull();
  return Number(match![1]);
}

/**
 * Delete the progress backup files (`junobench-work/<casebook>/progress.json`)
 * on the test server. Galata gives each test an empty state database, but the
 * backup file is a real file that outlives the test, and a page merges it in
 * when the casebook loads; a test that needs no earlier progress calls this
 * before its page loads.
 */
export async function clearProgressBackups(
  request: APIRequestContext
): Promise<void> {
  const listing = await request.get('/api/contents/junobench-work');
  if (listing.status() === 404) {
    return;
  }
  const folders = ((await listing.json()).content ?? []) as {
    path: string;
    type: string;
  }[];
  for (const folder of folders.filter(f => f.type === 'directory')) {
    const response = await request.delete(
      `/api/contents/${folder.path}/progress.json`
    );
    expect(
      [204, 404],
      `DELETE ${folder.path}/progress.json answered ${response.status()}`
    ).toContain(response.status());
  }
}

/**
 * Open a demo case from the panel ("Open case <name>") and wait for its
 * working copy to be the visible notebook with its replay bar.
 */
export async function openDemoCase(
  page: IJupyterLabPageFixture,
  name: string
): Promise<{ panel: Locator; notebook: Locator; replayBar: Locator }> {
  const { panel } = await openDemoPanel(page);
  await panel.getByRole('button', { name: `Open case ${name}` }).click();
  const notebook = page
    .locator('#jp-main-dock-panel .jp-NotebookPanel')
    .filter({ visible: true });
  await expect(notebook).toHaveCount(1, { timeout: SLOW });
  const replayBar = notebook.locator('.jp-Junobench-replayBar');
  return { panel, notebook, replayBar };
}
