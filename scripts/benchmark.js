#!/usr/bin/env node
/**
 * Numbers for jupyterlab-junobench, side by side in one run:
 *  - loading the real 111-case JunoBench descriptor (Node);
 *  - the built extension's bundle size;
 *  - per-cell replay overhead of our runner against nbclient on the same
 *    notebook, with the server extension's TCP_NODELAY on and off;
 *  - time from opening a demo case (new session) to the crash, per demo case;
 *  - "Check my fix" on each demo case's fixed notebook (the CLI's own
 *    checkNotebook) against a plain restart-and-run-all of the same notebook,
 *    both from a fresh session in the case folder.
 * Usage: node scripts/benchmark.js [--json FILE]   (after scripts/setup.sh; run inside .venv)
 * --json FILE also writes the figures with the date, machine and command (scripts/bench_meta.py),
 * for the docs' numbers page.
 */
const { execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { parseArgs } = require('util');

console.debug = () => undefined;

const lib = path.join(__dirname, '..', 'lib-cli');
// What @jupyterlab/services leaves unhandled must not end this process (src/cli/node.ts).
require(path.join(lib, 'cli/node.js')).tolerateServicesRejections();
const { startServer } = require(path.join(lib, 'cli/server.js'));
const { loadLocalCasebook } = require(path.join(lib, 'cli/verify.js'));
const { PlanRunner } = require(path.join(lib, 'kernel/runner.js'));
const { renderRunStop } = require(path.join(lib, 'kernel/stop.js'));
const { recordedPlan, topToBottomPlan } = require(path.join(lib, 'replay/plan.js'));
const { checkNotebook } = require(path.join(lib, 'cli/check.js'));
const { MemoryReferenceCache } = require(path.join(lib, 'repair/repairCheck.js'));
const { runInFreshKernel } = require(path.join(lib, 'cli/session.js'));
const { uniqueSuffix } = require(path.join(lib, 'kernel/freshSession.js'));
const { KernelManager, SessionManager } = require('@jupyterlab/services');

const ROOT = path.join(__dirname, '..');
const SHARED = path.join(ROOT, '..', 'shared', 'junobench');
const CELLS = Number(process.env.BENCH_CELLS || 200);
const CHECK_REPEATS = Number(process.env.BENCH_CHECK_REPEATS || 3);
// The CLI's defaults (`junobench check`: --kernel python3 --timeout 300).
const CHECK_KERNEL = 'python3';
const CHECK_TIMEOUT_MS = 300 * 1000;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function descriptorLoad() {
  if (!fs.existsSync(path.join(SHARED, 'benchmark_desc.xlsx'))) {
    console.log('descriptor load: skipped (../shared/junobench is absent)');
    return null;
  }
  const times = [];
  let n = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const book = await loadLocalCasebook(SHARED);
    times.push(performance.now() - t);
    n = book.cases.length;
  }
  console.log(`descriptor load+list (Node, real JunoBench, ${n} cases): median ${median(times).toFixed(1)} ms over 5 (first ${times[0].toFixed(1)} ms)`);
  return { cases: n, medianMs: median(times), firstMs: times[0] };
}

function bundleSize() {
  const dir = path.join(ROOT, 'jupyterlab_junobench', 'labextension', 'static');
  if (!fs.existsSync(dir)) {
    console.log('bundle size: skipped (labextension not built)');
    return null;
  }
  let total = 0;
  const files = fs.readdirSync(dir).filter(f => f.endsWith('.js'));
  for (const f of files) {
    total += fs.statSync(path.join(dir, f)).size;
  }
  // A development build names its chunks after their modules and is several times larger.
  const dev = files.some(f => /^(lib_|vendors-|node_modules_)/.test(f));
  console.log(`bundle size: ${(total / 1024).toFixed(1)} KiB in ${files.length} JS files (labextension/static, ${dev ? 'DEVELOPMENT build' : 'production build'})`);
  return { total, files: files.length, dev };
}

function trivialNotebook(file) {
  const cells = [];
  for (let i = 0; i < CELLS; i++) {
    cells.push({ cell_type: 'code', id: `c${i}`, source: `x = ${i}`, execution_count: i + 1, metadata: {}, outputs: [] });
  }
  const nb = { cells, metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } }, nbformat: 4, nbformat_minor: 5 };
  fs.writeFileSync(file, JSON.stringify(nb));
  return nb;
}

