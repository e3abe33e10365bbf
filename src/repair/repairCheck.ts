/**
 * The repair check with its evidence, for the JupyterLab check bar and for
 * `junobench check` alike: the learner's notebook runs top to bottom in a
 * fresh kernel with the probe around the target and the changed cells; the
 * reference fix runs twice in fresh kernels of its own (cached per case and
 * environment) to learn what its target cell does; then `judgeRepair` decides.
 */
import type { Kernel } from '@jupyterlab/services';

import { judgeRepair, planCheck } from './check';
import type {
  ICheckPlan,
  ICheckVerdict,
  IRepairEvidence,
  IEnvironmentEvidence,
  ILiveEvidence
} from './check';
import type { ReferenceProblem } from './findings';
import {
  columnDigests,
  columnMoved,
  valuesMoved,
  compareMode,
  unchangedOnOtherData,
  referenceEvidence
} from './evidence';
import {
  readProbeReport,
  readReferenceEvidence,
  readRounding
} from './probeReport';
import type {
  IProbeReport,
  IReferenceEffect,
  IPerturbedEvidence,
  IReferenceEvidence,
  ITraceReport
} from './probeReport';
import type { IRoundingEvidence } from './compare';
import type { IValueSummary } from '../state/values';
import { alignNotebooks } from './align';
import { POLICY } from './policy';
import { readAccessReport } from './access';
import { readInterpreterReport } from './interpreter';
import type { IInterpreterChange } from './interpreter';
import type { IAccessReport } from './access';
import {
  recordedPlan,
  sourceText,
  stripMarkers,
  topToBottomPlan
} from '../replay/plan';
import type {
  INbCell,
  INotebookJSON,
  IPlanStep,
  IReplayPlan
} from '../replay/types';
import { compareEnvironment } from '../kernel/drift';
import type { IEnvironmentProbe } from '../kernel/drift';
import {
  EVIDENCE_BASELINE_CODE,
  EVIDENCE_ENVIRONMENT_EXPRESSION,
  EVIDENCE_INTERPRETER_EXPRESSION,
  EVIDENCE_REPORT_EXPRESSION,
  EVIDENCE_ROUNDING_EXPRESSION,
  EVIDENCE_ROUNDING_WATCH_CODE,
  EVIDENCE_STOP_CODE,
  PROBE_HASH,
  PROBE_VERSION,
  evidenceInstallCode,
  evidenceStartCode,
  finalStateExpression
} from '../kernel/evidenceSnippets';
import { BENCHMARK_PINS } from '../kernel/pins';
import { probeEnvironment } from '../kernel/probe';
import { PlanRunner } from '../kernel/runner';
import type { IRunResult } from '../kernel/runner';
import type { RunStop } from '../kernel/stop';

/** How a fresh kernel of a check starts. */
export interface IStartOptions {
  /**
   * A seed: the kernel runs on other data of the same form (its scratch copy's tables with
   * their rows shuffled and decimal columns jittered).
   */
  perturb?: number;
  /**
   * The kernel's copy looks like the case folder (notebooks but the fixed one kept, files
   * writable), for the run with nothing of the check in it.
   */
  plain?: boolean;
}

/** A fresh kernel for one run of a check, owned by the caller. */
export interface IFreshKernel {
  /** The kernel connection. */
  kernel: Kernel.IKernelConnection;
  /** Code run silently first (e.g. to change into the case folder), or ''. */
  setupCode: string;
  /**
   * The `user_expressions` entry that returns what the notebook touched outside its data
   * (the guard of the scratch copy `setupCode` made, see `scratchSetup`), or null.
   */
  reportExpression?: string | null;
  /** Shut the kernel down. */
  dispose(): Promise<void>;
}

/**
 * Where reference evidence is kept between checks. A key names everything the
 * evidence depends on (probe, case, notebooks, kernel, installed libraries);
 * what `get` returns is validated before use (`readReferenceEvidence`).
 */
export interface IReferenceCache {
  /** The evidence under a key, or null. */
  get(key: string): Promise<unknown>;
  /** Keep evidence under a key. */
  set(key: string, value: IReferenceEvidence): Promise<void>;
}

/**
 * A reference cache in memory, for one JupyterLab page or one command.
 */
export class MemoryReferenceCache implements IReferenceCache {
  /** The evidence under a key, or null. */
  async get(key: string): Promise<unknown> {
    return this._map.get(key) ?? null;
  }

