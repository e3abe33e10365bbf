#!/usr/bin/env node
/**
 * Speed side by side in one run, printed as ratios (issue #6):
 *  - per-cell replay overhead and total: our runner against nbclient on the
 *    same trivial notebook (pieces of scripts/benchmark.js);
 *  - `junobench verify` over the demo casebook with --jobs 1 and --jobs 2
 *    against a plain nbclient loop and a papermill loop doing the same
 *    notebooks (scripts/bench_nbclient_verify.py): ours/nbclient,
 *    ours/papermill and the jobs-2 speed-up;
 *  - the extension's bundle size (build it first with `jlpm build:prod`), and
 *    which chunks the page loads at start-up when
 *    scripts/benchmark-browser.sh has written its resource list.
 * Every figure is wall time on this machine; the load average is printed with
 * them because a shared machine makes them noisy.
 *
 * Usage: node scripts/benchmark-ratios.js [--casebook demo/casebook] [--repeats 1] [--json FILE]
 *        (after scripts/setup.sh and `jlpm build:lib`; papermill from requirements-dev.txt)
 * --json FILE also writes the figures with the date, machine and command (scripts/bench_meta.py),
 * for the docs' numbers page.
 */
const { execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { parseArgs } = require('util');

const bench = require('./benchmark.js');

const ROOT = path.join(__dirname, '..');
const { values } = parseArgs({
  options: {
    casebook: { type: 'string', default: path.join(ROOT, 'demo', 'casebook') },
    repeats: { type: 'string', default: '1' },
    json: { type: 'string' },
    cells: { type: 'string', default: process.env.BENCH_CELLS || '200' }
  }
});
const CASEBOOK = path.resolve(values.casebook);
const REPEATS = Math.max(1, Number(values.repeats));
const CELLS = Number(values.cells);
/** What --json writes: each section's figures. */
const figures = {};

function load() {
  return os
    .loadavg()
    .map(x => x.toFixed(2))
    .join(' ');
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** Wall time of `junobench verify` over the casebook; its own server and kernels. */
function verifyOnce(jobs) {
  const report = path.join(os.tmpdir(), `junobench-ratio-verify-${process.pid}-${jobs}.json`);
  const t = performance.now();
  let out = '';
  try {
    out = execFileSync(
      process.execPath,
      [path.join(ROOT, 'bin', 'junobench.js'), 'verify', CASEBOOK, '--jobs', String(jobs), '--json', report],
      { encoding: 'utf-8', stdio: ['ignore', 'pipe', 'pipe'] }
    );
  } catch (error) {
    // verify exits non-zero when a case fails; the timing still counts.
    out = `${error.stdout ?? ''}`;
  }
  const ms = performance.now() - t;
  let verdicts = '';
  try {
    const json = JSON.parse(fs.readFileSync(report, 'utf-8'));
    const cases = json.reports ?? [];
    const counts = {};
    for (const c of cases) {
      counts[c.verdict] = (counts[c.verdict] ?? 0) + 1;
    }
    verdicts = Object.entries(counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    verdicts += `; ${json.seconds} s after server start`;
    fs.unlinkSync(report);
  } catch {
    verdicts = out.trim().split('\n').pop();
  }
  return { ms, verdicts };
}

/** Wall time of the nbclient or papermill loop (one Python process, kernels included). */
function baselineOnce(tool) {
  const t = performance.now();
  const out = execFileSync(
    'python3',
    [path.join(__dirname, 'bench_nbclient_verify.py'), CASEBOOK, '--tools', tool],
    { encoding: 'utf-8', stdio: ['ignore', 'pipe', 'pipe'] }
  );
  const ms = performance.now() - t;
  const lines = out
    .trim()
    .split('\n')
    .map(line => JSON.parse(line));
  const summary = lines.find(l => l.summary);
  const stopped = lines.filter(l => l.notebook === 'reproduced' && l.stopped).length;
  const reproduced = lines.filter(l => l.notebook === 'reproduced' && l.ms !== undefined).length;
  return { ms, inner: summary.total_ms, detail: `${stopped}/${reproduced} reproduced notebooks stopped at an error` };
}

function medianOf(runs) {
  return bench.median(runs.map(r => r.ms));
}

async function perCell() {
  const file = path.join(os.tmpdir(), `junobench-ratios-${process.pid}.ipynb`);
  process.env.BENCH_CELLS = String(CELLS);
  const nb = bench.trivialNotebook(file);
  try {
    const ours = await bench.runnerPerCell(nb, true);
    const theirs = bench.nbclientPerCell(file);
    console.log(`per-cell replay, ${nb.cells.length} trivial cells (kernel start excluded) [load ${load()}]:`);
    console.log(`  ours     ${ours.perCell.toFixed(2)} ms/cell, total ${ours.total.toFixed(0)} ms`);
    console.log(`  nbclient ${theirs.perCell.toFixed(2)} ms/cell, total ${theirs.total.toFixed(0)} ms`);
    console.log(`  RATIO ours/nbclient per cell ${(ours.perCell / theirs.perCell).toFixed(2)}, total ${(ours.total / theirs.total).toFixed(2)}`);
    figures.perCell = {
      cells: nb.cells.length,
      oursMs: ours.perCell,
      nbclientMs: theirs.perCell,
      oursTotalMs: ours.total,
      nbclientTotalMs: theirs.total
    };
  } finally {
    fs.unlinkSync(file);
  }
}

function verifyVsLoops() {
  console.log(`verify the casebook ${path.relative(process.cwd(), CASEBOOK) || '.'} (reproduced to the crash + fixed in full, fresh kernel each), median of ${REPEATS}:`);
  const runs = { jobs1: [], jobs2: [], nbclient: [], papermill: [] };
  const notes = {};
  for (let i = 0; i < REPEATS; i++) {
    // Alternate the order so no tool always gets the warmer page cache.
    const order = i % 2 === 0 ? ['jobs1', 'nbclient', 'jobs2', 'papermill'] : ['papermill', 'jobs2', 'nbclient', 'jobs1'];
    for (const which of order) {
      const r =
        which === 'jobs1' ? verifyOnce(1) : which === 'jobs2' ? verifyOnce(2) : baselineOnce(which);
      runs[which].push(r);
      notes[which] = r.verdicts ?? r.detail;
      console.log(`  ${which.padEnd(9)} ${seconds(r.ms)} (${notes[which]}) [load ${load()}]`);
    }
  }
  const m = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, medianOf(v)]));
  console.log(`  medians: verify --jobs 1 ${seconds(m.jobs1)}, --jobs 2 ${seconds(m.jobs2)}, nbclient loop ${seconds(m.nbclient)}, papermill loop ${seconds(m.papermill)}`);
  console.log(`  RATIO verify(jobs 1)/nbclient ${(m.jobs1 / m.nbclient).toFixed(2)}, verify(jobs 1)/papermill ${(m.jobs1 / m.papermill).toFixed(2)}`);
  console.log(`  RATIO verify(jobs 2)/nbclient ${(m.jobs2 / m.nbclient).toFixed(2)}, verify(jobs 2)/papermill ${(m.jobs2 / m.papermill).toFixed(2)}`);
  console.log(`  SPEED-UP jobs 2 over jobs 1: ${(m.jobs1 / m.jobs2).toFixed(2)}x (${os.cpus().length} cores)`);
  figures.verify = { repeats: REPEATS, medianMs: m, notes };
  console.log('  (verify includes its own Jupyter server start; both Python loops start kernels directly; papermill runs top to bottom, nbclient and verify in the recorded order)');
}

