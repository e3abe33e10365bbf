/**
 * The `junobench` command line: list, verify, check and explain casebooks, and add cases, without a browser.
 */
import * as path from 'path';
import { parseArgs } from 'util';

import { cellNamesInJSON } from '../i18n';
import { terminalSafe } from '../casebook/display';
import { runnability } from '../casebook/runnable';
import type { ICase, ICasebook } from '../casebook/types';
import { ADD_USAGE, addCommand, newCommand } from './add';
import { BATCH_SYNOPSIS } from './batch';
import { checkCommand } from './checkCommand';
import { DOCTOR_USAGE, doctorCommand } from './doctor';
import { EXPLAIN_USAGE, explainCommand } from './explain';
import { FETCH_USAGE, fetchCommand } from './fetch';
import { commandHelp } from './help';
import { REPORT_USAGE, reportCommand } from './report';
import { SCORE_USAGE, scoreCommand } from './score';
import {
  ENVIRONMENT_OPTION,
  ENVIRONMENT_USAGE,
  readEnvironmentOption
} from './kernels';
import { writeOutputFile } from './output';
import {
  KERNEL_OPTIONS,
  serverFor,
  ServerLostError,
  whileServing
} from './server';
import { loadLocalCasebook, verifyCasebook } from './verify';
import type { ICaseReport, IEnvironmentReport } from './verify';

const USAGE = `Usage:
  junobench list <casebook> [--json]
  junobench verify <casebook> [--cases a,b] [--jobs N] [--kernel NAME]
                   ${ENVIRONMENT_USAGE}
                   [--timeout SECONDS] [--server URL --token T [--server-root DIR]]
                   [--json FILE]
  junobench check <casebook> <case> <notebook.ipynb> [--json] [--kernel NAME]
                   ${ENVIRONMENT_USAGE}
                   [--timeout SECONDS] [--server URL --token T [--server-root DIR]]
                   [--cache-dir DIR | --no-cache]
${BATCH_SYNOPSIS}
${EXPLAIN_USAGE}
${REPORT_USAGE}
${SCORE_USAGE}
${FETCH_USAGE}
${ADD_USAGE}
${DOCTOR_USAGE}

  <casebook> is a folder laid out like JunoBench: benchmark_desc.xlsx at its root
  and case folders under benchmark/<case>/.`;

/**
 * Run the command line; resolves with the process exit code.
 */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // `junobench <command> --help`: that command's part of the usage.
  const help = rest.some(a => a === '--help' || a === '-h')
    ? commandHelp(USAGE, command)
    : null;
  if (help) {
    console.log(help);
    return 0;
  }
  try {
    switch (command) {
      case 'list':
        return await list(rest);
      case 'verify':
        return await verify(rest);
      case 'check':
        return await check(rest);
      case 'explain':
        return await explainCommand(rest);
      case 'report':
        return await reportCommand(rest);
      case 'score':
        return await scoreCommand(rest);
      case 'fetch':
        return await fetchCommand(rest);
      case 'add':
        return await addCommand(rest);
      case 'new':
        return await newCommand(rest);
      case 'doctor':
        return await doctorCommand(rest);
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        console.log(USAGE);
        return command ? 0 : 2;
      default:
        console.error(`junobench: unknown command "${command}"\n${USAGE}`);
        return 2;
    }
  } catch (reason) {
    console.error(`junobench: ${(reason as Error).message ?? String(reason)}`);
    return 2;
  }
}

/**
 * One JSON-friendly summary of a case for `list --json`.
 */
export function caseSummary(c: ICase): Record<string, unknown> {
  return {
    name: c.name,
    library: c.library,
    ename: c.ename,
    evalue: c.evalue,
    rootCause: c.rootCause,
    crashType: c.crashType,
    pipelineStage: c.pipelineStage,
    notebookSpecific: c.notebookSpecific,
    hasDiagnosis: c.diagnosis !== null,
    datasets: c.datasets.map(d => ({
      title: d.title,
      license: d.license,
      url: d.url
    })),
    notebookUrl: c.notebookUrl,
    ...runnability(c),
    files: {
      folder: c.files.folder,
      original: c.files.original,
      reproduced: c.files.reproduced,
      fixed: c.files.fixed,
      readme: c.files.readme,
      data: c.files.data
    },
    problems: c.problems,
    markers: c.markers
  };
}

/**
 * `junobench list`.
 */
async function list(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } }
  });
  const dir = Private.casebookArg(positionals);
  const book = await loadLocalCasebook(dir);
  if (values.json) {
    console.log(JSON.stringify(book.cases.map(caseSummary), null, 2));
  } else {
    Private.printCatalogue(book);
  }
  Private.printProblems(book);
  return 0;
}

/**
 * `junobench verify`.
 */
