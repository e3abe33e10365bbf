/**
 * Authoring a case in JupyterLab: a new casebook, a fresh notebook run out of
 * order until a NameError, "Save as JunoBench Case…" from the notebook's
 * context menu with labels, "Save as JunoBench Reference Fix", then the case
 * in the panel and its replay reproducing the crash.
 */
import { expect, test } from '@jupyterlab/galata';
import type { IJupyterLabPageFixture } from '@jupyterlab/galata';
import type { Locator } from '@playwright/test';

import { openCaseIn, openPanel, replayButton, SLOW } from './junobench';

/** The case the test authors (the first NBspecific name of an empty casebook). */
const CASE = 'NBspecific_1';

/** The casebook folder the test creates. */
const BOOK = `authored-${Date.now()}`;

/** Click an item of the notebook's context menu by its label. */
async function contextCommand(
  page: IJupyterLabPageFixture,
  label: string
): Promise<void> {
  await page
    .locator('.jp-NotebookPanel .jp-Notebook')
    .filter({ visible: true })
    .click({ button: 'right', position: { x: 40, y: 10 } });
  await page.getByRole('menuitem', { name: label }).click();
}

/** Fill one field of the case form by its name. */
async function fill(
  page: IJupyterLabPageFixture,
  name: string,
  value: string
): Promise<void> {
  await page.locator(`.jp-Junobench-caseForm [name="${name}"]`).fill(value);
}

/** Wait for a cell's error output, by a part of its text. */
async function expectCrash(
  page: IJupyterLabPageFixture,
  text: string
): Promise<void> {
  await expect(
    page.locator(
      '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
    )
  ).toContainText(text, { timeout: SLOW });
}

/** Open "Save as JunoBench Case…" and wait for the form with its suggested name. */
async function openCaseForm(page: IJupyterLabPageFixture): Promise<Locator> {
  await contextCommand(page, 'Save as JunoBench Case…');
  const form = page.locator('.jp-Junobench-caseForm');
  await expect(form.locator('[name="name"]')).toHaveValue(CASE, {
    timeout: SLOW
  });
  return form;
}

/** Close the result dialog. */
async function closeDialog(page: IJupyterLabPageFixture): Promise<void> {
  await page.locator('.jp-Dialog').getByRole('button', { name: 'OK' }).click();
}

/** Open CASE from the panel, replay it and expect the recorded crash. */
async function replaysAsRecorded(
  page: IJupyterLabPageFixture,
  panel: Locator
): Promise<void> {
  const { replayBar } = await openCaseIn(page, panel, CASE);
  const replay = replayButton(replayBar);
  await expect(replay).toBeEnabled({ timeout: SLOW });
  await replay.click();
  await expect(
    page.locator('.jp-Junobench-verdict').filter({ visible: true })
  ).toContainText('Reproduced as recorded', { timeout: SLOW });
}

