/**
 * The case side panel's Environment section says in one line where the
 * case's kernel runs and how many libraries differ from the JunoBench
 * benchmark pins, with the table of differences on demand.
 */
import { expect, test } from '@jupyterlab/galata';
import { openCaseSection, openDemoCase, SLOW } from './junobench';

const CASE = 'numpy_1';

test('the environment is one line, with the versions that differ from the benchmark pins on demand', async ({
  page
}) => {
  const { replayBar } = await openDemoCase(page, CASE);
  const section = await openCaseSection(page, 'environment');
  const drift = section.getByRole('note', {
    name: 'Environment compared with the benchmark pins'
  });

  // As soon as the case's kernel is up, without a replay.
  await expect(drift).toBeVisible({ timeout: SLOW });
  // Where the kernel runs first: the test server's settings ask for the
  // server's Python (container.spec.ts covers the container).
  await expect(drift).toHaveText(
    /^Environment: the server's Python; (Python and )?\d+ librar(y differs|ies differ) from the benchmark\.$/
  );
  await expect(drift).toHaveAttribute('data-environment', 'server');
  // The test server's Python environment is not the benchmark's: the deep
  // learning libraries at least are absent or at other versions.
  const differences = Number(await drift.getAttribute('data-differences'));
  expect(differences).toBeGreaterThan(0);
  // One line: the versions are not in it.
  await expect(drift).not.toContainText('pinned');
  // The tooltip names the kernel's prefix.
  await expect(drift).toHaveAttribute('title', /^Kernel environment: \//);

  // The differences on demand: one row per library (and Python when it differs).
  const show = section.getByRole('button', { name: 'Show the differences' });
  await expect(show).toHaveAttribute('aria-expanded', 'false');
  await show.click();
  const table = section.locator('table.jp-Junobench-driftTable');
  await expect(table).toBeVisible();
  const rows = table.locator('tbody tr');
  const python = (await drift.textContent())!.includes('Python and') ? 1 : 0;
  await expect(rows).toHaveCount(differences + python);
  await expect(rows.first().locator('td').last()).toHaveText(/^\d+\.\d+/);
  await section.getByRole('button', { name: 'Hide the differences' }).click();
  await expect(table).toHaveCount(0);
  // A line of its own: the replay status and verdict are untouched.
  await expect(
    replayBar.locator('.jp-Junobench-replayStatus')
  ).not.toContainText('Environment');
});