async function verify(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      cases: { type: 'string' },
      jobs: { type: 'string', default: '1' },
      ...KERNEL_OPTIONS,
      // No default: verify takes the best environment the server has (see --environment).
      kernel: { type: 'string' },
      ...ENVIRONMENT_OPTION,
      json: { type: 'string' }
    }
  });
  const dir = path.resolve(Private.casebookArg(positionals));
  const jobs = Number(values.jobs);
  const timeout = Number(values.timeout);
  if (!Number.isInteger(jobs) || jobs < 1) {
    throw new Error(
      `--jobs must be a whole number of at least 1, not "${values.jobs}"`
    );
  }
  if (!(timeout > 0)) {
    throw new Error(
      `--timeout must be a positive number of seconds, not "${values.timeout}"`
    );
  }
  const environmentPreference = readEnvironmentOption(values.environment);
  const book = await loadLocalCasebook(dir);
  Private.printProblems(book);
  const cases = values.cases
    ? values.cases
        .split(',')
        .map(s => s.trim())
        .filter(Boolean)
    : [];
  const { server, serverRoot } = await serverFor(
    {
      server: values.server,
      token: values.token,
      serverRoot: values['server-root']
    },
    dir
  );
  const started = Date.now();
  let reports: ICaseReport[];
  let environment: IEnvironmentReport | null = null;
  try {
    reports = await whileServing(
      server,
      verifyCasebook({
        casebook: book,
        casebookDir: dir,
        cases,
        jobs,
        kernel: values.kernel,
        environment: environmentPreference,
        settings: server.settings,
        serverRoot,
        timeoutMs: timeout * 1000,
        onReport: r => console.log(Private.row(r)),
        onEnvironment: e => {
          // Once per run, before the table: the kernel's drift from the pins.
          environment = e;
          console.log(e.summary);
          console.log(Private.header());
        }
      })
    );
  } catch (reason) {
    if (reason instanceof ServerLostError) {
      console.error(
        `junobench verify: ${reason.message}; the casebook was not verified`
      );
      return 1;
    }
    throw reason;
  } finally {
    await server.stop();
  }
  const passed = reports.filter(r => r.verdict === 'pass').length;
  const missing = reports.filter(r => r.verdict === 'missing').length;
  const failed = reports.length - passed - missing;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (values.json) {
    writeOutputFile(
      values.json,
      JSON.stringify(
        {
          casebook: book.name,
          jobs,
          seconds: Number(seconds),
          environment,
          reports
        },
        cellNamesInJSON,
        2
      ),
      'the JSON report'
    );
  }
  if (missing) {
    console.log(
      `${missing} case(s) could not be verified here: missing notebooks, input data or libraries (see above).`
    );
  }
  console.log(
    `Verified ${reports.length} case(s) in ${seconds} s with ${jobs} job(s).`
  );
  console.log(`${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

/**
 * `junobench check`.
 */
async function check(args: string[]): Promise<number> {
  return checkCommand(args);
}

namespace Private {
  /**
   * The casebook positional argument, or an error.
   */
  export function casebookArg(positionals: string[]): string {
    if (positionals.length !== 1) {
      throw new Error(`expected one casebook folder\n${USAGE}`);
    }
    return positionals[0];
  }

  /**
   * Print the catalogue as a table.
   */
  export function printCatalogue(book: ICasebook): void {
    const runnable = book.cases.filter(c => runnability(c).runnable).length;
    console.log(
      `${book.name}: ${book.cases.length} case(s), ${runnable} runnable here`
    );
    for (const c of book.cases) {
      const files = [
        c.files.reproduced ? 'R' : '-',
        c.files.fixed ? 'F' : '-',
        c.files.data.length ? 'D' : '-'
      ].join('');
      const marker = c.problems.length ? `  [${c.problems.join('; ')}]` : '';
      console.log(
        terminalSafe(
          `${c.name.padEnd(16)} ${c.library.padEnd(12)} ${files}  ${c.ename}: ${Private.short(c.evalue, 60)}${marker}`
        )
      );
    }
  }

  /**
   * Print load problems to stderr.
   */
  export function printProblems(book: ICasebook): void {
    for (const p of book.problems) {
      console.error(
        terminalSafe(
          `${p.severity}: ${p.file}${p.case ? ` (${p.case})` : ''}: ${p.message}`
        )
      );
    }
  }

  /**
   * The verify table header.
   */
  export function header(): string {
    return `${'case'.padEnd(16)} ${'verdict'.padEnd(8)} ${'reproduced'.padEnd(20)} ${'fixed'.padEnd(20)} time`;
  }

  /**
   * One verify table row.
   */
  export function row(r: ICaseReport): string {
    const line = `${r.name.padEnd(16)} ${r.verdict.padEnd(8)} ${r.reproduced.verdict.padEnd(20)} ${r.fixed.verdict.padEnd(20)} ${(r.durationMs / 1000).toFixed(1)} s`;
    const reasons: string[] = [];
    if (r.reproduced.verdict !== 'pass') {
      reasons.push(`  reproduced: ${r.reproduced.reason}`);
    }
    if (r.fixed.verdict !== 'pass' && r.fixed.verdict !== 'not-run') {
      reasons.push(`  fixed: ${r.fixed.reason}`);
    }
    return [line, ...reasons].join('\n');
  }

  /**
   * Shorten text to n characters.
   */
  export function short(text: string, n: number): string {
    const flat = text.replace(/\s+/g, ' ');
    return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
  }
}
