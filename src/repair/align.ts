/**
 * Aligning the code cells of two versions of a notebook (reproduced ↔ fixed,
 * reproduced ↔ the learner's copy): by cell id where the ids match, else by
 * content, in order, else by position between aligned neighbours. Pure logic.
 */
import { sourceText, stripMarkers } from '../replay/plan';
import type { INbCell, INotebookJSON } from '../replay/types';

/** How a pair of cells was matched. */
export type AlignMethod = 'id' | 'content' | 'moved' | 'position';

/** One matched pair: cell indices (among all cells) in each notebook. */
export interface IAlignedPair {
  /** Index of the cell in the first notebook. */
  from: number;
  /** Index of its counterpart in the second notebook. */
  to: number;
  /** How the pair was found. */
  method: AlignMethod;
  /** Token similarity of the two sources (0 to 1). */
  similarity: number;
}

/** The alignment of two notebooks' code cells. */
export interface INotebookAlignment {
  /** The matched pairs, by the first notebook's cell order. */
  pairs: IAlignedPair[];
  /** Counterpart of a first-notebook cell index, or null when it has none. */
  forward(from: number): number | null;
  /** Counterpart of a second-notebook cell index, or null when it has none. */
  backward(to: number): number | null;
  /** The pair of a first-notebook cell index, or null. */
  pairOf(from: number): IAlignedPair | null;
}

/** Options of an alignment. */
export interface IAlignOptions {
  /**
   * Ids the first notebook's id-less cells are known by in the second (a
   * working copy names the reproduced notebook's id-less cell `i` `jb-cell-i`).
   */
  fallbackId?: (index: number) => string | null;
}

/** Two cells in order count as the same cell from this token similarity on. */
export const CONTENT_MATCH = 0.45;

/** A cell found elsewhere in the notebook counts as moved from this similarity on. */
export const MOVED_MATCH = 0.85;

/**
 * Align the code cells of `a` with those of `b`: (1) equal ids, in any order (a
 * learner may move cells); (2) among the rest, the order-preserving matching of
 * most similar sources (token Dice of the code without comments, at least
 * `CONTENT_MATCH`); (3) a near-identical cell elsewhere (moved); (4) a lone
 * unmatched cell between the same aligned neighbours on both sides (edited
 * beyond recognition in place).
 */
export function alignNotebooks(
  a: Pick<INotebookJSON, 'cells'>,
  b: Pick<INotebookJSON, 'cells'>,
  options: IAlignOptions = {}
): INotebookAlignment {
  const codeA = Private.codeIndices(a);
  const codeB = Private.codeIndices(b);
  const tokA = new Map(codeA.map(i => [i, Private.tokens(a.cells[i])]));
  const tokB = new Map(codeB.map(j => [j, Private.tokens(b.cells[j])]));
  const sim = (i: number, j: number) =>
    Private.dice(tokA.get(i) ?? [], tokB.get(j) ?? []);
  const pairs = new Map<number, IAlignedPair>();
  const usedB = new Set<number>();
  const add = (i: number, j: number, method: AlignMethod) => {
    pairs.set(i, { from: i, to: j, method, similarity: sim(i, j) });
    usedB.add(j);
  };

  // (1) Ids.
  const idsB = new Map<string, number>();
  for (const j of codeB) {
    const id = Private.idOf(b.cells[j]);
    if (id && !idsB.has(id)) {
      idsB.set(id, j);
    }
  }
  for (const i of codeA) {
    const candidates = [
      Private.idOf(a.cells[i]),
      options.fallbackId?.(i) ?? null
    ];
    for (const id of candidates) {
      const j = id ? idsB.get(id) : undefined;
      if (j !== undefined && !usedB.has(j)) {
        add(i, j, 'id');
        break;
      }
    }
  }

  // (2) Content, in order, among the cells left.
  const restA = codeA.filter(i => !pairs.has(i));
  const restB = codeB.filter(j => !usedB.has(j));
  for (const [i, j] of Private.orderedMatch(restA, restB, sim)) {
    add(i, j, 'content');
  }

  // (3) Moved cells: near-identical sources out of order.
  for (const i of codeA) {
    if (pairs.has(i)) {
      continue;
    }
    let best: { j: number; s: number } | null = null;
    for (const j of codeB) {
      if (usedB.has(j)) {
        continue;
      }
      const s = sim(i, j);
      if (s >= MOVED_MATCH && (!best || s > best.s)) {
        best = { j, s };
      }
    }
    if (best) {
      add(i, best.j, 'moved');
    }
  }

  // (4) A lone cell between the same neighbours on both sides.
  for (const [i, j] of Private.sandwiched(codeA, codeB, pairs, usedB)) {
    add(i, j, 'position');
  }

  const sorted = [...pairs.values()].sort((x, y) => x.from - y.from);
  const back = new Map(sorted.map(p => [p.to, p.from]));
  return {
    pairs: sorted,
    forward: from => pairs.get(from)?.to ?? null,
    backward: to => back.get(to) ?? null,
    pairOf: from => pairs.get(from) ?? null
  };
}

