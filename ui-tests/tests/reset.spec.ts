/**
 * "Reset case": a new working copy from the reproduced notebook, while the
 * old one is saved and kept with everything the learner typed.
 */
import { expect, test } from '@jupyterlab/galata';

import { openDemoCase, SLOW } from './junobench';

const CASE = 'matplotlib_1';

/** The bits of the JupyterLab application this test reaches through `window`. */
interface IAppWindow {
  jupyterapp: {
    shell: { currentWidget: { context: { path: string } } };
    commands: { execute(id: string, args: object): Promise<unknown> };
  };
}

/** The server path of the current widget's document. */
const currentPath = (): string =>
  (window as unknown as IAppWindow).jupyterapp.shell.currentWidget.context.path;
const TYPED = "# the learner's notes\nprint('kept')";

test('reset starts a new working copy and keeps the old one', async ({
  page
}) => {
  const { currentTab } = await openDemoCase(page, CASE);
  const oldName = (await currentTab.innerText()).trim();
  const oldPath = await page.evaluate(currentPath);
  await page.notebook.setCell(1, 'code', TYPED);

  // Unsaved: the reset must save it first rather than lose it.
  await page.evaluate(async name => {
    await (window as unknown as IAppWindow).jupyterapp.commands.execute(
      'junobench:reset-case',
      { name }
    );
  }, CASE);
  await expect(currentTab).not.toHaveText(oldName, { timeout: SLOW });
  await expect(currentTab).toContainText(CASE);
  const newPath = await page.evaluate(currentPath);
  expect(newPath).not.toBe(oldPath);

  const read = async (path: string) => {
    const response = await page.request.get(`/api/contents/${path}`);
    expect(response.ok()).toBe(true);
    const model = (await response.json()) as {
      content: { cells: { source: string | string[] }[] };
    };
    return model.content.cells.map(c =>
      Array.isArray(c.source) ? c.source.join('') : c.source
    );
  };
  expect((await read(oldPath))[1]).toBe(TYPED);
  expect(await read(newPath)).not.toContain(TYPED);
});
