/**
 * Headless "Check my fix": run a learner's notebook in a fresh kernel whose
 * working directory is the case folder, and judge the repair (for instructors
 * grading submitted notebooks).
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'fs';
import { homedir } from 'os';
import * as path from 'path';

import type {
  ServerConnection,
  Session,
  SessionManager
} from '@jupyterlab/services';

import { checkNotebookSize, parseNotebook } from '../casebook/notebook';
import type { ICase, ICasebook } from '../casebook/types';
import { describeEnvironment } from '../kernel/environment';
import { startSession, uniqueSuffix } from '../kernel/freshSession';
import type {
  EnvironmentPreference,
  IEnvironmentChoice,
  KernelEnvironment
} from '../kernel/environment';
import { MemoryReferenceCache, runRepairCheck } from '../repair/repairCheck';
import type {
  IFreshKernel,
  IRepairCheckResult,
  IReferenceCache,
  IStartOptions
} from '../repair/repairCheck';
import { PlanRunner } from '../kernel/runner';
import { scratchSetup } from '../repair/scratchSnippets';
import type { IRunResult } from '../kernel/runner';
import { renderRunStop } from '../kernel/stop';
import { renderFinding } from '../repair/findings';
import type { INbCell, INotebookJSON } from '../replay/types';
import { judgeCheck, planCheck, renderVerdict } from '../repair/check';
import type {
  CheckFinding,
  CheckGrade,
  CheckStatus,
  ICheckPlan,
  ICheckVerdict,
  IEnvironmentEvidence,
  IGuardFinding,
  ILiveEvidence,
  LiveResult
} from '../repair/check';
import { readProbeReport } from '../repair/probeReport';
import type { IReferenceEvidence } from '../repair/probeReport';
import { cellRef } from '../i18n';
import type { ICellRef } from '../i18n';
import { commandKernel, ENVIRONMENT_USAGE } from './kernels';
import { sessionsFor } from './session';

/** Usage of `junobench check`. */
export const CHECK_USAGE = `Usage:
  junobench check <casebook> <case> <notebook.ipynb> [--json] [--kernel NAME]
                  ${ENVIRONMENT_USAGE}
                  [--timeout SECONDS] [--server URL --token T [--server-root DIR]]
                  [--cache-dir DIR | --no-cache]

  Runs the notebook's cells in play top to bottom in a fresh kernel started in
  the case folder (--kernel, default the kernel of the best environment the
  server has: the benchmark container, then the pinned "junobench" kernel,
  then the server's default kernel; --environment asks for one, falling back
  to the next present), tracing the target cell and the cells you changed, runs the
  reference fix twice (cached per case and environment under --cache-dir,
  default ~/.cache/junobench/reference) and judges the repair: it must run,
  not swallow an exception the reference does not raise, run the repaired
  statement, and leave the variables the reference's target cell sets alike.
  A kernel that dies while a cell runs fails the repair (a reference fix's
  leaves it not checked). Exit code 0: the repair passes; 1: it fails or could
  not be checked; 2: bad arguments or unreadable input; 130/143: interrupted
  (SIGINT/SIGTERM; the kernels and the server it started are stopped first).
  --json prints the report as JSON.

  The form with --submissions grades a folder of notebooks:`;

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
  /** The grade: solved, solved with differences noted, not solved, or not checked. */
  grade: CheckGrade;
  /** Whether a pass comes with differences noted. */
  noted: boolean;
  /** The kernel the check ran in. */
  kernel: string;
  /** Where that kernel ran, as its environment probe says (null when it was not probed). */
  environment: KernelEnvironment | null;
  /** The container image (null outside the container or when not probed). */
  image: string | null;
  /** How the kernel was chosen (null when it was named). */
  environmentChoice: IEnvironmentChoice | null;
  /** The verdict line. */
  headline: string;
  /** Sentences for people, each reason once. */
  reasons: string[];
  /** The reasons as codes with parameters. */
  findings: CheckFinding[];
  /** What the check relied on: alignment, execution evidence, the reference's effect. */
  evidence: ICheckEvidenceReport | null;
  /** Guard findings, each with its English sentence. */
  guard: Array<IGuardFinding & { message: string }>;
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

