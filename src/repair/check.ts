/**
 * "Check my fix": which cells of the learner's notebook a fresh kernel runs,
 * whether the repair only hides the crash, how the target's latest live run
 * ended, and the verdict once the fresh run is back. Pure logic.
 */
import type { KernelEnvironment } from '../kernel/environment';
import type { IRunResult } from '../kernel/runner';
import type { RunStop } from '../kernel/stop';
import {
  findTarget,
  lineAfterStrip,
  recordedPlan,
  sourceText,
  stripMarkers
} from '../replay/plan';
import type {
  INbCell,
  INotebookJSON,
  IPlanStep,
  IReplayPlan,
  ITarget
} from '../replay/types';
import { accessFindings } from './access';
import { cellsByCount, interpreterFindings } from './interpreter';
import type { IInterpreterChange } from './interpreter';
import type { IAccessEvidence, IAccessReport } from './access';
import { alignNotebooks, codeTokens, dice, uncommented } from './align';
import type { AlignMethod } from './align';
import {
  compareEffects,
  compareInputs,
  exceptionKey,
  lineEvidence,
  swallowedExceptions
} from './evidence';
import { readProbeReport } from './probeReport';
import type {
  IEffectReport,
  IProbeReport,
  IReferenceEvidence
} from './probeReport';
import type { IValueSummary } from '../state/values';
import { cellRef } from '../i18n';
import type { ICellRef } from '../i18n';
import { english, renderFinding, renderStatus } from './findings';
import { POLICY } from './policy';
import type {
  CheckFinding,
  CheckStatus,
  ReferenceProblem,
  Translate
} from './findings';

export type { CheckFinding, CheckStatus } from './findings';

/** A way of making the crash disappear without repairing it, or a case the check cannot judge. */
export type GuardFindingKind =
  | 'target-deleted'
  | 'target-emptied'
  | 'target-commented-out'
  | 'failing-line-removed'
  | 'reference-unaligned';

/** One finding of the anti-cheat guard. */
export interface IGuardFinding {
  /** What was done to the target cell. */
  kind: GuardFindingKind;
  /** The finding, as a code with parameters (`renderFinding` says it). */
  finding: CheckFinding;
}

/** How the target cell's latest run in the learner's live kernel ended. */
export type LiveResult = 'ok' | 'error' | 'not-run';

/** The reference notebooks of a case. */
export interface ICheckReference {
  /** The reproduced (crashing) notebook. */
  reproduced: INotebookJSON;
  /** The reference fixed notebook. */
  fixed: INotebookJSON;
}

/** Options of a check. */
export interface ICheckOptions {
  /** The case's root cause is notebook specific (out-of-order runs, re-runs). */
  notebookSpecific: boolean;
}

/** Why a cell of the learner's notebook is in play. */
export type InPlayReason = 'plan' | 'executed' | 'added' | 'target' | 'fix';

/**
 * How the learner's target cell was found: always by aligning the learner's notebook with the
 * case's reproduced one, never from what the submitted notebook says of itself (its metadata).
 */
export type TargetMatch = AlignMethod;

/** A check plan: the fresh top-to-bottom run plus what the notebook itself says. */
export interface ICheckPlan extends IReplayPlan {
  /** Always top to bottom: a check restarts the kernel and runs the cells in document order. */
  kind: 'top-to-bottom';
  /** Index (among all cells) of the learner's target cell, or null when it is gone. */
  targetCellIndex: number | null;
  /** How the target was found (null when it was not). */
  targetMatch: TargetMatch | null;
  /** Index of the reference fix's counterpart of the target, or null when none aligns. */
  fixedTargetIndex: number | null;
  /** Why each planned cell is in play, by cell index (first reason found). */
  inPlay: Record<number, InPlayReason>;
  /** Signs that the repair hides the crash instead of curing it. */
  guard: IGuardFinding[];
  /** The target cell's latest live run, read from its execution count and outputs. */
  live: LiveResult;
  /** The reproduced target's crash line (markers stripped), when the traceback says. */
  crashLine: string | null;
  /** The line (1-based) of the learner's target that holds the repaired crash line, when found. */
  repairedLine: number | null;
  /**
   * Cells (indices) the fresh run traces: the target and every cell in play
   * that differs from its reproduced counterpart or has none.
   */
  traced: number[];
  /**
   * The learner's cells that together are the target, when it was split over consecutive
   * cells (they run as one step, at the target's index); empty otherwise.
   */
  targetSpan?: number[];
}

/** The verdict in three grades (plus "not checked"). */
export type CheckGrade =
  'solved' | 'solved-with-differences' | 'not-solved' | 'not-checked';

/** The verdict of a check. */
export interface ICheckVerdict {
  /** Whether the repair counts as a pass. */
  passed: boolean;
  /** The verdict in one word. */
  status: CheckStatus;
  /** Whether a pass comes with differences noted (another type, columns taken out…). */
  noted: boolean;
  /** The grade: solved, solved with differences noted, not solved, or not checked. */
  grade: CheckGrade;
  /** What the check found, most important first, each once (`renderVerdict` says them). */
  findings: CheckFinding[];
}

/**
 * Plan the check of a learner's notebook: the cells in play top to bottom, the guard findings
 * and the target's live result. Cells are matched with the case's notebooks by id where the
 * ids match, else by content (`alignNotebooks`), the same way for reproduced ↔ fixed and
 * reproduced ↔ learner. The casebook names the target: the submitted notebook's metadata
 * (a working copy's `metadata.junobench`) is a claim and is not read here.
 */
