/**
 * Headless "Check my fix": run a learner's notebook in a fresh kernel whose
 * working directory is the case folder, and judge the repair (for instructors
 * grading submitted notebooks).
 */
import { readFileSync, statSync } from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';

import { KernelManager, SessionManager } from '@jupyterlab/services';
import type { ServerConnection } from '@jupyterlab/services';

import { checkNotebookSize, parseNotebook } from '../casebook/notebook';
import type { ICase, ICasebook } from '../casebook/types';
import type { IRunResult } from '../kernel/runner';
import type { INotebookJSON } from '../replay/types';
import { judgeCheck, planCheck } from '../repair/check';
import type {
  CheckStatus,
  ICheckPlan,
  IGuardFinding,
  LiveResult
} from '../repair/check';
import { serverFor } from './server';
import { runInFreshKernel, uniqueSuffix } from './session';
import type { IServerHandle } from './server';
import { loadLocalCasebook } from './verify';

/** Usage of `junobench check`. */
export const CHECK_USAGE = `Usage:
  junobench check <casebook> <case> <notebook.ipynb> [--json] [--kernel NAME]
                  [--timeout SECONDS] [--server URL --token T [--server-root DIR]]

  Runs the notebook's cells in play top to bottom in a fresh kernel started in
  the case folder and judges the repair. Exit code 0: the repair passes;
  1: it fails; 2: bad arguments or unreadable input.`;

/** An error in the command's input (exit code 2). */
export class CheckInputError extends Error {}

/** The report of one check. */
export interface ICheckReport {
  /** Case name. */
  case: string;
  /** The learner notebook, as given. */
  notebook: string;
  /** Whether the repair passes. */
  passed: boolean;
  /** The verdict in one word. */
  status: CheckStatus;
  /** Sentences for people. */
  reasons: string[];
  /** Guard findings. */
  guard: IGuardFinding[];
  /** The target's latest live run. */
  live: LiveResult;
  /** Number of cells the fresh run planned. */
  plannedCells: number;
  /** The fresh run, summarised (null when it could not start). */
  run: {
    status: IRunResult['status'];
    message: string;
    cellsRun: number;
    error: string | null;
  } | null;
  /** Wall time of the check. */
  durationMs: number;
}

/** Options of one headless check. */
export interface ICheckNotebookOptions {
  /** The loaded casebook. */
  casebook: ICasebook;
  /** Local folder of the casebook. */
  casebookDir: string;
  /** Case name. */
  caseName: string;
  /** The learner's notebook, already read. */
  notebook: INotebookJSON;
  /** How to name the notebook in the report. */
  notebookLabel: string;
  /** Server settings. */
  settings: ServerConnection.ISettings;
  /** The local folder the server serves as its root. */
  serverRoot: string;
  /** Kernel name. */
  kernel?: string;
  /** Per-cell timeout in ms. */
  timeoutMs?: number;
}

/**
 * Check one learner notebook against its case: plan, run in a fresh kernel in the case folder,
 * judge. Input problems throw `CheckInputError`.
 */
export async function checkNotebook(
  options: ICheckNotebookOptions
): Promise<ICheckReport> {
  const started = Date.now();
  const c = Private.findCase(options.casebook, options.caseName);
  const folder = c.files.folder;
  if (!folder || !c.files.reproduced || !c.files.fixed) {
    throw new CheckInputError(
      `case ${c.name} needs ${c.name}_reproduced.ipynb and ${c.name}_fixed.ipynb in its folder`
    );
  }
  const reproduced = Private.readNotebook(
    path.join(options.casebookDir, folder, `${c.name}_reproduced.ipynb`)
  );
  const fixed = Private.readNotebook(
    path.join(options.casebookDir, folder, `${c.name}_fixed.ipynb`)
  );
  const checkOptions = { notebookSpecific: c.notebookSpecific };
  const plan = planCheck(options.notebook, { reproduced, fixed }, checkOptions);
  const caseFromRoot = path.relative(
    options.serverRoot,
    path.join(options.casebookDir, folder)
  );
  if (caseFromRoot.startsWith('..') || path.isAbsolute(caseFromRoot)) {
    throw new CheckInputError(
      `the case folder ${path.join(options.casebookDir, folder)} is not under the server root ${options.serverRoot} (pass --server-root)`
    );
  }
  const run = await Private.runFresh(plan, caseFromRoot, options);
  const verdict = judgeCheck(
    plan,
    typeof run === 'string' ? null : run,
    checkOptions
  );
  const reasons =
    typeof run === 'string' ? [run, ...verdict.reasons] : verdict.reasons;
  return {
    case: c.name,
    notebook: options.notebookLabel,
    passed: verdict.passed,
    status: verdict.status,
    reasons,
    guard: plan.guard,
    live: plan.live,
    plannedCells: plan.steps.length,
    run:
      typeof run === 'string'
        ? null
        : {
            status: run.status,
            message: run.message,
            cellsRun: run.steps.length,
            error: run.error ? `${run.error.ename}: ${run.error.evalue}` : null
          },
    durationMs: Date.now() - started
  };
}

