#!/usr/bin/env node
/**
 * Run the mutation corpus of "Check my fix" (test/check-corpus, made by
 * scripts/make_check_corpus.py) through `junobench check`'s own checkNotebook
 * against a private Jupyter server, and compare every verdict with the one
 * the corpus expects. Also checks the fixed notebook of every complete real
 * JunoBench case in ../shared (no false fail allowed).
 *
 * Usage (after scripts/setup.sh, inside .venv):
 *   node scripts/check-corpus.js [--jobs N] [--cases a,b] [--json FILE] [--no-real]
 *   node scripts/check-corpus.js --bench   # also the plain check and restart-and-run-all, timed
 *
 * Prints one line per repair that disagrees, a table per case, then
 * `N passed, M failed`; exits 1 when any verdict disagrees.
 */
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { parseArgs } = require('util');

console.debug = () => undefined;

const ROOT = path.join(__dirname, '..');
const lib = path.join(ROOT, 'lib-cli');
const { startServer } = require(path.join(lib, 'cli/server.js'));
const { loadLocalCasebook } = require(path.join(lib, 'cli/verify.js'));
const { checkNotebook } = require(path.join(lib, 'cli/check.js'));
const { MemoryReferenceCache } = require(path.join(lib, 'kernel/repairCheck.js'));
const { runInFreshKernel, sessionsFor, uniqueSuffix } = require(path.join(lib, 'cli/session.js'));
const { topToBottomPlan } = require(path.join(lib, 'replay/plan.js'));

const DEMO = path.join(ROOT, 'demo', 'casebook');
const CORPUS = path.join(ROOT, 'test', 'check-corpus');
const SHARED = path.join(ROOT, '..', 'shared', 'junobench');
const TIMEOUT_MS = 300 * 1000;

async function pool(items, jobs, work) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, jobs) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i], i);
      }
    })
  );
  return out;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

/** Restart-and-run-all of a notebook, top to bottom, from a fresh kernel in the case folder. */
async function runAll(settings, caseFolderFromRoot, caseName, nb) {
  const { sessions, dispose } = sessionsFor(settings);
  const name = `${caseName}.junobench-runall-${uniqueSuffix()}.ipynb`;
  const started = performance.now();
  try {
    await runInFreshKernel(
      sessions,
      { path: `${caseFolderFromRoot}/${name}`, name, timeoutMs: TIMEOUT_MS },
      topToBottomPlan(nb)
    );
  } finally {
    dispose();
  }
  return performance.now() - started;
}

/**
 * Top-level modules a notebook imports that the Python on PATH (the kernel's, in .venv)
 * cannot find.
 */
function missingModules(nb) {
  const names = new Set();
  for (const cell of nb.cells) {
    if (cell.cell_type !== 'code') {
      continue;
    }
    const src = Array.isArray(cell.source) ? cell.source.join('') : cell.source;
    for (const m of src.matchAll(/^\s*(?:from\s+([A-Za-z_]\w*)[\w.]*\s+import|import\s+([A-Za-z_]\w*))/gm)) {
      names.add(m[1] ?? m[2]);
    }
  }
  const code = `import importlib.util, json, sys\nprint(json.dumps([n for n in json.loads(sys.argv[1]) if importlib.util.find_spec(n) is None]))`;
  const out = spawnSync('python', ['-c', code, JSON.stringify([...names])], { encoding: 'utf8' });
  try {
    return JSON.parse(out.stdout.trim());
  } catch {
    return [];
  }
}

