/**
 * Replay plans for JunoBench notebooks: which code cells run and in which
 * order (the recorded execution-count order, or top to bottom), where the
 * recorded crash is, and how an observed crash compares with it. Pure logic.
 */

import * as nbformat from '@jupyterlab/nbformat';

import { stripAnsi } from './ansi';
import type {
  CrashMatch,
  ICrashSignature,
  INbCell,
  INotebookJSON,
  IOrderComparison,
  IOrderEntry,
  IPlanStep,
  IPlanSummary,
  IReplayPlan,
  ITarget
} from './types';

/**
 * Return a cell's source as one string (nbformat stores it as a string or as lines).
 */
export function sourceText(cell: Pick<INbCell, 'source'>): string {
  const { source } = cell;
  return Array.isArray(source) ? source.join('') : (source ?? '');
}

/**
 * Tell whether the first line of a cell source holds a `[reexecute]` or `[re-execute]` marker (any case).
 */
export function hasReexecuteMarker(source: string): boolean {
  return Private.MARKER.test(Private.splitFirstLine(source).first);
}

/**
 * Remove the `[reexecute]` marker from the first line: a comment line holding only the marker is
 * dropped, a trailing marker comment after code is dropped, other comment text is kept.
 */
export function stripMarkers(source: string): string {
  const { first, eol, rest } = Private.splitFirstLine(source);
  const hash = Private.commentStart(first);
  if (hash < 0) {
    // No comment, or a marker inside a string literal: never rewrite code.
    return source;
  }
  const comment = first.slice(hash);
  if (!Private.MARKER.test(comment)) {
    return source;
  }
  const code = first.slice(0, hash).trimEnd();
  const remaining = comment
    .replace(Private.MARKER_ALL, '')
    .replace(/^#+/, '')
    .trim();
  const keptComment = Private.EMPTY_COMMENT.test(remaining)
    ? ''
    : `# ${remaining}`;
  if (code.trim() === '' && keptComment === '') {
    return rest;
  }
  let line: string;
  if (code.trim() === '') {
    line = code + keptComment;
  } else {
    line = keptComment ? `${code}  ${keptComment}` : code;
  }
  return line + eol + rest;
}

/**
 * Map a 1-based line of a marked source onto the same line of `stripMarkers(source)`, or null for
 * the dropped marker line.
 */
export function lineAfterStrip(source: string, line: number): number | null {
  const droppedFirstLine =
    hasReexecuteMarker(source) &&
    Private.lineCount(stripMarkers(source)) < Private.lineCount(source);
  if (!droppedFirstLine) {
    return line;
  }
  return line <= 1 ? null : line - 1;
}

/**
 * Find the 1-based crash line inside the executing cell from an IPython traceback (ANSI codes
 * allowed), reading the first cell frame of the last exception in a chain; null when unknown.
 */
export function crashLineFromTraceback(traceback: string[]): number | null {
  const text = traceback.map(stripAnsi).join('\n');
  const lines = Private.lastChain(text.split(/\r?\n/));
  let inCell = false;
  let headerLine: number | null = null;
  let arrowLine: number | null = null;
  let sawHeader = false;
  let firstArrow: number | null = null;
  for (const line of lines) {
    const cell = Private.cellFrame(line);
    if (cell || Private.isOtherFrame(line)) {
      if (inCell) {
        break;
      }
      sawHeader = true;
      if (cell) {
        inCell = true;
        headerLine = cell.line;
      }
      continue;
    }
    const arrow = Private.ARROW.exec(line);
    if (arrow) {
      const n = Number(arrow[1]);
      firstArrow ??= n;
      if (inCell) {
        arrowLine ??= n;
      }
    }
  }
  if (inCell) {
    return headerLine ?? arrowLine;
  }
  // A bare excerpt with arrows but no frame headers at all: trust the first arrow.
  return sawHeader ? null : firstArrow;
}

/**
 * Find the crashing cell: the first code cell in document order that holds an `error` output.
 */
export function findTarget(nb: INotebookJSON): ITarget | null {
  for (const { cell, cellIndex, codeCellIndex } of Private.codeCells(nb)) {
    const error = (cell.outputs ?? []).find(nbformat.isError);
    if (!error) {
      continue;
    }
    const raw = Array.isArray(error.traceback)
      ? error.traceback.filter((t): t is string => typeof t === 'string')
      : [];
    return {
      cellIndex,
      codeCellIndex,
      ename: stripAnsi(typeof error.ename === 'string' ? error.ename : ''),
      evalue: stripAnsi(typeof error.evalue === 'string' ? error.evalue : ''),
      traceback: raw.map(stripAnsi),
      line: crashLineFromTraceback(raw)
    };
  }
  return null;
}

/**
 * Build the recorded plan: code cells with a numeric execution count, ascending by count (ties in
 * document order), `[reexecute]` cells twice in a row, and the target always included (last when it
 * has no count); steps after the target stay.
 */
export function recordedPlan(nb: INotebookJSON): IReplayPlan {
  const target = findTarget(nb);
  const order = Private.plannedCells(nb, target);
  order.sort(Private.byCountThenPosition);
  return {
    kind: 'recorded',
    target,
    steps: order.flatMap(c => Private.steps(c, target, true))
  };
}

/**
 * Build the contrast plan ("restart and run all"): the cells the recorded plan runs, in document
 * order, each exactly once — `[reexecute]` cells run once too, because a top-to-bottom run has
 * no reason to repeat a cell; the repetition belongs to the recorded history only.
 */
export function topToBottomPlan(nb: INotebookJSON): IReplayPlan {
  const target = findTarget(nb);
  const order = Private.plannedCells(nb, target);
  order.sort((a, b) => a.cellIndex - b.cellIndex);
  return {
    kind: 'top-to-bottom',
    target,
    steps: order.flatMap(c => Private.steps(c, target, false))
  };
}

/**
 * Compare a plan's run order (the recorded plan when given a notebook) with the document order,
 * flagging steps whose cell runs ahead of a cell above it or behind a cell below it.
 */
export function orderComparison(
  planOrNotebook: IReplayPlan | INotebookJSON
): IOrderComparison {
  const plan =
    'steps' in planOrNotebook ? planOrNotebook : recordedPlan(planOrNotebook);
  const steps = plan.steps;
  const distinct = [...new Set(steps.map(s => s.cellIndex))].sort(
    (a, b) => a - b
  );
  const position = new Map(distinct.map((cellIndex, i) => [cellIndex, i]));

  // Smallest cell index among the steps after i, to see whether i runs ahead of a cell above it.
  const minAfter: number[] = new Array<number>(steps.length);
  let min = Infinity;
  for (let i = steps.length - 1; i >= 0; i--) {
    minAfter[i] = min;
    min = Math.min(min, steps[i].cellIndex);
  }

  let maxBefore = -Infinity;
  const entries: IOrderEntry[] = steps.map((step, i) => {
    const entry: IOrderEntry = {
      stepIndex: i,
      cellIndex: step.cellIndex,
      codeCellIndex: step.codeCellIndex,
      executionCount: step.executionCount,
      run: step.run,
      isTarget: step.isTarget,
      documentPosition: position.get(step.cellIndex) ?? 0,
      runsAhead: minAfter[i] < step.cellIndex,
      runsBehind: maxBefore > step.cellIndex
    };
    maxBefore = Math.max(maxBefore, step.cellIndex);
    return entry;
  });

  const ahead = new Set(entries.filter(e => e.runsAhead).map(e => e.cellIndex));
  const behind = new Set(
    entries.filter(e => e.runsBehind).map(e => e.cellIndex)
  );
  return {
    entries,
    inDocumentOrder: ahead.size === 0,
    cellsAhead: ahead.size,
    cellsBehind: behind.size
  };
}

/**
 * Summarise a plan for a timeline header: step and cell counts, repeated cells, the target's step
 * and how many steps follow it.
 */
export function planSummary(plan: IReplayPlan): IPlanSummary {
  const { steps } = plan;
  const first = steps.findIndex(s => s.isTarget);
  let last = -1;
  steps.forEach((s, i) => {
    if (s.isTarget) {
      last = i;
    }
  });
  return {
    kind: plan.kind,
    steps: steps.length,
    cells: new Set(steps.map(s => s.cellIndex)).size,
    reexecuted: steps.filter(s => s.run === 2).map(s => s.codeCellIndex),
    targetStep: first < 0 ? null : first,
    stepsAfterTarget: last < 0 ? 0 : steps.length - 1 - last,
    inDocumentOrder: orderComparison(plan).inDocumentOrder
  };
}

/**
 * Normalise an exception name for comparison: ANSI and `<class '…'>` removed, module prefix
 * dropped, lower case (`sklearn.exceptions.NotFittedError` → `notfittederror`).
 */
export function normaliseEname(x: string): string {
  let s = stripAnsi(x).trim();
  const cls = /^<class\s+'([^']*)'>$/.exec(s);
  if (cls) {
    s = cls[1];
  }
  const dot = s.lastIndexOf('.');
  return (dot >= 0 ? s.slice(dot + 1) : s).trim().toLowerCase();
}