export function planCheck(
  learner: INotebookJSON,
  reference: ICheckReference,
  options: ICheckOptions
): ICheckPlan {
  const { reproduced, fixed } = reference;
  const reproTarget = findTarget(reproduced);
  const fallbackId = (i: number) =>
    typeof reproduced.cells[i]?.id === 'string' && reproduced.cells[i].id
      ? null
      : `jb-cell-${i}`;
  const toLearner = alignNotebooks(reproduced, learner, { fallbackId });
  const fixedToLearner = alignNotebooks(fixed, learner);
  const toFixed = alignNotebooks(reproduced, fixed);

  // The learner's target cell: the counterpart of the reproduced notebook's crashing cell.
  let targetIndex: number | null = null;
  let targetMatch: TargetMatch | null = null;
  const fixedTarget = reproTarget
    ? toFixed.forward(reproTarget.cellIndex)
    : null;
  // What the target's code is known as: the reproduced cell and its reference fix.
  const targetCode = reproTarget
    ? [reproduced.cells[reproTarget.cellIndex]]
        .concat(fixedTarget === null ? [] : [fixed.cells[fixedTarget]])
        .map(c => codeTokens(Private.code(c)))
    : [];
  if (reproTarget) {
    const pair = toLearner.pairOf(reproTarget.cellIndex);
    if (pair) {
      targetIndex = pair.to;
      targetMatch = pair.method;
    } else {
      // Merged into a neighbour (whose id the merged cell keeps): the neighbour's counterpart
      // holds the target's code beside the neighbour's own.
      const merged = Private.mergedInto(
        reproduced,
        learner,
        reproTarget.cellIndex,
        toLearner,
        targetCode
      );
      if (merged !== null) {
        targetIndex = merged;
        targetMatch = 'content';
      }
    }
  }
  // Split over consecutive cells: the learner's cells next to the target that have no
  // counterpart and bring its code closer to the crashing cell's (or its fix's) are one
  // target with it.
  const span =
    targetIndex === null
      ? []
      : Private.targetSpan(learner, targetIndex, toLearner, targetCode);

  // Cells in play.
  const inPlay = new Map<number, InPlayReason>();
  const mark = (i: number | null, why: InPlayReason) => {
    if (
      i !== null &&
      learner.cells[i]?.cell_type === 'code' &&
      !inPlay.has(i)
    ) {
      inPlay.set(i, why);
    }
  };
  mark(targetIndex, 'target');
  for (const step of recordedPlan(reproduced).steps) {
    mark(toLearner.forward(step.cellIndex), 'plan');
  }
  learner.cells.forEach((cell, i) => {
    if (typeof cell.execution_count === 'number') {
      mark(i, 'executed');
    } else if (toLearner.backward(i) === null) {
      mark(i, 'added');
    }
  });
  // The cells the reference fix runs (after the target, or moved above it by the learner).
  fixed.cells.forEach((cell, i) => {
    if (cell.cell_type === 'code' && typeof cell.execution_count === 'number') {
      mark(fixedToLearner.forward(i), 'fix');
    }
  });

  const target: ITarget | null =
    targetIndex !== null && reproTarget
      ? {
          ...reproTarget,
          cellIndex: targetIndex,
          codeCellIndex: Private.codeIndex(learner, targetIndex),
          line: null
        }
      : null;
  // The cells of a split target run as one step, where the target is.
  const spanSource = span
    .map(i => stripMarkers(sourceText(learner.cells[i])))
    .join('\n');
  const steps: IPlanStep[] = [...inPlay.keys()]
    .filter(i => i === targetIndex || !span.includes(i))
    .sort((a, b) => a - b)
    .map(i => {
      const cell = learner.cells[i];
      const count = cell.execution_count;
      return {
        cellIndex: i,
        codeCellIndex: Private.codeIndex(learner, i),
        executionCount: typeof count === 'number' ? count : null,
        source:
          i === targetIndex && span.length > 1
            ? spanSource
            : stripMarkers(sourceText(cell)),
        run: 1,
        isTarget: i === targetIndex
      };
    });

  const crashLine = reproTarget
    ? Private.crashLine(reproduced, reproTarget)
    : null;
  const reproName = cellRef(
    reproTarget?.cellIndex ?? 0,
    reproTarget ? Private.count(reproduced.cells[reproTarget.cellIndex]) : null
  );
  const learnerName =
    targetIndex === null
      ? reproName
      : cellRef(targetIndex, Private.count(learner.cells[targetIndex]));
  const guarded = reproTarget
    ? fixedTarget === null
      ? {
          findings: [
            Private.finding('reference-unaligned', {
              code: 'reference-unaligned',
              cell: reproName
            })
          ],
          repairedLine: null
        }
      : Private.guard(
          targetIndex === null
            ? null
            : span.length > 1
              ? { ...learner.cells[targetIndex], source: spanSource }
              : learner.cells[targetIndex],
          fixed.cells[fixedTarget],
          crashLine,
          learnerName
        )
    : { findings: [], repairedLine: null };

  const traced = steps
    .filter(step => {
      if (step.isTarget) {
        return true;
      }
      // A cell whose code differs only in its comments runs the same code: not traced.
      const from = toLearner.backward(step.cellIndex);
      return (
        from === null ||
        uncommented(reproduced.cells[from]) !==
          uncommented(learner.cells[step.cellIndex])
      );
    })
    .map(step => step.cellIndex);

  return {
    kind: 'top-to-bottom',
    steps,
    target,
    targetCellIndex: targetIndex,
    targetMatch,
    fixedTargetIndex: fixedTarget,
    inPlay: Object.fromEntries(inPlay),
    guard: guarded.findings,
    live:
      targetIndex === null
        ? 'not-run'
        : Private.liveResult(learner.cells[targetIndex]),
    crashLine,
    repairedLine: guarded.repairedLine,
    traced,
    targetSpan: span.length > 1 ? span : []
  };
}

/**
 * The plain judgement of a check from its plan and the fresh run (null when the fresh run has
 * not happened): a clean fresh run, no guard finding and, for notebook-specific cases, a clean
 * latest live run of the target. It asks nothing of the execution evidence or the reference
 * fix's effect: `judgeRepair` adds those.
 */
export function judgeCheck(
  plan: ICheckPlan,
  run: IRunResult | null,
  options: Pick<ICheckOptions, 'notebookSpecific'>
): ICheckVerdict {
  return Private.judge(plan, run, options, []);
}

/**
 * The learner's live kernel replayed (notebook-specific cases): the replay of
 * the crash, then the cells the learner ran since, in the order of their prompts.
 */
