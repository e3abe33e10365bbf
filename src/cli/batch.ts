/**
 * Batch grading: `junobench check <casebook> --submissions DIR` grades every
 * `<case>/<anything>.ipynb` under DIR (a workshop's submissions, a repair
 * tool's outputs) with one server, one reference cache and N checks at a time.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import * as path from 'path';

import type { ServerConnection } from '@jupyterlab/services';

import { cellNamesInJSON } from '../i18n';
import { terminalSafe } from '../casebook/display';
import { checkNotebookSize, parseNotebook } from '../casebook/notebook';
import type { ICasebook } from '../casebook/types';
import type { EnvironmentPreference } from '../kernel/environment';
import { MemoryReferenceCache } from '../repair/repairCheck';
import type { IReferenceCache } from '../repair/repairCheck';
import { escapeHTML } from '../progress/cohort';
import type { CheckFinding } from '../repair/check';
import type { INotebookJSON } from '../replay/types';
import {
  CheckInputError,
  checkNotebook,
  defaultCacheDir,
  FileReferenceCache
} from './check';
import type { ICheckReport } from './check';
import { ENVIRONMENT_USAGE, readEnvironmentOption } from './kernels';
import { OutputError, writeOutputFile } from './output';
import {
  confirmServing,
  serverFor,
  ServerLostError,
  whileServing
} from './server';
import type { IServerHandle } from './server';
import { loadLocalCasebook } from './verify';

/** The synopsis of the batch form of `junobench check`. */
export const BATCH_SYNOPSIS = `  junobench check <casebook> --submissions DIR [--jobs N] [--cases a,b]
                  [--json FILE] [--html FILE] [--kernel NAME] [--timeout SECONDS]
                  ${ENVIRONMENT_USAGE}
                  [--server URL --token T [--server-root DIR]]
                  [--cache-dir DIR | --no-cache]`;

/** Usage of the batch form of `junobench check`. */
export const BATCH_USAGE = `${BATCH_SYNOPSIS}

  Grades every DIR/<case>/<anything>.ipynb against its case as the single
  notebook form does, with one server, the reference fix run once per case,
  and N checks at a time (--jobs, default 1); --cases grades only those case
  folders. Names starting with "." (.ipynb_checkpoints) are skipped. A folder
  that is not a case of the casebook, a file that is not a readable notebook,
  a folder inside a case folder or a file directly in DIR is named with what
  is wrong and counted as not graded; the others are still graded. Progress
  goes to stderr; stdout gets a per-case table, the failing verdicts and
  findings, the files not graded and the totals. In this form --json FILE
  writes the report to FILE (the single form's --json prints it), --html FILE
  a self-contained HTML page. --no-cache keeps the reference runs in memory,
  for this batch only. Exit code 0: every submission was graded and passes;
  1: some fail or could not be graded; 2: bad arguments (a <case> with
  --submissions, DIR missing or empty, an unknown --cases name).`;

/** The options only the batch form takes (`parseArgs` form). */
export const BATCH_OPTIONS = {
  submissions: { type: 'string' },
  jobs: { type: 'string' },
  cases: { type: 'string' },
  html: { type: 'string' }
} as const;

/** One submission and how its grading went. */
export interface IBatchResult {
  /** The case folder it sits in (null for a file directly in DIR). */
  case: string | null;
  /** Its path relative to DIR, with `/` separators. */
  file: string;
  /** The check's report (null when it was not graded). */
  report: ICheckReport | null;
  /** Why it was not graded (null when it was). */
  error: string | null;
}

/** A row of the per-case table. */
export interface IBatchCaseSummary {
  /** Case folder name (null: files directly in DIR). */
  case: string | null;
  /** Whether the casebook has this case. */
  known: boolean;
  /** Submissions with a report. */
  graded: number;
  /** Reports that pass. */
  passed: number;
  /** Reports that fail. */
  failed: number;
  /** Submissions without a report (bad input). */
  notGraded: number;
}

