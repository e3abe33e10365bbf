/**
 * Headless verification of a casebook: every reproduced notebook must crash at
 * its target with the recorded exception, every fixed notebook must not.
 */
import * as path from 'path';

import { KernelManager, SessionManager } from '@jupyterlab/services';
import type { ServerConnection } from '@jupyterlab/services';

import { loadCasebook } from '../casebook/loader';
import type { ICase, ICasebook } from '../casebook/types';
import type { IRunResult, PlanRunner } from '../kernel/runner';
import { recordedPlan } from '../replay/plan';
import type { INotebookJSON, IReplayPlan } from '../replay/types';
import { alignCell } from '../verify/align';
import { caseVerdict, judgeFixed, judgeReproduced } from '../verify/verdict';
import type { CaseVerdict, INotebookJudgement } from '../verify/verdict';
import { FsCasebookSource } from './fsSource';
import { runInFreshKernel, uniqueSuffix } from './session';

/** The verification report of one case. */
export interface ICaseReport {
  /** Case name. */
  name: string;
  /** Library label. */
  library: string;
  /** Recorded exception name. */
  recorded: string;
  /** Overall verdict. */
  verdict: CaseVerdict;
  /** Judgement of the reproduced notebook. */
  reproduced: INotebookJudgement;
  /** Judgement of the fixed notebook. */
  fixed: INotebookJudgement;
  /** Wall time for the case. */
  durationMs: number;
}

/** Options of a verification. */
export interface IVerifyOptions {
  /** The loaded casebook and its local folder. */
  casebook: ICasebook;
  /** Local folder of the casebook. */
  casebookDir: string;
  /** Case names to verify (all when empty). */
  cases?: string[];
  /** Number of cases verified at once, each with its own kernels. */
  jobs?: number;
  /** Kernel name. */
  kernel?: string;
  /** Server settings. */
  settings: ServerConnection.ISettings;
  /** The local folder the server serves as its root. */
  serverRoot: string;
  /** Per-cell timeout in ms. */
  timeoutMs?: number;
  /** Called as each case finishes. */
  onReport?: (report: ICaseReport) => void;
}

/**
 * Load a casebook folder from disk.
 */
export async function loadLocalCasebook(dir: string): Promise<ICasebook> {
  return loadCasebook(new FsCasebookSource(dir));
}

/**
 * Verify the cases of a casebook; reports come back in casebook order.
 */
export async function verifyCasebook(
  options: IVerifyOptions
): Promise<ICaseReport[]> {
  const wanted = options.cases?.length ? new Set(options.cases) : null;
  const cases = options.casebook.cases.filter(
    c => !wanted || wanted.has(c.name)
  );
  if (wanted) {
    const known = new Set(options.casebook.cases.map(c => c.name));
    const unknown = [...wanted].filter(n => !known.has(n));
    if (unknown.length) {
      throw new Error(
        `No such case in ${options.casebook.name}: ${unknown.join(', ')}`
      );
    }
  }
  const kernelManager = new KernelManager({ serverSettings: options.settings });
  // Disposed in the finally block below (the rule does not credit `finally`).
  // eslint-disable-next-line jupyter/require-disposable-ownership
  const sessions = new SessionManager({
    kernelManager,
    serverSettings: options.settings
  });
  const reports: ICaseReport[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      reports[i] = await verifyCase(cases[i], sessions, options);
      options.onReport?.(reports[i]);
    }
  };
  const jobs = Math.max(1, Math.min(options.jobs ?? 1, cases.length || 1));
  try {
    await Promise.all(Array.from({ length: jobs }, worker));
  } finally {
    sessions.dispose();
    kernelManager.dispose();
  }
  return reports;
}

/**
 * Verify one case: its reproduced notebook, then its fixed notebook.
 */