export interface ILiveEvidence {
  /** The replay (the target's last run probed), or null when the learner never ran it. */
  run: IRunResult | null;
  /** Whether the learner ran the target cell after the crash's replay. */
  learnerRanTarget: boolean;
  /**
   * Where the replayed steps came from: the live kernel's own input history (evidence), or
   * the saved notebook's prompts (claims; the default).
   */
  source?: 'history' | 'prompts';
  /** What the replay touched outside its data (the scratch copy's guard), when it reported. */
  access?: IAccessReport | null;
}

/** Libraries the check's kernel has at other versions than the benchmark's. */
export interface IEnvironmentEvidence {
  /** Libraries the notebook imports that differ. */
  libraries: Array<{ name: string; found: string | null; pinned: string }>;
  /** Python, when its minor version differs. */
  python: { found: string; pinned: string } | null;
  /** Where the check's kernel ran. */
  environment: KernelEnvironment;
  /** The container image (null outside the container). */
  image: string | null;
}

/** What the evidence of a fresh run showed, for `judgeRepair`. */
export interface IRepairEvidence {
  /** What the reference fix does (null when its own run failed, with why). */
  reference: IReferenceEvidence | null;
  /** Why the reference evidence is missing, when it is. */
  referenceError?: ReferenceProblem;
  /** The live-order replay of the learner's notebook, for notebook-specific cases. */
  live?: ILiveEvidence | null;
  /** How the kernel's libraries differ from the benchmark's (a note). */
  environment?: IEnvironmentEvidence | null;
  /**
   * The learner's names at the end of the fresh run (element-wise summaries), or null when
   * the run did not complete or the probe could not say.
   */
  final?: Record<string, IValueSummary> | null;
  /** What the notebook touched outside its data (the scratch copy's guard), when it reported. */
  access?: IAccessEvidence | null;
  /**
   * What the notebook changed in how the interpreter runs code, at the end of the fresh run
   * (null: the kernel could not say; absent: not asked).
   */
  interpreter?: IInterpreterChange[] | null;
  /**
   * The learner's run on other data (after a pass): the results that change with the data
   * in the reference but not in the learner's notebook.
   */
  perturbed?: { unchanged: string[] } | null;
  /**
   * Why a run of the notebook with nothing of the check in its kernel (no probe, no tracing)
   * ended short of the end, where the checked run completed (after a pass; absent: it
   * completed, or nothing could be said).
   */
  unwatched?: RunStop | null;
}

/**
 * Judge a repair with its execution evidence: the plain judgement plus (a) no
 * exception the reference fix does not raise may be raised and swallowed while
 * the target or a changed cell runs (in any cell's code, in helper functions
 * and threads; classes compared by identity), (b) the unit of code holding the
 * repaired statement must have run as Python, and (c) after the target, the
 * results the reference's target cell sets must be there and alike, element by
 * element (other containers, squeezed shapes, columns the learner took out and
 * one-step rounding are noted, not failed), and (d) the notebook must not
 * change how Python or IPython runs code unless the reference fix makes the
 * same change. For notebook-specific cases the live order is evidence too.
 * Missing evidence never passes.
 */
