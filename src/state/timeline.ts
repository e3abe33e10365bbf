/**
 * The hidden state of a replay made visible: a timeline of what each replayed
 * step did to the user namespace (read from the probe's `track` reports), and
 * the "why it crashed" explainer built on it and on the static definitions of
 * the cells. It describes state only, never the diagnosis or the fix. Pure.
 */
import type { IRunResult } from '../kernel/runner';
import type { RunStop } from '../kernel/stop';
import { describeSummary } from './values';
import type { ChangeKind, IValueSummary } from './values';
import { cellRef, english, renderCell, renderCells } from '../i18n';
import type { ICellRef, Translate } from '../i18n';
import { sourceText, stripMarkers } from '../replay/plan';
import type { INotebookJSON } from '../replay/types';
import {
  explainNameError,
  missingNameFromError,
  namesRead
} from './definitions';

/** What one step did to one name. */
export interface IStateChange {
  /** How the name changed. */
  change: ChangeKind;
  /** Its summary after the step (null when deleted). */
  summary: IValueSummary | null;
}

/** One replayed step of a timeline. */
export interface ITimelineStep {
  /** Position in the run (0-based). */
  index: number;
  /** Index of the cell among all cells. */
  cellIndex: number;
  /** Its `[n]` prompt in the replayed notebook, or null when it has none. */
  executionCount: number | null;
  /** 1, or 2 for the second run of a `[reexecute]` cell. */
  run: 1 | 2;
  /** The error the step raised, if any. */
  error: { ename: string; evalue: string; line: number | null } | null;
  /** What it did to the namespace (null when the probe could not tell). */
  changes: Record<string, IStateChange> | null;
}

/** A run's timeline. */
export interface ITimeline {
  /** Which order the run followed. */
  order: 'recorded' | 'top-to-bottom';
  /** The steps that ran. */
  steps: ITimelineStep[];
  /** Every name that changed, in order of first change. */
  names: string[];
  /** How the run ended (`renderRunStop` says it). */
  stop: RunStop;
}

/**
 * Build a timeline from a run whose steps carry `track` reports.
 */
export function buildTimeline(
  order: ITimeline['order'],
  run: IRunResult
): ITimeline {
  const names: string[] = [];
  const steps = run.steps.map((r, index): ITimelineStep => {
    const changes = Private.readChanges(r.probe);
    for (const name of Object.keys(changes ?? {})) {
      if (!names.includes(name)) {
        names.push(name);
      }
    }
    return {
      index,
      cellIndex: r.step.cellIndex,
      executionCount: r.step.executionCount,
      run: r.step.run,
      error: r.error
        ? { ename: r.error.ename, evalue: r.error.evalue, line: r.error.line }
        : null,
      changes
    };
  });
  return { order, steps, names, stop: run.stop };
}

/** One entry of a name's history. */
export interface IHistoryEntry {
  /** The step that changed the name. */
  step: ITimelineStep;
  /** How. */
  change: ChangeKind;
  /** Its summary before the step (null when it did not exist). */
  before: IValueSummary | null;
  /** Its summary after the step (null when deleted). */
  after: IValueSummary | null;
}

/**
 * The history of a name through a timeline, up to and including step `upTo`.
 */
export function nameHistory(
  timeline: ITimeline,
  name: string,
  upTo = Infinity
): IHistoryEntry[] {
  const out: IHistoryEntry[] = [];
  let current: IValueSummary | null = null;
  for (const step of timeline.steps) {
    if (step.index > upTo) {
      break;
    }
    const c = step.changes?.[name];
    if (c) {
      out.push({ step, change: c.change, before: current, after: c.summary });
      current = c.summary;
    }
  }
  return out;
}

/** One sentence of the explainer, as a code with parameters. */
export type ExplanationLine =
  | { code: 'no-crash'; order: ITimeline['order'] }
  | { code: 'raised'; cell: ICellRef; ename: string; evalue: string }
  | { code: 'defined-nowhere'; name: string }
  | {
      code: 'defined-ran-before';
      name: string;
      cells: ICellRef[];
      crash: ICellRef;
    }
  | { code: 'defined-never-ran'; name: string; cells: ICellRef[] }
  | { code: 'defined-ran-after'; name: string; cells: ICellRef[] }
  | { code: 'ran-twice'; runs: Array<{ cell: ICellRef; step: number }> }
  | {
      code: 'last-changed';
      name: string;
      step: number;
      cell: ICellRef;
      secondRun: boolean;
      before: IValueSummary | null;
      after: IValueSummary | null;
    }
  | {
      code: 'at-crash';
      name: string;
      value: IValueSummary | null;
      step: number;
      cell: ICellRef;
    }
  | { code: 'never-set'; name: string };