  /** Keep evidence under a key. */
  async set(key: string, value: IReferenceEvidence): Promise<void> {
    this._map.set(key, value);
  }

  private _map = new Map<string, IReferenceEvidence>();
}

/** Options of one repair check. */
export interface IRepairCheckOptions {
  /** The case's name (part of the cache key). */
  caseName: string;
  /** The learner's notebook. */
  learner: INotebookJSON;
  /** The case's reproduced notebook. */
  reproduced: INotebookJSON;
  /** The case's reference fixed notebook. */
  fixed: INotebookJSON;
  /** The case's root cause is notebook specific. */
  notebookSpecific: boolean;
  /** Start a fresh kernel in the case folder. */
  startKernel: (
    role: 'learner' | 'reference',
    options?: IStartOptions
  ) => Promise<IFreshKernel>;
  /**
   * The learner's live kernel's input history of its current session (`history[n]` is
   * input `n`), read from the kernel itself; when given, the live kernel is replayed from
   * it instead of from the saved notebook's prompts (which are claims).
   */
  liveHistory?: string[] | null;
  /** Per-cell timeout in ms (0: none). */
  timeoutMs: number;
  /** Where reference evidence is cached (null: run the reference every time). */
  cache: IReferenceCache | null;
  /**
   * Compare the kernel's libraries with the benchmark's pins and say which the
   * notebook imports at other versions (default true).
   */
  environment?: boolean;
}

/** The evidence the probe gathered in one traced cell. */
export interface ICellEvidence {
  /** Index of the cell in its notebook. */
  cellIndex: number;
  /** Whether it is the target. */
  isTarget: boolean;
  /** The probe's report, or null when the probe could not report. */
  report: IProbeReport | null;
}

/** What a repair check produced. */
export interface IRepairCheckResult {
  /** The learner's check plan. */
  plan: ICheckPlan;
  /** The learner's fresh run. */
  run: IRunResult;
  /** The verdict. */
  verdict: ICheckVerdict;
  /** What the reference fix does, or null when it could not be learned. */
  reference: IReferenceEvidence | null;
  /** Whether the reference evidence came from the cache. */
  referenceCached: boolean;
  /** The probe reports of the learner's traced cells. */
  evidence: ICellEvidence[];
  /** Wall time of the reference runs (0 when cached). */
  referenceMs: number;
  /** The live-order replay of a notebook-specific case, or null. */
  live: ILiveEvidence | null;
  /** How the kernel's libraries differ from the benchmark's, when compared. */
  environment: IEnvironmentEvidence | null;
}

/**
 * Run a repair check with its evidence and judge it.
 */
