/**
 * "Check my fix": which cells of the learner's notebook a fresh kernel runs,
 * whether the repair only hides the crash, how the target's latest live run
 * ended, and the verdict once the fresh run is back. Pure logic.
 */
import type { IRunResult } from '../kernel/runner';
import { readWorkingCopyMeta } from '../model/workingCopy';
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
import { alignNotebooks, codeTokens, dice } from './align';
import type { AlignMethod } from './align';
import {
  compareEffects,
  lineEvidence,
  readProbeReport,
  swallowedExceptions
} from './evidence';
import type { IReferenceEvidence } from './evidence';
import { cellRef } from '../i18n';
import type { ICellRef } from '../i18n';
import { english, renderFinding, renderStatus } from './findings';
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
  /** The finding, as a code with parameters. */
  finding: CheckFinding;
  /** A sentence for people (English). */
  message: string;
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
  /** The learner's target cell id; defaults to `metadata.junobench.targetCellId`. */
  targetCellId?: string | null;
}

/** Why a cell of the learner's notebook is in play. */
export type InPlayReason = 'plan' | 'executed' | 'added' | 'target' | 'fix';

/** How the learner's target cell was found. */
export type TargetMatch = 'metadata' | AlignMethod;

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
}

/** The verdict of a check. */
export interface ICheckVerdict {
  /** Whether the repair counts as a pass. */
  passed: boolean;
  /** The verdict in one word. */
  status: CheckStatus;
  /** What the check found, most important first, each once. */
  findings: CheckFinding[];
  /** The findings as English sentences (the command line's words). */
  reasons: string[];
}

/**
 * Plan the check of a learner's notebook: the cells in play top to bottom, the guard findings
 * and the target's live result. Cells are matched with the case's notebooks by id where the
 * ids match, else by content (`alignNotebooks`), the same way for reproduced ↔ fixed and
 * reproduced ↔ learner.
 */
