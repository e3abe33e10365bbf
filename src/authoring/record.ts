/**
 * The recorded order of a new case: from the kernel's input history (a live
 * session) or from the saved execution counts and `[reexecute]` markers (a
 * saved notebook), turned into a reproduced notebook whose execution counts
 * the replay planner reads back as that order. Pure logic.
 */

import * as nbformat from '@jupyterlab/nbformat';

import {
  findTarget,
  hasReexecuteMarker,
  recordedPlan,
  sourceText,
  stripMarkers
} from '../replay/plan';
import type {
  INbCell,
  INotebookJSON,
  IReplayPlan,
  ITarget
} from '../replay/types';

/** The marker line a cell that ran twice in a row gets in the reproduced notebook. */
export const REEXECUTE_MARKER = '# [reexecute]';

/**
 * Something the author should know about the recorded order, as a code with
 * parameters (the UI translates it, the CLI prints it in English).
 */
export type RecordNote =
  | {
      /** History entry `count` ran code that is in no cell of the notebook now. */
      code: 'history-unmatched';
      count: number;
      source: string;
    }
  | {
      /** The cell was edited after its run `count`: the replay runs the new text. */
      code: 'edited-after-run';
      cellIndex: number;
      count: number;
    }
  | {
      /**
       * The cell ran `runs` times, not only twice in a row just before its
       * last run: the replay runs it twice at its last place (counts listed).
       */
      code: 'runs-merged';
      cellIndex: number;
      counts: number[];
    }
  | {
      /** Inputs ran after the crash (history counts): they are left out. */
      code: 'after-crash';
      counts: number[];
    }
  | {
      /** The cell's last run raised too: the replay will stop there, before the crash. */
      code: 'earlier-error';
      cellIndex: number;
      count: number;
      ename: string;
    };

/** Why no case can be recorded from a notebook, as a code with parameters. */
export type RecordProblem =
  | { code: 'no-crash' }
  | { code: 'crash-not-in-history'; cellIndex: number; count: number | null }
  | { code: 'empty-history' };

/** A recorded order, ready to be saved as a case's reproduced notebook. */
export interface IRecording {
  /** The reproduced notebook: the recorded order in its execution counts. */
  reproduced: INotebookJSON;
  /** The replay plan the planner reads from it. */
  plan: IReplayPlan;
  /** The crash: the target cell and its recorded exception. */
  target: ITarget;
  /** Cell indices of the cells marked `[reexecute]`. */
  reexecuted: number[];
  /** What the author should know. */
  notes: RecordNote[];
}

/** The outcome of recording: a recording, or why there is none. */
export type RecordResult =
  ({ ok: true } & IRecording) | { ok: false; problem: RecordProblem };

/**
 * Record a live session: `history[n]` is the code the kernel ran as input `n`
 * (IPython's `input_hist_raw`, `history[0]` unused). The crash is the cell with
 * the error output of the highest execution count; runs after it are left out.
 */
export function recordFromHistory(
  nb: INotebookJSON,
  history: readonly string[]
): RecordResult {
  const crash = Private.lastCrash(nb);
  if (crash === null) {
    return { ok: false, problem: { code: 'no-crash' } };
  }
  if (history.length <= 1) {
    return { ok: false, problem: { code: 'empty-history' } };
  }
  const notes: RecordNote[] = [];
  const runs = Private.matchHistory(nb, history, notes);
  let crashAt = -1;
  runs.forEach((run, i) => {
    if (run.cellIndex === crash) {
      crashAt = i;
    }
  });
  if (crashAt < 0) {
    return {
      ok: false,
      problem: {
        code: 'crash-not-in-history',
        cellIndex: crash,
        count: Private.countOf(nb, crash)
      }
    };
  }
  const after = runs.slice(crashAt + 1).map(run => run.count);
  if (after.length > 0) {
    notes.push({ code: 'after-crash', counts: after });
  }
  return Private.build(nb, runs.slice(0, crashAt + 1), crash, notes);
}