/** The explainer's account of a crash: sentences plus what they rest on. */
export interface IExplanation {
  /** Which rule explained it. */
  kind: 'name-error' | 'after-reexecution' | 'state' | 'no-crash';
  /** The sentences as codes with parameters, most important first (`renderExplanationLine`). */
  lines: ExplanationLine[];
  /** The names involved. */
  names: string[];
}

/**
 * Explain why the run crashed, in the learner's terms (cell position and prompt): a NameError
 * by the cells that define the name and when they ran; an error after a cell ran twice by the
 * step where the names involved last changed; otherwise by the state of the names the crashing
 * cell reads.
 */
export function explainCrash(
  timeline: ITimeline,
  notebook: INotebookJSON
): IExplanation {
  const explained = (
    kind: IExplanation['kind'],
    lines: ExplanationLine[],
    names: string[]
  ): IExplanation => ({
    kind,
    lines,
    names
  });
  const crash = timeline.steps.find(s => s.error);
  if (!crash?.error) {
    return explained(
      'no-crash',
      [{ code: 'no-crash', order: timeline.order }],
      []
    );
  }
  const cells = notebook.cells.map(c => ({
    source: c.cell_type === 'code' ? stripMarkers(sourceText(c)) : '',
    executionCount:
      typeof c.execution_count === 'number' ? c.execution_count : null
  }));
  const ref = (i: number) => cellRef(i, cells[i]?.executionCount ?? null);
  const crashCell = Private.stepCell(crash);
  const head: ExplanationLine = {
    code: 'raised',
    cell: crashCell,
    ename: crash.error.ename,
    evalue: crash.error.evalue
  };

  const missing =
    crash.error.ename === 'NameError' ||
    crash.error.ename === 'UnboundLocalError'
      ? missingNameFromError(crash.error.evalue)
      : null;
  if (missing) {
    const order = timeline.steps.map(s => s.cellIndex);
    const e = explainNameError(cells, crash.cellIndex, missing, order);
    const lines: ExplanationLine[] = [head];
    if (!e.definedIn.length) {
      lines.push({ code: 'defined-nowhere', name: missing });
    } else {
      if (e.ranBeforeCrash.length) {
        lines.push({
          code: 'defined-ran-before',
          name: missing,
          cells: e.ranBeforeCrash.map(ref),
          crash: crashCell
        });
      }
      if (e.neverRan.length) {
        lines.push({
          code: 'defined-never-ran',
          name: missing,
          cells: e.neverRan.map(ref)
        });
      }
      if (e.ranAfterCrashOnly.length) {
        lines.push({
          code: 'defined-ran-after',
          name: missing,
          cells: e.ranAfterCrashOnly.map(ref)
        });
      }
    }
    return explained('name-error', lines, [missing]);
  }

  const read = namesRead(cells[crash.cellIndex]?.source ?? '');
  const involved = read.filter(n => timeline.names.includes(n));
  // Steps up to the crash that ran a cell a second time.
  const twice = timeline.steps.filter(
    s =>
      s.index <= crash.index &&
      (s.run === 2 ||
        timeline.steps.some(
          o => o.index < s.index && o.cellIndex === s.cellIndex
        ))
  );
  const lines: ExplanationLine[] = [head];
  // The names the crashing cell reads, and those the second runs changed.
  const suspects = [
    ...new Set([
      ...twice.flatMap(t => Object.keys(t.changes ?? {})),
      ...involved
    ])
  ].filter(n => !Private.isDefinition(timeline, n, crash.index));
  const rerun = twice.length
    ? suspects
        .map(n => ({ n, history: nameHistory(timeline, n, crash.index) }))
        .filter(({ history }) => history.length > 0)
    : [];
  if (rerun.length) {
    lines.push({
      code: 'ran-twice',
      runs: twice.map(t => ({ cell: Private.stepCell(t), step: t.index + 1 }))
    });
    for (const { n, history } of rerun) {
      const last = history[history.length - 1];
      lines.push({
        code: 'last-changed',
        name: n,
        step: last.step.index + 1,
        cell: Private.stepCell(last.step),
        secondRun: twice.includes(last.step),
        before: last.before,
        after: last.after
      });
    }
    return explained(
      'after-reexecution',
      lines,
      rerun.map(r => r.n)
    );
  }
  for (const n of involved.filter(
    x => !Private.isDefinition(timeline, x, crash.index)
  )) {
    const history = nameHistory(timeline, n, crash.index);
    const last = history[history.length - 1];
    lines.push(
      last
        ? {
            code: 'at-crash',
            name: n,
            value: last.after,
            step: last.step.index + 1,
            cell: Private.stepCell(last.step)
          }
        : { code: 'never-set', name: n }
    );
  }
  return explained('state', lines, involved);
}