/**
 * Compare an observed crash with the recorded one: names through `normaliseEname`, messages with
 * ANSI codes removed, whitespace collapsed and memory addresses (`0x7f…`) masked.
 */
export function compareCrash(
  recorded: ICrashSignature,
  observed: ICrashSignature
): CrashMatch {
  if (normaliseEname(recorded.ename) !== normaliseEname(observed.ename)) {
    return 'different-exception';
  }
  return Private.normaliseEvalue(recorded.evalue) ===
    Private.normaliseEvalue(observed.evalue)
    ? 'as-recorded'
    : 'same-exception-different-message';
}

/**
 * Helpers that are not part of the public API.
 */
namespace Private {
  /** The marker, anywhere in a string. */
  export const MARKER = /\[re-?execute\]/i;

  /** Every marker in a string. */
  export const MARKER_ALL = /\[re-?execute\]/gi;

  /** What is left of a comment that said nothing but the marker. */
  export const EMPTY_COMMENT = /^[\s\-–—:;,.!*]*$/;

  /** An IPython source-line arrow: `---->  3 y = f(x)`. */
  export const ARROW = /^\s*-+>\s*(\d+)\b/;

  /** IPython 8 `Cell In[5], line 3` and 8.0–8.4 `Input In [5]`. */
  const CELL_IN =
    /^\s*(?:File\s+)?(?:Cell\s+In|Input\s+In)\s*\[\s*\d*\s*\](?:\s*,\s*line\s+(\d+))?/;