/**
 * The Dice coefficient of two multisets (lists of tokens or lines): twice the
 * shared items over the total, 1 for two empty lists.
 */
export function dice(a: string[], b: string[]): number {
  return Private.dice(a, b);
}

/**
 * The tokens of Python code: identifiers, numbers, one-line strings and
 * operator characters.
 */
export function codeTokens(code: string): string[] {
  return (
    code.match(/[A-Za-z_]\w*|\d+(?:\.\d+)?|'[^'\n]*'|"[^"\n]*"|[^\s\w]/g) ?? []
  );
}

/**
 * Token similarity (Dice over token multisets) of two cells' code, comments
 * and JunoBench markers left out.
 */
export function cellSimilarity(x: INbCell, y: INbCell): number {
  return Private.dice(Private.tokens(x), Private.tokens(y));
}

namespace Private {
  /**
   * Indices of the code cells.
   */
  export function codeIndices(nb: Pick<INotebookJSON, 'cells'>): number[] {
    const out: number[] = [];
    nb.cells.forEach((c, i) => {
      if (c.cell_type === 'code') {
        out.push(i);
      }
    });
    return out;
  }

  /**
   * A cell's id, or null.
   */
  export function idOf(cell: INbCell): string | null {
    return typeof cell.id === 'string' && cell.id ? cell.id : null;
  }

  /**
   * The tokens of a cell's code: identifiers, numbers, strings, operators;
   * comment lines and markers dropped.
   */
  export function tokens(cell: INbCell): string[] {
    const code = stripMarkers(sourceText(cell))
      .split('\n')
      .filter(l => !/^\s*#/.test(l))
      .join('\n');
    return codeTokens(code);
  }

  /**
   * Dice coefficient over token multisets (1 for two empty cells).
   */
  export function dice(a: string[], b: string[]): number {
    if (!a.length && !b.length) {
      return 1;
    }
    const counts = new Map<string, number>();
    a.forEach(t => counts.set(t, (counts.get(t) ?? 0) + 1));
    let shared = 0;
    b.forEach(t => {
      const n = counts.get(t) ?? 0;
      if (n > 0) {
        shared++;
        counts.set(t, n - 1);
      }
    });
    return (2 * shared) / (a.length + b.length);
  }

  /**
   * The order-preserving matching of maximal total similarity among pairs at
   * least `CONTENT_MATCH` alike (a weighted longest common subsequence).
   */
  export function orderedMatch(
    a: number[],
    b: number[],
    sim: (i: number, j: number) => number
  ): Array<[number, number]> {
    const n = a.length;
    const m = b.length;
    if (!n || !m) {
      return [];
    }
    const score: number[][] = Array.from({ length: n + 1 }, () =>
      new Array<number>(m + 1).fill(0)
    );
    const s: number[][] = Array.from({ length: n }, (_, x) =>
      b.map((j, y) => {
        const v = sim(a[x], b[y]);
        return v >= CONTENT_MATCH ? v : -1;
      })
    );
    for (let x = n - 1; x >= 0; x--) {
      for (let y = m - 1; y >= 0; y--) {
        let best = Math.max(score[x + 1][y], score[x][y + 1]);
        if (s[x][y] >= 0) {
          best = Math.max(best, s[x][y] + score[x + 1][y + 1]);
        }
        score[x][y] = best;
      }
    }
    const out: Array<[number, number]> = [];
    let x = 0;
    let y = 0;
    while (x < n && y < m) {
      if (s[x][y] >= 0 && score[x][y] === s[x][y] + score[x + 1][y + 1]) {
        out.push([a[x], b[y]]);
        x++;
        y++;
      } else if (score[x][y] === score[x + 1][y]) {
        x++;
      } else {
        y++;
      }
    }
    return out;
  }

  /**
   * Unmatched cells that are alone between the same two aligned neighbours
   * (or the notebook's start or end) on both sides.
   */
  export function sandwiched(
    codeA: number[],
    codeB: number[],
    pairs: Map<number, IAlignedPair>,
    usedB: Set<number>
  ): Array<[number, number]> {
    // Walk the pairs that keep the order; each gap between two of them (and
    // before the first, after the last) holding one cell on each side pairs up.
    const ordered = [...pairs.values()]
      .sort((x, y) => x.from - y.from)
      .filter((p, k, all) => all.every((q, l) => l >= k || q.to < p.to));
    const bounds: Array<[number, number]> = [
      [-1, -1],
      ...ordered.map(p => [p.from, p.to] as [number, number]),
      [Infinity, Infinity]
    ];
    const out: Array<[number, number]> = [];
    for (let k = 0; k + 1 < bounds.length; k++) {
      const [a0, b0] = bounds[k];
      const [a1, b1] = bounds[k + 1];
      const gapA = codeA.filter(i => i > a0 && i < a1 && !pairs.has(i));
      const gapB = codeB.filter(j => j > b0 && j < b1 && !usedB.has(j));
      if (gapA.length === 1 && gapB.length === 1) {
        out.push([gapA[0], gapB[0]]);
      }
    }
    return out;
  }
}
