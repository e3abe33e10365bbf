/**
 * The hint ladder of the repair loop: four hints the learner opens one at a
 * time (pipeline stage and library, crash type, where to look, root cause).
 * Pure.
 */
import type { ICase } from '../casebook/types';
import { LIBRARY_LABELS } from '../casebook/library';
import { cellName, english } from '../i18n';
import { findTarget, orderComparison, recordedPlan } from '../replay/plan';
import type { INotebookJSON, IReplayPlan } from '../replay/types';
import { notebookDiff } from './diff';
import type { ICellDiff } from './diff';

/** One step of the hint ladder. */
export interface IHint {
  /** The step, 1 to 4, in the order the learner opens them. */
  step: 1 | 2 | 3 | 4;
  /** A short title for the step. */
  title: string;
  /** The hint, one plain-English sentence. */
  text: string;
  /** 1-based cell position in the reproduced notebook (step 3 only, when known). */
  cell: number | null;
}

/** The subset of a JupyterLab translation bundle the ladder uses. */
export interface IHintTrans {
  /** Translate a message, substituting `%1`, `%2` … with the arguments. */
  __(msg: string, ...args: unknown[]): string;
}

/**
 * Build the four hints of a case, in order, from its labels and its reproduced and fixed notebooks.
 */
export function hintLadder(
  c: ICase,
  reproduced: INotebookJSON,
  fixed: INotebookJSON | null,
  trans: IHintTrans = Private.identity
): IHint[] {
  const stage = c.pipelineStage.trim();
  const library = LIBRARY_LABELS[c.library] ?? LIBRARY_LABELS.unknown;
  const crashType = c.crashType.trim();
  const rootCause = c.rootCause.trim();
  const where = Private.rootCell(c, reproduced, fixed);

  return [
    {
      step: 1,
      title: trans.__('Pipeline stage and library'),
      text: Private.stageText(stage, c, library, trans),
      cell: null
    },
    {
      step: 2,
      title: trans.__('Crash type'),
      text: crashType
        ? trans.__("The crash type is '%1'.", crashType)
        : trans.__('The crash type is not labelled.'),
      cell: null
    },
    {
      step: 3,
      title: trans.__('Where to look'),
      text: Private.whereText(where, reproduced, trans),
      cell: where?.cell ?? null
    },
    {
      step: 4,
      title: trans.__('Root cause'),
      text: Private.rootCauseText(rootCause, trans),
      cell: null
    }
  ];
}

/**
 * The first hint of the ladder whose step is not among the used steps, or null when all are open.
 */