/** The counts of a batch. */
export interface IBatchSummary {
  /** Every entry found: graded or not. */
  submissions: number;
  /** Submissions with a report. */
  graded: number;
  /** Reports that pass. */
  passed: number;
  /** Reports that fail. */
  failed: number;
  /** Submissions without a report. */
  notGraded: number;
  /** One row per case folder: casebook order, then unknown folders, then DIR itself. */
  cases: IBatchCaseSummary[];
  /** Graded submissions by status, most frequent first. */
  statuses: Record<string, number>;
  /** What the failing submissions got, most frequent first. */
  failures: {
    /** Failing submissions by status. */
    statuses: Record<string, number>;
    /** Failing submissions by finding code, each code counted once per submission. */
    findings: Record<string, number>;
  };
}

/** The report of a batch (the `--json FILE` content). */
export interface IBatchReport {
  /** Casebook name. */
  casebook: string;
  /** The submissions folder, absolute. */
  submissionsDir: string;
  /** When grading started (ISO 8601). */
  startedAt: string;
  /** Wall time of the batch. */
  durationMs: number;
  /** The counts. */
  summary: IBatchSummary;
  /** One entry per submission, in table order. */
  results: IBatchResult[];
}

/** Options of a batch. */
export interface IGradeSubmissionsOptions {
  /** The loaded casebook. */
  casebook: ICasebook;
  /** Local folder of the casebook. */
  casebookDir: string;
  /** The submissions folder. */
  submissionsDir: string;
  /** Case folders to grade (all when empty). */
  cases?: string[];
  /** Number of checks at once. */
  jobs?: number;
  /** Server settings. */
  settings: ServerConnection.ISettings;
  /** The local folder the server serves as its root. */
  serverRoot: string;
  /** Kernel name. */
  kernel?: string;
  /** The environment to run in when no kernel is named (default `auto`). */
  environment?: EnvironmentPreference;
  /** Per-cell timeout in ms. */
  timeoutMs?: number;
  /** The reference cache the checks share (default: in memory). */
  cache?: IReferenceCache;
  /** Called as each submission is graded or found ungradable: done counts up to total. */
  onResult?: (result: IBatchResult, done: number, total: number) => void;
}

/** The parsed arguments `checkCommand` hands over for the batch form. */
export interface IBatchArgs {
  /** The submissions folder. */
  submissions?: string;
  /** Checks at once. */
  jobs?: string;
  /** Comma-separated case folders to grade. */
  cases?: string;
  /** Where to write the HTML page. */
  html?: string;
  /** Where to write the JSON report (a string in the batch form). */
  json?: string | boolean;
  /** Kernel name. */
  kernel?: string;
  /** `auto`, `container`, `pinned` or `server`. */
  environment?: string;
  /** Per-cell timeout in seconds. */
  timeout?: string;
  /** URL of a running server. */
  server?: string;
  /** Its token. */
  token?: string;
  /** The local folder it serves. */
  'server-root'?: string;
  /** Folder of the reference cache. */
  'cache-dir'?: string;
  /** Keep the reference cache in memory only. */
  'no-cache'?: boolean;
}

/**
 * Whether `check` arguments ask for the batch form (`--submissions` before any `--`).
 */
export function isBatchCheck(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some(
    a => a === '--submissions' || a.startsWith('--submissions=')
  );
}

/**
 * The batch-only options given without `--submissions`, as `--name` strings.
 */
export function batchOnlyOptions(values: IBatchArgs): string[] {
  return (['jobs', 'cases', 'html'] as const)
    .filter(k => values[k] !== undefined)
    .map(k => `--${k}`);
}

/**
 * Grade every submission under a folder; input problems (no folder, an unknown `--cases` name)
 * throw `CheckInputError`, a bad submission becomes a result with an error.
 */
