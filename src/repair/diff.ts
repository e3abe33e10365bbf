/**
 * A cell-aligned diff between a reproduced notebook and its fixed version,
 * with line diffs inside changed cells and the recorded execution counts of
 * both. Pure.
 */
import { sourceText, stripMarkers } from '../replay/plan';
import type { INbCell, INotebookJSON } from '../replay/types';
import { alignNotebooks } from './align';

/** One line of a line diff. */
export interface IDiffLine {
  /** ' ' kept, '-' only in the reproduced cell, '+' only in the fixed cell. */
  op: ' ' | '-' | '+';
  /** The line. */
  text: string;
}

/** One aligned pair of cells. */
export interface ICellDiff {
  /** How the cell changed. */
  kind: 'same' | 'changed' | 'added' | 'removed';
  /** Cell type. */
  cellType: string;
  /** 1-based position in the reproduced notebook, if there. */
  before: number | null;
  /** 1-based position in the fixed notebook, if there. */
  after: number | null;
  /** Recorded execution count in the reproduced notebook. */
  countBefore: number | null;
  /** Recorded execution count in the fixed notebook. */
  countAfter: number | null;
  /** The line diff (all lines kept for `same`). */
  lines: IDiffLine[];
  /** The reproduced cell's source ('' when the cell was added). */
  beforeText: string;
  /** The fixed cell's source ('' when the cell was removed). */
  afterText: string;
}

/**
 * Align the cells of two notebooks (code cells as `alignNotebooks` pairs them:
 * by id where the ids match, else by content; in document order) and diff
 * each pair.
 */
export function notebookDiff(
  reproduced: INotebookJSON,
  fixed: INotebookJSON
): ICellDiff[] {
  const a = reproduced.cells;
  const b = fixed.cells;
  const pairs = Private.alignCells(a, b);
  return pairs.map(([i, j]) => {
    const left = i === null ? null : a[i];
    const right = j === null ? null : b[j];
    const leftText = left ? Private.text(left) : '';
    const rightText = right ? Private.text(right) : '';
    const lines = lineDiff(
      left ? leftText.split('\n') : [],
      right ? rightText.split('\n') : []
    );
    const kind: ICellDiff['kind'] = !left
      ? 'added'
      : !right
        ? 'removed'
        : leftText === rightText
          ? 'same'
          : 'changed';
    return {
      kind,
      cellType: (left ?? right)!.cell_type,
      before: i === null ? null : i + 1,
      after: j === null ? null : j + 1,
      countBefore: left ? Private.count(left) : null,
      countAfter: right ? Private.count(right) : null,
      lines,
      beforeText: leftText,
      afterText: rightText
    };
  });
}

/**
 * A line diff by longest common subsequence.
 */
export function lineDiff(a: string[], b: string[]): IDiffLine[] {
  const pairs = Private.lcs(a, b, (x, y) => x === y);
  const out: IDiffLine[] = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of pairs) {
    while (i < pi) {
      out.push({ op: '-', text: a[i++] });
    }
    while (j < pj) {
      out.push({ op: '+', text: b[j++] });
    }
    out.push({ op: ' ', text: a[i] });
    i++;
    j++;
  }
  while (i < a.length) {
    out.push({ op: '-', text: a[i++] });
  }
  while (j < b.length) {
    out.push({ op: '+', text: b[j++] });
  }
  return out;
}

namespace Private {
  /**
   * A cell's source as the learner sees it.
   */
  export function text(cell: INbCell): string {
    const source = sourceText(cell);
    return cell.cell_type === 'code' ? stripMarkers(source) : source;
  }

  /**
   * A cell's recorded execution count.
   */
  export function count(cell: INbCell): number | null {
    return typeof cell.execution_count === 'number'
      ? cell.execution_count
      : null;
  }

  /**
   * Pairs of (reproduced index | null, fixed index | null) in document order.
   */
  export function alignCells(
    a: INbCell[],
    b: INbCell[]
  ): [number | null, number | null][] {
    // Code cells pair as the repair check pairs them (ids where they match, else content);
    // other cells by their text.
    const code = alignNotebooks({ cells: a }, { cells: b });
    const same = (x: number, y: number) =>
      a[x].cell_type === 'code' || b[y].cell_type === 'code'
        ? code.forward(x) === y
        : a[x].cell_type === b[y].cell_type &&
          (a[x].id && b[y].id && a[x].id === b[y].id
            ? true
            : similar(text(a[x]), text(b[y])));
    const matches = lcs(
      a.map((_, k) => k),
      b.map((_, k) => k),
      same
    );
    const out: [number | null, number | null][] = [];
    let i = 0;
    let j = 0;
    for (const [pi, pj] of matches) {
      while (i < pi) {
        out.push([i++, null]);
      }
      while (j < pj) {
        out.push([null, j++]);
      }
      out.push([i++, j++]);
    }
    while (i < a.length) {
      out.push([i++, null]);
    }
    while (j < b.length) {
      out.push([null, j++]);
    }
    return out;
  }

  /**
   * Whether two sources share at least half of their lines.
   */
  function similar(x: string, y: string): boolean {
    if (x === y) {
      return true;
    }
    const xs = x.split('\n');
    const ys = new Set(y.split('\n'));
    const shared = xs.filter(l => ys.has(l)).length;
    return shared * 2 >= Math.max(xs.length, ys.size);
  }

  /**
   * Index pairs of a longest common subsequence under `eq`.
   */
  export function lcs<T>(
    a: T[],
    b: T[],
    eq: (x: T, y: T) => boolean
  ): [number, number][] {
    const n = a.length;
    const m = b.length;
    const table: number[][] = Array.from({ length: n + 1 }, () =>
      new Array<number>(m + 1).fill(0)
    );
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        table[i][j] = eq(a[i], b[j])
          ? table[i + 1][j + 1] + 1
          : Math.max(table[i + 1][j], table[i][j + 1]);
      }
    }
    const pairs: [number, number][] = [];
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (eq(a[i], b[j])) {
        pairs.push([i, j]);
        i++;
        j++;
      } else if (table[i + 1][j] >= table[i][j + 1]) {
        i++;
      } else {
        j++;
      }
    }
    return pairs;
  }
}
