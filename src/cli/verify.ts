/**
 * Headless verification of a casebook: every reproduced notebook must crash at
 * its target with the recorded exception, every fixed notebook must not.
 */
import { realpathSync } from 'fs';
import * as path from 'path';

import type {
  ServerConnection,
  Session,
  SessionManager
} from '@jupyterlab/services';

import { readNotebook as readCasebookNotebook } from '../casebook/notebook';
import { loadCasebook } from '../casebook/loader';
import type { ICase, ICasebook } from '../casebook/types';
import { compareEnvironment } from '../kernel/drift';
import { startSession, uniqueSuffix } from '../kernel/freshSession';
import { fallbackNote } from '../kernel/environment';
import type {
  EnvironmentPreference,
  IEnvironmentChoice,
  KernelEnvironment
} from '../kernel/environment';
import type { IDriftReport, IEnvironmentProbe } from '../kernel/drift';
import { BENCHMARK_PINS } from '../kernel/pins';
import { probeEnvironment } from '../kernel/probe';
import type { IRunResult, PlanRunner } from '../kernel/runner';
import { chdirCode } from '../kernel/snippets';
import type { INotebookJSON, IReplayPlan } from '../replay/types';
import { verifyCaseWith } from '../verify/case';
import type { CaseVerdict, INotebookJudgement } from '../verify/verdict';
import { FsCasebookSource } from './fsSource';
import { commandKernel } from './kernels';
import { runInFreshKernel, sessionsFor } from './session';

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

/** What the environment probe found in a kernel of the verification. */
export interface IEnvironmentReport {
  /** The probe's answer (null when the probe failed). */
  probe: IEnvironmentProbe | null;
  /** The comparison with the benchmark pins (null when the probe failed). */
  drift: IDriftReport | null;
  /**
   * Where the server's kernels start: in the notebook's folder (a local
   * server) or elsewhere, e.g. in a Kernel Gateway's working directory, which
   * must then be the server root: each run first changes into its notebook's
   * folder relative to it.
   */
  kernelCwd: 'notebook-folder' | 'elsewhere' | 'unknown';
  /** Where the kernel ran, as the probe says (null when the probe failed). */
  environment: KernelEnvironment | null;
  /** The container image (null outside the container or when the probe failed). */
  image: string | null;
  /** The kernelspec the verification runs in (null: the server's default). */
  kernel: string | null;
  /** How the kernel was chosen (null when it was named). */
  choice: IEnvironmentChoice | null;
  /** One line for people, starting with `environment:`. */
  summary: string;
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
  /** Kernel name (default: the kernel of the environment `environment` chooses). */
  kernel?: string;
  /** The environment to run in when no kernel is named (default `auto`). */
  environment?: EnvironmentPreference;
  /** Server settings. */
  settings: ServerConnection.ISettings;
  /** The local folder the server serves as its root. */
  serverRoot: string;
  /** Per-cell timeout in ms. */
  timeoutMs?: number;
  /** Called as each case finishes. */
  onReport?: (report: ICaseReport) => void;
  /**
   * Change into each notebook's folder relative to the kernel's working
   * directory, taken to be the server root (set when the probe finds kernels
   * starting outside the notebook's folder, as a Kernel Gateway's do).
   */
  chdirFromServerRoot?: boolean;
  /** Probe the kernel environment once before the cases (default true). */
  probe?: boolean;
  /** Called with the environment probe's report, before the first case. */
  onEnvironment?: (report: IEnvironmentReport) => void;
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
  const { sessions, dispose } = sessionsFor(options.settings);
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
    const chosen = await commandKernel(
      options.settings,
      options.kernel,
      options.environment
    );
    options = { ...options, kernel: chosen.kernel };
    if (options.probe ?? true) {
      const probed = await probeVerifyEnvironment(sessions, options);
      const note = chosen.choice ? fallbackNote(chosen.choice) : null;
      const environment: IEnvironmentReport = {
        ...probed,
        kernel: chosen.kernel,
        choice: chosen.choice,
        summary: note ? `${note}\n${probed.summary}` : probed.summary
      };
      if (environment.kernelCwd === 'elsewhere') {
        options = { ...options, chdirFromServerRoot: true };
      }
      options.onEnvironment?.(environment);
    }
    await Promise.all(Array.from({ length: jobs }, worker));
  } finally {
    dispose();
  }
  return reports;
}

