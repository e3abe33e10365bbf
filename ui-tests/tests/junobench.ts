/**
 * Shared helpers for the jupyterlab-junobench UI tests (not a spec file).
 *
 * The selectors here are the UI contract of the extension: panel id, roles,
 * accessible names and `jp-Junobench-*` classes.
 */
import { expect, galata } from '@jupyterlab/galata';
import type {
  IJupyterLabPageFixture,
  test as galataTest
} from '@jupyterlab/galata';
import { request } from '@playwright/test';
import type { APIRequestContext, Locator } from '@playwright/test';

/** Id of the JunoBench side panel (and of its left sidebar tab). */
export const PANEL_ID = 'jp-junobench-panel';

/**
 * numpy_1's crashing cell (index among all cells) as the case has it, and a
 * correct repair of it: the specs that check a repair share them.
 */
export const NUMPY_1 = {
  name: 'numpy_1',
  target: 4,
  broken:
    '# z-score every feature\nmu = data.mean(axis=1)\nsigma = data.std(axis=1)\nZ = (data - mu) / sigma\nZ[:5].round(3)',
  fixed:
    '# z-score every feature\nmu = data.mean(axis=0)\nsigma = data.std(axis=0)\nZ = (data - mu) / sigma\nZ[:5].round(3)'
};

/**
 * One JupyterLab page for the tests of a group that only read what an earlier
 * one left (a panel, an opened case), instead of a page per test: a page load
 * costs this 2-core machine about 6 CPU-s, and an opened case a kernel start.
 * Call it inside a `test.describe`; the group runs in order (serial: after a
 * failure the rest are skipped, and a retry reruns the whole group), the page
 * opens before its first test and closes, with the kernels and sessions it
 * started, after its last.
 *
 * @returns what gives the shared page inside a test.
 */
export function useSharedPage(
  test: typeof galataTest
): () => IJupyterLabPageFixture {
  let shared: Awaited<ReturnType<typeof galata.newPage>> | null = null;
  let folder = '';
  const baseURL = `http://localhost:${process.env.JUNOBENCH_UI_PORT || '8888'}`;
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async ({ browser }, testInfo) => {
    // The page opens in a folder of its own, as Galata's page fixture does (tmpPath).
    folder = `shared-${testInfo.titlePath
      .slice(0, -1)
      .join('-')
      .replace(/[^\w-]+/g, '-')}-${Date.now()}`;
    const api = await request.newContext({ baseURL });
    const made = await api.put(`/api/contents/${folder}`, {
      data: { type: 'directory' }
    });
    expect(made.ok(), `PUT /api/contents/${folder}: ${made.status()}`).toBe(
      true
    );
    await api.dispose();
    shared = await galata.newPage({
      baseURL,
      browser,
      tmpPath: folder,
      // As Galata's own page fixture waits: the splash gone, the launcher current.
      waitForApplication: async (page, helpers) => {
        await page.locator('#jupyterlab-splash').waitFor({ state: 'detached' });
        await helpers.waitForCondition(() =>
          helpers.activity.isTabActive('Launcher')
        );
      }
    });
  });
  test.afterAll(async () => {
    if (!shared) {
      return;
    }
    const { page, kernels, sessions } = shared;
    shared = null;
    for (const [runners, type] of [
      [kernels, 'kernels'],
      [sessions, 'sessions']
    ] as const) {
      if (runners?.size) {
        await galata.Mock.clearRunners(page.request, [...runners.keys()], type);
      }
    }
    await page.request.delete(`/api/contents/${folder}`).catch(() => null);
    await page.context().close();
  });
  return () => {
    if (!shared) {
      throw new Error(
        'useSharedPage: the shared page is open only inside the group’s tests'
      );
    }
    return shared.page;
  };
}

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
 * Open the panel's filters (a closed disclosure at first, so the cases come
 * first); does nothing when they are open.
 */
