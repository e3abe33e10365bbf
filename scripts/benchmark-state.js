#!/usr/bin/env node
/**
 * The cost of tracking the hidden state during a replay (issue: the state
 * timeline): each demo case's reproduced notebook replayed in the recorded
 * order from a fresh kernel, with and without the state probe after every
 * step, median of N runs each (interleaved), and the probe's payload per step.
 *
 * Usage (after scripts/setup.sh, inside .venv): node scripts/benchmark-state.js [--repeats N] [--json FILE]
 * --json FILE also writes the figures with the date, machine and command (scripts/bench_meta.py),
 * for the docs' numbers page.
 */
const path = require('path');
const { parseArgs } = require('util');

console.debug = () => undefined;

const ROOT = path.join(__dirname, '..');
const lib = path.join(ROOT, 'lib-cli');
// What @jupyterlab/services leaves unhandled must not end this process (src/cli/node.ts).
require(path.join(lib, 'cli/node.js')).tolerateServicesRejections();
const { startServer } = require(path.join(lib, 'cli/server.js'));
const { loadLocalCasebook } = require(path.join(lib, 'cli/verify.js'));
const { replayTracked } = require(path.join(lib, 'cli/explain.js'));
const { recordedPlan } = require(path.join(lib, 'replay/plan.js'));
const { parseNotebook } = require(path.join(lib, 'casebook/notebook.js'));
const fs = require('fs');
const { spawnSync } = require('child_process');

const DEMO = path.join(ROOT, 'demo', 'casebook');

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main() {
  const { values } = parseArgs({
    options: { repeats: { type: 'string', default: '3' }, json: { type: 'string' } }
  });
  const repeats = Number(values.repeats);
  const server = await startServer({ rootDir: DEMO });
  const book = await loadLocalCasebook(DEMO);
  const rows = [];
  try {
    for (const c of book.cases) {
      const file = path.join(DEMO, c.files.folder, `${c.name}_reproduced.ipynb`);
      const plan = recordedPlan(parseNotebook(fs.readFileSync(file, 'utf8'), file));
      const options = { casebook: book, casebookDir: DEMO, caseName: c.name, settings: server.settings, serverRoot: DEMO, timeoutMs: 120000 };
      const times = { on: [], off: [] };
      let payload = [];
      for (let i = 0; i < repeats; i++) {
        for (const track of [false, true]) {
          const t = performance.now();
          const timeline = await replayTracked(plan, c.files.folder, { ...options, track });
          times[track ? 'on' : 'off'].push(performance.now() - t);
          if (track) {
            payload = timeline.steps.map(s => JSON.stringify(s.changes ?? {}).length);
          }
        }
      }
      const on = median(times.on);
      const off = median(times.off);
      rows.push({ name: c.name, steps: plan.steps.length, on, off, payload });
      console.log(
        `${c.name.padEnd(14)} ${String(plan.steps.length).padStart(2)} steps: tracked ${(on / 1000).toFixed(2)} s, untracked ${(off / 1000).toFixed(2)} s, overhead ${(100 * (on / off - 1)).toFixed(1)}%; payload per step median ${median(payload)} B, max ${Math.max(...payload)} B`
      );
    }
  } finally {
    await server.stop();
  }
  const total = rows.reduce((a, r) => a + r.on, 0) / rows.reduce((a, r) => a + r.off, 0);
  console.log(`all demo cases: tracked/untracked ${total.toFixed(3)} (overhead ${(100 * (total - 1)).toFixed(1)}%), median of ${repeats} runs each`);
  if (values.json) {
    // When, where and how (scripts/bench_meta.py, as the Python benchmarks record it).
    const argv = [path.relative(ROOT, process.argv[1]), ...process.argv.slice(2)];
    const meta = spawnSync('python', [path.join(__dirname, 'bench_meta.py'), 'node', ...argv], { encoding: 'utf8' });
    const cases = rows.map(r => ({
      name: r.name,
      steps: r.steps,
      trackedMs: r.on,
      untrackedMs: r.off,
      payloadMedianBytes: median(r.payload),
      payloadMaxBytes: Math.max(...r.payload)
    }));
    fs.writeFileSync(
      values.json,
      JSON.stringify({ meta: meta.status === 0 ? JSON.parse(meta.stdout) : null, repeats, cases, ratio: total }, null, 1)
    );
    console.log(`(written to ${values.json})`);
  }
}

main().catch(reason => {
  console.error(reason);
  process.exit(1);
});
