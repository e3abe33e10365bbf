/**
 * The hidden state of a replay made visible: a timeline of what each replayed
 * step did to the user namespace (read from the probe's `track` reports), and
 * the "why it crashed" explainer built on it and on the static definitions of
 * the cells. It describes state only, never the diagnosis or the fix. Pure.
 */
import type { IRunResult } from '../kernel/runner';
import { describeSummary } from '../repair/evidence';
import type { ChangeKind, IValueSummary } from '../repair/evidence';
import { cellName } from '../repair/findings';
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
  /** The cell as the learner sees it: `cell 7 [6]`. */
  cell: string;
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
  /** How the run ended, for people. */
  message: string;
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
      cell: cellName(r.step.cellIndex, r.step.executionCount),
      run: r.step.run,
      error: r.error
        ? { ename: r.error.ename, evalue: r.error.evalue, line: r.error.line }
        : null,
      changes
    };
  });
  return { order, steps, names, message: run.message };
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

/** The explainer's account of a crash: sentences plus what they rest on. */
export interface IExplanation {
  /** Which rule explained it. */
  kind: 'name-error' | 'after-reexecution' | 'state' | 'no-crash';
  /** Sentences for people, most important first. */
  sentences: string[];
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
  const crash = timeline.steps.find(s => s.error);
  if (!crash?.error) {
    return {
      kind: 'no-crash',
      sentences: [`The ${timeline.order} run did not crash.`],
      names: []
    };
  }
  const cells = notebook.cells.map(c => ({
    source: c.cell_type === 'code' ? stripMarkers(sourceText(c)) : '',
    executionCount:
      typeof c.execution_count === 'number' ? c.execution_count : null
  }));
  const name = (i: number) => cellName(i, cells[i]?.executionCount ?? null);
  const head = `${crash.cell} raised ${crash.error.ename}: ${crash.error.evalue}`;

  const missing =
    crash.error.ename === 'NameError' ||
    crash.error.ename === 'UnboundLocalError'
      ? missingNameFromError(crash.error.evalue)
      : null;
  if (missing) {
    const order = timeline.steps.map(s => s.cellIndex);
    const e = explainNameError(cells, crash.cellIndex, missing, order);
    const sentences = [head];
    if (!e.definedIn.length) {
      sentences.push(`No cell of the notebook defines \`${missing}\`.`);
    } else {
      if (e.ranBeforeCrash.length) {
        sentences.push(
          `\`${missing}\` is defined in ${e.ranBeforeCrash.map(name).join(', ')}, which ran before the crash, yet was not bound when ${crash.cell} ran.`
        );
      }
      if (e.neverRan.length) {
        sentences.push(
          `\`${missing}\` is defined in ${e.neverRan.map(name).join(', ')}, which never ran before the crash.`
        );
      }
      if (e.ranAfterCrashOnly.length) {
        sentences.push(
          `\`${missing}\` is defined in ${e.ranAfterCrashOnly.map(name).join(', ')}, which ran only after the crash.`
        );
      }
    }
    return { kind: 'name-error', sentences, names: [missing] };
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
  const sentences = [head];
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
    for (const { n, history } of rerun) {
      const last = history[history.length - 1];
      sentences.push(
        `\`${n}\` last changed at step ${last.step.index + 1} (${last.step.cell}, ${twice.includes(last.step) ? 'its second run' : 'its first run'}): ${Private.show(last.before)} → ${Private.show(last.after)}.`
      );
    }
    sentences.splice(
      1,
      0,
      `${twice.map(t => `${t.cell} ran twice (step ${t.index + 1} is its second run)`).join('; ')}.`
    );
    return {
      kind: 'after-reexecution',
      sentences,
      names: rerun.map(r => r.n)
    };
  }
  for (const n of involved.filter(
    x => !Private.isDefinition(timeline, x, crash.index)
  )) {
    const history = nameHistory(timeline, n, crash.index);
    const last = history[history.length - 1];
    sentences.push(
      last
        ? `\`${n}\` at the crash: ${Private.show(last.after)} (last changed at step ${last.step.index + 1}, ${last.step.cell}).`
        : `\`${n}\` was never set before the crash.`
    );
  }
  return { kind: 'state', sentences, names: involved };
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
  export function show(s: IValueSummary | null): string {
    if (!s) {
      return 'not defined';
    }
    const cols = Array.isArray(s.columns)
      ? ` columns ${(s.columns as string[]).join(', ')}`
      : '';
    return `${describeSummary(s)}${cols}`;
  }
}