async function runnerPerCell(nb, nodelay) {
  const server = await startServer({
    rootDir: os.tmpdir(),
    extraArgs: [`--JunobenchExtension.tcp_nodelay=${nodelay ? 'True' : 'False'}`]
  });
  const km = new KernelManager({ serverSettings: server.settings });
  try {
    const kernel = await km.startNew({ name: 'python3' });
    await kernel.info;
    const runner = new PlanRunner({ kernel });
    await runner.run(recordedPlan({ cells: nb.cells.slice(0, 5) })); // warm-up
    const t = performance.now();
    const result = await runner.run(recordedPlan(nb));
    const total = performance.now() - t;
    if (result.status !== 'completed') {
      throw new Error(`benchmark notebook did not complete: ${renderRunStop(result.stop)}`);
    }
    await kernel.shutdown();
    return { total, perCell: total / nb.cells.length };
  } finally {
    km.dispose();
    await server.stop();
  }
}

function nbclientPerCell(file) {
  const out = execFileSync('python', [path.join(__dirname, 'bench_nbclient.py'), file], { encoding: 'utf-8' });
  const r = JSON.parse(out.trim().split('\n').pop());
  return { total: r.total_ms, perCell: r.per_cell_ms };
}

async function openToCrash() {
  const dir = path.join(ROOT, 'demo', 'casebook');
  const book = await loadLocalCasebook(dir);
  const server = await startServer({ rootDir: dir });
  const km = new KernelManager({ serverSettings: server.settings });
  const sm = new SessionManager({ kernelManager: km, serverSettings: server.settings });
  const rows = [];
  try {
    for (const c of book.cases) {
      const rel = `${c.files.folder}/${c.name}_reproduced.ipynb`;
      const nb = JSON.parse(fs.readFileSync(path.join(dir, rel), 'utf-8'));
      const t = performance.now();
      const session = await sm.startNew({ path: `${rel}.bench-${Date.now()}`, name: c.name, type: 'notebook', kernel: { name: 'python3' } });
      const started = performance.now() - t;
      const result = await new PlanRunner({ kernel: session.kernel }).run(recordedPlan(nb));
      const total = performance.now() - t;
      console.log(`  ${c.name.padEnd(14)} open→crash ${(total / 1000).toFixed(2)} s (kernel start ${(started / 1000).toFixed(2)} s, ${result.steps.length} cells, ${result.status}${result.error ? ` ${result.error.ename}` : ''})`);
      rows.push({ name: c.name, totalMs: total, kernelStartMs: started, cells: result.steps.length, status: result.status, ename: result.error ? result.error.ename : null });
      await session.shutdown();
    }
  } finally {
    sm.dispose();
    km.dispose();
    await server.stop();
  }
  return rows;
}

async function checkVsRunAll() {
  const dir = path.join(ROOT, 'demo', 'casebook');
  const book = await loadLocalCasebook(dir);
  const server = await startServer({ rootDir: dir });
  const km = new KernelManager({ serverSettings: server.settings });
  const sm = new SessionManager({ kernelManager: km, serverSettings: server.settings });
  const ratios = [];
  const rows = [];
  let checkSum = 0;
  let runAllSum = 0;
  try {
    for (const c of book.cases) {
      if (!c.files.folder || !c.files.fixed) {
        console.log(`  ${c.name.padEnd(14)} skipped (no fixed notebook)`);
        continue;
      }
      const nb = JSON.parse(fs.readFileSync(path.join(dir, c.files.folder, `${c.name}_fixed.ipynb`), 'utf-8'));
      const plan = topToBottomPlan(nb);
      const codeCells = nb.cells.filter(cell => cell.cell_type === 'code').length;
      // What `junobench check` does once its server is up: plan, fresh session, run, judge;
      // the reference fix's two runs are cached after the first check of the case (as the
      // CLI's file cache and JupyterLab's page cache do), so the median is a cached check.
      const cache = new MemoryReferenceCache();
      const check = async () => {
        const report = await checkNotebook({
          casebook: book,
          casebookDir: dir,
          caseName: c.name,
          notebook: nb,
          notebookLabel: `${c.name}_fixed.ipynb`,
          settings: server.settings,
          serverRoot: dir,
          kernel: CHECK_KERNEL,
          timeoutMs: CHECK_TIMEOUT_MS,
          cache
        });
        return `${report.status}, ${report.run ? report.run.cellsRun : 0}/${report.plannedCells} cells`;
      };
      // Restart and run all: the same session helper in the same folder, every cell, no judging.
      const runAll = async () => {
        const name = `${c.name}.bench-runall-${uniqueSuffix()}.ipynb`;
        const result = await runInFreshKernel(
          sm,
          { path: `${c.files.folder}/${name}`, name, kernel: CHECK_KERNEL, timeoutMs: CHECK_TIMEOUT_MS },
          plan
        );
        return typeof result === 'string' ? result : `${result.status}, ${result.steps.length}/${plan.steps.length} cells`;
      };
      const times = { check: [], runAll: [] };
      const outcome = {};
      for (let i = 0; i < CHECK_REPEATS; i++) {
        // Alternate which goes first so neither always gets the warmer page cache.
        const order = i % 2 === 0 ? ['check', 'runAll'] : ['runAll', 'check'];
        for (const which of order) {
          const t = performance.now();
          outcome[which] = await (which === 'check' ? check() : runAll());
          times[which].push(performance.now() - t);
        }
      }
      const mc = median(times.check);
      const mr = median(times.runAll);
      ratios.push(mc / mr);
      checkSum += mc;
      runAllSum += mr;
      const range = xs => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
      rows.push({ name: c.name, checkMs: mc, runAllMs: mr, check: outcome.check, runAll: outcome.runAll, codeCells, ratio: mc / mr });
      console.log(`  ${c.name.padEnd(14)} check ${mc.toFixed(0)} ms [${range(times.check)}] (${outcome.check}), run-all ${mr.toFixed(0)} ms [${range(times.runAll)}] (${outcome.runAll}; ${codeCells} code cells), ratio ${(mc / mr).toFixed(2)}`);
    }
  } finally {
    sm.dispose();
    km.dispose();
    await server.stop();
  }
  if (ratios.length) {
    console.log(`  overall: check/run-all ratio median ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}), sum of medians ${(checkSum / 1000).toFixed(1)} s vs ${(runAllSum / 1000).toFixed(1)} s over ${ratios.length} cases`);
  }
  return rows;
}