/** The evidence part of a check report. */
export interface ICheckEvidenceReport {
  /** The learner's target cell as the learner sees it, and how it was found. */
  target: { cell: ICellRef; match: string | null } | null;
  /** The reference fix's counterpart of the target, as the reference notebook names it, or null. */
  referenceTarget: ICellRef | null;
  /** The line of the target that holds the repaired failing statement. */
  repairedLine: number | null;
  /** The traced cells: lines that ran, exceptions seen. */
  traced: Array<{
    cell: ICellRef;
    isTarget: boolean;
    linesRun: number[] | null;
    exceptions: Array<{ ename: string; evalue: string; line: number }> | null;
  }>;
  /** What the reference fix's target does, and whether it came from the cache. */
  reference: (IReferenceEvidence & { cached: boolean }) | null;
  /** Wall time of the reference runs (0 when cached). */
  referenceMs: number;
  /** Notebook-specific cases: the learner's cells replayed in the order they last ran. */
  live: {
    learnerRanTarget: boolean;
    status: IRunResult['status'] | null;
    cellsRun: number;
    target: { units: number; exceptions: number } | null;
  } | null;
  /** Libraries the notebook imports at other versions than the benchmark's. */
  environment: IEnvironmentEvidence | null;
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
  /** Kernel name (default: the kernel of the environment `environment` chooses). */
  kernel?: string;
  /** The environment to run in when no kernel is named (default `auto`). */
  environment?: EnvironmentPreference;
  /** Per-cell timeout in ms. */
  timeoutMs?: number;
  /** Where reference evidence is cached (default: in memory for this call). */
  cache?: IReferenceCache | null;
  /**
   * `plain` runs the check without its execution evidence and without the reference fix's
   * effect (the check before both existed), for the benchmark's comparison only.
   */
  mode?: 'evidence' | 'plain';
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
  const caseFromRoot = path.relative(
    options.serverRoot,
    path.join(options.casebookDir, folder)
  );
  if (caseFromRoot.startsWith('..') || path.isAbsolute(caseFromRoot)) {
    throw new CheckInputError(
      `the case folder ${path.join(options.casebookDir, folder)} is not under the server root ${options.serverRoot} (pass --server-root)`
    );
  }
  const checkPlan = () =>
    planCheck(options.notebook, { reproduced, fixed }, checkOptions);
  const { sessions, dispose } = sessionsFor(options.settings);
  const chosen = await commandKernel(
    options.settings,
    options.kernel,
    options.environment
  );
  const withKernel = {
    ...options,
    kernel: chosen.kernel,
    environmentChoice: chosen.choice
  };
  const startKernel = (
    role: 'learner' | 'reference' | 'plain',
    start: IStartOptions = {}
  ) =>
    Private.startKernel(
      sessions,
      caseFromRoot,
      withKernel,
      role,
      c.name,
      start
    );
  try {
    if (options.mode === 'plain') {
      const plan = checkPlan();
      const fresh = await startKernel('plain');
      try {
        const run = await new PlanRunner({
          kernel: fresh.kernel,
          timeoutMs: options.timeoutMs ?? 0
        }).run(plan);
        return Private.report(c.name, withKernel, started, {
          plan,
          run,
          verdict: judgeCheck(plan, run, checkOptions),
          failure: null,
          evidence: null
        });
      } finally {
        await fresh.dispose();
      }
    }
    const result = await runRepairCheck({
      caseName: c.name,
      learner: options.notebook,
      reproduced,
      fixed,
      notebookSpecific: c.notebookSpecific,
      startKernel,
      timeoutMs: options.timeoutMs ?? 0,
      cache:
        options.cache === undefined ? new MemoryReferenceCache() : options.cache
    });
    return Private.report(c.name, withKernel, started, {
      plan: result.plan,
      run: result.run,
      verdict: result.verdict,
      failure: null,
      evidence: Private.evidence(result, fixed)
    });
  } catch (reason) {
    // The run could not happen (no kernel, a server gone): the verdict says not checked.
    const plan = checkPlan();
    return Private.report(c.name, withKernel, started, {
      plan,
      run: null,
      verdict: judgeCheck(plan, null, checkOptions),
      failure: (reason as Error).message ?? String(reason),
      evidence: null
    });
  } finally {
    dispose();
  }
}