async function verifyCase(
  c: ICase,
  sessions: SessionManager,
  options: IVerifyOptions
): Promise<ICaseReport> {
  const started = Date.now();
  const source = new FsCasebookSource(options.casebookDir);
  const notRun: INotebookJudgement = {
    verdict: 'not-run',
    reason: 'Not run.',
    observed: null
  };
  const report = (
    reproduced: INotebookJudgement,
    fixed: INotebookJudgement
  ): ICaseReport => ({
    name: c.name,
    library: c.library,
    recorded: c.ename,
    verdict: caseVerdict(reproduced.verdict, fixed.verdict),
    reproduced,
    fixed,
    durationMs: Date.now() - started
  });
  const folder = c.files.folder;
  if (!folder || !c.files.reproduced) {
    return report(
      {
        verdict: 'missing-notebook',
        reason: folder
          ? `${c.name}_reproduced.ipynb is missing.`
          : 'The case folder is missing.',
        observed: null
      },
      notRun
    );
  }
  const reproducedPath = `${folder}/${c.name}_reproduced.ipynb`;
  const repro = await Private.readNotebook(source, reproducedPath);
  if (typeof repro === 'string') {
    return report(
      { verdict: 'invalid-notebook', reason: repro, observed: null },
      notRun
    );
  }
  const plan = recordedPlan(repro);
  const reproRun = await Private.runPlan(
    plan,
    reproducedPath,
    sessions,
    options
  );
  let reproduced: INotebookJudgement =
    typeof reproRun === 'string'
      ? { verdict: 'kernel-died' as const, reason: reproRun, observed: null }
      : judgeReproduced(plan, reproRun, c.ename);
  if (reproduced.verdict === 'fail' && Private.needsMissingData(c, repro)) {
    // Without its input files the notebook cannot reach the recorded state.
    reproduced = {
      ...reproduced,
      verdict: 'missing-data',
      reason: `The case folder has no input data files but the notebook reads data/ (${reproduced.reason})`
    };
  }

  if (!c.files.fixed) {
    return report(reproduced, {
      verdict: 'missing-notebook',
      reason: `${c.name}_fixed.ipynb is missing.`,
      observed: null
    });
  }
  const fixedPath = `${folder}/${c.name}_fixed.ipynb`;
  const fixedNb = await Private.readNotebook(source, fixedPath);
  if (typeof fixedNb === 'string') {
    return report(reproduced, {
      verdict: 'invalid-notebook',
      reason: fixedNb,
      observed: null
    });
  }
  const fixedPlan = recordedPlan(fixedNb);
  const aligned = plan.target
    ? alignCell(repro, plan.target.cellIndex, fixedNb)
    : null;
  let targetStep = fixedPlan.steps.findIndex(s => s.cellIndex === aligned);
  if (targetStep < 0) {
    targetStep = 0;
  }
  const fixedRun = await Private.runPlan(
    fixedPlan,
    fixedPath,
    sessions,
    options,
    {
      continueOnErrorBefore: targetStep
    }
  );
  let fixed: INotebookJudgement =
    typeof fixedRun === 'string'
      ? { verdict: 'kernel-died' as const, reason: fixedRun, observed: null }
      : judgeFixed(fixedRun, targetStep);
  if (fixed.verdict === 'fail' && Private.needsMissingData(c, fixedNb)) {
    fixed = {
      ...fixed,
      verdict: 'missing-data',
      reason: `The case folder has no input data files but the notebook reads data/ (${fixed.reason})`
    };
  }
  return report(reproduced, fixed);
}

namespace Private {
  /**
   * Whether a case lacks input data that its notebook reads from `data/`.
   */
  export function needsMissingData(c: ICase, nb: INotebookJSON): boolean {
    if (c.files.data.length > 0) {
      return false;
    }
    return nb.cells.some(cell => {
      const text = Array.isArray(cell.source)
        ? cell.source.join('')
        : cell.source;
      return cell.cell_type === 'code' && /['"]\.?\/?data\//.test(text);
    });
  }

  /**
   * Read and minimally validate a notebook; a string says what is wrong.
   */
  export async function readNotebook(
    source: FsCasebookSource,
    rel: string
  ): Promise<INotebookJSON | string> {
    let text: string;
    try {
      text = await source.readText(rel);
    } catch (reason) {
      return `${rel}: cannot be read (${(reason as Error).message}).`;
    }
    let nb: unknown;
    try {
      nb = JSON.parse(text);
    } catch (reason) {
      return `${rel}: is not valid JSON (${(reason as Error).message}).`;
    }
    if (
      !nb ||
      typeof nb !== 'object' ||
      !Array.isArray((nb as INotebookJSON).cells)
    ) {
      return `${rel}: is not an nbformat 4 notebook (no "cells" list).`;
    }
    return nb as INotebookJSON;
  }

  /**
   * Run a plan in a fresh kernel whose working directory is the notebook's folder.
   */
  export async function runPlan(
    plan: IReplayPlan,
    rel: string,
    sessions: SessionManager,
    options: IVerifyOptions,
    runOptions: PlanRunner.IRunOptions = {}
  ): Promise<IRunResult | string> {
    const casebookFromRoot = path
      .relative(options.serverRoot, options.casebookDir)
      .split(path.sep)
      .filter(Boolean)
      .join('/');
    const serverPath = casebookFromRoot ? `${casebookFromRoot}/${rel}` : rel;
    return runInFreshKernel(
      sessions,
      {
        path: `${serverPath}.junobench-verify-${uniqueSuffix()}`,
        name: path.posix.basename(rel),
        kernel: options.kernel,
        timeoutMs: options.timeoutMs
      },
      plan,
      runOptions
    );
  }
}
