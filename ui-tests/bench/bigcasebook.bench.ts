/**
 * The side panel on a 10,000-case casebook, printed as `BENCH ...` lines:
 * time from the start of a load to the list rendered, where that time goes
 * (requests, xlsx parsing, other script), and the latency of a search
 * keystroke and of a facet toggle (median and p90).
 *
 * scripts/benchmark-browser.sh writes the casebook into the server root as
 * BigCasebook/ (scripts/make-big-casebook.js) before the server starts.
 * Also writes ui-tests/playwright-report/bundle-loading.json: which of the
 * extension's JS files the page fetched at start-up and which later.
 */
import * as fs from 'fs';
import * as path from 'path';

import { expect, galata, test } from '@jupyterlab/galata';
import type { CDPSession } from '@playwright/test';

import { openPanel } from '../tests/junobench';

const BOOK = 'BigCasebook';
const ROOT_DIR = process.env.JUPYTERLAB_GALATA_ROOT_DIR ?? '';
const CASES = Number(process.env.BENCH_BIG_CASES || 10000);
const STATIC = path.resolve(
  __dirname,
  '..',
  '..',
  'jupyterlab_junobench',
  'labextension',
  'static'
);
// Kept beside the (git-ignored) reports; scripts/benchmark-ratios.js reads it.
const RESULTS = path.resolve(__dirname, '..', 'playwright-report');

test.describe.configure({ mode: 'serial' });

test.use({
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    // Start on a small casebook; the test switches to the big one and times that load.
    'jupyterlab-junobench:casebook': { autoDetect: false },
    // No kernel starting beside the measurement.
    'jupyterlab-junobench:replay': { warmKernel: false }
  }
});

/** A quantile (0..1) of a list of numbers. */
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** Median, p90, p95 and max of a list of numbers. */
function stats(xs: number[]): string {
  const at = (q: number) => quantile(xs, q).toFixed(1);
  return `median ${at(0.5)} ms, p90 ${at(0.9)} ms, p95 ${at(0.95)} ms, max ${Math.max(...xs).toFixed(1)} ms (n=${xs.length})`;
}

/**
 * The budget issue #21 set for the case list (a React render since): keystroke and
 * facet-toggle medians within 16 ms on 10,000 cases.
 */
const LIST_BUDGET_MS = 16;

/** What a built chunk holds, from strings in it (the production build is minified). */
function chunkLabel(file: string): string {
  let text = '';
  try {
    text = fs.readFileSync(path.join(STATIC, file), 'utf-8');
  } catch {
    return file;
  }
  const parts: string[] = [];
  if (/sharedStrings|inlineStr/.test(text)) {
    parts.push('xlsx reader');
  }
  if (/jp-Junobench-caseItem/.test(text)) {
    parts.push('panel');
  }
  if (/benchmark_desc\.xlsx/.test(text)) {
    parts.push('casebook loader');
  }
  if (/@codemirror|cm-merge/.test(text)) {
    parts.push('codemirror merge');
  }
  return parts.length ? `${file} (${parts.join(', ')})` : file;
}