/**
 * The kernel a check uses when none is named: the best environment the
 * server has (the benchmark container, the pinned `junobench` kernel, the
 * server's default kernel), or the one `preference` asks for when present.
 */
export async function defaultCheckKernel(
  settings: ServerConnection.ISettings,
  preference: EnvironmentPreference = 'auto'
): Promise<string> {
  return (await commandKernel(settings, undefined, preference)).kernel;
}

/**
 * A reference cache in a folder: one JSON file per case and environment.
 */
export class FileReferenceCache implements IReferenceCache {
  /**
   * Cache under `dir` (created on first write).
   */
  constructor(dir: string) {
    this._dir = dir;
  }

  /** The evidence under a key, or null (the caller validates what it reads). */
  async get(key: string): Promise<unknown> {
    try {
      return JSON.parse(readFileSync(this._file(key), 'utf8'));
    } catch {
      return null;
    }
  }

  /** Keep evidence under a key (a cache that cannot be written is skipped). */
  async set(key: string, value: IReferenceEvidence): Promise<void> {
    try {
      mkdirSync(this._dir, { recursive: true });
      writeFileSync(this._file(key), JSON.stringify(value));
    } catch {
      // A read-only home only costs the next check its reference runs.
    }
  }

  private _file(key: string): string {
    return path.join(this._dir, `${key.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
  }

  private _dir: string;
}

/**
 * The default folder of the reference cache.
 */
export function defaultCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  return path.join(base, 'junobench', 'reference');
}

/**
 * Read a learner's notebook for a check, or throw an input error naming the file.
 */
export function readCheckNotebook(file: string): INotebookJSON {
  return Private.readNotebook(file);
}

/**
 * The named case of a casebook, or an input error listing the known ones.
 */
export function findCheckCase(book: ICasebook, name: string): ICase {
  return Private.findCase(book, name);
}

/**
 * A check's report for people: the verdict line, then each reason once.
 */
export function formatCheckReport(report: ICheckReport): string {
  return Private.format(report);
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
   * The report for people: the verdict line, then each reason once.
   */
  export function format(report: ICheckReport): string {
    const grade = report.noted
      ? 'solved, with differences noted'
      : report.status;
    const head = `${report.case}: ${report.passed ? 'PASS' : 'FAIL'} (${grade}) — ${report.notebook}`;
    const where = report.environment
      ? `  environment: ${describeEnvironment(report.environment, report.image)} (kernel ${report.kernel})`
      : `  environment: not probed (kernel ${report.kernel})`;
    return [
      head,
      `  ${report.headline}`,
      ...report.reasons.map(r => `  - ${r}`),
      where
    ].join('\n');
  }

  /** What a report is made of. */
  export interface IReportParts {
    plan: ICheckPlan;
    run: IRunResult | null;
    verdict: ICheckVerdict;
    failure: string | null;
    evidence: ICheckEvidenceReport | null;
  }

  /**
   * Assemble the report of a check.
   */
  export function report(
    caseName: string,
    options: ICheckNotebookOptions & {
      environmentChoice?: IEnvironmentChoice | null;
    },
    started: number,
    parts: IReportParts
  ): ICheckReport {
    const { plan, run, verdict } = parts;
    const text = renderVerdict(verdict);
    return {
      case: caseName,
      notebook: options.notebookLabel,
      passed: verdict.passed,
      status: verdict.status,
      grade: verdict.grade,
      noted: verdict.noted,
      kernel: options.kernel ?? 'python3',
      environment: parts.evidence?.environment?.environment ?? null,
      image: parts.evidence?.environment?.image ?? null,
      environmentChoice: options.environmentChoice ?? null,
      headline: text.headline,
      reasons: parts.failure ? [parts.failure, ...text.reasons] : text.reasons,
      findings: verdict.findings,
      evidence: parts.evidence,
      guard: plan.guard.map(g => ({
        ...g,
        message: renderFinding(g.finding)
      })),
      live: plan.live,
      plannedCells: plan.steps.length,
      run: run
        ? {
            status: run.status,
            message: renderRunStop(run.stop),
            cellsRun: run.steps.length,
            error: run.error ? `${run.error.ename}: ${run.error.evalue}` : null
          }
        : null,
      durationMs: Date.now() - started
    };
  }

  /**
   * A cell's `[n]` prompt, or null.
   */
  export function count(cell: INbCell | undefined): number | null {
    return typeof cell?.execution_count === 'number'
      ? cell.execution_count
      : null;
  }

  /**
   * The evidence part of a report.
   */
  export function evidence(
    result: IRepairCheckResult,
    fixed: INotebookJSON
  ): ICheckEvidenceReport {
    const plan = result.plan;
    const counts = new Map(
      plan.steps.map(s => [s.cellIndex, s.executionCount])
    );
    const name = (i: number) => cellRef(i, counts.get(i) ?? null);
    return {
      target:
        plan.targetCellIndex === null
          ? null
          : { cell: name(plan.targetCellIndex), match: plan.targetMatch },
      referenceTarget:
        plan.fixedTargetIndex === null
          ? null
          : cellRef(
              plan.fixedTargetIndex,
              Private.count(fixed.cells[plan.fixedTargetIndex])
            ),
      repairedLine: plan.repairedLine,
      traced: result.evidence.map(c => ({
        cell: name(c.cellIndex),
        isTarget: c.isTarget,
        linesRun: c.report?.trace?.lines ?? null,
        exceptions: c.report?.trace?.exceptions ?? null
      })),
      reference: result.reference
        ? { ...result.reference, cached: result.referenceCached }
        : null,
      referenceMs: result.referenceMs,
      live: result.live
        ? {
            learnerRanTarget: result.live.learnerRanTarget,
            status: result.live.run?.status ?? null,
            cellsRun: result.live.run?.steps.length ?? 0,
            target: Private.liveTarget(result.live)
          }
        : null,
      environment: result.environment
    };
  }

  /** What the probe saw of the live replay's target run. */
  export function liveTarget(
    live: ILiveEvidence
  ): { units: number; exceptions: number } | null {
    const steps = live.run?.steps.filter(r => r.step.isTarget) ?? [];
    const report = readProbeReport(steps[steps.length - 1]?.probe);
    return report?.trace
      ? {
          units: report.trace.units?.length ?? 0,
          exceptions: report.trace.exceptions.length
        }
      : null;
  }

  /**
   * A fresh kernel started in the case folder (the session path sits inside it), for the
   * learner's run or a reference run. Its set-up moves it into a scratch copy of the case
   * folder without the answer key (`scratchSetup`); `plain` runs stay in the case folder.
   */
  export async function startKernel(
    sessions: SessionManager,
    caseFromRoot: string,
    options: ICheckNotebookOptions,
    role: 'learner' | 'reference' | 'plain',
    caseName: string,
    start: IStartOptions = {}
  ): Promise<IFreshKernel> {
    const folder = caseFromRoot.split(path.sep).filter(Boolean).join('/');
    const name = `${options.caseName}.junobench-${role}-${uniqueSuffix()}.ipynb`;
    let connection: Session.ISessionConnection;
    try {
      connection = await startSession(sessions, {
        path: folder ? `${folder}/${name}` : name,
        name,
        kernel: options.kernel
      });
    } catch (reason) {
      throw new Error(`Could not start a kernel: ${(reason as Error).message}`);
    }
    const kernel = connection.kernel;
    if (!kernel) {
      await connection.shutdown().catch(() => undefined);
      connection.dispose();
      throw new Error('The session has no kernel.');
    }
    // Paths as the kernel sees them from the case folder, its working directory.
    const scratch =
      role === 'plain'
        ? null
        : scratchSetup({
            caseFolder: '.',
            casebook:
              path.relative(
                path.resolve(options.serverRoot, caseFromRoot),
                path.resolve(options.casebookDir)
              ) || '.',
            caseName,
            perturb: start.perturb,
            plain: start.plain
          });
    return {
      kernel,
      setupCode: scratch?.setupCode ?? '',
      reportExpression: scratch?.reportExpression ?? null,
      dispose: async () => {
        await connection.shutdown().catch(() => undefined);
        connection.dispose();
      }
    };
  }
}
