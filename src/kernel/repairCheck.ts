/**
 * The repair check with its evidence, for the JupyterLab check bar and for
 * `junobench check` alike: the learner's notebook runs top to bottom in a
 * fresh kernel with the probe around the target and the changed cells; the
 * reference fix runs twice in fresh kernels of its own (cached per case and
 * environment) to learn what its target cell does; then `judgeRepair` decides.
 */
import type { Kernel } from '@jupyterlab/services';

import { judgeRepair, planCheck } from '../repair/check';
import type { ICheckPlan, ICheckVerdict } from '../repair/check';
import type { ReferenceProblem } from '../repair/findings';
import { readProbeReport, referenceEvidence } from '../repair/evidence';
import type {
  IProbeReport,
  IReferenceEvidence,
  ITraceReport
} from '../repair/evidence';
import { sourceText } from '../replay/plan';
import type { INotebookJSON } from '../replay/types';
import {
  EVIDENCE_ENVIRONMENT_EXPRESSION,
  EVIDENCE_REPORT_EXPRESSION,
  EVIDENCE_STOP_CODE,
  evidenceInstallCode,
  evidenceStartCode
} from './evidenceSnippets';
import { PlanRunner } from './runner';
import type { IRunResult } from './runner';

/** A fresh kernel for one run of a check, owned by the caller. */
export interface IFreshKernel {
  /** The kernel connection. */
  kernel: Kernel.IKernelConnection;
  /** Code run silently first (e.g. to change into the case folder), or ''. */
  setupCode: string;
  /** Shut the kernel down. */
  dispose(): Promise<void>;
}

/** Where reference evidence is kept between checks. */
export interface IReferenceCache {
  /** The evidence under a key, or null. */
  get(key: string): Promise<IReferenceEvidence | null>;
  /** Keep evidence under a key. */
  set(key: string, value: IReferenceEvidence): Promise<void>;
}

/**
 * A reference cache in memory, for one JupyterLab page or one command.
 */
export class MemoryReferenceCache implements IReferenceCache {
  /** The evidence under a key, or null. */
  async get(key: string): Promise<IReferenceEvidence | null> {
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
  /** The learner's target cell id, when the working copy records it. */
  targetCellId?: string | null;
  /** Start a fresh kernel in the case folder. */
  startKernel: (role: 'learner' | 'reference') => Promise<IFreshKernel>;
  /** Per-cell timeout in ms (0: none). */
  timeoutMs: number;
  /** Where reference evidence is cached (null: run the reference every time). */
  cache: IReferenceCache | null;
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
}

/**
 * Run a repair check with its evidence and judge it.
 */
export async function runRepairCheck(
  options: IRepairCheckOptions
): Promise<IRepairCheckResult> {
  const reference = { reproduced: options.reproduced, fixed: options.fixed };
  const plan = planCheck(options.learner, reference, {
    notebookSpecific: options.notebookSpecific,
    targetCellId: options.targetCellId
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
    const key = [
      'v1',
      options.caseName,
      Private.hash(Private.notebookText(options.reproduced)),
      Private.hash(Private.notebookText(options.fixed)),
      learnerKernel.kernel.name,
      Private.hash(JSON.stringify(environment))
    ].join(':');
    const needReference = plan.fixedTargetIndex !== null && !!plan.target;
    const cached =
      needReference && environment !== null && options.cache
        ? await options.cache.get(key)
        : null;
    const started = Date.now();
    const referencePromise: Promise<Private.IReferenceOutcome> =
      needReference && !cached
        ? Private.learnReference(options)
        : Promise.resolve({ evidence: cached, error: undefined });
    const [run, outcome] = await Promise.all([
      runner.run(plan, {
        setupCode: learnerKernel.setupCode || undefined,
        instrument: Private.instrument(plan.traced, plan.targetCellIndex)
      }),
      referencePromise
    ]);
    const referenceMs = cached || !needReference ? 0 : Date.now() - started;
    if (outcome.evidence && !cached && options.cache && environment !== null) {
      await options.cache.set(key, outcome.evidence);
    }
    const verdict = judgeRepair(plan, run, options, {
      reference: outcome.evidence,
      referenceError: outcome.error
    });
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
      referenceMs
    };
  } finally {
    await learnerKernel.dispose();
  }
}

namespace Private {
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
    target: number | null
  ): PlanRunner.IRunOptions['instrument'] {
    return (_index, step) =>
      traced.includes(step.cellIndex)
        ? {
            before: evidenceStartCode(step.source, {
              trace: true,
              snapshot: step.cellIndex === target
            }),
            after: EVIDENCE_STOP_CODE,
            collect: EVIDENCE_REPORT_EXPRESSION
          }
        : null;
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
      { notebookSpecific: options.notebookSpecific, targetCellId: null }
    );
    if (plan.targetCellIndex === null) {
      return {
        evidence: null,
        error: { code: 'no-counterpart' }
      };
    }
    const runs = await Promise.all([
      runReference(plan, options),
      runReference(plan, options)
    ]);
    const failed = runs.find(r => 'code' in r);
    if (failed && 'code' in failed) {
      return { evidence: null, error: failed };
    }
    const [first, second] = runs as Array<{
      target: IProbeReport;
      others: ITraceReport[];
    }>;
    const after = options.fixed.cells
      .slice(plan.targetCellIndex + 1)
      .filter(c => c.cell_type === 'code')
      .map(c => sourceText(c));
    return {
      evidence: referenceEvidence(
        first.target,
        second.target,
        [...first.others, ...second.others],
        after
      ),
      error: undefined
    };
  }

  /**
   * One reference run up to and including the target: its target report and the traces of
   * the other cells the fix changed, or why it failed.
   */
  async function runReference(
    plan: ICheckPlan,
    options: IRepairCheckOptions
  ): Promise<
    { target: IProbeReport; others: ITraceReport[] } | ReferenceProblem
  > {
    let fresh: IFreshKernel;
    try {
      fresh = await options.startKernel('reference');
    } catch (reason) {
      return {
        code: 'kernel-start',
        reason: (reason as Error).message ?? String(reason)
      };
    }
    try {
      const runner = new PlanRunner({
        kernel: fresh.kernel,
        timeoutMs: options.timeoutMs
      });
      const upToTarget = {
        ...plan,
        steps: plan.steps.filter(s => s.cellIndex <= plan.targetCellIndex!)
      };
      const run = await runner.run(upToTarget, {
        setupCode: [fresh.setupCode, evidenceInstallCode()]
          .filter(Boolean)
          .join('\n'),
        instrument: instrument(plan.traced, plan.targetCellIndex)
      });
      if (run.status !== 'completed') {
        return { code: 'stopped', stop: run.stop };
      }
      const target = run.steps.find(r => r.step.isTarget);
      const report = readProbeReport(target?.probe);
      if (!report?.effect) {
        return { code: 'no-report' };
      }
      const others = run.steps
        .filter(r => !r.step.isTarget)
        .map(r => readProbeReport(r.probe)?.trace ?? null)
        .filter((t): t is ITraceReport => t !== null);
      return { target: report, others };
    } finally {
      await fresh.dispose();
    }
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
