/**
 * The check's reasons in the learner's language: with JupyterLab set to a
 * French locale and a (fake) French bundle for the extension's translation
 * domain, "Check my fix" on an unrepaired demo case shows its verdict and its
 * reasons, cell names included, in French; nothing in English leaks through
 * for the sentences the bundle translates. Why a run ended is a code the UI
 * translates too: the State view says a clean top-to-bottom run in French.
 */
import { expect, galata, test } from '@jupyterlab/galata';
import type { IJupyterLabPageFixture } from '@jupyterlab/galata';

import { casePanel, openCaseSection, openDemoCase, SLOW } from './junobench';

const LOCALE = 'fr_FR';
const CASE = 'numpy_1';
/** Index (among all cells) of numpy_1's crashing cell. */
const TARGET = 4;
const BROKEN =
  '# z-score every feature\nmu = data.mean(axis=1)\nsigma = data.std(axis=1)\nZ = (data - mu) / sigma\nZ[:5].round(3)';

/** A few message ids of the check and their French, as a language pack would ship them. */
const FRENCH: Record<string, string> = {
  'Not solved: the notebook still fails from a fresh kernel.':
    'Pas résolu : le notebook échoue encore depuis un noyau neuf.',
  'From a fresh kernel, %1%2, line %3 raised %4: %5':
    'Depuis un noyau neuf, %1%2, la ligne %3 a levé %4 : %5',
  'From a fresh kernel, %1%2 raised %3: %4':
    'Depuis un noyau neuf, %1%2 a levé %3 : %4',
  ' (after the target)': ' (après la cible)',
  'cell %1 [%2]': 'cellule %1 [%2]',
  'cell %1 [ ]': 'cellule %1 [ ]',
  'In your live kernel the target cell last ran without error.':
    'Dans votre noyau, la cellule cible a tourné sans erreur la dernière fois.',
  'In your live kernel the target cell last raised an error.':
    'Dans votre noyau, la cellule cible a levé une erreur la dernière fois.',
  'The target cell has not run in your live kernel since the notebook was saved.':
    "La cellule cible n'a pas tourné dans votre noyau depuis l'enregistrement.",
  // Why a run ended, as the State view's caption says it.
  'All %1 cells ran without error.': 'Les %1 cellules ont tourné sans erreur.'
};

test.use({
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    '@jupyterlab/translation-extension:plugin': { locale: LOCALE }
  }
});

/**
 * Serve the fake French bundle and load JupyterLab again in French.
 */
async function loadInFrench(page: IJupyterLabPageFixture): Promise<void> {
  // The language pack, as the server's translations API would serve it:
  // only our domain has messages, the rest of JupyterLab stays in English.
  await page.route(`**/api/translations/${LOCALE}*`, route =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({
        data: {
          jupyterlab_junobench: {
            '': {
              domain: 'jupyterlab_junobench',
              // BCP 47, as the translation manager names the current locale.
              language: 'fr-FR',
              plural_forms: 'nplurals=2; plural=(n > 1);'
            },
            ...Object.fromEntries(
              Object.entries(FRENCH).map(([id, fr]) => [id, [fr]])
            )
          }
        },
        message: ''
      })
    })
  );
  // The page fixture loaded JupyterLab before the route existed: load it again.
  await page.goto();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(
    'fr-FR'
  );
}

test('check reasons are translated through the extension’s domain', async ({
  page
}) => {
  await loadInFrench(page);
  const { checkBar } = await openDemoCase(page, CASE);
  const check = checkBar.getByRole('button', { name: 'Check my fix' });
  const result = checkBar.locator('.jp-Junobench-checkResult');
  const reasons = casePanel(page).locator('.jp-Junobench-checkReasons li');
  await expect(check).toBeEnabled({ timeout: SLOW });

  await page.notebook.setCell(TARGET, 'code', BROKEN);
  await check.click();
  await expect(result).toHaveText(
    'Pas résolu : le notebook échoue encore depuis un noyau neuf.',
    { timeout: SLOW }
  );
  // The fresh run's error, its cell named in French by position and prompt.
  await expect(
    reasons.filter({ hasText: /^Depuis un noyau neuf, cellule 5 \[/ })
  ).toHaveCount(1);
  const texts = await reasons.allTextContents();
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) {
    expect(text).not.toMatch(/From a fresh kernel|\bcell \d/);
  }
});

test.describe('why a run ended', () => {
  // Run top to bottom restarts the kernel that ran before: Galata's kernel
  // mock would answer the restart itself, so the kernels are the server's own.
  test.use({ kernels: null });

  test('the State view says a clean run in French', async ({ page }) => {
    await loadInFrench(page);
    const { replayBar } = await openDemoCase(page, 'NBspecific_2');
    const topToBottom = replayBar.getByRole('button', {
      name: 'Run top to bottom'
    });
    await expect(topToBottom).toBeEnabled({ timeout: SLOW });
    await topToBottom.click();
    await expect(replayBar.locator('.jp-Junobench-replayStatus')).toContainText(
      /top to bottom/i,
      { timeout: SLOW }
    );
    await expect(topToBottom).toBeEnabled({ timeout: SLOW });
    // The State view opens from the case side panel's "Why it crashed".
    await (
      await openCaseSection(page, 'why')
    )
      .getByRole('button', { name: 'Open the State view' })
      .click();
    const caption = page.locator(
      '.jp-Junobench-stateView table[data-order="top-to-bottom"] caption'
    );
    await expect(caption).toContainText(
      /Les \d+ cellules ont tourné sans erreur\./,
      { timeout: SLOW }
    );
    await expect(caption).not.toContainText('ran without error');
  });
});