export async function openFilters(panel: Locator): Promise<void> {
  const filters = panel.locator('details.jp-Junobench-filters');
  if ((await filters.getAttribute('open')) === null) {
    await filters.locator('summary').click();
  }
  await expect(filters).toHaveAttribute('open', '');
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
 * End the test server's sessions of a case's working copies (their path holds the case's
 * name), so that the next test starts that case's kernel afresh.
 */
export async function endSessionsOf(
  request: APIRequestContext,
  caseName: string
): Promise<void> {
  const response = await request.get('/api/sessions');
  const sessions = (await response.json()) as { id: string; path: string }[];
  for (const session of sessions.filter(s => s.path.includes(caseName))) {
    await request.delete(`/api/sessions/${session.id}`);
  }
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

/** The Replay button of a replay bar. */
export function replayButton(replayBar: Locator): Locator {
  return replayBar.getByRole('button', { name: 'Replay', exact: true });
}

/** What a test works on once a case is open. */
export interface IOpenCase {
  /** The JunoBench panel. */
  panel: Locator;
  /** The main area's current tab (its title names the working copy). */
  currentTab: Locator;
  /** The visible notebook panel: the working copy. */
  notebook: Locator;
  /** Its case header (toolbar and status line). */
  header: Locator;
  /** The case header, where the replay actions and status are. */
  replayBar: Locator;
  /** The case header, where the check actions and verdict are. */
  checkBar: Locator;
}

/**
 * Open a demo case from the panel ("Open case <name>") and wait until its
 * working copy is the current tab and the one visible notebook.
 */
export async function openDemoCase(
  page: IJupyterLabPageFixture,
  name: string
): Promise<IOpenCase> {
  const { panel } = await openDemoPanel(page);
  return openCaseIn(page, panel, name);
}

/**
 * Open a case of the casebook the panel shows ("Open case <name>") and wait
 * until its working copy is the current tab and the one visible notebook.
 */
export async function openCaseIn(
  page: IJupyterLabPageFixture,
  panel: Locator,
  name: string
): Promise<IOpenCase> {
  await panel.getByRole('button', { name: `Open case ${name}` }).click();
  const currentTab = page.locator(
    '#jp-main-dock-panel .lm-DockPanel-tabBar .lm-TabBar-tab.jp-mod-current'
  );
  await expect(currentTab).toContainText(name, { timeout: SLOW });
  const notebook = page
    .locator('#jp-main-dock-panel .jp-NotebookPanel')
    .filter({ visible: true });
  await expect(notebook).toHaveCount(1, { timeout: SLOW });
  return {
    panel,
    currentTab,
    notebook,
    header: notebook.locator('.jp-Junobench-caseHeader'),
    replayBar: notebook.locator('.jp-Junobench-caseHeader'),
    checkBar: notebook.locator('.jp-Junobench-caseHeader')
  };
}

/** The id of the JunoBench case side panel (right area). */
export const CASE_PANEL_ID = 'jp-junobench-case-panel';

/** A section of the case side panel. */
export type CaseSection =
  'verdict' | 'why' | 'order' | 'hints' | 'diagnose' | 'environment';

/** The case side panel. */
export function casePanel(page: IJupyterLabPageFixture): Locator {
  return page.locator(`#${CASE_PANEL_ID}`);
}

/**
 * Show the case side panel and open one of its sections (its title is a
 * button with aria-expanded); returns the section's content.
 */
export async function openCaseSection(
  page: IJupyterLabPageFixture,
  section: CaseSection
): Promise<Locator> {
  const panel = casePanel(page);
  if (!(await panel.isVisible())) {
    await page.sidebar.openTab(CASE_PANEL_ID);
  }
  await expect(panel).toBeVisible();
  const title = panel.locator(
    `.jp-Junobench-sectionTitle[data-section="${section}"]`
  );
  if ((await title.getAttribute('aria-expanded')) !== 'true') {
    await title.click();
  }
  await expect(title).toHaveAttribute('aria-expanded', 'true');
  return panel.locator(`.jp-Junobench-caseSection[data-section="${section}"]`);
}

/** How long "Open case" then an immediate Replay took, in ms, and the verdict shown. */
export interface IOpenToCrash {
  /** From the click on "Open case" to the Replay button pressed. */
  pressed: number;
  /** From the click on "Open case" to the verdict shown. */
  total: number;
  /** The verdict's text. */
  verdict: string;
}

/**
 * Click "Open case <name>" in the panel, press Replay as soon as the working
 * copy shows it (like an eager learner) and wait for the verdict: the
 * browser benchmarks' open-to-crash measurement.
 */
export async function timeOpenToCrash(
  page: IJupyterLabPageFixture,
  panel: Locator,
  name: string
): Promise<IOpenToCrash> {
  const started = Date.now();
  await panel
    .getByRole('button', { name: `Open case ${name}`, exact: true })
    .click();
  // Wait until this case's working copy is the current tab, not the previous one.
  await expect(
    page.locator('#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current')
  ).toContainText(`${name}-`, { timeout: SLOW });
  const bar = page
    .locator('#jp-main-dock-panel .jp-NotebookPanel')
    .filter({ visible: true })
    .locator('.jp-Junobench-caseHeader');
  await bar
    .getByRole('button', { name: 'Replay', exact: true })
    .click({ timeout: SLOW });
  const pressed = Date.now() - started;
  const verdict = bar.locator('.jp-Junobench-verdict');
  await expect(verdict).toBeVisible({ timeout: SLOW });
  const total = Date.now() - started;
  return {
    pressed,
    total,
    verdict: (await verdict.textContent())?.trim() ?? ''
  };
}