export function judgeRepair(
  plan: ICheckPlan,
  run: IRunResult | null,
  options: Pick<ICheckOptions, 'notebookSpecific'>,
  evidence: IRepairEvidence
): ICheckVerdict {
  const extra: Private.IExtra[] = [];
  if (!run) {
    return Private.judge(plan, run, options, extra);
  }
  const caught = new Set(evidence.reference?.caught ?? []);
  for (const result of run.steps) {
    const i = result.step.cellIndex;
    if (!plan.traced.includes(i)) {
      continue;
    }
    if (run.stop.code === 'kernel' && result.index === run.failedIndex) {
      // Its kernel went away while it ran: the run's end says so; no probe could report.
      continue;
    }
    const name = cellRef(i, result.step.executionCount);
    const report = readProbeReport(result.probe);
    const failed = !!result.error;
    // An empty (or comments-only) cell runs nothing: there is nothing to trace in it (an
    // emptied target is still judged by the state after it).
    const noCode = !Private.hasCode(result.step.source);
    if (noCode && !result.step.isTarget) {
      continue;
    }
    if (noCode && report?.effect && !failed) {
      extra.push(...Private.targetEffect(evidence, report, name));
      continue;
    }
    if (
      !report?.trace ||
      (!failed && report.trace.units === null && !report.trace.lines.length) ||
      (!failed && !report.trace.instrumented)
    ) {
      // No trace, or a clean cell the probe could not instrument: no evidence
      // either way, never a pass.
      if (!failed) {
        extra.push({
          status: 'not-checked',
          finding: { code: 'no-evidence', cell: name }
        });
      }
      continue;
    }
    for (const e of swallowedExceptions(report.trace, failed)) {
      if (caught.has(exceptionKey(e))) {
        continue;
      }
      extra.push({
        status: 'hidden-crash',
        finding: {
          code: 'swallowed',
          cell: name,
          line: e.line,
          ename: e.ename,
          evalue: e.evalue,
          where: e.thread ? 'thread' : e.inCell === false ? 'helper' : 'cell',
          helperCount: e.inCell === false ? (e.cellCount ?? null) : undefined
        }
      });
      break;
    }
    if (result.step.isTarget && plan.repairedLine !== null && !failed) {
      const line = plan.repairedLine;
      const statement = result.step.source.split('\n')[line - 1]?.trim() ?? '';
      const seen = lineEvidence(
        report.trace,
        line,
        plan.crashLine ?? statement
      );
      const magic = /^\s*(%%\S+)/.exec(result.step.source)?.[1] ?? null;
      if (seen.inString) {
        extra.push({
          status: 'hidden-crash',
          finding: { code: 'in-string', cell: name, line, statement }
        });
      } else if (!seen.unit && magic && report.trace.units !== null) {
        extra.push({
          status: 'hidden-crash',
          finding: { code: 'not-python', cell: name, line, statement, magic }
        });
      } else if (!seen.executed) {
        extra.push({
          status: 'hidden-crash',
          finding: { code: 'not-executed', cell: name, line, statement }
        });
      }
    }
    if (result.step.isTarget && !failed) {
      extra.push(...Private.targetEffect(evidence, report, name));
    }
  }
  if (
    plan.target &&
    !run.steps.some(r => r.step.isTarget) &&
    run.status === 'completed'
  ) {
    // A completed run always reaches the target; guard against a plan without it.
    extra.push({
      status: 'not-checked',
      finding: {
        code: 'no-evidence',
        cell: cellRef(plan.target.cellIndex, null)
      }
    });
  }
  // A notebook-specific crash that a fresh top-to-bottom run of the reproduced notebook
  // does not show (a re-run, a cell run early): the fresh run proves nothing, the live
  // kernel must be right too. Where the fresh run of the reproduced notebook crashes as
  // well, the learner's clean fresh run is the evidence, and the live kernel is only said.
  // Where the fresh run is evidence by itself, a learner who ran the target again live
  // and saw it "run clean" is still held to what that live run left.
  const liveRequired =
    options.notebookSpecific &&
    ((evidence.reference?.reproducedFresh ?? 'clean') !== 'crashes' ||
      !!evidence.live?.learnerRanTarget);
  if (liveRequired && evidence.live && evidence.reference) {
    const target = run.steps.filter(r => r.step.isTarget).pop();
    const fresh = readProbeReport(target?.probe)?.effect ?? null;
    extra.push(
      ...Private.liveFindings(plan, evidence.live, evidence.reference, fresh)
    );
  } else if (options.notebookSpecific && plan.live === 'error') {
    // Even where a clean fresh run is the evidence, a notebook-specific crash is not solved
    // while the live kernel's last run of the target failed: a verdict never says "solved"
    // beside "in your live kernel the target cell last raised an error".
    extra.push({ status: 'fails-live', finding: { code: 'nb-live-error' } });
  }
  if (evidence.reference?.final && evidence.final) {
    const target = run.steps.filter(r => r.step.isTarget).pop();
    extra.push(
      ...Private.finalFindings(
        evidence.reference,
        evidence.final,
        readProbeReport(target?.probe)?.effect ?? null
      )
    );
  }
  // A result that stays the same when the case's data change was not computed from them.
  if (evidence.perturbed?.unchanged.length) {
    extra.push({
      status: 'different-effect',
      finding: {
        code: 'data-independent',
        names: [...evidence.perturbed.unchanged].sort()
      }
    });
  }
  // A notebook that works only while the check watches it (it looks for the probe, a trace
  // function, a transformer) still fails in an ordinary kernel.
  if (evidence.unwatched) {
    extra.push({
      status: 'fails-fresh',
      finding: { code: 'unwatched-fails', stop: evidence.unwatched }
    });
  }
  // Reading the answer key or rewriting an input is no repair, whatever else the run shows.
  for (const finding of accessFindings(evidence.access)) {
    extra.push({ status: 'off-limits', finding });
  }
  // Changing how Python runs code is no repair, unless the reference fix does the same (said
  // of a run that stopped early too; only a completed run needs the report).
  if (
    evidence.interpreter !== undefined &&
    (evidence.interpreter !== null || run.status === 'completed')
  ) {
    for (const finding of interpreterFindings(
      evidence.interpreter,
      evidence.reference?.interpreter ?? [],
      cellsByCount(run.steps)
    )) {
      extra.push({
        status:
          finding.code === 'interpreter-unknown'
            ? 'not-checked'
            : 'changes-interpreter',
        finding
      });
    }
  }
  const restructured = Private.restructured(
    plan,
    extra,
    run,
    evidence.reference
  );
  if (evidence.environment) {
    const env = evidence.environment;
    if (env.libraries.length || env.python) {
      // Said, not graded: the repair is judged against the reference run in the same kernel.
      extra.push({
        status: null,
        finding: {
          code: 'environment',
          libraries: env.libraries,
          python: env.python
        }
      });
    }
  }
  return Private.judge(
    restructured ? { ...plan, guard: [] } : plan,
    run,
    {
      notebookSpecific: liveRequired,
      liveEvidence: liveRequired && !!evidence.live && !!evidence.reference
    },
    restructured ? [...extra, restructured] : extra
  );
}

/**
 * The verdict as people read it: one verdict line and each reason once.
 */
export function renderVerdict(
  verdict: Pick<ICheckVerdict, 'status' | 'findings'> &
    Partial<Pick<ICheckVerdict, 'noted'>>,
  __: Translate = english
): { headline: string; reasons: string[] } {
  return {
    headline: renderStatus(verdict.status, __, verdict.noted ?? false),
    reasons: verdict.findings.map(f => renderFinding(f, __))
  };
}