/**
 * Start one kernel the way the cases' kernels start (a session in the
 * casebook folder), ask it for its Python and library versions and compare
 * them with the benchmark pins.
 */
export async function probeVerifyEnvironment(
  sessions: SessionManager,
  options: Pick<
    IVerifyOptions,
    'casebookDir' | 'serverRoot' | 'kernel' | 'timeoutMs'
  >
): Promise<IEnvironmentReport> {
  const fromRoot = Private.casebookFromRoot(options);
  const name = 'junobench-environment-probe.ipynb';
  let connection: Session.ISessionConnection;
  try {
    connection = await startSession(sessions, {
      path: `${fromRoot ? `${fromRoot}/` : ''}${name}.junobench-verify-${uniqueSuffix()}`,
      name,
      kernel: options.kernel
    });
  } catch (reason) {
    return Private.failedProbe(
      `could not start a kernel: ${(reason as Error).message}`
    );
  }
  try {
    const kernel = connection.kernel;
    if (!kernel) {
      return Private.failedProbe('the session has no kernel');
    }
    const probe = await probeEnvironment(kernel, BENCHMARK_PINS, {
      timeoutMs: Math.max(options.timeoutMs ?? 0, 60000)
    });
    const drift = compareEnvironment(probe, BENCHMARK_PINS);
    const expected = path.resolve(options.casebookDir);
    const kernelCwd = Private.samePath(probe.cwd, expected)
      ? 'notebook-folder'
      : 'elsewhere';
    let summary = drift.summary;
    if (kernelCwd === 'elsewhere') {
      summary += `\nenvironment: kernels start in ${probe.cwd}, not in the notebook's folder (a Kernel Gateway?): each notebook first changes into its folder relative to the server root ${options.serverRoot}`;
      if (!Private.samePath(probe.cwd, options.serverRoot)) {
        summary += `\nwarning: ${probe.cwd} is not the server root either, so the notebooks' relative data paths will not resolve; start the Kernel Gateway in the server root (docs/environment.md)`;
      }
    }
    return {
      probe,
      drift,
      kernelCwd,
      environment: drift.environment,
      image: drift.image,
      kernel: options.kernel ?? null,
      choice: null,
      summary
    };
  } catch (reason) {
    return Private.failedProbe((reason as Error).message);
  } finally {
    await connection.shutdown().catch(() => undefined);
    connection.dispose();
  }
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
  const result = await verifyCaseWith(c, {
    read: rel => Private.readNotebook(source, rel),
    run: (plan, rel, runOptions) =>
      Private.runPlan(plan, rel, sessions, options, runOptions)
  });
  return {
    name: c.name,
    library: c.library,
    recorded: c.ename,
    ...result,
    durationMs: Date.now() - started
  };
}

namespace Private {
  /**
   * The casebook folder as a server path ('' when it is the server root).
   */
  export function casebookFromRoot(
    options: Pick<IVerifyOptions, 'casebookDir' | 'serverRoot'>
  ): string {
    return path
      .relative(options.serverRoot, options.casebookDir)
      .split(path.sep)
      .filter(Boolean)
      .join('/');
  }

  /**
   * Whether two local paths name the same folder.
   */
  export function samePath(a: string, b: string): boolean {
    return real(a) === real(b);
  }

  /**
   * A path with its symbolic links resolved, when it exists here.
   */
  function real(p: string): string {
    try {
      return realpathSync(path.resolve(p));
    } catch {
      return path.resolve(p);
    }
  }

  /**
   * The report of a probe that could not run.
   */
  export function failedProbe(why: string): IEnvironmentReport {
    return {
      probe: null,
      drift: null,
      kernelCwd: 'unknown',
      environment: null,
      image: null,
      kernel: null,
      choice: null,
      summary: `environment: could not be probed: ${why}`
    };
  }

  /**
   * Read and minimally validate a notebook; a string says what is wrong.
   */
  export async function readNotebook(
    source: FsCasebookSource,
    rel: string
  ): Promise<INotebookJSON | string> {
    try {
      return await readCasebookNotebook(source, rel);
    } catch (reason) {
      return (reason as Error).message ?? String(reason);
    }
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
    const fromRoot = casebookFromRoot(options);
    const serverPath = fromRoot ? `${fromRoot}/${rel}` : rel;
    if (options.chdirFromServerRoot) {
      // The kernel started in the server root, not in the notebook's folder.
      runOptions = {
        ...runOptions,
        setupCode: chdirCode(path.posix.dirname(serverPath))
      };
    }
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