export async function gradeSubmissions(
  options: IGradeSubmissionsOptions
): Promise<IBatchReport> {
  const started = Date.now();
  const dir = path.resolve(options.submissionsDir);
  const found = Private.find(dir, options.casebook, options.cases ?? []);
  const total = found.entries.length;
  const results: IBatchResult[] = new Array(total);
  let done = 0;
  const finish = (i: number, result: IBatchResult) => {
    results[i] = result;
    options.onResult?.(result, ++done, total);
  };
  // Bad input first, so it shows before the long part of the run.
  const toGrade: number[] = [];
  found.entries.forEach((entry, i) => {
    const error =
      entry.problem ?? Private.readSubmission(entry.path, entry.file).error;
    if (error !== null) {
      finish(i, { case: entry.case, file: entry.file, report: null, error });
    } else {
      toGrade.push(i);
    }
  });
  const cache = options.cache ?? new MemoryReferenceCache();
  await Private.pool(
    toGrade,
    options.jobs ?? 1,
    i => found.entries[i].case ?? '',
    async i => {
      const entry = found.entries[i];
      finish(i, await Private.gradeOne(entry, options, cache));
    }
  );
  return {
    casebook: options.casebook.name,
    submissionsDir: dir,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    summary: summarizeBatch(results, found.folders),
    results
  };
}

/** One entry found under the submissions folder. */
export interface ISubmissionEntry {
  /** The case folder (null for a file directly in the folder). */
  case: string | null;
  /** Path relative to the folder, `/`-separated. */
  file: string;
  /** Absolute path. */
  path: string;
  /** What is wrong with it before it is even read (null: a notebook to grade). */
  problem: string | null;
}

/**
 * The entries of a submissions folder in table order (cases in casebook order, then folders
 * that are not cases, then files directly in the folder), and the folders as table rows;
 * throws `CheckInputError` when the folder cannot be read.
 */
export function findSubmissions(
  dir: string,
  known: string[],
  only: string[] | null,
  casebookName: string
): {
  entries: ISubmissionEntry[];
  folders: Array<{ case: string | null; known: boolean }>;
} {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) {
      throw new Error('not a folder');
    }
    names = readdirSync(dir);
  } catch (reason) {
    throw new CheckInputError(
      `cannot read the submissions folder ${dir}: ${(reason as Error).message}`
    );
  }
  // Hidden entries are editors' and JupyterLab's (.ipynb_checkpoints), not submissions.
  names = names.filter(n => !n.startsWith('.')).sort(Private.byName);
  const caseFolders: string[] = [];
  const loose: ISubmissionEntry[] = [];
  for (const name of names) {
    const full = path.join(dir, name);
    const kind = Private.kindOf(full);
    if (kind === 'folder') {
      caseFolders.push(name);
    } else if (!only) {
      loose.push({
        case: null,
        file: name,
        path: full,
        problem:
          kind === 'unreadable'
            ? 'cannot be read'
            : 'not in a case folder (expected <case>/<name>.ipynb)'
      });
    }
  }
  const order = (n: string) =>
    known.includes(n) ? known.indexOf(n) : known.length;
  const wanted = only
    ? only.filter((n, i) => only.indexOf(n) === i)
    : caseFolders.slice().sort((a, b) => order(a) - order(b));
  const entries: ISubmissionEntry[] = [];
  const folders: Array<{ case: string | null; known: boolean }> = [];
  for (const name of wanted) {
    const isCase = known.includes(name);
    folders.push({ case: name, known: isCase });
    if (!caseFolders.includes(name)) {
      continue;
    }
    const caseDir = path.join(dir, name);
    let files: string[];
    try {
      files = readdirSync(caseDir);
    } catch (reason) {
      entries.push({
        case: name,
        file: `${name}/`,
        path: caseDir,
        problem: `cannot be read (${(reason as Error).message})`
      });
      continue;
    }
    for (const file of files
      .filter(f => !f.startsWith('.'))
      .sort(Private.byName)) {
      const full = path.join(caseDir, file);
      const kind = Private.kindOf(full);
      const isNotebook = kind === 'file' && /\.ipynb$/i.test(file);
      entries.push({
        case: name,
        file: `${name}/${file}${kind === 'folder' ? '/' : ''}`,
        path: full,
        problem:
          kind === 'unreadable'
            ? 'cannot be read'
            : kind === 'folder'
              ? 'a folder inside a case folder (expected <case>/<name>.ipynb)'
              : !isNotebook
                ? 'not a notebook (.ipynb)'
                : !isCase
                  ? `no case "${name}" in ${casebookName}`
                  : null
      });
    }
  }
  if (loose.length) {
    folders.push({ case: null, known: false });
  }
  return { entries: [...entries, ...loose], folders };
}