  /** IPython 7 `<ipython-input-6-3ea0965a5d70> in <module>` or Python's `File "<ipython-input-…>", line 2`. */
  const IPYTHON_INPUT =
    /^\s*(?:File\s+)?"?<ipython-input-[^>]*>"?(?:\s*,\s*line\s+(\d+))?/;

  /** ipykernel 6 cell files: `/tmp/ipykernel_35/1234.py in <module>`, `…/1234.py:3`, `"…/1234.py", line 3`. */
  const IPYKERNEL =
    /^\s*(?:File\s+)?"?(?:[^\s"]*[\\/])?ipykernel_\d+[\\/]\d+\.py"?(?::(\d+)|\s*,\s*line\s+(\d+))?/;

  /** IPython 7 frames named `<cell line: 4>`. */
  const CELL_LINE = /<cell line:\s*(\d+)>/;

  /** Frames outside the cell: Python/IPython 8 `File path:12` or `File "path", line 12`. */
  const FILE_FRAME = /^\s*File\s+(?:"[^"]*"\s*,\s*line\s+\d+|\S+:\d+)/;

  /** Frames outside the cell: IPython 7 `/path/to/lib.py in func(...)` or `<decorator-gen-1> in f()`. */
  const IPYTHON7_FRAME = /^\s*(?:\S+\.py|<[^>]+>)\s+in\s+\S/;

  /** Lines that separate the exceptions of a chain. */
  const CHAIN =
    /^\s*(?:During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)\s*$/;

  /**
   * Split a source into its first line, that line's end-of-line and the rest.
   */
  export function splitFirstLine(source: string): {
    first: string;
    eol: string;
    rest: string;
  } {
    const nl = source.indexOf('\n');
    if (nl < 0) {
      return { first: source, eol: '', rest: '' };
    }
    const cr = nl > 0 && source[nl - 1] === '\r';
    return {
      first: source.slice(0, cr ? nl - 1 : nl),
      eol: cr ? '\r\n' : '\n',
      rest: source.slice(nl + 1)
    };
  }

  /**
   * Index of the `#` that opens a Python comment on a single line, skipping string literals; -1 if none.
   */
  export function commentStart(line: string): number {
    let quote: string | null = null;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quote) {
        if (ch === '\\') {
          i++;
        } else if (ch === quote) {
          quote = null;
        }
      } else if (ch === '"' || ch === "'") {
        quote = ch;
      } else if (ch === '#') {
        return i;
      }
    }
    return -1;
  }

  /**
   * Number of lines of a source (a trailing newline does not open a line).
   */
  export function lineCount(source: string): number {
    if (source === '') {
      return 0;
    }
    return source.replace(/\r?\n$/, '').split('\n').length;
  }

  /**
   * The lines of the last exception of a chained traceback (all lines when not chained).
   */
  export function lastChain(lines: string[]): string[] {
    let start = 0;
    lines.forEach((line, i) => {
      if (CHAIN.test(line)) {
        start = i + 1;
      }
    });
    return lines.slice(start);
  }

  /**
   * Recognise a frame header of the executing cell, with its line when the header states it.
   */
  export function cellFrame(line: string): { line: number | null } | null {
    for (const re of [CELL_IN, IPYTHON_INPUT, IPYKERNEL]) {
      const m = re.exec(line);
      if (m) {
        const stated = m.slice(1).find(g => g !== undefined);
        const named = CELL_LINE.exec(line);
        const n = Number(stated ?? (named ? named[1] : undefined));
        // IPython 7.34 names the cell's frame `<cell line: 0>`: no line.
        return { line: n >= 1 ? n : null };
      }
    }
    return null;
  }

  /**
   * Recognise a frame header of code outside the cell (libraries, IPython internals).
   */
  export function isOtherFrame(line: string): boolean {
    return FILE_FRAME.test(line) || IPYTHON7_FRAME.test(line);
  }

  /**
   * Normalise an exception message for comparison.
   */
  export function normaliseEvalue(s: string): string {
    return stripAnsi(s)
      .replace(/0x[0-9a-f]+/gi, '0x')
      .replace(/\s+/g, ' ')
      .trim();
  }

  /** A code cell with its positions and recorded count. */
  export interface ICodeCell {
    cell: INbCell;
    cellIndex: number;
    codeCellIndex: number;
    count: number | null;
  }

  /**
   * The code cells of a notebook with their positions.
   */
  export function codeCells(nb: INotebookJSON): ICodeCell[] {
    const out: ICodeCell[] = [];
    nb.cells.forEach((cell, cellIndex) => {
      if (cell.cell_type !== 'code') {
        return;
      }
      const c = cell.execution_count;
      out.push({
        cell,
        cellIndex,
        codeCellIndex: out.length,
        count: typeof c === 'number' && Number.isFinite(c) ? c : null
      });
    });
    return out;
  }

  /**
   * The cells a plan runs: those with a count, plus the target (unsorted).
   */
  export function plannedCells(
    nb: INotebookJSON,
    target: ITarget | null
  ): ICodeCell[] {
    return codeCells(nb).filter(
      c => c.count !== null || c.cellIndex === target?.cellIndex
    );
  }

  /**
   * Order by execution count, ties by document position; a cell without a count (only ever the
   * target) goes last.
   */
  export function byCountThenPosition(a: ICodeCell, b: ICodeCell): number {
    const ca = a.count ?? Infinity;
    const cb = b.count ?? Infinity;
    if (ca !== cb) {
      return ca < cb ? -1 : 1;
    }
    return a.cellIndex - b.cellIndex;
  }

  /**
   * The step(s) for one cell: two for a `[reexecute]` cell when repeats are wanted.
   */
  export function steps(
    c: ICodeCell,
    target: ITarget | null,
    repeat: boolean
  ): IPlanStep[] {
    const raw = sourceText(c.cell);
    const base = {
      cellIndex: c.cellIndex,
      codeCellIndex: c.codeCellIndex,
      executionCount: c.count,
      source: stripMarkers(raw),
      isTarget: c.cellIndex === target?.cellIndex
    };
    return repeat && hasReexecuteMarker(raw)
      ? [
          { ...base, run: 1 },
          { ...base, run: 2 }
        ]
      : [{ ...base, run: 1 }];
  }
}