/** The repairs to check: the corpus, plus the real cases' fixed notebooks. */
function entries(values) {
  const manifest = JSON.parse(fs.readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8'));
  const only = values.cases ? new Set(values.cases.split(',')) : null;
  const out = manifest.entries
    .filter(e => !only || only.has(e.case))
    .map(e => ({
      book: 'demo',
      case: e.case,
      variant: e.variant,
      file: path.join(CORPUS, e.notebook),
      expected: e.expected,
      why: e.why
    }));
  if (!values['no-real'] && fs.existsSync(path.join(SHARED, 'benchmark'))) {
    for (const name of fs.readdirSync(path.join(SHARED, 'benchmark')).sort()) {
      if (only && !only.has(name)) {
        continue;
      }
      const folder = path.join(SHARED, 'benchmark', name);
      const fixed = path.join(folder, `${name}_fixed.ipynb`);
      const data = path.join(folder, 'data');
      // Only complete cases can run: the others lack their input data (README of ../shared).
      if (fs.existsSync(fixed) && fs.existsSync(path.join(folder, `${name}_reproduced.ipynb`)) && fs.existsSync(data)) {
        const missing = missingModules(JSON.parse(fs.readFileSync(fixed, 'utf8')));
        if (missing.length) {
          console.log(`skipping the real case ${name}: its libraries ${missing.join(', ')} are not installed`);
          continue;
        }
        out.push({
          book: 'real',
          case: name,
          variant: 'fixed',
          file: fixed,
          expected: 'solved',
          why: 'the real case’s reference fixed notebook'
        });
      }
    }
  }
  return out;
}

async function main() {
  const { values } = parseArgs({
    options: {
      jobs: { type: 'string', default: '2' },
      cases: { type: 'string' },
      json: { type: 'string' },
      bench: { type: 'boolean', default: false },
      'no-real': { type: 'boolean', default: false }
    }
  });
  const todo = entries(values);
  const books = { demo: { dir: DEMO, root: path.dirname(DEMO) } };
  if (todo.some(e => e.book === 'real')) {
    books.real = { dir: SHARED, root: SHARED };
  }
  const servers = {};
  const loaded = {};
  for (const [key, b] of Object.entries(books)) {
    servers[key] = await startServer({ rootDir: b.root });
    loaded[key] = await loadLocalCasebook(b.dir);
  }
  const caches = { demo: new MemoryReferenceCache(), real: new MemoryReferenceCache() };
  const check = (e, mode) =>
    checkNotebook({
      casebook: loaded[e.book],
      casebookDir: books[e.book].dir,
      caseName: e.case,
      notebook: JSON.parse(fs.readFileSync(e.file, 'utf8')),
      notebookLabel: path.relative(ROOT, e.file),
      settings: servers[e.book].settings,
      serverRoot: books[e.book].root,
      timeoutMs: TIMEOUT_MS,
      cache: caches[e.book],
      mode
    });
  const started = performance.now();
  let results;
  try {
    // The first repair of each case fills the reference cache (two reference runs); the
    // rest reuse it, as an instructor grading a class does.
    const seen = new Set();
    const firsts = todo.filter(e => !seen.has(`${e.book}/${e.case}`) && seen.add(`${e.book}/${e.case}`));
    const rest = todo.filter(e => !firsts.includes(e));
    const work = async e => {
      const t0 = performance.now();
      const report = await check(e, 'evidence');
      const evidenceMs = performance.now() - t0;
      const row = { ...e, got: report.status, passed: report.passed, ms: evidenceMs, report };
      if (values.bench) {
        const t1 = performance.now();
        const plain = await check(e, 'plain');
        row.plainMs = performance.now() - t1;
        row.plainStatus = plain.status;
        row.plainPassed = plain.passed;
        const c = loaded[e.book].cases.find(x => x.name === e.case);
        const folder = path.relative(books[e.book].root, path.join(books[e.book].dir, c.files.folder));
        row.runAllMs = await runAll(servers[e.book].settings, folder.split(path.sep).join('/'), e.case, JSON.parse(fs.readFileSync(e.file, 'utf8')));
      }
      return row;
    };
    const jobs = Number(values.jobs);
    results = [...(await pool(firsts, jobs, work)), ...(await pool(rest, jobs, work))];
  } finally {
    for (const s of Object.values(servers)) {
      await s.stop();
    }
  }
  const wall = (performance.now() - started) / 1000;
  let agree = 0;
  let falsePass = 0;
  let falseFail = 0;
  const byCase = new Map();
  for (const r of results) {
    const ok = r.got === r.expected;
    agree += ok ? 1 : 0;
    const expectPass = r.expected === 'solved';
    if (r.passed && !expectPass) {
      falsePass++;
    }
    if (!r.passed && expectPass) {
      falseFail++;
    }
    const key = `${r.book}/${r.case}`;
    const c = byCase.get(key) ?? { n: 0, ok: 0 };
    c.n++;
    c.ok += ok ? 1 : 0;
    byCase.set(key, c);
    if (!ok) {
      console.log(`DISAGREE ${key} ${r.variant}: expected ${r.expected}, got ${r.got} (${r.why})`);
      for (const reason of r.report.reasons) {
        console.log(`    - ${reason}`);
      }
    }
  }
  console.log('\ncase                      repairs  agree');
  for (const [key, c] of byCase) {
    console.log(`${key.padEnd(26)}${String(c.n).padStart(7)}  ${String(c.ok).padStart(5)}`);
  }
  const n = results.length;
  console.log(
    `\nagreement ${agree}/${n} (${((100 * agree) / n).toFixed(1)}%), false passes ${falsePass}, false fails ${falseFail}; ${wall.toFixed(1)} s with ${values.jobs} job(s)`
  );
  if (values.bench) {
    const plainAgree = results.filter(r => r.plainPassed === (r.expected === 'solved')).length;
    const plainFalsePass = results.filter(r => r.plainPassed && r.expected !== 'solved').length;
    const cached = results.filter(r => r.report.evidence?.reference?.cached);
    const ratios = cached.map(r => r.ms / r.plainMs);
    const runAllRatios = cached.map(r => r.ms / r.runAllMs);
    console.log(`plain check (no evidence, no reference): pass/fail right ${plainAgree}/${n}, false passes ${plainFalsePass}`);
    console.log(
      `time per attempt, reference cached (${cached.length} attempts): evidence check median ${median(cached.map(r => r.ms)).toFixed(0)} ms, plain check ${median(cached.map(r => r.plainMs)).toFixed(0)} ms, restart-and-run-all ${median(cached.map(r => r.runAllMs)).toFixed(0)} ms`
    );
    console.log(
      `ratio evidence/plain median ${median(ratios).toFixed(2)} (p90 ${[...ratios].sort((a, b) => a - b)[Math.floor(ratios.length * 0.9)]?.toFixed(2)}), evidence/run-all median ${median(runAllRatios).toFixed(2)}`
    );
    const first = results.filter(r => r.report.evidence && !r.report.evidence.reference?.cached);
    console.log(
      `first check of a case (two reference runs at once): median ${median(first.map(r => r.ms)).toFixed(0)} ms; reference runs ${median(first.map(r => r.report.evidence.referenceMs)).toFixed(0)} ms`
    );
  }
  if (values.json) {
    fs.writeFileSync(
      values.json,
      JSON.stringify(
        results.map(({ report, ...r }) => ({ ...r, reasons: report.reasons, evidence: report.evidence })),
        null,
        1
      )
    );
  }
  console.log(`${agree} passed, ${n - agree} failed`);
  process.exit(agree === n && n > 0 ? 0 : 1);
}

main().catch(reason => {
  console.error(reason);
  process.exit(2);
});
