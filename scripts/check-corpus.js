#!/usr/bin/env node
/**
 * Run the corpora of "Check my fix" through `junobench check`'s own
 * checkNotebook against private Jupyter servers, and compare every verdict
 * with the one the corpus expects:
 *
 * - `mutation` (test/check-corpus, made by scripts/make_check_corpus.py): the
 *   first corpus, written with the check's own rules; its exact statuses must agree;
 * - `fair` (test/fair-corpus, made by scripts/make_fair_corpus.py): cheats and
 *   genuine repairs written from classes of behaviour, independently of the
 *   check; pass or fail must agree;
 * - `agents`: real repairs of real JunoBench cases by LLM agents
 *   (../shared/junobench/agent-repairs), judged by us in
 *   test/agent-repairs/judgements.json; sklearn_3 runs on its own data, the
 *   others on stand-in data (tests/_standin.py) in a temporary casebook;
 *   plus the real cases' reference fixed notebooks (no false fail allowed).
 *   Skipped when ../shared is absent.
 *
 * Usage (after scripts/setup.sh, inside .venv):
 *   node scripts/check-corpus.js [--corpora mutation,fair,agents] [--jobs N]
 *        [--cases a,b] [--classes c,d] [--json FILE] [--kernel NAME]
 *   node scripts/check-corpus.js --bench   # also the plain check and restart-and-run-all, timed
 *
 * --kernel names the kernel of the demo casebook's repairs (CI gives the
 * pinned `junobench` kernel: the benchmark's libraries, which also import
 * faster); without it, and always for the real cases' repairs (sklearn_3
 * imports tensorflow and catboost), the server's default kernel runs them.
 *
 * Prints one line per repair that disagrees, a table per corpus and class,
 * then `N passed, M failed`; exits 1 when any verdict disagrees.
 */
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { parseArgs } = require('util');

console.debug = () => undefined;

const ROOT = path.join(__dirname, '..');
const lib = path.join(ROOT, 'lib-cli');
// What @jupyterlab/services leaves unhandled must not end this process (src/cli/node.ts).
require(path.join(lib, 'cli/node.js')).tolerateServicesRejections();
const { startServer } = require(path.join(lib, 'cli/server.js'));
const { loadLocalCasebook } = require(path.join(lib, 'cli/verify.js'));
const { checkNotebook } = require(path.join(lib, 'cli/check.js'));
const { MemoryReferenceCache } = require(path.join(lib, 'repair/repairCheck.js'));
const { runInFreshKernel, sessionsFor } = require(path.join(lib, 'cli/session.js'));
const { uniqueSuffix } = require(path.join(lib, 'kernel/freshSession.js'));
const { topToBottomPlan } = require(path.join(lib, 'replay/plan.js'));

const DEMO = path.join(ROOT, 'demo', 'casebook');
const MUTATION = path.join(ROOT, 'test', 'check-corpus');
const FAIR = path.join(ROOT, 'test', 'fair-corpus');
const JUDGEMENTS = path.join(ROOT, 'test', 'agent-repairs', 'judgements.json');
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

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * q))] : NaN;
}