export async function runRepairCheck(
  options: IRepairCheckOptions
): Promise<IRepairCheckResult> {
  const reference = { reproduced: options.reproduced, fixed: options.fixed };
  const plan = planCheck(options.learner, reference, {
    notebookSpecific: options.notebookSpecific
  });
  const learnerKernel = await options.startKernel('learner');
  try {
    const runner = new PlanRunner({
      kernel: learnerKernel.kernel,
      timeoutMs: options.timeoutMs
    });
    // The environment decides whether a cached reference run still holds.
    const environment = await runner.evaluate(
      evidenceInstallCode(),
      EVIDENCE_ENVIRONMENT_EXPRESSION
    );
    const drift =
      options.environment === false
        ? null
        : await Private.environment(
            learnerKernel,
            options.learner,
            environment === null
              ? null
              : `${learnerKernel.kernel.name}:${JSON.stringify(environment)}`
          );
    const key = [
      'v5',
      `probe${PROBE_VERSION}-${PROBE_HASH}`,
      options.caseName,
      Private.hash(Private.notebookText(options.reproduced)),
      Private.hash(Private.notebookText(options.fixed)),
      learnerKernel.kernel.name,
      Private.hash(JSON.stringify(environment))
    ].join(':');
    const needReference = plan.fixedTargetIndex !== null && !!plan.target;
    const cached =
      needReference && environment !== null && options.cache
        ? readReferenceEvidence(await options.cache.get(key), PROBE_VERSION)
        : null;
    const started = Date.now();
    const referencePromise: Promise<Private.IReferenceOutcome> =
      needReference && !cached
        ? Private.learnReference(options)
        : Promise.resolve({ evidence: cached, error: undefined });
    const want = cached ? Object.keys(cached.effects) : undefined;
    // The live kernel is replayed only when the learner ran the target again (else it
    // is not run at all): the judge decides whether it is evidence.
    const livePromise: Promise<ILiveEvidence | null> =
      options.notebookSpecific && plan.targetCellIndex !== null
        ? Private.liveReplay(options, plan, want)
        : Promise.resolve(null);
    // With the reference known, the run on other data starts beside the learner's own (its
    // answer is used only if the repair passes); else it runs after a pass.
    const early = cached?.perturbed?.changed.length
      ? Private.unwatchedRun(
          options,
          plan,
          cached.perturbed.changed,
          true
        ).catch(() => null)
      : null;
    const [run, outcome, live] = await Promise.all([
      runner.run(plan, {
        // The interpreter's baseline is taken after the check's own set-up code.
        setupCode: [learnerKernel.setupCode, EVIDENCE_BASELINE_CODE]
          .filter(Boolean)
          .join('\n'),
        instrument: Private.instrument(plan.traced, plan.targetCellIndex, want)
      }),
      referencePromise,
      livePromise
    ]);
    const access = await Private.access(runner, learnerKernel);
    const interpreter = await Private.interpreter(runner);
    // What the notebook finally leaves: the reference's results (every name while they are
    // not known yet), read from the same kernel once the run is over.
    const final =
      run.status === 'completed' && needReference
        ? Private.readFinal(
            await runner
              .evaluate(
                '',
                finalStateExpression(
                  cached?.final ? Object.keys(cached.final) : null
                )
              )
              .catch(() => null)
          )
        : null;
    const referenceMs = cached || !needReference ? 0 : Date.now() - started;
    if (outcome.evidence && !cached && options.cache && environment !== null) {
      await options.cache.set(key, outcome.evidence);
    }
    const evidence: IRepairEvidence = {
      reference: outcome.evidence,
      referenceError: outcome.error,
      live,
      environment: drift,
      final,
      access: { fresh: access, live: live?.access ?? null },
      interpreter
    };
    let verdict = judgeRepair(plan, run, options, evidence);
    // A pass is run once more, with nothing of the check in the kernel, on other data: a
    // result the reference computes from the data changes there, one typed in as a literal
    // does not. Where that run does not get to its end, or there is none, once more on the
    // same data: a notebook that works only while the check watches it fails there.
    const perturbed = outcome.evidence?.perturbed;
    if (verdict.passed && final) {
      const { other, same } = await Private.unwatchedRuns(
        options,
        plan,
        perturbed?.changed ?? [],
        early
      );
      const unchanged =
        perturbed && other?.final
          ? unchangedOnOtherData(perturbed, final, other.final)
          : null;
      const unwatched =
        same && same.stop.code !== 'completed' ? same.stop : null;
      if (unchanged?.length || unwatched) {
        verdict = judgeRepair(plan, run, options, {
          ...evidence,
          ...(unchanged?.length ? { perturbed: { unchanged } } : {}),
          unwatched
        });
      }
    }
    // Never left running past the check (its kernel is shut down when it ends).
    await early;
    return {
      plan,
      run,
      verdict,
      reference: outcome.evidence,
      referenceCached: !!cached,
      evidence: run.steps
        .filter(r => plan.traced.includes(r.step.cellIndex))
        .map(r => ({
          cellIndex: r.step.cellIndex,
          isTarget: r.step.isTarget,
          report: readProbeReport(r.probe)
        })),
      referenceMs,
      live,
      environment: drift
    };
  } finally {
    await learnerKernel.dispose();
  }
}

namespace Private {
  /** What the notebook touched outside its data, when the kernel's guard reports it. */
  export async function access(
    runner: PlanRunner,
    fresh: IFreshKernel
  ): Promise<IAccessReport | null> {
    if (!fresh.reportExpression) {
      return null;
    }
    return readAccessReport(
      await runner.evaluate('', fresh.reportExpression).catch(() => null)
    );
  }

  /** What the run changed in how the interpreter runs code, or null when the probe cannot say. */
  export async function interpreter(
    runner: PlanRunner
  ): Promise<IInterpreterChange[] | null> {
    return readInterpreterReport(
      await runner
        .evaluate('', EVIDENCE_INTERPRETER_EXPRESSION)
        .catch(() => null)
    );
  }