/** Self time per script URL and in the engine, from a CPU profile. */
function profileSummary(profile: {
  nodes: { id: number; callFrame: { url: string; functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
}): string {
  const byId = new Map(profile.nodes.map(n => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const frame = byId.get(profile.samples[i]);
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    let key: string;
    if (!frame) {
      key = '?';
    } else if (!frame.url) {
      key = frame.functionName || '(native)';
    } else if (frame.url.includes('jupyterlab-junobench/static/')) {
      key = `junobench ${chunkLabel(path.basename(frame.url.split('?')[0]))}`;
    } else {
      key = 'JupyterLab core/other';
    }
    self.set(key, (self.get(key) ?? 0) + dt);
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([k, ms]) => `${k} ${ms.toFixed(0)} ms`)
    .join('; ');
}

test('a 10,000-case casebook: load, render, search and facets', async ({
  page
}) => {
  test.skip(
    !ROOT_DIR ||
      !fs.existsSync(path.join(ROOT_DIR, BOOK, 'benchmark_desc.xlsx')),
    'run through scripts/benchmark-browser.sh, which writes BigCasebook/ into the server root'
  );
  test.setTimeout(40 * 60 * 1000);
  // The extension's files the page fetched at start-up.
  const startup = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map(e => e as PerformanceResourceTiming)
      .filter(e => e.name.includes('/jupyterlab-junobench/static/'))
      .map(e => e.name)
  );
  const panel = await openPanel(page);
  // Whatever casebook the page starts on (the demo one), it has loaded.
  await expect(panel.locator('.jp-Junobench-count')).toHaveText(
    /\d+ of \d+ case/,
    { timeout: 120_000 }
  );
  // The panel's message line (not its saving indicator, which shares the class).
  await expect(
    panel.locator('.jp-Junobench-message:not(.jp-Junobench-saving)')
  ).not.toContainText('Loading', { timeout: 120_000 });

  // Galata's page fixture is a proxy; CDP wants the page itself.
  const raw =
    page
      .context()
      .pages()
      .find(p => p.url() === page.url()) ?? page.context().pages()[0];
  const cdp: CDPSession = await page.context().newCDPSession(raw);
  await cdp.send('Profiler.enable');
  // Coarse sampling: the load may take minutes.
  await cdp.send('Profiler.setSamplingInterval', { interval: 2000 });
  await cdp.send('Profiler.start');
  // Point the casebook setting at the big casebook and time the load it starts.
  const run = await page.evaluate(
    async ({ book, cases }) => {
      performance.setResourceTimingBufferSize(200000);
      performance.clearResourceTimings();
      const registry = await window.galata.getPlugin(
        '@jupyterlab/apputils-extension:settings'
      );
      const t0 = performance.now();
      await registry!.set(
        'jupyterlab-junobench:casebook',
        'casebookPath',
        book
      );
      const re = new RegExp(`of ${cases} cases`);
      await new Promise<void>(resolve => {
        const check = () => {
          const count = document.querySelector(
            '#jp-junobench-panel .jp-Junobench-count'
          );
          const item = document.querySelector(
            '#jp-junobench-panel li.jp-Junobench-caseItem[data-case]'
          );
          if (item && count && re.test(count.textContent ?? '')) {
            resolve();
          } else {
            setTimeout(check, 20);
          }
        };
        check();
      });
      const total = performance.now() - t0;
      const contents = performance
        .getEntriesByType('resource')
        .map(e => e as PerformanceResourceTiming)
        .filter(e => e.name.includes('/api/contents/'));
      const firstRequest = Math.min(...contents.map(e => e.startTime)) - t0;
      const last = Math.max(...contents.map(e => e.responseEnd));
      const find = (part: string) =>
        contents.filter(e => e.name.includes(part));
      const span = (es: PerformanceResourceTiming[]) =>
        es.length
          ? Math.max(...es.map(e => e.responseEnd)) -
            Math.min(...es.map(e => e.startTime))
          : 0;
      const descriptor = find('benchmark_desc.xlsx');
      const benchmarkListing = contents.filter(e =>
        /\/benchmark(\?|$)/.test(e.name)
      );
      const caseListings = contents.filter(e =>
        /\/benchmark\/[^/?]+(\/[^/?]+)?(\?|$)/.test(e.name)
      );
      const serverTime = contents.reduce(
        (sum, e) => sum + (e.responseStart - e.requestStart),
        0
      );
      return {
        total,
        requests: contents.length,
        firstRequest,
        lastAnswer: last - t0,
        descriptor: span(descriptor),
        benchmarkListing: span(benchmarkListing),
        caseListings: caseListings.length,
        caseListingSpan: span(caseListings),
        meanWait: serverTime / Math.max(1, contents.length),
        afterLastAnswer: total - (last - t0)
      };
    },
    { book: BOOK, cases: CASES }
  );
  const { profile } = await cdp.send('Profiler.stop');
  console.log(
    `BENCH big casebook (${CASES} cases) setting changed → list rendered: ${(run.total / 1000).toFixed(2)} s; ${run.requests} contents requests (first sent at ${(run.firstRequest / 1000).toFixed(2)} s, last answered at ${(run.lastAnswer / 1000).toFixed(2)} s; mean server wait ${run.meanWait.toFixed(1)} ms each); descriptor download ${run.descriptor.toFixed(0)} ms; listing of benchmark/ ${(run.benchmarkListing / 1000).toFixed(2)} s; ${run.caseListings} case-folder listings over ${(run.caseListingSpan / 1000).toFixed(2)} s; last answer → rendered ${run.afterLastAnswer.toFixed(0)} ms [load ${fs.readFileSync('/proc/loadavg', 'utf-8').split(' ').slice(0, 3).join(' ')}]`
  );
  console.log(
    `BENCH big casebook load, CPU self time in the page by script: ${profileSummary(profile)}`
  );

  const size = (url: string) => {
    const file = path.basename(url.split('?')[0]);
    try {
      return { file, bytes: fs.statSync(path.join(STATIC, file)).size };
    } catch {
      return { file, bytes: 0 };
    }
  };
  const builtFiles = fs.existsSync(STATIC)
    ? fs.readdirSync(STATIC).filter(f => f.endsWith('.js'))
    : [];
  const startupFiles = [...new Set(startup)].map(size);
  const startupNames = new Set(startupFiles.map(f => f.file));
  const lazyFiles = builtFiles
    .filter(f => !startupNames.has(f))
    .map(f => ({ file: f, bytes: fs.statSync(path.join(STATIC, f)).size }));
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(
    path.join(RESULTS, 'bundle-loading.json'),
    JSON.stringify(
      {
        when: new Date().toISOString(),
        startup: startupFiles,
        lazy: lazyFiles
      },
      null,
      2
    )
  );
  const kib = (xs: { bytes: number }[]) =>
    (xs.reduce((s, f) => s + f.bytes, 0) / 1024).toFixed(1);
  console.log(
    `BENCH bundle: ${kib(startupFiles)} KiB of JS fetched at start-up (${startupFiles.map(f => chunkLabel(f.file)).join(', ')}); ${kib(lazyFiles)} KiB not fetched at start-up (${lazyFiles.map(f => chunkLabel(f.file)).join(', ')})`
  );

  const result = await page.evaluate(async () => {
    const root = document.querySelector('#jp-junobench-panel') as HTMLElement;
    const input = root.querySelector('input[type=search]') as HTMLInputElement;
    const list = root.querySelector('ul.jp-Junobench-caseList') as HTMLElement;
    /**
     * One user action: its synchronous handler, the microtasks it queued
     * (React commits a store update in one), then the next frame (Lumino
     * renders in an animation frame queued by the handler) and layout.
     */
    const measure = async (act: () => void) => {
      const t0 = performance.now();
      act();
      const t1 = performance.now();
      // Queued after the handler's own microtasks, so it runs once they are done.
      await Promise.resolve();
      const t1b = performance.now();
      const frameStart = await new Promise<number>(r =>
        requestAnimationFrame(r)
      );
      const t2 = performance.now();
      void list.offsetHeight;
      const t3 = performance.now();
      // Work: handler + its microtasks + render (from the frame start, or the
      // microtasks' end when the frame had already begun) + layout; not the idle wait.
      const work = t1b - t0 + (t2 - Math.max(frameStart, t1b)) + (t3 - t2);
      return { handler: t1 - t0, work, shown: t3 - t0 };
    };
    const typed: { handler: number; work: number; shown: number }[] = [];
    for (const word of [
      'tensorflow shape',
      'keyerror case 12',
      'pandas',
      'no such thing'
    ]) {
      for (let i = 1; i <= word.length; i++) {
        typed.push(
          await measure(() => {
            input.value = word.slice(0, i);
            input.dispatchEvent(new Event('input'));
          })
        );
      }
      typed.push(
        await measure(() => {
          input.value = '';
          input.dispatchEvent(new Event('input'));
        })
      );
    }
    const toggles: { handler: number; work: number; shown: number }[] = [];
    for (const facet of [
      'library',
      'crashType',
      'rootCause',
      'pipelineStage'
    ]) {
      for (let i = 0; i < 3; i++) {
        const boxes = `.jp-Junobench-facet[data-facet="${facet}"] input[type=checkbox]`;
        toggles.push(
          await measure(() =>
            root.querySelectorAll<HTMLInputElement>(boxes)[i]?.click()
          )
        );
        const on = root.querySelector('.jp-Junobench-count')?.textContent ?? '';
        // Untick what was ticked (the options may have been reordered).
        toggles.push(
          await measure(() =>
            root.querySelector<HTMLInputElement>(`${boxes}:checked`)?.click()
          )
        );
        if (!/of/.test(on)) {
          throw new Error('no count text after a facet toggle');
        }
      }
    }
    return {
      typed,
      toggles,
      items: root.querySelectorAll('li.jp-Junobench-caseItem').length,
      facetOptions: root.querySelectorAll('.jp-Junobench-facetOption').length
    };
  });
  const pick = (xs: { [k: string]: number }[], k: string) => xs.map(x => x[k]);
  console.log(
    `BENCH search keystroke over ${CASES} cases: work (filter + facets + render + layout) ${stats(pick(result.typed, 'work'))}; input handler ${stats(pick(result.typed, 'handler'))}; to next frame ${stats(pick(result.typed, 'shown'))}`
  );
  console.log(
    `BENCH facet toggle over ${CASES} cases: work ${stats(pick(result.toggles, 'work'))}; to next frame ${stats(pick(result.toggles, 'shown'))}`
  );
  console.log(
    `BENCH big casebook DOM: ${result.items} case items rendered, ${result.facetOptions} facet options`
  );
  const keystroke = quantile(pick(result.typed, 'work'), 0.5);
  const toggle = quantile(pick(result.toggles, 'work'), 0.5);
  console.log(
    `BENCH case list budget (${LIST_BUDGET_MS} ms medians): keystroke ${keystroke.toFixed(1)} ms, facet toggle ${toggle.toFixed(1)} ms: ${Math.max(keystroke, toggle) <= LIST_BUDGET_MS ? 'within' : 'over'}`
  );
  expect(result.typed.length).toBeGreaterThan(10);
});