/**
 * Record a saved notebook: the order the replay planner reads from its
 * execution counts and `[reexecute]` markers (the headless `junobench add`).
 * The crash is the planner's target (the first cell with an error output).
 */
export function recordFromCounts(nb: INotebookJSON): RecordResult {
  const plan = recordedPlan(nb);
  if (plan.target === null) {
    return { ok: false, problem: { code: 'no-crash' } };
  }
  const notes: RecordNote[] = [];
  for (const step of plan.steps) {
    if (step.isTarget || step.run === 2) {
      continue;
    }
    const cell = nb.cells[step.cellIndex];
    const error = Private.errorOf(cell);
    if (error !== null) {
      notes.push({
        code: 'earlier-error',
        cellIndex: step.cellIndex,
        count: step.executionCount ?? 0,
        ename: error
      });
    }
  }
  return {
    ok: true,
    reproduced: nb,
    plan,
    target: plan.target,
    reexecuted: [
      ...new Set(
        plan.steps.filter(step => step.run === 2).map(step => step.cellIndex)
      )
    ],
    notes
  };
}

/**
 * A fixed notebook as the reference fix is saved: every code cell counted in
 * document order (1, 2, …), so a verification runs it top to bottom; markers
 * removed, since a fix never depends on a re-run; error outputs (the crash
 * it fixes) and a working copy's `metadata.junobench` dropped.
 */