namespace Private {
  /** Whether a cell's source holds code (not only blank lines and comments). */
  export function hasCode(source: string): boolean {
    return source.split('\n').some(l => l.trim() && !/^\s*#/.test(l));
  }

  /** Lines that show the cell still crashes or is just commented away. */
  const COMMENT = /^\s*#/;

  /** A finding beside the plain judgement, with the status it implies. */
  export interface IExtra {
    /** The status it implies (null: a finding in favour). */
    status: CheckStatus | null;
    /** The finding. */
    finding: CheckFinding;
    /** A difference noted beside a pass (it makes a pass "solved, with differences noted"). */
    note?: boolean;
  }

  /**
   * The target's effect against the reference's, or why it cannot be compared.
   */
  export function targetEffect(
    evidence: IRepairEvidence,
    report: IProbeReport,
    name: ICellRef
  ): IExtra[] {
    if (!evidence.reference) {
      return [
        {
          status: 'no-reference',
          finding: {
            code: 'reference-failed',
            problem: evidence.referenceError ?? { code: 'not-run' }
          }
        }
      ];
    }
    if (!report.effect) {
      return [
        { status: 'not-checked', finding: { code: 'no-evidence', cell: name } }
      ];
    }
    return effectFindings(evidence.reference, report.effect);
  }

  /**
   * What the notebook finally leaves: every result of the reference's crashing cell that the
   * reference still holds at the end of its run must hold the same value at the end of the
   * learner's (a right result at the target overwritten by a wrong one later fails). A name
   * the learner no longer holds at the end is not judged here: right after the target is
   * where a result must be. Nor is a value the learner's later cells left as the target left it
   * (`atTarget`: the learner's state right after the target): the comparison there stands, with
   * what it noted (columns taken out, another order). A value changed later is compared with
   * the same allowances, from what the learner had before the target.
   */
  export function finalFindings(
    reference: IReferenceEvidence,
    final: Record<string, IValueSummary>,
    atTarget: IEffectReport | null
  ): IExtra[] {
    const same = (a: unknown, b: unknown) =>
      JSON.stringify(a) === JSON.stringify(b);
    const effects = Object.fromEntries(
      Object.entries(reference.final ?? {}).filter(
        ([name]) =>
          name in final &&
          !(atTarget && same(atTarget.after[name], final[name]))
      )
    );
    const cmp = compareEffects(
      { ...reference, effects, figures: { summaries: [], values: false } },
      {
        changes: {},
        after: final,
        before: atTarget?.before ?? {},
        figures: [],
        roles: {}
      }
    );
    const d = cmp.differences.find(x => x.name !== '');
    return d
      ? [
          {
            status: 'different-effect',
            finding: {
              code: 'final-differs',
              name: d.name,
              aspect: d.difference.aspect,
              expectedSide: d.difference.expectedSide,
              actualSide: d.difference.actualSide
            }
          }
        ]
      : [];
  }

  /**
   * What comparing the learner's state after the target with the reference's
   * found: differences fail, notes go beside a pass, a match is said once.
   */
  export function effectFindings(
    reference: IReferenceEvidence,
    effect: IEffectReport
  ): IExtra[] {
    const out: IExtra[] = [];
    const cmp = compareEffects(reference, effect);
    for (const d of cmp.differences) {
      if (d.name === '') {
        out.push({
          status: 'different-effect',
          finding: {
            code: 'figure-differs',
            expectedSide: d.difference.expectedSide,
            actualSide: d.difference.actualSide
          }
        });
        continue;
      }
      out.push({
        status: 'different-effect',
        finding:
          d.difference.aspect === 'missing'
            ? {
                code: 'effect-missing',
                name: d.name,
                expected: d.difference.expected,
                expectedSide: d.difference.expectedSide
              }
            : {
                code: 'effect-differs',
                name: d.name,
                aspect: d.difference.aspect,
                expected: d.difference.expected,
                actual: d.difference.actual,
                expectedSide: d.difference.expectedSide,
                actualSide: d.difference.actualSide
              }
      });
    }
    if (cmp.differences.length) {
      return out;
    }
    out.push({
      status: null,
      finding: {
        code: 'same-effect',
        names: cmp.same
          .sort()
          .map(n => `\`${n}\``)
          .join(', '),
        ...(reference.figures?.summaries.length ? { figures: true } : {})
      }
    });
    const missing = cmp.notes
      .filter(n => n.note.code === 'intermediate-missing')
      .map(n => `\`${n.name}\``);
    if (missing.length) {
      out.push({
        status: null,
        note: true,
        finding: { code: 'intermediate-missing', names: missing.join(', ') }
      });
    }
    for (const { name, note } of cmp.notes) {
      if (note.code !== 'intermediate-missing') {
        out.push({
          status: null,
          note: true,
          finding: { code: 'effect-noted', name, note }
        });
      }
    }
    return out;
  }

  /**
   * A guard finding (the crashing cell emptied or commented out, its failing
   * line removed) overridden by the evidence: after the target the reference's
   * results are all there and the same, and nothing else failed, so the learner
   * computed them another way. Null when the guard stands.
   */
  export function restructured(
    plan: ICheckPlan,
    extra: IExtra[],
    run: IRunResult,
    reference: IReferenceEvidence | null = null
  ): IExtra | null {
    if (run.status !== 'completed' || run.steps.some(r => r.error)) {
      return null;
    }
    const guard = plan.guard.find(g => g.kind !== 'reference-unaligned');
    if (
      !guard ||
      guard.kind === 'target-deleted' ||
      plan.guard.some(g => g.kind === 'reference-unaligned')
    ) {
      return null;
    }
    // The results are all there and the same: the names the reference's cell sets, or the
    // figures it draws where it sets none (a plot drawn through another API, same data).
    const figures = (reference?.figures.summaries.length ?? 0) > 0;
    const same = extra.find(
      e =>
        e.finding.code === 'same-effect' && (e.finding.names !== '' || figures)
    );
    if (!same || extra.some(e => e.status !== null)) {
      return null;
    }
    const f = guard.finding;
    if (!('cell' in f)) {
      return null;
    }
    return {
      status: null,
      note: true,
      finding: {
        code: 'restructured',
        cell: f.cell,
        statement: 'statement' in f ? f.statement : null
      }
    };
  }

  /**
   * The learner's cell a target with no counterpart was merged into: the counterpart of one
   * of its neighbouring code cells in the reproduced notebook, whose code beyond the
   * neighbour's own lines is the target's (alike by the alignment's own content rule).
   */
  export function mergedInto(
    reproduced: INotebookJSON,
    learner: INotebookJSON,
    target: number,
    toLearner: ReturnType<typeof alignNotebooks>,
    targetCode: string[][]
  ): number | null {
    const codes = reproduced.cells
      .map((c, i) => ({ c, i }))
      .filter(({ c }) => c.cell_type === 'code' && code(c).trim() !== '')
      .map(({ i }) => i);
    const k = codes.indexOf(target);
    for (const n of [codes[k - 1], codes[k + 1]]) {
      const to = n === undefined ? null : toLearner.forward(n);
      if (to === null) {
        continue;
      }
      const own = new Set(
        code(reproduced.cells[n])
          .split('\n')
          .map(l => l.trim())
      );
      const rest = code(learner.cells[to])
        .split('\n')
        .filter(l => !own.has(l.trim()))
        .join('\n');
      const tokens = codeTokens(rest);
      if (
        tokens.length &&
        targetCode.some(t => dice(t, tokens) >= POLICY.cellMatch)
      ) {
        return to;
      }
    }
    return null;
  }

  /**
   * The target and the learner's neighbouring code cells that have no counterpart and, added
   * to it, bring its code closer to the crashing cell's or its fix's (a statistic in one
   * cell and its use in the next; a `dropna` moved below). A cell magic is never merged.
   */
  export function targetSpan(
    learner: INotebookJSON,
    target: number,
    toLearner: ReturnType<typeof alignNotebooks>,
    targetCode: string[][]
  ): number[] {
    const codes = learner.cells
      .map((c, i) => ({ c, i }))
      .filter(({ c }) => c.cell_type === 'code' && code(c).trim() !== '')
      .map(({ i }) => i);
    const score = (cells: number[]) => {
      const tokens = codeTokens(
        cells.map(i => code(learner.cells[i])).join('\n')
      );
      return Math.max(0, ...targetCode.map(t => dice(t, tokens)));
    };
    const magic = (i: number) => /^\s*%%/.test(sourceText(learner.cells[i]));
    if (magic(target)) {
      return [target];
    }
    let span = [target];
    for (;;) {
      const first = codes.indexOf(span[0]);
      const last = codes.indexOf(span[span.length - 1]);
      const candidates = [
        { at: codes[last + 1], next: (i: number) => [...span, i] },
        { at: codes[first - 1], next: (i: number) => [i, ...span] }
      ].filter(
        ({ at }) =>
          at !== undefined && toLearner.backward(at) === null && !magic(at)
      );
      const best = candidates
        .map(({ at, next }) => next(at))
        .filter(cells => score(cells) > score(span))
        .sort((a, b) => score(b) - score(a))[0];
      if (!best) {
        return span;
      }
      span = best;
    }
  }

  /**
   * The live kernel's evidence for a notebook-specific case: the learner's
   * notebook replayed as its live kernel ran it (the replay of the crash, then
   * the cells the learner ran since, by their prompts) must end with a clean
   * run of the target, no error hidden, and the reference's results there and alike.
   */
  export function liveFindings(
    plan: ICheckPlan,
    live: ILiveEvidence,
    reference: IReferenceEvidence,
    fresh: IEffectReport | null
  ): IExtra[] {
    const gone = kernelGone(live.run, 'live');
    if (gone) {
      return [gone];
    }
    const steps = live.run?.steps.filter(r => r.step.isTarget) ?? [];
    const last = steps[steps.length - 1];
    if (plan.live === 'error') {
      // The target's saved output is an error: its last run in the live kernel failed. Prompts
      // that say otherwise (a re-run typed in) are claims a saved error contradicts.
      return [
        {
          status: 'fails-live',
          finding: {
            code:
              live.learnerRanTarget && last && !last.error
                ? 'live-error-saved'
                : 'nb-live-error'
          }
        }
      ];
    }
    if (!live.learnerRanTarget || !last) {
      // The target was not run since the crash.
      return [{ status: 'not-run-live', finding: { code: 'nb-live-not-run' } }];
    }
    if (last.error) {
      // Replayed from the live kernel's own history, the error is what the live kernel did.
      // Replayed from the prompts, the saved notebook shows a clean last run that its own
      // history cannot give (a cell edited after it ran, a run not saved): the saved output
      // is all there is to go by.
      if (live.source === 'history') {
        return [{ status: 'fails-live', finding: { code: 'nb-live-error' } }];
      }
      return plan.live === 'ok'
        ? [{ status: null, finding: { code: 'live-unreplayed' } }]
        : [{ status: 'not-run-live', finding: { code: 'nb-live-not-run' } }];
    }
    const name = cellRef(last.step.cellIndex, last.step.executionCount);
    const report = readProbeReport(last.probe);
    const out: IExtra[] = [];
    const caught = new Set(reference.caught);
    const swallowed = report?.trace
      ? swallowedExceptions(report.trace, false).find(
          e => !caught.has(exceptionKey(e))
        )
      : undefined;
    if (swallowed) {
      // Said, not failed by itself: a cell made safe to run again may catch the re-run's
      // error; whether the state it leaves is right is what the comparisons below judge.
      out.push({
        status: null,
        finding: {
          code: 'live-swallowed',
          cell: name,
          ename: swallowed.ename,
          evalue: swallowed.evalue
        }
      });
    }
    // What the target reads must be what a fresh run of the same notebook gives it: a
    // live kernel whose state the crash left broken shows there first.
    const inputs = report?.effect?.inputs ?? {};
    for (const [n, expected] of Object.entries(fresh?.inputs ?? {})) {
      const mine = inputs[n];
      const d = mine ? compareInputs(expected, mine) : null;
      if (!mine || d) {
        out.push({
          status: 'fails-live',
          finding: d
            ? {
                code: 'live-input-differs',
                name: n,
                aspect: d.aspect,
                expectedSide: d.expectedSide,
                actualSide: d.actualSide
              }
            : { code: 'live-input-missing', name: n }
        });
        return out;
      }
    }
    if (report?.effect) {
      for (const d of compareEffects(reference, report.effect).differences) {
        if (d.name === '') {
          continue;
        }
        out.push({
          status: 'fails-live',
          finding:
            d.difference.aspect === 'missing'
              ? { code: 'live-effect-missing', name: d.name }
              : {
                  code: 'live-effect-differs',
                  name: d.name,
                  aspect: d.difference.aspect,
                  expectedSide: d.difference.expectedSide,
                  actualSide: d.difference.actualSide
                }
        });
        break;
      }
    }
    return out;
  }

  /** Statuses that say the check could not judge. */
  const NOT_CHECKED = new Set<CheckStatus>([
    'not-checked',
    'no-target',
    'unaligned',
    'no-reference'
  ]);

  /** Statuses that fail a check, most telling first. */
  const PRECEDENCE: CheckStatus[] = [
    'no-target',
    'unaligned',
    'off-limits',
    'hidden-crash',
    'changes-interpreter',
    'different-effect',
    'works-live-only',
    'fails-fresh',
    'no-reference',
    'not-checked',
    'fails-live',
    'not-run-live'
  ];

  /**
   * A guard finding.
   */
  export function finding(
    kind: GuardFindingKind,
    f: CheckFinding
  ): IGuardFinding {
    return { kind, finding: f };
  }

  /**
   * A cell's execution count, or null.
   */
  export function count(cell: INbCell | undefined): number | null {
    return typeof cell?.execution_count === 'number'
      ? cell.execution_count
      : null;
  }

  /**
   * A cell's code for comparison: markers stripped, lines trimmed, blank lines dropped.
   */
  export function code(cell: INbCell | undefined): string {
    return cell ? lines(stripMarkers(sourceText(cell))).join('\n') : '';
  }

  /**
   * Position of a cell among code cells.
   */
  export function codeIndex(nb: INotebookJSON, cellIndex: number): number {
    return nb.cells.slice(0, cellIndex).filter(c => c.cell_type === 'code')
      .length;
  }

  /**
   * The text of the reproduced target's crash line, markers stripped.
   */
  export function crashLine(
    reproduced: INotebookJSON,
    target: ITarget
  ): string | null {
    if (target.line === null) {
      return null;
    }
    const raw = sourceText(reproduced.cells[target.cellIndex]);
    const line = lineAfterStrip(raw, target.line);
    if (line === null) {
      return null;
    }
    const text = stripMarkers(raw).split('\n')[line - 1]?.trim();
    return text ? text : null;
  }

  /**
   * Dice coefficient over token multisets.
   */
  export function lineSimilarity(a: string, b: string): number {
    return dice(codeTokens(a), codeTokens(b));
  }

  /**
   * The target of a simple assignment (`Z = …`, `a, b = …`, `df['x'] = …`), spaces removed,
   * or null when the line assigns nothing.
   */
  export function assigned(line: string): string | null {
    const m = line.match(
      /^\s*((?:[A-Za-z_][\w.]*(?:\s*\[[^\]]*\])*)(?:\s*,\s*[A-Za-z_][\w.]*(?:\s*\[[^\]]*\])*)*)\s*=(?!=)/
    );
    return m ? m[1].replace(/\s+/g, '') : null;
  }

  /**
   * How much a line is the statement `wanted`, possibly edited: their token similarity, and
   * at least `POLICY.sameLine` when both assign the same target (a rewritten right-hand side).
   */
  function sameness(line: string, wanted: string): number {
    const score = lineSimilarity(line, wanted);
    const target = assigned(wanted);
    return target !== null && assigned(line) === target
      ? Math.max(score, POLICY.sameLine)
      : score;
  }

  /**
   * Whether some line is the same statement as `wanted` (possibly edited).
   */
  function holds(lines: string[], wanted: string): boolean {
    return lines.some(l => sameness(l, wanted) >= POLICY.sameLine);
  }

  /**
   * The non-blank lines of a source, trimmed.
   */
  function lines(source: string): string[] {
    return source
      .split('\n')
      .map(l => l.trim())
      .filter(Boolean);
  }

  /**
   * The anti-cheat findings: what happened to the target cell and its crash line, when the
   * reference fix kept them; and the line of the learner's target holding the repaired
   * crash line (the most alike code line), for the execution evidence.
   */
  export function guard(
    learnerCell: INbCell | null,
    fixedCell: INbCell,
    crash: string | null,
    cell: ICellRef
  ): { findings: IGuardFinding[]; repairedLine: number | null } {
    const none = { findings: [], repairedLine: null };
    const fixedCode = lines(stripMarkers(sourceText(fixedCell))).filter(
      l => !COMMENT.test(l)
    );
    if (!fixedCode.length) {
      // The reference fix empties the cell (or leaves only comments): so may the learner.
      return none;
    }
    if (!learnerCell || learnerCell.cell_type !== 'code') {
      return {
        findings: [finding('target-deleted', { code: 'target-deleted', cell })],
        repairedLine: null
      };
    }
    const raw = stripMarkers(sourceText(learnerCell)).split('\n');
    const all = lines(raw.join('\n'));
    const codeLines = all.filter(l => !COMMENT.test(l));
    const comments = all
      .filter(l => COMMENT.test(l))
      .map(l => l.replace(/^#+\s*/, ''));
    if (!all.length) {
      return {
        findings: [finding('target-emptied', { code: 'target-emptied', cell })],
        repairedLine: null
      };
    }
    if (!codeLines.length) {
      return {
        findings: [
          finding('target-commented-out', {
            code: 'target-commented-out',
            cell
          })
        ],
        repairedLine: null
      };
    }
    if (!crash) {
      return none;
    }
    if (!holds(fixedCode, crash)) {
      // The reference fix rewrote the failing statement beyond recognition.
      return none;
    }
    const wanted = [
      crash,
      ...fixedCode.filter(l => sameness(l, crash) >= POLICY.sameLine)
    ];
    let best: { line: number; score: number } | null = null;
    raw.forEach((text, k) => {
      const t = text.trim();
      if (!t || COMMENT.test(t)) {
        return;
      }
      const score = Math.max(...wanted.map(w => sameness(t, w)));
      if (score >= POLICY.sameLine && (!best || score > best.score)) {
        best = { line: k + 1, score };
      }
    });
    if (best) {
      return { findings: [], repairedLine: (best as { line: number }).line };
    }
    if (wanted.some(w => holds(comments, w))) {
      return {
        findings: [
          finding('target-commented-out', {
            code: 'line-commented-out',
            cell,
            statement: crash
          })
        ],
        repairedLine: null
      };
    }
    return {
      findings: [
        finding('failing-line-removed', {
          code: 'line-removed',
          cell,
          statement: crash
        })
      ],
      repairedLine: null
    };
  }

  /**
   * The target's latest live run from its execution count and outputs.
   */
  export function liveResult(cell: INbCell): LiveResult {
    if (cell.cell_type !== 'code') {
      return 'not-run';
    }
    if ((cell.outputs ?? []).some(o => o.output_type === 'error')) {
      return 'error';
    }
    return typeof cell.execution_count === 'number' ? 'ok' : 'not-run';
  }

  /**
   * Whether the fresh run went through every planned cell without error, and if not why.
   */
  export function freshOutcome(
    plan: ICheckPlan,
    run: IRunResult | null
  ): CheckFinding {
    if (!run) {
      return { code: 'fresh-not-run' };
    }
    if (run.stop.code === 'timeout' || run.stop.code === 'kernel') {
      // The step that timed out or lost its kernel may carry the interrupt's
      // KeyboardInterrupt: the cell did not raise it, the run gave up on it.
      return { code: 'fresh-unfinished', stop: run.stop };
    }
    const failed = run.steps.find(s => s.error);
    if (failed?.error) {
      const step = failed.step;
      return {
        code: 'fresh-error',
        cell: cellRef(step.cellIndex, step.executionCount),
        line: failed.error.line,
        ename: failed.error.ename,
        evalue: failed.error.evalue,
        afterTarget:
          plan.targetCellIndex !== null && step.cellIndex > plan.targetCellIndex
      };
    }
    if (run.status !== 'completed' || run.steps.length < plan.steps.length) {
      return {
        code: 'fresh-unfinished',
        stop: run.stop
      };
    }
    return { code: 'fresh-clean', count: plan.steps.length };
  }

  /**
   * A run that ended because its kernel went away. A kernel that died (its process ended: an
   * `os._exit`, a signal, a lack of memory) while a cell ran is the notebook's doing and fails
   * the repair; one shut down, restarted by someone else or lost with its server leaves the
   * repair not checked. Null for a run that ended otherwise.
   */
  export function kernelGone(
    run: IRunResult | null,
    which: 'fresh' | 'live'
  ): IExtra | null {
    const stop = run?.stop;
    if (stop?.code !== 'kernel' || stop.fate === 'unresponsive') {
      return null;
    }
    if (stop.fate === 'died') {
      return {
        status: which === 'fresh' ? 'fails-fresh' : 'fails-live',
        finding: { code: 'kernel-died', run: which, cell: stop.cell }
      };
    }
    return {
      status: 'not-checked',
      finding:
        which === 'fresh'
          ? { code: 'fresh-unfinished', stop }
          : { code: 'live-unfinished', stop }
    };
  }

  /**
   * The verdict: every finding once, the most telling failing status first.
   */
  export function judge(
    plan: ICheckPlan,
    run: IRunResult | null,
    options: Pick<ICheckOptions, 'notebookSpecific'> & {
      liveEvidence?: boolean;
    },
    extra: IExtra[]
  ): ICheckVerdict {
    const found: IExtra[] = [];
    if (!plan.target && plan.guard.length === 0) {
      found.push({ status: 'no-target', finding: { code: 'no-target' } });
    }
    for (const g of plan.guard) {
      found.push({
        status: g.kind === 'reference-unaligned' ? 'unaligned' : 'hidden-crash',
        finding: g.finding
      });
    }
    found.push(...extra.filter(e => e.status === 'off-limits'));
    found.push(...extra.filter(e => e.status === 'hidden-crash'));
    const fresh = freshOutcome(plan, run);
    const gone = kernelGone(run, 'fresh');
    if (gone) {
      // A kernel that died is the notebook's doing, whatever the live kernel kept.
      found.push(gone);
    } else if (fresh.code === 'fresh-clean') {
      found.push({ status: null, finding: fresh });
    } else if (fresh.code === 'fresh-not-run') {
      found.push({ status: 'not-checked', finding: fresh });
    } else if (
      fresh.code === 'fresh-error' &&
      /^(ModuleNotFoundError|ImportError)$/.test(fresh.ename)
    ) {
      // A missing library is the environment's doing, not state the live kernel kept.
      found.push({ status: 'fails-fresh', finding: fresh });
      const module = /No module named '([^']+)'/.exec(fresh.evalue)?.[1];
      found.push({
        status: 'fails-fresh',
        finding: { code: 'missing-module', module: module ?? fresh.evalue }
      });
    } else if (plan.live === 'ok') {
      found.push({ status: 'works-live-only', finding: fresh });
      found.push({ status: 'works-live-only', finding: { code: 'live-only' } });
    } else {
      found.push({ status: 'fails-fresh', finding: fresh });
    }
    found.push(
      ...extra.filter(
        e => e.status !== 'hidden-crash' && e.status !== 'off-limits'
      )
    );
    if (
      options.notebookSpecific &&
      !options.liveEvidence &&
      run &&
      fresh.code === 'fresh-clean'
    ) {
      // A fresh top-to-bottom run cures out-of-order runs and re-runs by itself, so it proves
      // nothing here: the learner must also restore a working state in the live kernel.
      if (plan.live === 'error') {
        found.push({
          status: 'fails-live',
          finding: { code: 'nb-live-error' }
        });
      } else if (plan.live === 'not-run') {
        found.push({
          status: 'not-run-live',
          finding: { code: 'nb-live-not-run' }
        });
      }
    }
    if (
      plan.targetCellIndex !== null &&
      !found.some(f => f.finding.code === 'live-only')
    ) {
      found.push({
        status: null,
        finding: { code: 'live', result: plan.live }
      });
    }
    const statuses = new Set(found.map(f => f.status));
    const status =
      PRECEDENCE.find(s => statuses.has(s)) ?? ('solved' as CheckStatus);
    if (
      status === 'hidden-crash' ||
      status === 'changes-interpreter' ||
      status === 'different-effect' ||
      status === 'off-limits'
    ) {
      // A later failure then follows from the hidden crash or the different
      // value, not from state the live kernel kept.
      for (let k = found.length - 1; k >= 0; k--) {
        if (found[k].finding.code === 'live-only') {
          found.splice(k, 1);
        }
      }
    }
    // Each reason once, the ones behind the status first.
    const seen = new Set<string>();
    const findings: CheckFinding[] = [];
    const ordered = [
      ...found.filter(f => f.status === status),
      ...found.filter(f => f.status !== status)
    ];
    for (const f of ordered) {
      const key = JSON.stringify(f.finding);
      if (!seen.has(key)) {
        seen.add(key);
        findings.push(f.finding);
      }
    }
    const passed = status === 'solved';
    const noted = passed && found.some(f => f.note);
    return {
      passed,
      status,
      noted,
      grade: passed
        ? noted
          ? 'solved-with-differences'
          : 'solved'
        : NOT_CHECKED.has(status)
          ? 'not-checked'
          : 'not-solved',
      findings
    };
  }
}