/**
 * Add up a batch's results; `folders` gives the table's rows and their order (cases met only
 * in `results` are appended).
 */
export function summarizeBatch(
  results: IBatchResult[],
  folders: Array<{ case: string | null; known: boolean }> = []
): IBatchSummary {
  const rows = new Map<string | null, IBatchCaseSummary>();
  const row = (name: string | null, known: boolean) => {
    let r = rows.get(name);
    if (!r) {
      r = { case: name, known, graded: 0, passed: 0, failed: 0, notGraded: 0 };
      rows.set(name, r);
    }
    return r;
  };
  folders.forEach(f => row(f.case, f.known));
  const statuses = new Map<string, number>();
  const failedStatuses = new Map<string, number>();
  const findings = new Map<string, number>();
  const add = (m: Map<string, number>, key: string) =>
    m.set(key, (m.get(key) ?? 0) + 1);
  for (const result of results) {
    const r = row(result.case, result.case !== null);
    const report = result.report;
    if (!report) {
      r.notGraded++;
      continue;
    }
    r.graded++;
    add(statuses, report.status);
    if (report.passed) {
      r.passed++;
      continue;
    }
    r.failed++;
    add(failedStatuses, report.status);
    new Set(
      report.findings
        .map(f => f.code)
        .filter(code => !Private.NEUTRAL_FINDINGS.has(code))
    ).forEach(code => add(findings, code));
  }
  const cases = [...rows.values()];
  const sum = (k: 'graded' | 'passed' | 'failed' | 'notGraded') =>
    cases.reduce((n, r) => n + r[k], 0);
  return {
    submissions: results.length,
    graded: sum('graded'),
    passed: sum('passed'),
    failed: sum('failed'),
    notGraded: sum('notGraded'),
    cases,
    statuses: Private.ranked(statuses),
    failures: {
      statuses: Private.ranked(failedStatuses),
      findings: Private.ranked(findings)
    }
  };
}

/**
 * One progress line (stderr): `[3/12] numpy_1/alice.ipynb: PASS (solved) 4.2 s`, and for a
 * failure its first reason indented below.
 */
export function progressLine(
  result: IBatchResult,
  done: number,
  total: number
): string {
  const head = `[${done}/${total}] ${result.file}:`;
  const report = result.report;
  if (!report) {
    return terminalSafe(`${head} NOT GRADED: ${result.error ?? ''}`);
  }
  const line = `${head} ${report.passed ? 'PASS' : 'FAIL'} (${report.status}) ${(report.durationMs / 1000).toFixed(1)} s`;
  const why = report.passed ? [] : report.reasons.slice(0, 1);
  return terminalSafe(
    [line, ...why.map(r => Private.wrap(r, 6).join('\n'))].join('\n')
  );
}

/**
 * The text summary (stdout): the per-case table, the failing verdicts and findings, the
 * submissions not graded, and the totals; fits 100 columns.
 */
export function formatBatchSummary(report: IBatchReport, jobs: number): string {
  const s = report.summary;
  const width = Math.min(
    40,
    Math.max(16, ...s.cases.map(r => Private.caseLabel(r).length))
  );
  const cell = (text: string) => Private.clip(text, width).padEnd(width, ' ');
  const numbers = (values: Array<number | string>) =>
    values.map((v, i) => String(v).padStart(i === 3 ? 11 : 7)).join(' ');
  const lines = [
    `${cell('case')} ${numbers(['graded', 'passed', 'failed', 'not graded'])}`,
    ...s.cases.map(
      r =>
        `${cell(Private.caseLabel(r))} ${numbers([r.graded, r.passed, r.failed, r.notGraded])}`
    )
  ];
  const counts = (title: string, m: Record<string, number>) => {
    const keys = Object.keys(m);
    if (keys.length) {
      lines.push('', title);
      keys.forEach(k => lines.push(`  ${`${k}:`.padEnd(26)} ${m[k]}`));
    }
  };
  counts('Failing verdicts:', s.failures.statuses);
  counts('Findings in failing submissions:', s.failures.findings);
  const notGraded = report.results.filter(r => !r.report);
  if (notGraded.length) {
    lines.push('', 'Not graded:');
    for (const r of notGraded) {
      lines.push(...Private.wrap(`${r.file}: ${r.error ?? ''}`, 2));
    }
  }
  lines.push(
    '',
    `Graded ${s.graded} of ${s.submissions} submission(s) in ${(report.durationMs / 1000).toFixed(1)} s with ${jobs} job(s).`,
    `${s.passed} passed, ${s.failed} failed, ${s.notGraded} not graded`
  );
  return terminalSafe(lines.join('\n'));
}

