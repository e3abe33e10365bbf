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
import { alignCell } from '../verify/align';

/** A way of making the crash disappear without repairing it. */
export type GuardFindingKind =
  | 'target-deleted'
  | 'target-emptied'
  | 'target-commented-out'
  | 'failing-line-removed';

/** One finding of the anti-cheat guard. */
export interface IGuardFinding {
  /** What was done to the target cell. */
  kind: GuardFindingKind;
  /** A sentence for people. */
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

/** A check plan: the fresh top-to-bottom run plus what the notebook itself says. */
export interface ICheckPlan extends IReplayPlan {
  /** Always top to bottom: a check restarts the kernel and runs the cells in document order. */
  kind: 'top-to-bottom';
  /** Index (among all cells) of the learner's target cell, or null when it is gone. */
  targetCellIndex: number | null;
  /** Why each planned cell is in play, by cell index (first reason found). */
  inPlay: Record<number, InPlayReason>;
  /** Signs that the repair hides the crash instead of curing it. */
  guard: IGuardFinding[];
  /** The target cell's latest live run, read from its execution count and outputs. */
  live: LiveResult;
  /** The reproduced target's crash line (markers stripped), when the traceback says. */
  crashLine: string | null;
}

/** How a check ended. */
export type CheckStatus =
  | 'solved'
  | 'fails-fresh'
  | 'works-live-only'
  | 'hidden-crash'
  | 'not-run-live'
  | 'fails-live'
  | 'not-checked'
  | 'no-target';

/** The verdict of a check. */
export interface ICheckVerdict {
  /** Whether the repair counts as a pass. */
  passed: boolean;
  /** The verdict in one word. */
  status: CheckStatus;
  /** Sentences for people, most important first. */
  reasons: string[];
}

/**
 * Plan the check of a learner's notebook: the cells in play top to bottom, the guard findings
 * and the target's live result.
 */
export function planCheck(
  learner: INotebookJSON,
  reference: ICheckReference,
  options: ICheckOptions
): ICheckPlan {
  const { reproduced, fixed } = reference;
  const meta = readWorkingCopyMeta(learner.metadata);
  const reproTarget = findTarget(reproduced);
  const ids = Private.learnerIds(learner);
  const known = Private.referenceIds(reproduced, fixed);

  // The learner's target cell.
  const targetId =
    options.targetCellId !== undefined
      ? options.targetCellId
      : (meta?.targetCellId ?? null);
  let targetIndex: number | null = null;
  if (targetId) {
    const i = ids.indexOf(targetId);
    targetIndex = i >= 0 && learner.cells[i].cell_type === 'code' ? i : null;
  } else if (reproTarget) {
    targetIndex = Private.counterpart(
      reproduced,
      reproTarget.cellIndex,
      learner
    );
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
    for (const step of meta.recordedPlan) {
      const i = ids.indexOf(step.cellId);
      mark(i >= 0 ? i : null, 'plan');
    }
  } else {
    for (const step of recordedPlan(reproduced).steps) {
      mark(Private.counterpart(reproduced, step.cellIndex, learner), 'plan');
    }
  }
  learner.cells.forEach((cell, i) => {
    if (typeof cell.execution_count === 'number') {
      mark(i, 'executed');
    } else if (ids[i] && !known.has(ids[i])) {
      mark(i, 'added');
    }
  });
  // The cells the reference fix runs (after the target, or moved above it by the learner).
  fixed.cells.forEach((cell, i) => {
    if (cell.cell_type === 'code' && typeof cell.execution_count === 'number') {
      mark(Private.counterpart(fixed, i, learner), 'fix');
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
    ? Private.counterpart(reproduced, reproTarget.cellIndex, fixed)
    : null;
  const guard = reproTarget
    ? Private.guard(
        targetIndex === null ? null : learner.cells[targetIndex],
        fixedTarget === null ? null : fixed.cells[fixedTarget],
        crashLine
      )
    : [];

  return {
    kind: 'top-to-bottom',
    steps,
    target,
    targetCellIndex: targetIndex,
    inPlay: Object.fromEntries(inPlay),
    guard,
    live:
      targetIndex === null
        ? 'not-run'
        : Private.liveResult(learner.cells[targetIndex]),
    crashLine
  };
}

/**
 * Judge a check from its plan and the fresh run (null when the fresh run has not happened):
 * a pass needs a clean fresh run, no guard finding and, for notebook-specific cases, a clean
 * latest live run of the target.
 */
export function judgeCheck(
  plan: ICheckPlan,
  run: IRunResult | null,
  options: Pick<ICheckOptions, 'notebookSpecific'>
): ICheckVerdict {
  const reasons: string[] = [];
  if (!plan.target && plan.guard.length === 0) {
    return {
      passed: false,
      status: 'no-target',
      reasons: [
        'The case has no crashing cell to check (the reproduced notebook holds no error output).'
      ]
    };
  }
  reasons.push(...plan.guard.map(g => g.message));

  const fresh = Private.freshOutcome(plan, run);
  if (fresh.ok) {
    reasons.push(
      `A fresh kernel ran all ${plan.steps.length} cells in play top to bottom without error.`
    );
  } else {
    reasons.push(fresh.reason);
  }

  const liveSentence = Private.liveSentence(plan.live);
  if (plan.targetCellIndex !== null) {
    reasons.push(liveSentence);
  }

  if (plan.guard.length) {
    return { passed: false, status: 'hidden-crash', reasons };
  }
  if (!run) {
    return { passed: false, status: 'not-checked', reasons };
  }
  if (!fresh.ok) {
    if (plan.live === 'ok') {
      reasons.unshift(
        'The fix works in your live kernel but fails from a fresh kernel: it depends on state that a restart loses.'
      );
      return { passed: false, status: 'works-live-only', reasons };
    }
    return { passed: false, status: 'fails-fresh', reasons };
  }
  if (options.notebookSpecific) {
    // A fresh top-to-bottom run cures out-of-order runs and re-runs by itself, so it proves
    // nothing here: the learner must also restore a working state in the live kernel.
    if (plan.live === 'error') {
      reasons.unshift(
        'This crash comes from the order cells ran in, which a fresh top-to-bottom run cures by itself: the live kernel must work too, and its latest run of the target still failed.'
      );
      return { passed: false, status: 'fails-live', reasons };
    }
    if (plan.live === 'not-run') {
      reasons.unshift(
        'This crash comes from the order cells ran in: restore a working state in your live kernel and run the target cell again.'
      );
      return { passed: false, status: 'not-run-live', reasons };
    }
  }
  return { passed: true, status: 'solved', reasons };
}

namespace Private {
  /** Lines that show the cell still crashes or is just commented away. */
  const COMMENT = /^\s*#/;

  /** Two lines count as the same statement from this token similarity on. */
  const SAME_LINE = 0.6;

  /**
   * The ids of the learner's cells ('' when a cell has none).
   */
  export function learnerIds(nb: INotebookJSON): string[] {
    return nb.cells.map(c => (typeof c.id === 'string' ? c.id : ''));
  }

  /**
   * Ids the case's notebooks use, plus the ids a working copy gives id-less cells.
   */
  export function referenceIds(
    reproduced: INotebookJSON,
    fixed: INotebookJSON
  ): Set<string> {
    const out = new Set<string>();
    reproduced.cells.forEach((c, i) => {
      out.add(typeof c.id === 'string' && c.id ? c.id : `jb-cell-${i}`);
    });
    fixed.cells.forEach(c => {
      if (typeof c.id === 'string' && c.id) {
        out.add(c.id);
      }
    });
    return out;
  }

  /**
   * The learner's cell matching cell `index` of a reference notebook: by id when both carry
   * ids (a missing id means the cell is gone), else by `alignCell`.
   */
  export function counterpart(
    from: INotebookJSON,
    index: number,
    learner: INotebookJSON
  ): number | null {
    const cell = from.cells[index];
    if (!cell) {
      return null;
    }
    const id = typeof cell.id === 'string' && cell.id ? cell.id : null;
    const learnerHasIds = learner.cells.some(c => typeof c.id === 'string');
    if (id && learnerHasIds) {
      const i = learner.cells.findIndex(
        c => c.id === id && c.cell_type === 'code'
      );
      if (i >= 0) {
        return i;
      }
      const fallback = `jb-cell-${index}`;
      const j = learner.cells.findIndex(
        c => c.id === fallback && c.cell_type === 'code'
      );
      return j >= 0 ? j : null;
    }
    return alignCell(from, index, learner);
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
   * Tokens of a line of Python (identifiers, numbers, strings, operators).
   */
  function tokens(line: string): string[] {
    return line.match(/[A-Za-z_]\w*|\d+(?:\.\d+)?|'[^']*'|"[^"]*"|\S/g) ?? [];
  }

  /**
   * Dice coefficient over token multisets.
   */
  export function lineSimilarity(a: string, b: string): number {
    const ta = tokens(a);
    const tb = tokens(b);
    if (!ta.length && !tb.length) {
      return 1;
    }
    const counts = new Map<string, number>();
    ta.forEach(t => counts.set(t, (counts.get(t) ?? 0) + 1));
    let shared = 0;
    tb.forEach(t => {
      const n = counts.get(t) ?? 0;
      if (n > 0) {
        shared++;
        counts.set(t, n - 1);
      }
    });
    return (2 * shared) / (ta.length + tb.length);
  }

  /**
   * Whether some line is the same statement as `wanted` (possibly edited).
   */
  function holds(lines: string[], wanted: string): boolean {
    return lines.some(l => lineSimilarity(l, wanted) >= SAME_LINE);
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
   * reference fix kept them.
   */
  export function guard(
    learnerCell: INbCell | null,
    fixedCell: INbCell | null,
    crash: string | null
  ): IGuardFinding[] {
    const fixedLines = fixedCell
      ? lines(stripMarkers(sourceText(fixedCell)))
      : [];
    const fixedCode = fixedLines.filter(l => !COMMENT.test(l));
    if (!fixedCode.length) {
      // The reference fix dropped the cell (or left only comments): so may the learner.
      return [];
    }
    if (!learnerCell || learnerCell.cell_type !== 'code') {
      return [
        {
          kind: 'target-deleted',
          message:
            'The crashing cell was deleted (or turned into text), but the reference fix keeps it: deleting it hides the crash instead of fixing it.'
        }
      ];
    }
    const all = lines(stripMarkers(sourceText(learnerCell)));
    const code = all.filter(l => !COMMENT.test(l));
    const comments = all
      .filter(l => COMMENT.test(l))
      .map(l => l.replace(/^#+\s*/, ''));
    if (!all.length) {
      return [
        {
          kind: 'target-emptied',
          message:
            'The crashing cell was emptied, but the reference fix keeps its code: an empty cell cannot crash, and cannot do its job either.'
        }
      ];
    }
    if (!code.length) {
      return [
        {
          kind: 'target-commented-out',
          message:
            'The crashing cell was commented out, but the reference fix keeps its code: a commented-out cell hides the crash instead of fixing it.'
        }
      ];
    }
    if (!crash) {
      return [];
    }
    const keptByFix = holds(fixedCode, crash);
    if (!keptByFix) {
      return [];
    }
    const wanted = [
      crash,
      ...fixedCode.filter(l => lineSimilarity(l, crash) >= SAME_LINE)
    ];
    if (wanted.some(w => holds(code, w))) {
      return [];
    }
    if (wanted.some(w => holds(comments, w))) {
      return [
        {
          kind: 'target-commented-out',
          message: `The failing line \`${crash}\` was commented out, but the reference fix keeps it (repaired): commenting it out hides the crash.`
        }
      ];
    }
    return [
      {
        kind: 'failing-line-removed',
        message: `The failing line \`${crash}\` was removed, but the reference fix keeps it (repaired): removing it hides the crash.`
      }
    ];
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
   * A sentence about the live result.
   */
  export function liveSentence(live: LiveResult): string {
    switch (live) {
      case 'ok':
        return 'In your live kernel the target cell last ran without error.';
      case 'error':
        return 'In your live kernel the target cell last raised an error.';
      case 'not-run':
      default:
        return 'The target cell has not run in your live kernel since the notebook was saved.';
    }
  }

  /**
   * Whether the fresh run went through every planned cell without error, and if not why.
   */
  export function freshOutcome(
    plan: ICheckPlan,
    run: IRunResult | null
  ): { ok: boolean; reason: string } {
    if (!run) {
      return {
        ok: false,
        reason: 'The fresh-kernel run has not happened yet.'
      };
    }
    const failed = run.steps.find(s => s.error);
    if (failed?.error) {
      const step = failed.step;
      const where = step.isTarget
        ? 'the target cell'
        : `cell ${step.cellIndex + 1}${
            plan.targetCellIndex !== null &&
            step.cellIndex > plan.targetCellIndex
              ? ' (after the target)'
              : ''
          }`;
      const line =
        failed.error.line !== null ? `, line ${failed.error.line}` : '';
      return {
        ok: false,
        reason: `From a fresh kernel, ${where}${line} raised ${failed.error.ename}: ${failed.error.evalue}`
      };
    }
    if (run.status !== 'completed' || run.steps.length < plan.steps.length) {
      return {
        ok: false,
        reason: `The fresh-kernel run did not finish: ${run.message}`
      };
    }
    return { ok: true, reason: '' };
  }
}