  /** The probe's end-of-run summaries, or null when it did not answer with them. */
  export function readFinal(
    value: unknown
  ): Record<string, IValueSummary> | null {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return null;
    }
    const out: Record<string, IValueSummary> = {};
    for (const [name, summary] of Object.entries(value)) {
      if (
        summary !== null &&
        typeof summary === 'object' &&
        typeof (summary as IValueSummary).type === 'string'
      ) {
        out[name] = summary as IValueSummary;
      }
    }
    return out;
  }

  /** The reference evidence, or why there is none. */
  export interface IReferenceOutcome {
    evidence: IReferenceEvidence | null;
    error: ReferenceProblem | undefined;
  }

  /**
   * The probe for a run: trace the traced cells, summarise the state around the target.
   */
  export function instrument(
    traced: number[],
    target: number | null,
    want?: string[]
  ): PlanRunner.IRunOptions['instrument'] {
    return (index, step) =>
      traced.includes(step.cellIndex)
        ? {
            before: evidenceStartCode(step.source, {
              trace: true,
              snapshot: step.cellIndex === target,
              cell: index,
              want
            }),
            after: EVIDENCE_STOP_CODE,
            collect: EVIDENCE_REPORT_EXPRESSION
          }
        : null;
  }

  /**
   * The libraries the notebook imports that the kernel has at other versions
   * than the benchmark's pins (and Python when it differs), or null when the
   * kernel cannot say.
   */
  export async function environment(
    fresh: IFreshKernel,
    nb: INotebookJSON,
    key: string | null
  ): Promise<IEnvironmentEvidence | null> {
    try {
      // The installed distributions' digest names the environment: ask it once.
      const known = key === null ? undefined : probes.get(key);
      const probe =
        known ??
        (await probeEnvironment(fresh.kernel, BENCHMARK_PINS, {
          timeoutMs: 20000
        }));
      if (key !== null && !known) {
        probes.set(key, probe);
      }
      const report = compareEnvironment(probe, BENCHMARK_PINS);
      const imported = importedModules(nb);
      return {
        libraries: report.differences
          .filter(d =>
            (MODULES[d.module] ?? [d.module]).some(m => imported.has(m))
          )
          .map(d => ({ name: d.module, found: d.found, pinned: d.expected })),
        python: report.python
          ? { found: report.python.found ?? '', pinned: report.python.expected }
          : null,
        environment: report.environment,
        image: report.image
      };
    } catch {
      return null;
    }
  }

  /** Library versions per kernel and environment digest, asked once per process. */
  const probes = new Map<string, IEnvironmentProbe>();

  /** Import names of pinned distributions whose name differs from the module's. */
  const MODULES: Record<string, string[]> = {
    'scikit-learn': ['sklearn'],
    pillow: ['PIL'],
    'opencv-python': ['cv2'],
    'tensorflow-cpu': ['tensorflow'],
    'scikit-image': ['skimage'],
    'imbalanced-learn': ['imblearn'],
    'category-encoders': ['category_encoders'],
    'keras-tuner': ['keras_tuner'],
    'tensorflow-hub': ['tensorflow_hub'],
    'pandas-profiling': ['pandas_profiling']
  };

  /** The top-level modules a notebook's code cells import. */
  export function importedModules(nb: INotebookJSON): Set<string> {
    const out = new Set<string>();
    for (const cell of nb.cells) {
      if (cell.cell_type !== 'code') {
        continue;
      }
      for (const m of sourceText(cell).matchAll(
        /^\s*(?:from\s+([A-Za-z_]\w*)[\w.]*\s+import|import\s+([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*))/gm
      )) {
        if (m[1]) {
          out.add(m[1]);
        } else {
          m[2].split(',').forEach(x => out.add(x.trim().split('.')[0]));
        }
      }
    }
    return out;
  }

  /**
   * The learner's live kernel, replayed for a notebook-specific case: first the
   * replay of the crash (the reproduced notebook in its recorded order, as the
   * practice room runs it), then the cells the learner ran since (prompts above
   * the reproduced notebook's last one), in the order of their prompts, up to
   * the target's last run, which is probed. Errors do not stop it (the live
   * kernel went on after them). Null when no kernel could start.
   */
  export async function liveReplay(
    options: IRepairCheckOptions,
    plan: ICheckPlan,
    want?: string[]
  ): Promise<ILiveEvidence | null> {
    const target = plan.targetCellIndex!;
    const learner = options.learner;
    if (options.liveHistory) {
      return runLive(
        options,
        plan,
        historySteps(options.liveHistory, learner, target),
        want
      );
    }
    const reproduced = options.reproduced;
    const counts = reproduced.cells
      .map(c => c.execution_count)
      .filter((n): n is number => typeof n === 'number');
    const toLearner = alignNotebooks(reproduced, learner);
    // The saved prompts continue the crash's history unless a cell got a prompt within the
    // recorded ones other than its recorded prompt: then the learner started a new session
    // (a restart, "run all") and the prompts are that session's whole history. (A cell run
    // again in the same session gets a prompt above the recorded ones.)
    const recorded = counts.length ? Math.max(...counts) : 0;
    const continues = learner.cells.every((mine, j) => {
      if (
        mine.cell_type !== 'code' ||
        typeof mine.execution_count !== 'number' ||
        mine.execution_count > recorded
      ) {
        return true;
      }
      const r = toLearner.backward(j);
      return (
        r !== null &&
        reproduced.cells[r].execution_count === mine.execution_count
      );
    });
    const replayed = continues ? recorded : 0;
    const ran = learner.cells
      .map((cell, i) => ({ cell, i }))
      .filter(
        ({ cell }) =>
          cell.cell_type === 'code' &&
          typeof cell.execution_count === 'number' &&
          cell.execution_count > replayed
      )
      .sort(
        (a, b) =>
          (a.cell.execution_count as number) -
          (b.cell.execution_count as number)
      );
    const last = ran.map(r => r.i).lastIndexOf(target);
    if (last < 0) {
      return { run: null, learnerRanTarget: false };
    }
    const codeIndex = (nb: INotebookJSON, i: number) =>
      nb.cells.slice(0, i).filter(c => c.cell_type === 'code').length;
    const crash = recordedPlan(reproduced);
    let end = -1;
    crash.steps.forEach((step, k) => {
      if (
        continues &&
        (step.isTarget || step.cellIndex === crash.target?.cellIndex)
      ) {
        end = k;
      }
    });
    const steps: IPlanStep[] = [
      // The crash as it was replayed, with the reproduced notebook's own code.
      ...crash.steps.slice(0, end + 1).map(step => ({
        ...step,
        cellIndex: toLearner.forward(step.cellIndex) ?? -1 - step.cellIndex,
        isTarget: false
      })),
      ...ran.slice(0, last + 1).map(({ cell, i }, k) => ({
        cellIndex: i,
        codeCellIndex: codeIndex(learner, i),
        executionCount: cell.execution_count as number,
        source: stripMarkers(sourceText(cell)),
        run: 1 as const,
        isTarget: k === last
      }))
    ];
    return runLive(options, plan, steps, want);
  }

  /**
   * The live kernel's own history replayed: every input of its current session in the order
   * it ran (`history[n]` is input `n`), up to the last input that is the target cell's code
   * as it is now, which is probed. No such input: the learner has not run the target since
   * (or edited it after running it). The saved prompts are not read: they are claims.
   */
  export function historySteps(
    history: string[],
    learner: INotebookJSON,
    target: number
  ): IPlanStep[] | null {
    const code = (text: string) => text.replace(/\s+$/gm, '').trim();
    const mine = code(stripMarkers(sourceText(learner.cells[target])));
    let last = -1;
    // JupyterLab runs a cell's text as it is, `[reexecute]` marker line included; the
    // practice room's replay runs it without: both are the target's code.
    history.forEach((input, n) => {
      if (n > 0 && mine && code(stripMarkers(input ?? '')) === mine) {
        last = n;
      }
    });
    if (last < 0) {
      return null;
    }
    const codeIndex = learner.cells
      .slice(0, target)
      .filter(c => c.cell_type === 'code').length;
    return history.slice(1, last + 1).map((input, k) => ({
      cellIndex: k + 1 === last ? target : -1 - k,
      codeCellIndex: k + 1 === last ? codeIndex : -1,
      executionCount: k + 1,
      source: input ?? '',
      run: 1 as const,
      isTarget: k + 1 === last
    }));
  }

  /**
   * Replay the live kernel's steps in a fresh kernel, errors not stopping it, the last step
   * (the target's last run) probed; null when no kernel could start.
   */
  async function runLive(
    options: IRepairCheckOptions,
    plan: ICheckPlan,
    steps: IPlanStep[] | null,
    want?: string[]
  ): Promise<ILiveEvidence | null> {
    const source = options.liveHistory ? 'history' : 'prompts';
    if (!steps) {
      return { run: null, learnerRanTarget: false, source };
    }
    const probed = steps.length - 1;
    return withFreshKernel(
      options,
      'learner',
      {},
      null,
      async (runner, fresh) => {
        const run = await runner.run(
          { kind: 'recorded', steps, target: plan.target },
          {
            setupCode: [fresh.setupCode, evidenceInstallCode()]
              .filter(Boolean)
              .join('\n'),
            continueOnErrorBefore: steps.length,
            instrument: (index, step) =>
              index === probed
                ? {
                    before: evidenceStartCode(step.source, {
                      trace: true,
                      snapshot: true,
                      cell: index,
                      want
                    }),
                    after: EVIDENCE_STOP_CODE,
                    collect: EVIDENCE_REPORT_EXPRESSION
                  }
                : null
          }
        );
        return {
          run,
          learnerRanTarget: true,
          source,
          access: await access(runner, fresh)
        };
      }
    );
  }

  /**
   * Whether the reproduced notebook run top to bottom in a fresh kernel
   * crashes too (then a clean fresh run of a repair is evidence by itself).
   */
  async function reproducedFresh(
    options: IRepairCheckOptions
  ): Promise<'clean' | 'crashes' | 'unknown'> {
    return withFreshKernel(
      options,
      'reference',
      {},
      'unknown' as const,
      async (runner, fresh) => {
        const run = await runner.run(topToBottomPlan(options.reproduced), {
          setupCode: fresh.setupCode || undefined
        });
        return run.status === 'completed'
          ? 'clean'
          : run.status === 'crashed'
            ? 'crashes'
            : 'unknown';
      }
    );
  }

  /**
   * Run `body` with a fresh kernel of a check and a runner on it, the kernel shut down after;
   * `failed` when no kernel starts (a function: from why).
   */
  async function withFreshKernel<T>(
    options: IRepairCheckOptions,
    role: 'learner' | 'reference',
    start: IStartOptions,
    failed: T | ((reason: unknown) => T),
    body: (runner: PlanRunner, fresh: IFreshKernel) => Promise<T>
  ): Promise<T> {
    let fresh: IFreshKernel;
    try {
      fresh = await options.startKernel(role, start);
    } catch (reason) {
      return typeof failed === 'function'
        ? (failed as (reason: unknown) => T)(reason)
        : failed;
    }
    try {
      return await body(
        new PlanRunner({ kernel: fresh.kernel, timeoutMs: options.timeoutMs }),
        fresh
      );
    } finally {
      await fresh.dispose();
    }
  }

  /**
   * Run the reference fix twice in fresh kernels (at once) and combine what its target does.
   */
  export async function learnReference(
    options: IRepairCheckOptions
  ): Promise<IReferenceOutcome> {
    const plan = planCheck(
      options.fixed,
      { reproduced: options.reproduced, fixed: options.fixed },
      { notebookSpecific: options.notebookSpecific }
    );
    if (plan.targetCellIndex === null) {
      return {
        evidence: null,
        error: { code: 'no-counterpart' }
      };
    }
    const [runs, fresh, other] = await Promise.all([
      Promise.all([runReference(plan, options), runReference(plan, options)]),
      options.notebookSpecific
        ? reproducedFresh(options)
        : Promise.resolve('unknown' as const),
      runReference(plan, options, { perturb: POLICY.perturbSeed })
    ]);
    const failed = runs.find(r => 'code' in r);
    if (failed && 'code' in failed) {
      return { evidence: null, error: failed };
    }
    const [first, second] = runs as IReferenceRun[];
    const after = options.fixed.cells
      .slice(plan.targetCellIndex + 1)
      .filter(c => c.cell_type === 'code')
      .map(c => sourceText(c));
    const learned = referenceEvidence(
      first.target,
      second.target,
      [...first.others, ...second.others],
      after,
      PROBE_VERSION
    );
    const final = first.final
      ? finalEffects(first, second, learned.effects)
      : null;
    return {
      evidence: {
        ...learned,
        reproducedFresh: fresh,
        ...(final ? { final } : {}),
        ...(final && !('code' in other) && other.final
          ? { perturbed: changedOnOtherData(final, other.final) }
          : {}),
        ...(first.rounding ? { rounding: first.rounding } : {}),
        // The changes of either run, once each.
        interpreter: [
          ...(first.interpreter ?? []),
          ...(second.interpreter ?? [])
        ].filter(
          (c, i, all) =>
            all.findIndex(o => o.kind === c.kind && o.name === c.name) === i
        )
      },
      error: undefined
    };
  }

  /** One reference run: its target's report, the other traced cells, its end state. */
  interface IReferenceRun {
    target: IProbeReport;
    others: ITraceReport[];
    final: Record<string, IValueSummary> | null;
    /** What it changed in how the interpreter runs code (null: the kernel could not say). */
    interpreter: IInterpreterChange[] | null;
    /** The values its rounding calls met at a rounding boundary (null: not known). */
    rounding: IRoundingEvidence | null;
  }

  /**
   * The target's results and the data it computes on the way (not the tools it used: an
   * estimator, a model, a definition, which a later cell may re-create for its own use) as
   * the reference holds them at the end of its run, each compared by values where both runs
   * agree on them, else by structure or type.
   */
  function finalEffects(
    first: IReferenceRun,
    second: IReferenceRun,
    effects: Record<string, IReferenceEffect>
  ): Record<string, IReferenceEffect> {
    const out: Record<string, IReferenceEffect> = {};
    for (const [name, summary] of Object.entries(first.final ?? {})) {
      const effect = effects[name];
      if (!effect) {
        continue;
      }
      const tool =
        ['fitted', 'built', 'params', 'definition'].some(
          k => k in effect.summary
        ) || effect.summary.type === 'module';
      if (effect.role !== 'result' && tool) {
        continue;
      }
      out[name] = {
        change: effect.change,
        summary,
        mode: compareMode(summary, second.final?.[name]),
        role: effect.role
      };
    }
    return out;
  }

  /**
   * The values the reference's target sets (results and the data it computes on the way, as
   * compared at the end), compared by values, that hold other values when it runs on other
   * data, and their columns that do (one missing there is not said to change).
   */
  function changedOnOtherData(
    final: Record<string, IReferenceEffect>,
    other: Record<string, IValueSummary>
  ): IPerturbedEvidence {
    const changed = Object.entries(final)
      .filter(
        ([name, effect]) =>
          effect.mode === 'values' &&
          other[name] !== undefined &&
          valuesMoved(effect.summary, other[name])
      )
      .map(([name]) => name)
      .sort();
    const columns: Record<string, string[]> = {};
    for (const name of changed) {
      const a = columnDigests(final[name].summary);
      const b = columnDigests(other[name]);
      const moved = Object.keys(a ?? {}).filter(c =>
        columnMoved(a![c], b?.[c])
      );
      if (moved.length) {
        columns[name] = moved;
      }
    }
    return { seed: POLICY.perturbSeed, changed, columns };
  }

  /** How a run with nothing of the check in its kernel ended (see `unwatchedRun`). */
  export interface IUnwatched {
    /** Why it ended (`completed` when it went to its end). */
    stop: RunStop;
    /** The summaries of the names asked for at its end, or null. */
    final: Record<string, IValueSummary> | null;
  }

  /**
   * The learner's notebook run from a fresh kernel in the scratch copy with nothing of the
   * check in it while its cells run (no probe, no tracing, no baseline), on other data with
   * `perturb`: how it ended, and the summaries of `names` read at its end (the probe is
   * installed only then, and only when names are asked for). Null when no kernel could be
   * started.
   */
  export async function unwatchedRun(
    options: IRepairCheckOptions,
    plan: ICheckPlan,
    names: string[],
    perturb: boolean
  ): Promise<IUnwatched | null> {
    return withFreshKernel<IUnwatched | null>(
      options,
      'learner',
      perturb ? { perturb: POLICY.perturbSeed, plain: true } : { plain: true },
      null,
      async (runner, fresh) => {
        const run = await runner.run(plan, { setupCode: fresh.setupCode });
        // Nothing asked for (the run on the same data): its end is all it says.
        if (run.status !== 'completed' || !names.length) {
          return { stop: run.stop, final: null };
        }
        const final = readFinal(
          await runner
            .evaluate(evidenceInstallCode(), finalStateExpression(names))
            .catch(() => null)
        );
        return { stop: run.stop, final };
      }
    );
  }

  /**
   * After a pass, the unwatched runs: on other data where the reference's results change
   * with the data (`other`, else null), and on the same data where that one did not get to
   * its end or there is none (so that a crash on other data alone is no evidence). `early`:
   * the run on other data, started beside the learner's.
   */
  export async function unwatchedRuns(
    options: IRepairCheckOptions,
    plan: ICheckPlan,
    changed: string[],
    early: Promise<IUnwatched | null> | null
  ): Promise<{ other: IUnwatched | null; same: IUnwatched | null }> {
    const other = await (early ??
      (changed.length
        ? unwatchedRun(options, plan, changed, true).catch(() => null)
        : Promise.resolve(null)));
    const same =
      other?.stop.code === 'completed'
        ? null
        : await unwatchedRun(options, plan, [], false).catch(() => null);
    return { other, same };
  }

  /**
   * One reference run, to its end: its target report, the traces of the other cells the fix
   * changed and its end state, or why it failed.
   */
  async function runReference(
    plan: ICheckPlan,
    options: IRepairCheckOptions,
    start: IStartOptions = {}
  ): Promise<IReferenceRun | ReferenceProblem> {
    const failed = (reason: unknown): ReferenceProblem => ({
      code: 'kernel-start',
      reason: (reason as Error).message ?? String(reason)
    });
    return withFreshKernel<IReferenceRun | ReferenceProblem>(
      options,
      'reference',
      start,
      failed,
      async (runner, fresh) => {
        const run = await runner.run(referencePlan(options.fixed, plan), {
          setupCode: [
            fresh.setupCode,
            evidenceInstallCode(),
            EVIDENCE_BASELINE_CODE,
            EVIDENCE_ROUNDING_WATCH_CODE
          ]
            .filter(Boolean)
            .join('\n'),
          instrument: instrument(plan.traced, plan.targetCellIndex)
        });
        const target = run.steps.find(r => r.step.isTarget);
        if (!target || target.error) {
          return { code: 'stopped', stop: run.stop };
        }
        const report = readProbeReport(target.probe);
        if (!report?.effect) {
          return { code: 'no-report' };
        }
        const others = run.steps
          .filter(r => !r.step.isTarget)
          .map(r => readProbeReport(r.probe)?.trace ?? null)
          .filter((t): t is ITraceReport => t !== null);
        // The end state only of a run that went to its end (after the target, a reference that
        // stops short still says what its target does).
        const names = Object.keys(report.effect.changes);
        const final =
          run.status === 'completed'
            ? readFinal(
                await runner
                  .evaluate('', finalStateExpression(names))
                  .catch(() => null)
              )
            : null;
        return {
          target: report,
          others,
          final,
          interpreter: await interpreter(runner),
          rounding: readRounding(
            await runner
              .evaluate('', EVIDENCE_ROUNDING_EXPRESSION)
              .catch(() => null)
          )
        };
      }
    );
  }

  /**
   * The reference fix's whole run: in the order its cells were recorded
   * (execution counts; `[reexecute]` cells twice), as `verify` runs it, the
   * target's last run marked; the cells in play top to bottom when the target
   * has no count.
   */
  export function referencePlan(
    fixed: INotebookJSON,
    plan: ICheckPlan
  ): IReplayPlan {
    const target = plan.targetCellIndex!;
    const recorded = recordedPlan(fixed);
    let last = -1;
    recorded.steps.forEach((s, k) => {
      if (s.cellIndex === target) {
        last = k;
      }
    });
    if (last < 0) {
      return plan;
    }
    return {
      kind: 'recorded',
      target: plan.target,
      steps: recorded.steps.map((s, k) => ({ ...s, isTarget: k === last }))
    };
  }

  /**
   * A cell's code for comparison: markers stripped, blank lines and spaces at
   * the ends of lines left out.
   */
  export function code(cell: INbCell): string {
    return stripMarkers(sourceText(cell))
      .split('\n')
      .map(l => l.trim())
      .filter(Boolean)
      .join('\n');
  }

  /**
   * The code of a notebook's code cells, for the cache key.
   */
  export function notebookText(nb: INotebookJSON): string {
    return nb.cells
      .filter(c => c.cell_type === 'code')
      .map(c => sourceText(c))
      .join('\n\u241e\n');
  }

  /**
   * A 53-bit string hash (cyrb53), as hex.
   */
  export function hash(text: string): string {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
  }
}