export function fixedNotebook(nb: INotebookJSON): INotebookJSON {
  let count = 0;
  // A learner's working copy carries its replay plans; a fix does not.
  const metadata = { ...(nb.metadata ?? {}) };
  delete metadata.junobench;
  return {
    ...nb,
    metadata,
    cells: nb.cells.map(cell => {
      if (cell.cell_type !== 'code') {
        return cell;
      }
      count++;
      const source = sourceText(cell);
      return {
        ...cell,
        source: hasReexecuteMarker(source) ? stripMarkers(source) : source,
        execution_count: count,
        // The crash it fixes is not part of the fix.
        outputs: (cell.outputs ?? []).filter(o => o.output_type !== 'error')
      };
    })
  };
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /** The prompt number a cell shows, or null. */
  export function countOf(nb: INotebookJSON, cellIndex: number): number | null {
    const count = nb.cells[cellIndex]?.execution_count;
    return typeof count === 'number' ? count : null;
  }

  /** One matched input of the history: its count and the cell that ran it. */
  export interface IRun {
    count: number;
    cellIndex: number;
  }

  /**
   * The name of the exception in a cell's error output, or null.
   */
  export function errorOf(cell: INbCell | undefined): string | null {
    const error = (cell?.outputs ?? []).find(nbformat.isError);
    return error ? String(error.ename ?? '') : null;
  }

  /**
   * The index of the code cell whose error output has the highest execution
   * count (the crash just seen); a counted cell beats an uncounted one.
   */
  export function lastCrash(nb: INotebookJSON): number | null {
    let best: number | null = null;
    let bestCount = -Infinity;
    nb.cells.forEach((cell, index) => {
      if (cell.cell_type !== 'code' || errorOf(cell) === null) {
        return;
      }
      const count =
        typeof cell.execution_count === 'number' ? cell.execution_count : -1;
      if (count > bestCount) {
        best = index;
        bestCount = count;
      }
    });
    return best;
  }

  /**
   * Text compared between a history input and a cell: trailing blanks and
   * Windows line ends do not count.
   */
  function comparable(text: string): string {
    return text.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
  }

  /**
   * Match each history input to the cell that ran it: the cell that still
   * shows that count (even if edited since), else a cell with the same text
   * (the one whose own count is the closest after it, else the first).
   */
  export function matchHistory(
    nb: INotebookJSON,
    history: readonly string[],
    notes: RecordNote[]
  ): IRun[] {
    const byCount = new Map<number, number>();
    const byText = new Map<string, number[]>();
    nb.cells.forEach((cell, index) => {
      if (cell.cell_type !== 'code') {
        return;
      }
      if (typeof cell.execution_count === 'number') {
        byCount.set(cell.execution_count, index);
      }
      const key = comparable(sourceText(cell));
      byText.set(key, [...(byText.get(key) ?? []), index]);
    });
    const runs: IRun[] = [];
    for (let count = 1; count < history.length; count++) {
      const input = comparable(history[count] ?? '');
      const shown = byCount.get(count);
      if (shown !== undefined) {
        if (comparable(sourceText(nb.cells[shown])) !== input) {
          notes.push({ code: 'edited-after-run', cellIndex: shown, count });
        }
        runs.push({ count, cellIndex: shown });
        continue;
      }
      const same = byText.get(input) ?? [];
      if (same.length === 0) {
        if (input !== '') {
          notes.push({ code: 'history-unmatched', count, source: input });
        }
        continue;
      }
      const later = same
        .map(index => ({ index, own: nb.cells[index].execution_count }))
        .filter(
          (c): c is { index: number; own: number } =>
            typeof c.own === 'number' && c.own > count
        )
        .sort((a, b) => a.own - b.own);
      runs.push({ count, cellIndex: later[0]?.index ?? same[0] });
    }
    return runs;
  }

  /**
   * Build the reproduced notebook from the runs up to the crash: each cell
   * that ran keeps its last count; a cell that ran more than once gets the
   * `[reexecute]` marker (it runs twice in a row at its last place); cells
   * that did not run lose their count and outputs; error outputs stay only on
   * the crashing cell, so the planner finds it.
   */
  export function build(
    nb: INotebookJSON,
    runs: IRun[],
    crash: number,
    notes: RecordNote[]
  ): RecordResult {
    const countsOf = new Map<number, number[]>();
    for (const run of runs) {
      countsOf.set(run.cellIndex, [
        ...(countsOf.get(run.cellIndex) ?? []),
        run.count
      ]);
    }
    const reexecuted: number[] = [];
    for (const [cellIndex, counts] of countsOf) {
      if (counts.length < 2) {
        continue;
      }
      reexecuted.push(cellIndex);
      const last =
        runs.length -
        1 -
        [...runs].reverse().findIndex(r => r.cellIndex === cellIndex);
      const inARow =
        counts.length === 2 && runs[last - 1]?.cellIndex === cellIndex;
      if (!inARow) {
        notes.push({ code: 'runs-merged', cellIndex, counts });
      }
    }
    const cells = nb.cells.map((cell, index): INbCell => {
      if (cell.cell_type !== 'code') {
        return cell;
      }
      const counts = countsOf.get(index);
      const raw = sourceText(cell);
      const plain = hasReexecuteMarker(raw) ? stripMarkers(raw) : raw;
      if (!counts) {
        return { ...cell, source: plain, execution_count: null, outputs: [] };
      }
      const last = counts[counts.length - 1];
      let outputs = cell.outputs ?? [];
      if (index !== crash && errorOf(cell) !== null) {
        notes.push({
          code: 'earlier-error',
          cellIndex: index,
          count: last,
          ename: errorOf(cell) ?? ''
        });
        outputs = outputs.filter(o => o.output_type !== 'error');
      }
      return {
        ...cell,
        source: counts.length > 1 ? `${REEXECUTE_MARKER}\n${plain}` : plain,
        execution_count: last,
        outputs
      };
    });
    const reproduced: INotebookJSON = { ...nb, cells };
    const plan = recordedPlan(reproduced);
    const target = findTarget(reproduced);
    if (target === null) {
      return { ok: false, problem: { code: 'no-crash' } };
    }
    return {
      ok: true,
      reproduced,
      plan,
      target,
      reexecuted: reexecuted.sort((a, b) => a - b),
      notes
    };
  }
}