test.describe('Authoring a case', () => {
  test('a fresh notebook with an out-of-order NameError becomes a verified case that replays as recorded', async ({
    page,
    tmpPath
  }) => {
    test.setTimeout(6 * 60 * 1000);

    // New JunoBench Casebook… (the palette command asks for the folder).
    // Not awaited in the page: the command waits for the dialog's answer.
    await page.evaluate(() => {
      void window.jupyterapp.commands.execute('junobench:new-casebook');
    });
    const ask = page.locator('.jp-Dialog');
    await ask.locator('input').fill(BOOK);
    await ask.getByRole('button', { name: /ok|create/i }).click();
    await expect(ask).toHaveCount(0);

    // A fresh notebook: the area cell runs before the radius cell.
    await page.notebook.createNew(`${BOOK}-draft.ipynb`);
    await page.notebook.setCell(0, 'code', 'import math');
    // An input file the notebook reads: offered for copying into the case.
    await page.contents.uploadContent('2.0\n', 'text', `${tmpPath}/radius.txt`);
    await page.notebook.addCell(
      'code',
      "radius = float(open('radius.txt').read())"
    );
    await page.notebook.addCell(
      'code',
      'area = math.pi * radius ** 2\nprint(area)'
    );
    await page.notebook.runCell(0);
    await page.notebook.runCell(2);
    await expectCrash(page, "name 'radius' is not defined");

    // Save as JunoBench Case…, labelled.
    const form = await openCaseForm(page);
    await expect(form.locator('[name="data"]')).toHaveValue('radius.txt');
    await fill(page, 'rootCause', 'NB specific');
    await fill(page, 'crashType', 'variable not found');
    await fill(page, 'pipelineStage', 'data preparation');
    await fill(page, 'mlBug', 'not ML bug');
    await fill(
      page,
      'diagnosis',
      'The area cell ran before the cell that sets radius.'
    );
    await fill(page, 'datasetTitle', 'None (synthetic)');
    await page.getByRole('button', { name: 'Save case' }).click();
    // Without a reference fix yet, the case is a draft that says why.
    const result = page.locator('.jp-Dialog .jp-Junobench-authoringResult');
    await expect(result).toContainText(`${CASE} is saved as a draft`, {
      timeout: SLOW
    });
    await expect(result).toContainText('no reference fix yet');
    await closeDialog(page);
    // The panel lists it, marked as a draft.
    const panel = await openPanel(page);
    const item = panel.locator(`li.jp-Junobench-caseItem[data-case="${CASE}"]`);
    await expect(item.locator('.jp-Junobench-caseProblem')).toHaveText(
      'draft',
      { timeout: SLOW }
    );
    await page.notebook.activate(`${BOOK}-draft.ipynb`);

    // Save as JunoBench Reference Fix: the same cells, top to bottom.
    await contextCommand(page, 'Save as JunoBench Reference Fix');
    await expect(result).toContainText(
      `Verified: ${CASE} crashes as recorded (NameError`,
      { timeout: SLOW }
    );
    await closeDialog(page);

    // The case folder holds the copied input and a fix without the crash.
    const folder = `/api/contents/${BOOK}/benchmark/${CASE}`;
    const data = await page.request.get(`${folder}/radius.txt?content=1`);
    expect((await data.json()).content).toBe('2.0\n');
    const fix = await (
      await page.request.get(`${folder}/${CASE}_fixed.ipynb?content=1`)
    ).json();
    const outputs = fix.content.cells.flatMap(
      (cell: { outputs?: { output_type: string }[] }) => cell.outputs ?? []
    );
    expect(
      outputs.some((o: { output_type: string }) => o.output_type === 'error')
    ).toBe(false);

    // The case is in the panel, complete, and its replay reproduces it.
    await openPanel(page);
    await expect(item).toBeVisible({ timeout: SLOW });
    // Verified, with its input file copied: nothing is missing any more.
    await expect(item.locator('.jp-Junobench-caseProblem')).toHaveCount(0);
    await replaysAsRecorded(page, panel);
  });

  test('a cell run twice becomes a [reexecute] cell, and the draft replays as recorded', async ({
    page
  }) => {
    test.setTimeout(6 * 60 * 1000);
    const book = `${BOOK}-twice`;
    await page.evaluate(path => {
      void window.jupyterapp.commands.execute('junobench:new-casebook', {
        path
      });
    }, book);
    await page.notebook.createNew(`${book}.ipynb`);
    await page.notebook.setCell(
      0,
      'code',
      "import pandas as pd\ndf = pd.DataFrame({'a': [1], 'b': [2]})"
    );
    await page.notebook.addCell('code', "df = df.drop(columns=['b'])");
    await page.notebook.runCell(0);
    await page.notebook.runCell(1);
    await page.notebook.runCell(1);
    await expectCrash(page, 'not found in axis');

    await openCaseForm(page);
    await fill(page, 'rootCause', 'NB specific');
    await page.getByRole('button', { name: 'Save case' }).click();
    const result = page.locator('.jp-Dialog .jp-Junobench-authoringResult');
    // The reproduced notebook verifies; only the fix is missing.
    await expect(result).toContainText('no reference fix yet', {
      timeout: SLOW
    });
    await expect(result).not.toContainText('did not crash as recorded');
    await closeDialog(page);

    const saved = await (
      await page.request.get(
        `/api/contents/${book}/benchmark/${CASE}/${CASE}_reproduced.ipynb?content=1`
      )
    ).json();
    const cells = saved.content.cells as {
      source: string;
      execution_count: number | null;
    }[];
    // (running the last cell added an empty one below it)
    expect(cells.slice(0, 2).map(c => c.source)).toEqual([
      "import pandas as pd\ndf = pd.DataFrame({'a': [1], 'b': [2]})",
      "# [reexecute]\ndf = df.drop(columns=['b'])"
    ]);
    expect(cells.map(c => c.execution_count).slice(0, 2)).toEqual([1, 3]);

    const panel = await openPanel(page);
    await replaysAsRecorded(page, panel);
  });
});