export function nextHint(
  ladder: IHint[],
  used: readonly number[]
): IHint | null {
  return ladder.find(h => !used.includes(h.step)) ?? null;
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /** Why a cell is singled out in step 3. */
  export type Reason = 'twice' | 'missing' | 'ahead' | 'changed' | 'target';

  /** The cell step 3 points at. */
  export interface IWhere {
    /** 1-based position in the reproduced notebook. */
    cell: number;
    /** Why. */
    reason: Reason;
  }

  /** English: only `%1`, `%2` … substituted, like JupyterLab's `nullTranslator`. */
  export const identity: IHintTrans = { __: english };

  /** Lower-case the first letter unless the word looks like an acronym (`ML`, `GPU`). */
  export function lowerFirst(s: string): string {
    return /^[A-Z][A-Z]/.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1);
  }

  /** The sentence of step 1; notebook-specific cases are tied to no library. */
  export function stageText(
    stage: string,
    c: ICase,
    library: string,
    trans: IHintTrans
  ): string {
    const nb = c.library === 'NBspecific';
    if (!stage) {
      return nb
        ? trans.__(
            'The pipeline stage is not labelled; the crash is notebook-specific, not tied to one library.'
          )
        : trans.__(
            'The pipeline stage is not labelled; the code uses %1.',
            library
          );
    }
    return nb
      ? trans.__(
          'The crash happens during %1; it is notebook-specific, not tied to one library.',
          lowerFirst(stage)
        )
      : trans.__(
          'The crash happens during %1, in code using %2.',
          lowerFirst(stage),
          library
        );
  }

  /** The sentence of step 4; JunoBench's "NB specific" reads as "notebook-specific". */
  export function rootCauseText(label: string, trans: IHintTrans): string {
    if (!label) {
      return trans.__('The root cause is not labelled.');
    }
    const words = lowerFirst(
      label.replace(/\bNB[\s_-]*specific\b/i, 'notebook-specific')
    );
    if (/specific$/i.test(words)) {
      return trans.__('The root cause is %1.', words);
    }
    return /^[aeiou]/i.test(words)
      ? trans.__('The root cause is an %1.', words)
      : trans.__('The root cause is a %1.', words);
  }

  /** The sentence of step 3. */
  export function whereText(
    where: IWhere | null,
    reproduced: INotebookJSON,
    trans: IHintTrans
  ): string {
    if (!where) {
      return trans.__('No crashing cell was recorded in this notebook.');
    }
    // Named as the learner sees it: position and the reproduced notebook's prompt.
    const count = reproduced.cells[where.cell - 1]?.execution_count;
    const cell = cellName(
      where.cell - 1,
      typeof count === 'number' ? count : null,
      trans.__.bind(trans)
    );
    switch (where.reason) {
      case 'twice':
        return trans.__('Look at %1: it ran twice in a row.', cell);
      case 'missing':
        return trans.__('Look at %1: it had not run before the crash.', cell);
      case 'ahead':
        return trans.__(
          'Look at %1: it ran earlier than it should have.',
          cell
        );
      case 'changed':
      case 'target':
        return trans.__('Look at %1.', cell);
    }
  }

  /** The cell where the root cause lies, as well as the data allow. */
  export function rootCell(
    c: ICase,
    reproduced: INotebookJSON,
    fixed: INotebookJSON | null
  ): IWhere | null {
    const diff = fixed ? notebookDiff(reproduced, fixed) : null;
    if (c.notebookSpecific) {
      const plan = recordedPlan(reproduced);
      const order = orderOf(plan, reproduced, fixed, diff);
      if (order) {
        return order;
      }
    }
    const changed = diff?.find(
      d =>
        (d.kind === 'changed' || d.kind === 'removed') &&
        d.before !== null &&
        d.cellType === 'code'
    );
    if (changed?.before) {
      return { cell: changed.before, reason: 'changed' };
    }
    const target = findTarget(reproduced);
    return target ? { cell: target.cellIndex + 1, reason: 'target' } : null;
  }

  /**
   * Map 0-based positions between the notebooks: by cell id where both carry it (the diff keeps
   * order, so a moved cell shows there as removed and added), else by the diff's pairs.
   */
  function cellMaps(
    reproduced: INotebookJSON,
    fixed: INotebookJSON,
    diff: ICellDiff[]
  ): { toFixed: Map<number, number>; toReproduced: Map<number, number> } {
    const toFixed = new Map<number, number>();
    const toReproduced = new Map<number, number>();
    const fixedById = new Map<string, number>();
    fixed.cells.forEach((cell, i) => {
      if (cell.id) {
        fixedById.set(cell.id, i);
      }
    });
    reproduced.cells.forEach((cell, i) => {
      const j = cell.id ? fixedById.get(cell.id) : undefined;
      if (j !== undefined && !toReproduced.has(j)) {
        toFixed.set(i, j);
        toReproduced.set(j, i);
      }
    });
    for (const d of diff) {
      const i = d.before === null ? null : d.before - 1;
      const j = d.after === null ? null : d.after - 1;
      if (i !== null && j !== null && !toFixed.has(i) && !toReproduced.has(j)) {
        toFixed.set(i, j);
        toReproduced.set(j, i);
      }
    }
    return { toFixed, toReproduced };
  }

  /** A cell that ran twice, was missing before the crash, or ran ahead of where the fix runs it. */
  function orderOf(
    plan: IReplayPlan,
    reproduced: INotebookJSON,
    fixed: INotebookJSON | null,
    diff: ICellDiff[] | null
  ): IWhere | null {
    const twice = plan.steps.find(s => s.run === 2);
    if (twice) {
      return { cell: twice.cellIndex + 1, reason: 'twice' };
    }
    const firstTarget = plan.steps.findIndex(s => s.isTarget);
    if (!fixed || !diff || firstTarget < 0) {
      return null;
    }
    // Reproduced positions (0-based) that ran before the crash.
    const ranBefore = new Set(
      plan.steps.slice(0, firstTarget).map(s => s.cellIndex)
    );
    const { toFixed, toReproduced } = cellMaps(reproduced, fixed, diff);
    const fixedTarget = toFixed.get(plan.steps[firstTarget].cellIndex);
    const fixedSteps = recordedPlan(fixed).steps;
    const fixedTargetStep =
      fixedTarget === undefined
        ? -1
        : fixedSteps.findIndex(s => s.cellIndex === fixedTarget);
    if (fixedTargetStep < 0) {
      return null;
    }
    const fixedBefore = fixedSteps.slice(0, fixedTargetStep);

    // A cell the fix runs before the crashing cell that the reproduced run skipped or ran later.
    for (const s of fixedBefore) {
      const cell = toReproduced.get(s.cellIndex);
      if (cell !== undefined && !ranBefore.has(cell)) {
        return { cell: cell + 1, reason: 'missing' };
      }
    }
    // A cell that ran ahead before the crash though the fix does not run it before the crashing cell.
    const fixedBeforeCells = new Set(fixedBefore.map(s => s.cellIndex));
    const ahead = orderComparison(plan).entries.find(
      e =>
        e.stepIndex < firstTarget &&
        e.runsAhead &&
        !fixedBeforeCells.has(toFixed.get(e.cellIndex) ?? -1)
    );
    return ahead ? { cell: ahead.cellIndex + 1, reason: 'ahead' } : null;
  }
}