export function planCheck(
  learner: INotebookJSON,
  reference: ICheckReference,
  options: ICheckOptions
): ICheckPlan {
  const { reproduced, fixed } = reference;
  const meta = readWorkingCopyMeta(learner.metadata);
  const reproTarget = findTarget(reproduced);
  const fallbackId = (i: number) =>
    typeof reproduced.cells[i]?.id === 'string' && reproduced.cells[i].id
      ? null
      : `jb-cell-${i}`;
  const toLearner = alignNotebooks(reproduced, learner, { fallbackId });
  const fixedToLearner = alignNotebooks(fixed, learner);
  const toFixed = alignNotebooks(reproduced, fixed);

  // The learner's target cell: the working copy's record, else the alignment.
  const targetId =
    options.targetCellId !== undefined
      ? options.targetCellId
      : (meta?.targetCellId ?? null);
  let targetIndex: number | null = null;
  let targetMatch: TargetMatch | null = null;
  if (targetId) {
    const i = learner.cells.findIndex(
      c => c.id === targetId && c.cell_type === 'code'
    );
    if (i >= 0) {
      targetIndex = i;
      targetMatch = 'metadata';
    }
  }
  if (targetIndex === null && reproTarget) {
    const pair = toLearner.pairOf(reproTarget.cellIndex);
    if (pair) {
      targetIndex = pair.to;
      targetMatch = pair.method;
    }
  }

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
  if (meta) {
    const ids = learner.cells.map(c => (typeof c.id === 'string' ? c.id : ''));
    for (const step of meta.recordedPlan) {
      const i = ids.indexOf(step.cellId);
      mark(i >= 0 ? i : null, 'plan');
    }
  } else {
    for (const step of recordedPlan(reproduced).steps) {
      mark(toLearner.forward(step.cellIndex), 'plan');
    }
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
  const steps: IPlanStep[] = [...inPlay.keys()]
    .sort((a, b) => a - b)
    .map(i => {
      const cell = learner.cells[i];
      const count = cell.execution_count;
      return {
        cellIndex: i,
        codeCellIndex: Private.codeIndex(learner, i),
        executionCount: typeof count === 'number' ? count : null,
        source: stripMarkers(sourceText(cell)),
        run: 1,
        isTarget: i === targetIndex
      };
    });

  const crashLine = reproTarget
    ? Private.crashLine(reproduced, reproTarget)
    : null;
  const fixedTarget = reproTarget
    ? toFixed.forward(reproTarget.cellIndex)
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
          targetIndex === null ? null : learner.cells[targetIndex],
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
      const from = toLearner.backward(step.cellIndex);
      return (
        from === null ||
        Private.code(reproduced.cells[from]) !==
          Private.code(learner.cells[step.cellIndex])
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
    traced
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

/** What the evidence of a fresh run showed, for `judgeRepair`. */
export interface IRepairEvidence {
  /** What the reference fix does (null when its own run failed, with why). */
  reference: IReferenceEvidence | null;
  /** Why the reference evidence is missing, when it is. */
  referenceError?: ReferenceProblem;
}

/**
 * Judge a repair with its execution evidence: the plain judgement plus (a) no exception the
 * reference fix does not raise may be raised and swallowed in the target or a changed cell,
 * (b) the repaired statement must have run and not be a string literal, and (c) after the
 * target, the variables the reference's target cell sets must be alike. Missing evidence
 * never passes.
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
    const name = cellRef(i, result.step.executionCount);
    const report = readProbeReport(result.probe);
    const failed = !!result.error;
    if (!report?.trace || (!failed && !report.trace.lines.length)) {
      // No trace, or a clean cell whose code ran under a name the tracer did not
      // follow (a cell magic): no evidence either way, never a pass.
      if (!failed) {
        extra.push({
          status: 'not-checked',
          finding: { code: 'no-evidence', cell: name }
        });
      }
      continue;
    }
    const swallowed = swallowedExceptions(report.trace, failed).find(
      e => !caught.has(e.ename)
    );
    if (swallowed) {
      extra.push({
        status: 'hidden-crash',
        finding: {
          code: 'swallowed',
          cell: name,
          line: swallowed.line,
          ename: swallowed.ename,
          evalue: swallowed.evalue
        }
      });
    }
    // A cell magic (%%time…) runs the body under other line numbers: no line evidence then.
    const cellMagic = /^\s*%%/.test(result.step.source);
    if (
      result.step.isTarget &&
      plan.repairedLine !== null &&
      !failed &&
      !cellMagic
    ) {
      const line = plan.repairedLine;
      const seen = lineEvidence(report.trace, line);
      const statement = result.step.source.split('\n')[line - 1]?.trim() ?? '';
      if (seen.inString) {
        extra.push({
          status: 'hidden-crash',
          finding: { code: 'in-string', cell: name, line, statement }
        });
      } else if (!seen.executed) {
        extra.push({
          status: 'hidden-crash',
          finding: { code: 'not-executed', cell: name, line, statement }
        });
      }
    }
    if (result.step.isTarget && !failed) {
      if (!evidence.reference) {
        extra.push({
          status: 'no-reference',
          finding: {
            code: 'reference-failed',
            problem: evidence.referenceError ?? { code: 'not-run' }
          }
        });
      } else if (!report.effect) {
        extra.push({
          status: 'not-checked',
          finding: { code: 'no-evidence', cell: name }
        });
      } else {
        const differences = compareEffects(
          evidence.reference,
          report.effect.after
        );
        for (const d of differences) {
          extra.push({
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
        if (!differences.length) {
          extra.push({
            status: null,
            finding: {
              code: 'same-effect',
              names: Object.keys(evidence.reference.effects)
                .filter(n => n in report.effect!.after)
                .sort()
                .map(n => `\`${n}\``)
                .join(', ')
            }
          });
        }
      }
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
  return Private.judge(plan, run, options, extra);
}

/**
 * The verdict as people read it: one verdict line and each reason once.
 */
export function renderVerdict(
  verdict: Pick<ICheckVerdict, 'status' | 'findings'>,
  __: Translate = english
): { headline: string; reasons: string[] } {
  return {
    headline: renderStatus(verdict.status, __),
    reasons: verdict.findings.map(f => renderFinding(f, __))
  };
}

namespace Private {
  /** Lines that show the cell still crashes or is just commented away. */
  const COMMENT = /^\s*#/;

  /** Two lines count as the same statement from this token similarity on. */
  const SAME_LINE = 0.6;

  /** A finding beside the plain judgement, with the status it implies. */
  export interface IExtra {
    /** The status it implies (null: a finding in favour). */
    status: CheckStatus | null;
    /** The finding. */
    finding: CheckFinding;
  }

  /** Statuses that fail a check, most telling first. */
  const PRECEDENCE: CheckStatus[] = [
    'no-target',
    'unaligned',
    'hidden-crash',
    'different-effect',
    'works-live-only',
    'fails-fresh',
    'no-reference',
    'not-checked',
    'fails-live',
    'not-run-live'
  ];

  /**
   * A guard finding with its English sentence.
   */
  export function finding(
    kind: GuardFindingKind,
    f: CheckFinding
  ): IGuardFinding {
    return { kind, finding: f, message: renderFinding(f, english) };
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
   * at least `SAME_LINE` when both assign the same target (a rewritten right-hand side).
   */
  function sameness(line: string, wanted: string): number {
    const score = lineSimilarity(line, wanted);
    const target = assigned(wanted);
    return target !== null && assigned(line) === target
      ? Math.max(score, SAME_LINE)
      : score;
  }

  /**
   * Whether some line is the same statement as `wanted` (possibly edited).
   */
  function holds(lines: string[], wanted: string): boolean {
    return lines.some(l => sameness(l, wanted) >= SAME_LINE);
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
      ...fixedCode.filter(l => sameness(l, crash) >= SAME_LINE)
    ];
    let best: { line: number; score: number } | null = null;
    raw.forEach((text, k) => {
      const t = text.trim();
      if (!t || COMMENT.test(t)) {
        return;
      }
      const score = Math.max(...wanted.map(w => sameness(t, w)));
      if (score >= SAME_LINE && (!best || score > best.score)) {
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
   * The verdict: every finding once, the most telling failing status first.
   */
  export function judge(
    plan: ICheckPlan,
    run: IRunResult | null,
    options: Pick<ICheckOptions, 'notebookSpecific'>,
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
    found.push(...extra.filter(e => e.status === 'hidden-crash'));
    const fresh = freshOutcome(plan, run);
    if (fresh.code === 'fresh-clean') {
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
    found.push(...extra.filter(e => e.status !== 'hidden-crash'));
    if (options.notebookSpecific && run && fresh.code === 'fresh-clean') {
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
    if (status === 'hidden-crash' || status === 'different-effect') {
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
    return {
      passed: status === 'solved',
      status,
      findings,
      reasons: findings.map(f => renderFinding(f, english))
    };
  }
}