function bundle() {
  const size = bench.bundleSize();
  if (!size) {
    return;
  }
  if (size.dev) {
    console.log('  (run `jlpm build:prod` under the shared lock for the production size)');
  }
  // Written by ui-tests/bench/bigcasebook.bench.ts: what the browser fetched when.
  const loaded = path.join(ROOT, 'ui-tests', 'playwright-report', 'bundle-loading.json');
  if (fs.existsSync(loaded)) {
    const r = JSON.parse(fs.readFileSync(loaded, 'utf-8'));
    const kib = files => (files.reduce((s, f) => s + f.bytes, 0) / 1024).toFixed(1);
    console.log(`  at start-up: ${kib(r.startup)} KiB in ${r.startup.length} files; later (lazily): ${kib(r.lazy)} KiB in ${r.lazy.length} files (browser bench of ${r.when})`);
  } else {
    console.log('  start-up vs lazy: run scripts/benchmark-browser.sh to measure');
  }
}

async function main() {
  console.log(`# jupyterlab-junobench ratios (${os.cpus().length} cores, node ${process.version}, load ${load()})`);
  bundle();
  await perCell();
  verifyVsLoops();
  if (values.json) {
    // When, where and how (scripts/bench_meta.py, as the Python benchmarks record it).
    const argv = [path.relative(ROOT, process.argv[1]), ...process.argv.slice(2)];
    const meta = spawnSync('python', [path.join(__dirname, 'bench_meta.py'), 'node', ...argv], { encoding: 'utf8' });
    fs.writeFileSync(
      values.json,
      JSON.stringify({ meta: meta.status === 0 ? JSON.parse(meta.stdout) : null, ...figures }, null, 1)
    );
    console.log(`(written to ${values.json})`);
  }
}

main().then(
  () => process.exit(0),
  e => {
    console.error(e);
    process.exit(1);
  }
);