/**
 * The report as one self-contained HTML page: no script, no external resource, every text
 * escaped; the summary tables, then one row per submission.
 */
export function batchHTML(report: IBatchReport): string {
  const s = report.summary;
  const e = escapeHTML;
  const title = `JunoBench grading: ${report.casebook}`;
  const num = (n: number) => `<td class="num">${n}</td>`;
  const caseRows = s.cases
    .map(
      r =>
        `<tr><th scope="row">${e(Private.caseLabel(r))}</th>${num(r.graded)}${num(r.passed)}${num(r.failed)}${num(r.notGraded)}</tr>`
    )
    .join('\n');
  const countTable = (caption: string, m: Record<string, number>) =>
    Object.keys(m).length
      ? `<table><caption>${e(caption)}</caption><tbody>${Object.keys(m)
          .map(
            k =>
              `<tr><th scope="row"><code>${e(k)}</code></th>${num(m[k])}</tr>`
          )
          .join('')}</tbody></table>`
      : '';
  const submissionRows = report.results
    .map(r => {
      const verdict = !r.report
        ? { cls: 'not-graded', text: 'NOT GRADED' }
        : r.report.passed
          ? { cls: 'pass', text: `PASS (${r.report.status})` }
          : { cls: 'fail', text: `FAIL (${r.report.status})` };
      const reasons = r.report?.reasons ?? [];
      return `<tr class="${verdict.cls}"><td>${e(r.case ?? '')}</td><td><code>${e(r.file)}</code></td><td class="verdict">${e(verdict.text)}</td><td>${e(r.report ? r.report.headline : (r.error ?? ''))}</td><td>${
        reasons.length
          ? `<ul>${reasons.map(x => `<li>${e(x)}</li>`).join('')}</ul>`
          : ''
      }</td></tr>`;
    })
    .join('\n');
  const why =
    countTable('Failing verdicts', s.failures.statuses) +
    countTable('Findings in failing submissions', s.failures.findings);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="color-scheme" content="light dark">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${e(title)}</title>
<style>${Private.STYLE}</style>
</head>
<body>
<h1>${e(title)}</h1>
<p class="summary">${e(
    `${s.submissions} submission(s) in ${report.submissionsDir}: ${s.passed} passed, ${s.failed} failed, ${s.notGraded} not graded. Started ${report.startedAt}, ${(report.durationMs / 1000).toFixed(1)} s.`
  )}</p>
<h2>Per case</h2>
<table>
<thead><tr><th scope="col">case</th><th scope="col">graded</th><th scope="col">passed</th><th scope="col">failed</th><th scope="col">not graded</th></tr></thead>
<tbody>
${caseRows}
</tbody>
</table>
${why ? `<h2>Why submissions failed</h2>\n<div class="counts">${why}</div>\n` : ''}<h2>Submissions</h2>
<table class="submissions">
<thead><tr><th scope="col">case</th><th scope="col">file</th><th scope="col">verdict</th><th scope="col">headline</th><th scope="col">reasons</th></tr></thead>
<tbody>
${submissionRows}
</tbody>
</table>
</body>
</html>
`;
}

/**
 * The batch form of `junobench check`, with the arguments `checkCommand` parsed; resolves with
 * the exit code (0 all graded and passing, 1 some fail or not graded, 2 bad arguments).
 */
export async function batchCommand(
  values: IBatchArgs,
  positionals: string[]
): Promise<number> {
  const fail = (message: string) => {
    console.error(`junobench check: ${message}`);
    return 2;
  };
  if (positionals.length !== 1) {
    return fail(
      positionals.length > 1
        ? `with --submissions, give only <casebook>, not ${positionals.slice(1).join(' ')}: each notebook is graded against the case folder it sits in`
        : `expected <casebook> --submissions DIR\nUsage:\n${BATCH_USAGE}`
    );
  }
  const jobs = Number(values.jobs ?? '1');
  if (!Number.isInteger(jobs) || jobs < 1) {
    return fail(
      `--jobs must be a whole number of at least 1, not "${values.jobs}"`
    );
  }
  const timeout = Number(values.timeout ?? '300');
  if (!(timeout > 0)) {
    return fail(
      `--timeout must be a positive number of seconds, not "${values.timeout}"`
    );
  }
  let environment: EnvironmentPreference;
  try {
    environment = readEnvironmentOption(values.environment);
  } catch (reason) {
    return fail((reason as Error).message);
  }
  const jsonFile = typeof values.json === 'string' ? values.json : undefined;
  for (const [flag, file] of [
    ['--json', jsonFile],
    ['--html', values.html]
  ] as const) {
    const problem = file === undefined ? null : Private.outputProblem(file);
    if (problem) {
      return fail(`${flag} ${file}: ${problem}`);
    }
  }
  const dir = path.resolve(positionals[0]);
  const submissionsDir = path.resolve(values.submissions ?? '');
  if (!Private.isFolder(submissionsDir)) {
    return fail(`--submissions ${values.submissions}: no such folder`);
  }
  let book: ICasebook;
  try {
    book = await loadLocalCasebook(dir);
  } catch (reason) {
    return fail(
      `cannot load the casebook ${dir}: ${(reason as Error).message}`
    );
  }
  const cases = (values.cases ?? '')
    .split(',')
    .map(s => s.trim())
    .filter(Boolean);
  try {
    // Before a server starts: a wrong --cases or an empty folder is a typo, not a batch.
    if (Private.find(submissionsDir, book, cases).entries.length === 0) {
      return fail(
        `no submissions in ${submissionsDir}: expected <case>/<name>.ipynb`
      );
    }
  } catch (reason) {
    if (reason instanceof CheckInputError) {
      return fail(reason.message);
    }
    throw reason;
  }
  let server: IServerHandle | null = null;
  let report: IBatchReport;
  try {
    const chosen = await serverFor(
      {
        server: values.server,
        token: values.token,
        serverRoot: values['server-root']
      },
      dir
    );
    server = chosen.server;
    report = await whileServing(
      chosen.server,
      gradeSubmissions({
        casebook: book,
        casebookDir: dir,
        submissionsDir,
        cases,
        jobs,
        settings: chosen.server.settings,
        serverRoot: chosen.serverRoot,
        kernel: values.kernel,
        environment,
        timeoutMs: timeout * 1000,
        // Without the disk cache the batch still runs each case's reference once.
        cache: values['no-cache']
          ? new MemoryReferenceCache()
          : new FileReferenceCache(values['cache-dir'] ?? defaultCacheDir()),
        onResult: (r, done, total) =>
          console.error(progressLine(r, done, total))
      })
    );
    if (report.results.some(r => r.report?.grade === 'not-checked')) {
      await confirmServing(chosen.server);
    }
  } catch (reason) {
    if (reason instanceof CheckInputError) {
      return fail(reason.message);
    }
    if (reason instanceof ServerLostError) {
      console.error(
        `junobench check: ${reason.message}; the submissions were not all graded`
      );
      return 1;
    }
    throw reason;
  } finally {
    await server?.stop();
  }
  try {
    if (jsonFile !== undefined) {
      writeOutputFile(
        jsonFile,
        JSON.stringify(report, cellNamesInJSON, 2),
        'the JSON report'
      );
    }
    if (values.html !== undefined) {
      writeOutputFile(values.html, batchHTML(report), 'the HTML report');
    }
  } catch (reason) {
    // A full disk, a folder made read-only meanwhile: the grading is done, its report is not.
    if (reason instanceof OutputError) {
      console.error(`junobench check: ${reason.message}`);
      return 2;
    }
    throw reason;
  }
  console.log(formatBatchSummary(report, jobs));
  if (jsonFile !== undefined) {
    console.error(`JSON report written to ${jsonFile}`);
  }
  if (values.html !== undefined) {
    console.error(`HTML report written to ${values.html}`);
  }
  const s = report.summary;
  return s.failed === 0 && s.notGraded === 0 ? 0 : 1;
}

namespace Private {
  /** Finding codes that report something that went right: no reason for a failure. */
  export const NEUTRAL_FINDINGS = new Set<CheckFinding['code']>([
    'fresh-clean',
    'same-effect',
    'live'
  ]);

  /**
   * The submissions under `dir` for the chosen cases (all when none), or an input error naming
   * the chosen cases the casebook does not have.
   */
  export function find(
    dir: string,
    book: ICasebook,
    cases: string[]
  ): ReturnType<typeof findSubmissions> {
    const known = book.cases.map(c => c.name);
    const unknown = cases.filter(n => !known.includes(n));
    if (unknown.length) {
      throw new CheckInputError(
        `no case ${unknown.map(n => `"${n}"`).join(', ')} in ${book.name} (known: ${known.join(', ')})`
      );
    }
    return findSubmissions(dir, known, cases.length ? cases : null, book.name);
  }

  /** The text width the summary keeps to. */
  const COLUMNS = 100;

  /**
   * Sort names as people expect (`alice_2` before `alice_10`), the same on every machine.
   */
  export function byName(a: string, b: string): number {
    return a.localeCompare(b, 'en', { numeric: true });
  }

  /**
   * What a path is, following symbolic links.
   */
  export function kindOf(file: string): 'file' | 'folder' | 'unreadable' {
    try {
      const stat = statSync(file);
      return stat.isDirectory() ? 'folder' : 'file';
    } catch {
      return 'unreadable';
    }
  }

  /**
   * Whether a path is a folder.
   */
  export function isFolder(dir: string): boolean {
    return kindOf(dir) === 'folder';
  }

  /**
   * Why an output file cannot be written where it is asked for, or null; checked before the
   * batch, not after an hour of grading.
   */
  export function outputProblem(file: string): string | null {
    const parent = path.dirname(path.resolve(file));
    if (!isFolder(parent)) {
      return `the folder ${parent} does not exist`;
    }
    if (isFolder(file)) {
      return 'is a folder';
    }
    return null;
  }

  /**
   * Read and validate a submission: the notebook, or what is wrong (without the file name,
   * which the result carries).
   */
  export function readSubmission(
    file: string,
    label: string
  ):
    | { notebook: INotebookJSON; error: null }
    | { notebook: null; error: string } {
    try {
      checkNotebookSize(statSync(file).size, label);
      return {
        notebook: parseNotebook(readFileSync(file, 'utf8'), label),
        error: null
      };
    } catch (reason) {
      const message = (reason as Error).message ?? String(reason);
      return {
        notebook: null,
        error: message.startsWith(`${label}: `)
          ? message.slice(label.length + 2)
          : `cannot be read (${message})`
      };
    }
  }

  /**
   * Grade one submission; whatever goes wrong becomes the result's error.
   */
  export async function gradeOne(
    entry: ISubmissionEntry,
    options: IGradeSubmissionsOptions,
    cache: IReferenceCache
  ): Promise<IBatchResult> {
    const base = { case: entry.case, file: entry.file };
    // Read again: the file was only validated before, not kept in memory.
    const read = readSubmission(entry.path, entry.file);
    if (read.notebook === null) {
      return { ...base, report: null, error: read.error };
    }
    try {
      const report = await checkNotebook({
        casebook: options.casebook,
        casebookDir: options.casebookDir,
        caseName: entry.case ?? '',
        notebook: read.notebook,
        notebookLabel: entry.file,
        settings: options.settings,
        serverRoot: options.serverRoot,
        kernel: options.kernel,
        environment: options.environment,
        timeoutMs: options.timeoutMs,
        cache
      });
      return { ...base, report, error: null };
    } catch (reason) {
      return {
        ...base,
        report: null,
        error: (reason as Error).message ?? String(reason)
      };
    }
  }

  /**
   * Run `work` on the items, `jobs` at a time, but only one item of a group until that group's
   * first item is done: the first check of a case fills the reference cache, and the case's
   * other checks then read it instead of running the reference again in parallel.
   */
  export async function pool<T>(
    items: T[],
    jobs: number,
    groupOf: (item: T) => string,
    work: (item: T) => Promise<void>
  ): Promise<void> {
    const waiting = items.slice();
    const warm = new Set<string>();
    const opening = new Set<string>();
    let wake: () => void = () => undefined;
    let changed = new Promise<void>(resolve => (wake = resolve));
    const worker = async () => {
      while (waiting.length) {
        const at = waiting.findIndex(item => {
          const group = groupOf(item);
          return warm.has(group) || !opening.has(group);
        });
        if (at < 0) {
          await changed;
          continue;
        }
        const [item] = waiting.splice(at, 1);
        const group = groupOf(item);
        const first = !warm.has(group);
        if (first) {
          opening.add(group);
        }
        try {
          await work(item);
        } finally {
          if (first) {
            opening.delete(group);
            warm.add(group);
          }
          const woken = wake;
          changed = new Promise<void>(resolve => (wake = resolve));
          woken();
        }
      }
    };
    const n = Math.max(1, Math.min(jobs, items.length));
    await Promise.all(Array.from({ length: n }, worker));
  }

  /**
   * A map as a plain object, most frequent first, then by name.
   */
  export function ranked(m: Map<string, number>): Record<string, number> {
    return Object.fromEntries(
      [...m.entries()].sort((a, b) => b[1] - a[1] || byName(a[0], b[0]))
    );
  }

  /**
   * How a table row names its case folder.
   */
  export function caseLabel(r: IBatchCaseSummary): string {
    if (r.case === null) {
      return '(files in DIR)';
    }
    return r.known ? r.case : `${r.case} (no such case)`;
  }

  /**
   * Text cut to n characters, with an ellipsis when cut.
   */
  export function clip(text: string, n: number): string {
    return text.length > n ? `${text.slice(0, n - 1)}…` : text;
  }

  /**
   * Text wrapped at word boundaries to the summary's width, each line indented; words longer
   * than a line stay whole.
   */
  export function wrap(text: string, indent: number): string[] {
    const pad = ' '.repeat(indent);
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(/\s+/).filter(Boolean)) {
      if (line && pad.length + line.length + 1 + word.length > COLUMNS) {
        lines.push(pad + line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    lines.push(pad + line);
    return lines;
  }

  /** The page's style: readable in light and dark mode, and in print. */
  export const STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e; --line: #d1d9e0; --head: #f6f8fa; --pass: #1a7f37; --fail: #cf222e; --skip: #9a6700; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d; --head: #151b23; --pass: #3fb950; --fail: #f85149; --skip: #d29922; }
}
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em; color: var(--fg); background: var(--bg); }
h1 { font-size: 1.5em; margin: 0 0 0.3em; }
h2 { font-size: 1.15em; margin: 1.5em 0 0.5em; }
.summary { color: var(--muted); }
table { border-collapse: collapse; margin: 0 0 1em; }
caption { text-align: left; font-weight: 600; padding: 0.25em 0; }
th, td { border: 1px solid var(--line); padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
thead th { background: var(--head); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.counts { display: flex; flex-wrap: wrap; gap: 0 2em; align-items: flex-start; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
.submissions td:nth-child(4), .submissions td:nth-child(5) { max-width: 40em; }
.submissions ul { margin: 0; padding-left: 1.2em; }
.verdict { font-weight: 600; white-space: nowrap; }
.pass .verdict { color: var(--pass); }
.fail .verdict { color: var(--fail); }
.not-graded .verdict { color: var(--skip); }
`;
}