/**
 * One sentence of the explainer for people: translated by `__` (JupyterLab's `trans.__`), English by default.
 */
export function renderExplanationLine(
  l: ExplanationLine,
  __: Translate = english
): string {
  switch (l.code) {
    case 'no-crash':
      return l.order === 'recorded'
        ? __('The recorded run did not crash.')
        : __('The top-to-bottom run did not crash.');
    case 'raised':
      return __('%1 raised %2: %3', renderCell(l.cell, __), l.ename, l.evalue);
    case 'defined-nowhere':
      return __('No cell of the notebook defines `%1`.', l.name);
    case 'defined-ran-before':
      return __(
        '`%1` is defined in %2, which ran before the crash, yet was not bound when %3 ran.',
        l.name,
        renderCells(l.cells, __),
        renderCell(l.crash, __)
      );
    case 'defined-never-ran':
      return __(
        '`%1` is defined in %2, which never ran before the crash.',
        l.name,
        renderCells(l.cells, __)
      );
    case 'defined-ran-after':
      return __(
        '`%1` is defined in %2, which ran only after the crash.',
        l.name,
        renderCells(l.cells, __)
      );
    case 'ran-twice':
      return __(
        '%1.',
        l.runs
          .map(r =>
            __(
              '%1 ran twice (step %2 is its second run)',
              renderCell(r.cell, __),
              r.step
            )
          )
          .join(__('; '))
      );
    case 'last-changed': {
      const args = [
        l.name,
        l.step,
        renderCell(l.cell, __),
        Private.show(l.before, __),
        Private.show(l.after, __)
      ];
      return l.secondRun
        ? __(
            '`%1` last changed at step %2 (%3, its second run): %4 → %5.',
            ...args
          )
        : __(
            '`%1` last changed at step %2 (%3, its first run): %4 → %5.',
            ...args
          );
    }
    case 'at-crash':
      return __(
        '`%1` at the crash: %2 (last changed at step %3, %4).',
        l.name,
        Private.show(l.value, __),
        l.step,
        renderCell(l.cell, __)
      );
    case 'never-set':
      return __('`%1` was never set before the crash.', l.name);
  }
}

/**
 * An explanation's sentences for people, translated by `__`.
 */
export function renderExplanation(
  e: IExplanation,
  __: Translate = english
): string[] {
  return e.lines.map(l => renderExplanationLine(l, __));
}

namespace Private {
  const KINDS = new Set(['created', 'rebound', 'mutated', 'deleted']);

  /**
   * Read a `track` report's changes, or null.
   */
  export function readChanges(
    value: unknown
  ): Record<string, IStateChange> | null {
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      return null;
    }
    const changes = (value as { changes?: unknown }).changes;
    if (!changes || typeof changes !== 'object') {
      return null;
    }
    const out: Record<string, IStateChange> = {};
    for (const [k, v] of Object.entries(changes as Record<string, unknown>)) {
      const c = v as { change?: unknown; summary?: unknown };
      if (c && KINDS.has(String(c.change))) {
        out[k] = {
          change: c.change as ChangeKind,
          summary:
            c.summary && typeof c.summary === 'object'
              ? (c.summary as IValueSummary)
              : null
        };
      }
    }
    return out;
  }

  /**
   * Whether a name is bound to a module, class or function at the crash: the
   * explainer leaves those out (imports and definitions are not hidden state).
   */
  export function isDefinition(
    timeline: ITimeline,
    name: string,
    upTo: number
  ): boolean {
    const history = nameHistory(timeline, name, upTo);
    const type = history[history.length - 1]?.after?.type ?? '';
    return (
      type === 'module' ||
      type === 'builtins.type' ||
      type === 'abc.ABCMeta' ||
      type === 'builtins.function' ||
      type === 'builtins.builtin_function_or_method'
    );
  }

  /**
   * A summary for a sentence.
   */
  export function show(s: IValueSummary | null, __: Translate): string {
    if (!s) {
      return __('not defined');
    }
    return Array.isArray(s.columns)
      ? __(
          '%1 columns %2',
          describeSummary(s, __),
          (s.columns as string[]).join(', ')
        )
      : describeSummary(s, __);
  }

  /**
   * The cell a step ran, as messages carry it.
   */
  export function stepCell(step: ITimelineStep): ICellRef {
    return cellRef(step.cellIndex, step.executionCount);
  }
}