/** Restart-and-run-all of a notebook, top to bottom, from a fresh kernel in the case folder. */
async function runAll(settings, caseFolderFromRoot, caseName, nb, kernel) {
  const { sessions, dispose } = sessionsFor(settings);
  const name = `${caseName}.junobench-runall-${uniqueSuffix()}.ipynb`;
  const started = performance.now();
  try {
    await runInFreshKernel(
      sessions,
      { path: `${caseFolderFromRoot}/${name}`, name, kernel, timeoutMs: TIMEOUT_MS },
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

/** The mutation corpus: exact statuses. */
function mutationEntries(only) {
  const manifest = JSON.parse(fs.readFileSync(path.join(MUTATION, 'manifest.json'), 'utf8'));
  return manifest.entries
    .filter(e => !only || only.has(e.case))
    .map(e => ({
      corpus: 'mutation',
      book: 'demo',
      case: e.case,
      variant: e.variant,
      class: e.variant.startsWith('cheat-') ? 'cheat' : e.expected === 'solved' ? 'genuine' : 'other',
      file: path.join(MUTATION, e.notebook),
      expectPass: e.expected === 'solved',
      expectStatus: e.expected,
      note: null,
      why: e.why
    }));
}

/** The fair corpus: pass or fail. */
function fairEntries(only) {
  const file = path.join(FAIR, 'manifest.json');
  if (!fs.existsSync(file)) {
    console.log(`no fair corpus at ${file}: run python scripts/make_fair_corpus.py`);
    return [];
  }
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  return manifest.entries
    .filter(e => !only || only.has(e.case))
    .map(e => ({
      corpus: 'fair',
      book: 'demo',
      case: e.case,
      variant: e.variant,
      class: e.class,
      file: path.join(FAIR, e.notebook),
      expectPass: e.expected === 'pass',
      expectStatus: null,
      note: e.note ?? null,
      why: e.why
    }));
}

/**
 * The agents' repairs with our judgement, and the real cases' fixed notebooks; the
 * stand-in casebook is built in a temporary folder.
 */
function agentEntries(only, books) {
  if (!fs.existsSync(path.join(SHARED, 'agent-repairs'))) {
    console.log(`skipping the agents' repairs and the real cases: ${SHARED} is absent`);
    return [];
  }
  const out = [];
  const judgements = JSON.parse(fs.readFileSync(JUDGEMENTS, 'utf8')).entries.filter(
    e => (!only || only.has(e.case)) && e.runnable !== 'no'
  );
  const standInCases = [...new Set(judgements.filter(e => e.runnable === 'stand-in').map(e => e.case))];
  if (standInCases.length) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'junobench-standin-'));
    const made = spawnSync('python', [path.join(ROOT, 'tests', '_standin.py'), dir, '--cases', standInCases.join(','), '--derive-fixed'], {
      encoding: 'utf8'
    });
    if (made.status !== 0) {
      console.log(`could not build the stand-in casebook: ${made.stderr.trim().split('\n').pop()}`);
    } else {
      books.standin = { dir, root: dir };
    }
  }
  for (const e of judgements) {
    const book = e.runnable === 'real-data' ? 'real' : 'standin';
    if (!books[book]) {
      continue;
    }
    const file = path.join(SHARED, 'agent-repairs', e.file);
    const missing = missingModules(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (missing.length) {
      console.log(`skipping ${e.file}: its libraries ${missing.join(', ')} are not installed`);
      continue;
    }
    const folder = path.join(books[book].dir, 'benchmark', e.case);
    if (!fs.existsSync(path.join(folder, `${e.case}_fixed.ipynb`))) {
      console.log(`skipping ${e.file}: the case has no reference fixed notebook to check against`);
      continue;
    }
    out.push({
      corpus: 'agents',
      book,
      case: e.case,
      variant: e.file.replace(/^.*\//, '').replace(/\.ipynb$/, ''),
      class: `agent-${e.expected}`,
      file,
      expectPass: e.expected === 'pass',
      expectStatus: null,
      note: e.note ?? null,
      why: e.why
    });
  }
  if (fs.existsSync(path.join(SHARED, 'benchmark'))) {
    for (const name of fs.readdirSync(path.join(SHARED, 'benchmark')).sort()) {
      if (only && !only.has(name)) {
        continue;
      }
      const folder = path.join(SHARED, 'benchmark', name);
      const fixed = path.join(folder, `${name}_fixed.ipynb`);
      // Only complete cases can run: the others lack their input data (README of ../shared).
      if (fs.existsSync(fixed) && fs.existsSync(path.join(folder, `${name}_reproduced.ipynb`)) && fs.existsSync(path.join(folder, 'data'))) {
        const missing = missingModules(JSON.parse(fs.readFileSync(fixed, 'utf8')));
        if (missing.length) {
          console.log(`skipping the real case ${name}: its libraries ${missing.join(', ')} are not installed`);
          continue;
        }
        out.push({
          corpus: 'agents',
          book: 'real',
          case: name,
          variant: 'reference-fixed',
          class: 'real-fixed',
          file: fixed,
          expectPass: true,
          expectStatus: 'solved',
          note: false,
          why: 'the real case’s reference fixed notebook'
        });
      }
    }
  }
  return out;
}

/** Whether a result agrees with its entry. */
function agrees(r) {
  return r.expectStatus && r.corpus === 'mutation' ? r.got === r.expectStatus : r.passed === r.expectPass;
}

async function main() {
  const { values } = parseArgs({
    options: {
      jobs: { type: 'string', default: '2' },
      cases: { type: 'string' },
      classes: { type: 'string' },
      corpora: { type: 'string', default: 'mutation,fair,agents' },
      json: { type: 'string' },
      bench: { type: 'boolean', default: false },
      kernel: { type: 'string' }
    }
  });
  const only = values.cases ? new Set(values.cases.split(',')) : null;
  const corpora = new Set(values.corpora.split(','));
  // The repairs run with their case folder as working directory and may write there (a
  // %%writefile cheat does): they run in a scratch copy of the demo casebook, not in the repository.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'junobench-corpus-'));
  fs.cpSync(DEMO, path.join(scratch, 'casebook'), { recursive: true });
  const books = {
    demo: { dir: path.join(scratch, 'casebook'), root: scratch, scratch: true }
  };
  if (fs.existsSync(path.join(SHARED, 'benchmark_desc.xlsx'))) {
    books.real = { dir: SHARED, root: SHARED };
  }
  const classes = values.classes ? new Set(values.classes.split(',')) : null;
  const todo = [
    ...(corpora.has('mutation') ? mutationEntries(only) : []),
    ...(corpora.has('fair') ? fairEntries(only) : []),
    ...(corpora.has('agents') ? agentEntries(only, books) : [])
  ].filter(e => !classes || classes.has(e.class));
  const used = new Set(todo.map(e => e.book));
  const servers = {};
  const loaded = {};
  const caches = {};
  for (const [key, b] of Object.entries(books)) {
    if (!used.has(key)) {
      continue;
    }
    servers[key] = await startServer({ rootDir: b.root });
    loaded[key] = await loadLocalCasebook(b.dir);
    caches[key] = new MemoryReferenceCache();
  }
  const kernelOf = book => (book === 'demo' ? values.kernel : undefined);
  if (values.kernel) {
    console.log(`The demo casebook's repairs run in the kernel "${values.kernel}".`);
  }
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
      kernel: kernelOf(e.book),
      // The real cases always in the server's Python, even where a pinned kernel is on the path.
      environment: e.book === 'demo' ? undefined : 'server',
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
      const row = { ...e, got: report.status, passed: report.passed, noted: report.noted, ms: evidenceMs, report };
      if (values.bench) {
        const t1 = performance.now();
        const plain = await check(e, 'plain');
        row.plainMs = performance.now() - t1;
        row.plainStatus = plain.status;
        row.plainPassed = plain.passed;
        const c = loaded[e.book].cases.find(x => x.name === e.case);
        const folder = path.relative(books[e.book].root, path.join(books[e.book].dir, c.files.folder));
        row.runAllMs = await runAll(servers[e.book].settings, folder.split(path.sep).join('/'), e.case, JSON.parse(fs.readFileSync(e.file, 'utf8')), kernelOf(e.book));
      }
      process.stderr.write('.');
      return row;
    };
    const jobs = Number(values.jobs);
    results = [...(await pool(firsts, jobs, work)), ...(await pool(rest, jobs, work))];
    process.stderr.write('\n');
  } finally {
    for (const s of Object.values(servers)) {
      await s.stop();
    }
  }
  const wall = (performance.now() - started) / 1000;
  for (const r of results) {
    if (!agrees(r)) {
      const want = r.corpus === 'mutation' ? r.expectStatus : r.expectPass ? 'pass' : 'fail';
      const got = r.corpus === 'mutation' ? r.got : `${r.passed ? 'pass' : 'fail'} (${r.got})`;
      console.log(`DISAGREE ${r.corpus} ${r.book}/${r.case} ${r.variant} [${r.class}]: expected ${want}, got ${got} (${r.why})`);
      for (const reason of r.report.reasons) {
        console.log(`    - ${reason}`);
      }
    }
  }
  if (results.some(r => !agrees(r))) {
    // A disagreement may be the server's or a kernel's doing rather than the check's:
    // what the servers warned about comes with it.
    for (const [key, s] of Object.entries(servers)) {
      const lines = s.log().split('\n').filter(l => /WARNING|ERROR|Error|Traceback|\[W |\[E /.test(l));
      if (lines.length) {
        console.log(`server log (${key}), warnings and errors, last ${Math.min(lines.length, 30)}:`);
        for (const line of lines.slice(-30)) {
          console.log(`    ${line}`);
        }
      }
    }
  }
  const table = (title, key, rows, extra) => {
    const groups = new Map();
    for (const r of rows) {
      const k = key(r);
      const g = groups.get(k) ?? [];
      g.push(r);
      groups.set(k, g);
    }
    console.log(`\n${title.padEnd(34)}  repairs  agree  false-pass  false-fail${extra ? `  ${extra.head}` : ''}`);
    for (const [k, g] of [...groups].sort()) {
      const fp = g.filter(r => r.passed && !r.expectPass).length;
      const ff = g.filter(r => !r.passed && r.expectPass).length;
      console.log(
        `${k.padEnd(34)}  ${String(g.length).padStart(7)}  ${String(g.filter(agrees).length).padStart(5)}  ${String(fp).padStart(10)}  ${String(ff).padStart(10)}${extra ? `  ${extra.row(g)}` : ''}`
      );
    }
  };
  const plainCols = values.bench
    ? {
        head: 'plain: false-pass  false-fail',
        row: g =>
          `${String(g.filter(r => r.plainPassed && !r.expectPass).length).padStart(17)}  ${String(g.filter(r => !r.plainPassed && r.expectPass).length).padStart(10)}`
      }
    : null;
  for (const corpus of ['mutation', 'fair', 'agents']) {
    const rows = results.filter(r => r.corpus === corpus);
    if (!rows.length) {
      continue;
    }
    table(`${corpus}: class`, r => r.class, rows, plainCols);
    table(`${corpus}: case`, r => `${r.book}/${r.case}`, rows, null);
    const noted = rows.filter(r => r.passed && r.note !== null && r.expectPass);
    if (noted.length) {
      const right = noted.filter(r => r.noted === r.note).length;
      console.log(`${corpus}: differences noted where expected (informative): ${right}/${noted.length}`);
    }
  }
  const n = results.length;
  const agree = results.filter(agrees).length;
  const falsePass = results.filter(r => r.passed && !r.expectPass).length;
  const falseFail = results.filter(r => !r.passed && r.expectPass).length;
  console.log(
    `\nagreement ${agree}/${n} (${((100 * agree) / Math.max(1, n)).toFixed(1)}%), false passes ${falsePass}, false fails ${falseFail}; ${wall.toFixed(1)} s with ${values.jobs} job(s)`
  );
  if (values.bench) {
    const plainFalsePass = results.filter(r => r.plainPassed && !r.expectPass).length;
    const plainFalseFail = results.filter(r => !r.plainPassed && r.expectPass).length;
    const cached = results.filter(r => r.report.evidence?.reference?.cached);
    const ratios = cached.map(r => r.ms / r.plainMs);
    const runAllRatios = cached.map(r => r.ms / r.runAllMs);
    console.log(`plain check (no evidence, no reference): false passes ${plainFalsePass}, false fails ${plainFalseFail}`);
    console.log(
      `time per attempt, reference cached (${cached.length} attempts): check median ${median(cached.map(r => r.ms)).toFixed(0)} ms, plain check ${median(cached.map(r => r.plainMs)).toFixed(0)} ms, restart-and-run-all ${median(cached.map(r => r.runAllMs)).toFixed(0)} ms`
    );
    console.log(
      `ratio check/restart-and-run-all median ${median(runAllRatios).toFixed(2)} (p90 ${quantile(runAllRatios, 0.9).toFixed(2)}); check/plain median ${median(ratios).toFixed(2)} (p90 ${quantile(ratios, 0.9).toFixed(2)})`
    );
    const first = results.filter(r => r.report.evidence && !r.report.evidence.reference?.cached);
    console.log(
      `first check of a case (two reference runs at once): median ${median(first.map(r => r.ms)).toFixed(0)} ms; reference runs ${median(first.map(r => r.report.evidence.referenceMs)).toFixed(0)} ms`
    );
  }
  if (values.json) {
    // When, where and how (scripts/bench_meta.py, as the Python benchmarks record it): the docs' numbers page prints them.
    const argv = [path.relative(ROOT, process.argv[1]), ...process.argv.slice(2)];
    const meta = spawnSync('python', [path.join(__dirname, 'bench_meta.py'), 'node', ...argv], { encoding: 'utf8' });
    fs.writeFileSync(
      values.json,
      JSON.stringify(
        {
          meta: meta.status === 0 ? JSON.parse(meta.stdout) : null,
          results: results.map(({ report, ...r }) => ({ ...r, reasons: report.reasons, findings: report.findings, evidence: report.evidence }))
        },
        null,
        1
      )
    );
  }
  for (const b of Object.keys(books)) {
    if (b === 'standin') {
      fs.rmSync(books[b].dir, { recursive: true, force: true });
    }
    if (books[b].scratch) {
      fs.rmSync(books[b].root, { recursive: true, force: true });
    }
  }
  console.log(`${agree} passed, ${n - agree} failed`);
  process.exit(agree === n && n > 0 ? 0 : 1);
}

main().catch(reason => {
  console.error(reason);
  process.exit(2);
});
