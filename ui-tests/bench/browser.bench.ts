/**
 * Browser-side numbers for jupyterlab-junobench, printed as `BENCH ...` lines:
 * per-cell round trip through JupyterLab's own kernel connection, time from
 * "Open case" to the crash shown for each demo case, and loading the real
 * 111-case JunoBench descriptor in the browser.
 */
import * as fs from 'fs';
import * as path from 'path';

import { expect, test } from '@jupyterlab/galata';

import {
  caseItems,
  ensureDemoCasebook,
  openPanel,
  SLOW,
  timeOpenToCrash
} from '../tests/junobench';

const CELLS = Number(process.env.BENCH_CELLS || 200);
const SHARED = path.resolve(__dirname, '..', '..', '..', 'shared', 'junobench');
const NODELAY = process.env.JUNOBENCH_TCP_NODELAY ?? '1';

test.describe.configure({ mode: 'serial' });

test('per-cell round trip through the browser kernel connection', async ({
  page
}) => {
  const perCell = await page.evaluate(async cells => {
    const app = window.jupyterapp;
    const kernel = await app.serviceManager.kernels.startNew({
      name: 'python3'
    });
    while (kernel.connectionStatus !== 'connected') {
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    await kernel.info;
    for (let i = 0; i < 5; i++) {
      await kernel.requestExecute({ code: `x = ${i}` }).done;
    }
    const times: number[] = [];
    const started = performance.now();
    for (let i = 0; i < cells; i++) {
      const t = performance.now();
      await kernel.requestExecute({ code: `x = ${i}` }).done;
      times.push(performance.now() - t);
    }
    const total = performance.now() - started;
    await kernel.shutdown();
    times.sort((a, b) => a - b);
    return { mean: total / cells, p50: times[Math.floor(cells / 2)] };
  }, CELLS);
  console.log(
    `BENCH browser per-cell (TCP_NODELAY ${NODELAY === '0' ? 'off' : 'on'}, ${CELLS} trivial cells): mean ${perCell.mean.toFixed(2)} ms, p50 ${perCell.p50.toFixed(2)} ms`
  );
  expect(perCell.mean).toBeGreaterThan(0);
});

test('open a demo case and replay it to the crash', async ({ page }) => {
  test.skip(NODELAY === '0', 'measured once, with the default TCP_NODELAY on');
  await ensureDemoCasebook(page);
  const panel = await openPanel(page);
  await expect(caseItems(panel).first()).toBeVisible({ timeout: SLOW });
  const names = await caseItems(panel).evaluateAll(items =>
    items.map(i => (i as HTMLElement).dataset.case!)
  );
  for (const name of names) {
    await openPanel(page);
    const {
      pressed: opened,
      total,
      verdict
    } = await timeOpenToCrash(page, panel, name);
    console.log(
      `BENCH open→crash shown ${name}: ${(total / 1000).toFixed(2)} s (notebook open ${(opened / 1000).toFixed(2)} s) — ${verdict}`
    );
  }
});

test('load the real JunoBench descriptor in the browser', async ({ page }) => {
  test.skip(NODELAY === '0', 'measured once, with the default TCP_NODELAY on');
  const descriptor = path.join(SHARED, 'benchmark_desc.xlsx');
  if (!fs.existsSync(descriptor)) {
    console.log(
      `BENCH descriptor load (browser): skipped, ${SHARED} is absent`
    );
    test.skip(true, 'no ../shared/junobench');
    return;
  }
  // Auto-detection picks up JunoBench/benchmark_desc.xlsx in the server root.
  await page.contents.uploadFile(descriptor, 'JunoBench/benchmark_desc.xlsx');
  await page.contents.uploadFile(
    path.join(SHARED, 'diagnoses.xlsx'),
    'JunoBench/diagnoses.xlsx'
  );
  const panel = await openPanel(page);
  const times = await page.evaluate(async () => {
    const app = window.jupyterapp;
    const out: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await app.commands.execute('junobench:reload-casebook');
      out.push(performance.now() - t);
    }
    return out;
  });
  await expect(panel.locator('.jp-Junobench-count')).toHaveText(/of 111 cases/);
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `BENCH descriptor load+list (browser, real JunoBench, 111 cases): median ${sorted[2].toFixed(1)} ms over 5 (first ${times[0].toFixed(1)} ms)`
  );
  const filter = await page.evaluate(() => {
    const input = document.querySelector(
      '#jp-junobench-panel input[type=search]'
    ) as HTMLInputElement;
    const t = performance.now();
    for (const text of ['t', 'te', 'ten', 'tens', 'tensor']) {
      input.value = text;
      input.dispatchEvent(new Event('input'));
    }
    return (performance.now() - t) / 5;
  });
  console.log(
    `BENCH search-as-you-type over 111 cases (browser): ${filter.toFixed(2)} ms per keystroke (filter + facets + render)`
  );
  await page.contents.deleteDirectory('JunoBench');
});