/**
 * `junobench check`: resolves with the exit code (0 pass, 1 fail, 2 usage or input error).
 */
export async function checkCommand(args: string[]): Promise<number> {
  let values: {
    json?: boolean;
    kernel?: string;
    timeout?: string;
    server?: string;
    token?: string;
    'server-root'?: string;
  };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        kernel: { type: 'string', default: 'python3' },
        timeout: { type: 'string', default: '300' },
        server: { type: 'string' },
        token: { type: 'string', default: '' },
        'server-root': { type: 'string' }
      }
    }));
  } catch (reason) {
    console.error(
      `junobench check: ${(reason as Error).message}\n${CHECK_USAGE}`
    );
    return 2;
  }
  if (positionals.length !== 3) {
    console.error(
      `junobench check: expected <casebook> <case> <notebook.ipynb>\n${CHECK_USAGE}`
    );
    return 2;
  }
  const timeout = Number(values.timeout);
  if (!(timeout > 0)) {
    console.error(
      `junobench check: --timeout must be a positive number of seconds, not "${values.timeout}"`
    );
    return 2;
  }
  const [bookArg, caseName, notebookArg] = positionals;
  const dir = path.resolve(bookArg);
  let server: IServerHandle | null = null;
  try {
    const notebook = Private.readNotebook(path.resolve(notebookArg));
    let book: ICasebook;
    try {
      book = await loadLocalCasebook(dir);
    } catch (reason) {
      throw new CheckInputError(
        `cannot load the casebook ${dir}: ${(reason as Error).message}`
      );
    }
    Private.findCase(book, caseName);
    const chosen = await serverFor(
      {
        server: values.server,
        token: values.token,
        serverRoot: values['server-root']
      },
      dir
    );
    server = chosen.server;
    const serverRoot = chosen.serverRoot;
    const report = await checkNotebook({
      casebook: book,
      casebookDir: dir,
      caseName,
      notebook,
      notebookLabel: notebookArg,
      settings: chosen.server.settings,
      serverRoot,
      kernel: values.kernel,
      timeoutMs: timeout * 1000
    });
    if (values.json) {
      console.log(JSON.stringify(report, null, 2));
    } else {
      console.log(Private.format(report));
    }
    return report.passed ? 0 : 1;
  } catch (reason) {
    if (reason instanceof CheckInputError) {
      console.error(`junobench check: ${reason.message}`);
      return 2;
    }
    throw reason;
  } finally {
    await server?.stop();
  }
}

namespace Private {
  /**
   * The named case, or an input error listing the known ones.
   */
  export function findCase(book: ICasebook, name: string): ICase {
    const c = book.cases.find(x => x.name === name);
    if (!c) {
      throw new CheckInputError(
        `no case "${name}" in ${book.name} (known: ${book.cases.map(x => x.name).join(', ')})`
      );
    }
    return c;
  }

  /**
   * Read a notebook from disk, or throw an input error naming the file.
   */
  export function readNotebook(file: string): INotebookJSON {
    let text: string;
    try {
      checkNotebookSize(statSync(file).size, file);
      text = readFileSync(file, 'utf8');
    } catch (reason) {
      const message = (reason as Error).message ?? String(reason);
      throw new CheckInputError(
        message.startsWith(`${file}:`)
          ? message
          : `${file}: cannot be read (${message})`
      );
    }
    try {
      return parseNotebook(text, file);
    } catch (reason) {
      throw new CheckInputError((reason as Error).message);
    }
  }

  /**
   * Run the check plan in a fresh kernel whose working directory is the case folder (the
   * session path sits inside it); a string says why it could not run.
   */
  export async function runFresh(
    plan: ICheckPlan,
    caseFromRoot: string,
    options: ICheckNotebookOptions
  ): Promise<IRunResult | string> {
    const kernelManager = new KernelManager({
      serverSettings: options.settings
    });
    // Disposed in the finally block below (the rule does not credit `finally`).
    // eslint-disable-next-line jupyter/require-disposable-ownership
    const sessions = new SessionManager({
      kernelManager,
      serverSettings: options.settings
    });
    const folder = caseFromRoot.split(path.sep).filter(Boolean).join('/');
    const name = `${options.caseName}.junobench-check-${uniqueSuffix()}.ipynb`;
    try {
      return await runInFreshKernel(
        sessions,
        {
          path: folder ? `${folder}/${name}` : name,
          name,
          kernel: options.kernel,
          timeoutMs: options.timeoutMs
        },
        plan
      );
    } finally {
      sessions.dispose();
      kernelManager.dispose();
    }
  }

  /**
   * The report for people.
   */
  export function format(report: ICheckReport): string {
    const head = `${report.case}: ${report.passed ? 'PASS' : 'FAIL'} (${report.status}) — ${report.notebook}`;
    return [head, ...report.reasons.map(r => `  - ${r}`)].join('\n');
  }
}