async function main() {
  const { values } = parseArgs({ options: { json: { type: 'string' } } });
  console.log(`# jupyterlab-junobench benchmark (${os.cpus().length} cores, node ${process.version})`);
  const descriptor = await descriptorLoad();
  const bundle = bundleSize();
  const file = path.join(os.tmpdir(), `junobench-bench-${process.pid}.ipynb`);
  const nb = trivialNotebook(file);
  const ours = await runnerPerCell(nb, true);
  const oursNagle = await runnerPerCell(nb, false);
  const theirs = nbclientPerCell(file);
  console.log(`per-cell replay, ${CELLS} trivial cells:`);
  console.log(`  our runner (TCP_NODELAY on):  ${ours.perCell.toFixed(2)} ms/cell (total ${ours.total.toFixed(0)} ms)`);
  console.log(`  our runner (TCP_NODELAY off): ${oursNagle.perCell.toFixed(2)} ms/cell (total ${oursNagle.total.toFixed(0)} ms)`);
  console.log(`  nbclient:                     ${theirs.perCell.toFixed(2)} ms/cell (total ${theirs.total.toFixed(0)} ms)`);
  console.log(`  ratio ours/nbclient: ${(ours.perCell / theirs.perCell).toFixed(2)} (nodelay on), ${(oursNagle.perCell / theirs.perCell).toFixed(2)} (off)`);
  console.log('demo cases, new session to crash (headless, same runner as the UI):');
  const openCrash = await openToCrash();
  console.log(`demo cases, "Check my fix" on the fixed notebook vs restart-and-run-all, median of ${CHECK_REPEATS} (both include fresh session start and shutdown):`);
  const checks = await checkVsRunAll();
  fs.unlinkSync(file);
  if (values.json) {
    // When, where and how (scripts/bench_meta.py, as the Python benchmarks record it).
    const argv = [path.relative(ROOT, process.argv[1]), ...process.argv.slice(2)];
    const meta = spawnSync('python', [path.join(__dirname, 'bench_meta.py'), 'node', ...argv], { encoding: 'utf8' });
    const report = {
      meta: meta.status === 0 ? JSON.parse(meta.stdout) : null,
      node: process.version,
      descriptor,
      bundle,
      perCell: { cells: CELLS, nodelayOnMs: ours.perCell, nodelayOffMs: oursNagle.perCell, nbclientMs: theirs.perCell },
      openToCrash: openCrash,
      checkRepeats: CHECK_REPEATS,
      checkVsRunAll: checks
    };
    fs.writeFileSync(values.json, JSON.stringify(report, null, 1));
    console.log(`(written to ${values.json})`);
  }
}

module.exports = { median, bundleSize, trivialNotebook, runnerPerCell, nbclientPerCell };

// Run when called as a script; scripts/benchmark-ratios.js requires the pieces.
if (require.main === module) {
  main().then(
    () => process.exit(0),
    e => {
      console.error(e);
      process.exit(1);
    }
  );
}
