/**
 * The replay bar says which library versions of the case's kernel differ
 * from the JunoBench benchmark pins, on a line of its own.
 */
import { expect, test } from '@jupyterlab/galata';
import { openDemoCase, openDrawer, SLOW } from './junobench';

const CASE = 'numpy_1';

test('the replay bar lists the kernel versions that differ from the benchmark pins', async ({
  page
}) => {
  const { replayBar } = await openDemoCase(page, CASE);
  // The environment line is in the case header's details drawer.
  await openDrawer(replayBar);
  const drift = replayBar.getByRole('note', {
    name: 'Environment compared with the benchmark pins'
  });

  // As soon as the case's kernel is up, without a replay.
  await expect(drift).toBeVisible({ timeout: SLOW });
  // Where the kernel runs first: the test server's settings ask for the
  // server's Python (container.spec.ts covers the container).
  await expect(drift).toHaveText(
    /^Environment: in the server's Python; (all \d+ pinned libraries match the benchmark|\d+ librar(y differs|ies differ) from the benchmark pins: .+)\.( Python \S+ \(benchmark: 3\.10\)\.)?$/
  );
  await expect(drift).toHaveAttribute('data-environment', 'server');
  // The test server's Python environment is not the benchmark's: the deep
  // learning libraries at least are absent or at other versions.
  await expect(drift).toContainText('(pinned ');
  const differences = Number(await drift.getAttribute('data-differences'));
  expect(differences).toBeGreaterThan(0);

  // The bar shows one line; the tooltip repeats it whole with the kernel's prefix.
  await expect(drift).toHaveAttribute(
    'title',
    /^Environment: .+\.\nKernel environment: \//s
  );
  // A line of its own: the replay status and verdict are untouched.
  await expect(
    replayBar.locator('.jp-Junobench-replayStatus')
  ).not.toContainText('Environment');
});
