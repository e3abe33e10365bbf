/**
 * Aligning the code cells of two versions of a notebook (reproduced ↔ fixed,
 * reproduced ↔ the learner's copy, fixed ↔ learner) in the spirit of nbdime's
 * diff: by cell id where the ids match, else by a global sequence alignment of
 * the sources, else as moved, else by place between aligned neighbours, with
 * the notebooks' execution counts as evidence. Pure logic.
 */
import { parser } from '@lezer/python';
import { sourceText, stripMarkers } from '../replay/plan';
import type { INbCell, INotebookJSON } from '../replay/types';
import { POLICY } from './policy';

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
  /**
   * Content similarity of the two sources (0 to 1): token Dice, or the share
   * of the smaller cell's token pairs kept in the larger when one grew.
   */
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
  /**
   * Whether execution counts count as evidence (default true): a cell that ran
   * is preferred over a never-run look-alike, and cells in the same place in
   * the order the cells ran are preferred.
   */
  executionCounts?: boolean;
}

/**
 * Align the code cells of `a` with those of `b`: (1) equal ids, in any order;
 * (2) the rest by a global alignment of their code between the id pairs that
 * keep their order (cells identical and unique on both sides first), where a
 * pair scores its content similarity (token Dice, or the share of the smaller
 * cell's token pairs found in the larger; from `POLICY.cellMatch` on), more when
 * it follows the previous pair, less when it is a never-run copy and a cell
 * that ran is alike, more when the cells that ran next to them are alike, and
 * two cells that ran at other times around the same neighbours pair only when
 * near-identical; (3) cells out of order, near-identical (`POLICY.movedMatch`) or
 * alike and in the same place in run order (moved); (4) what is left between
 * two aligned neighbours: empty with empty, as many with as many in order
 * (never-run empty cells aside), else by place in run order or by weak
 * likeness (shared words and assigned names); at the notebook's start or end
 * only a lone cell with a lone cell.
 */
export function alignNotebooks(
  a: Pick<INotebookJSON, 'cells'>,
  b: Pick<INotebookJSON, 'cells'>,
  options: IAlignOptions = {}
): INotebookAlignment {
  const aligner = new Private.Aligner(a, b, options);
  aligner.byId(options.fallbackId);
  aligner.byContent();
  aligner.moved();
  aligner.inPlace();
  const pairs = aligner.pairs;
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
 * A cell's code without JunoBench markers, comments and blank lines, each line trimmed: the
 * comments as Python's grammar finds them (a `#` in a string of any length is none), so that
 * alignment and the check's "changed cell" agree on what a comment is.
 */
export function uncommented(cell: INbCell | undefined): string {
  if (!cell) {
    return '';
  }
  const text = stripMarkers(sourceText(cell));
  let out = '';
  let at = 0;
  // Without a `#` there is no comment to find (most cells: alignment reads them all).
  (text.includes('#') ? parser.parse(text) : null)?.iterate({
    enter: node => {
      if (node.name === 'Comment') {
        out += text.slice(at, node.from);
        at = node.to;
      }
    }
  });
  return (out + text.slice(at))
    .split('\n')
    .map(l => l.trim())
    .filter(Boolean)
    .join('\n');
}

/**
 * Token similarity (Dice over token multisets) of two cells' code, comments
 * and JunoBench markers left out.
 */
export function cellSimilarity(x: INbCell, y: INbCell): number {
  return Private.dice(codeTokens(uncommented(x)), codeTokens(uncommented(y)));
}

namespace Private {
  /**
   * The score of continuing the previous pair (both cells right after an
   * aligned pair): an affine gap cost, so that the cell in place wins over an
   * inserted or appended look-alike unless that one is clearly more alike.
   */
  const NEXT_TO = 0.1;

  /**
   * The score of a pair of cells just `POLICY.cellMatch` alike; an identical pair
   * scores 1, in between in proportion.
   */
  const EVEN = 0.1;

  /** The least score of a pair of cells that may pair. */
  const MIN_SCORE = 0.01;

  /**
   * What a never-run cell loses as the counterpart of a cell that ran when a
   * cell that ran could pair with it too: as much as an identical pair is
   * worth, so any cell alike enough that ran beats a never-run copy.
   */
  const STALE = 1;

  /** The score of each side (before, after) on which the cells that ran next to them are alike. */
  const RUN_ORDER = 0.1;

  /**
   * The weight of containment against Dice: below 1, so a cell that only grew
   * scores under an identical one.
   */
  const GROWTH = 0.9;

  /**
   * Token pairs a cell is taken to have beyond its own in containment: a tiny
   * cell (`df.head()`) found inside a big one is weak evidence.
   */
  const SHRINK = 5;

  /**
   * Words too common in code and in the lines repairs add to tell cells apart.
   */
  const COMMON = new Set(
    (
      'False None True and as assert async await break class continue def del ' +
      'elif else except finally for from global if import in is lambda ' +
      'nonlocal not or pass raise return try while with yield print'
    ).split(' ')
  );

  /**
   * One code cell, read once.
   */
  interface ICode {
    /** Index among all cells. */
    index: number;
    /** The code, comments and markers left out. */
    source: string;
    /** Sorted interned tokens (a multiset). */
    tokens: Int32Array;
    /** Sorted hashes of the pairs of consecutive tokens. */
    bigrams: Int32Array;
    /** Sorted interned words: identifiers other than keywords, literals. */
    words: Int32Array;
    /** Names the cell assigns (or defines), once asked for. */
    defs: Set<string> | null;
    /** No code left once comments and markers are gone. */
    empty: boolean;
    /** The execution count, null when the cell never ran. */
    count: number | null;
    /** An empty cell's whole source, whitespace collapsed (empty cells compare by it). */
    text: string;
    /** A hash of the tokens in order (identical cells compare by it). */
    key: string;
  }

  /**
   * Names assigned at the start of a statement (`x = `, `a, b = `, `df[...] = `
   * count as `x`, `a`, `b`, `df`) or defined (`def f`, `class C`): the state a
   * cell leaves behind, which a rewrite of the cell usually keeps.
   */
  function definedNames(source: string): Set<string> {
    const out = new Set<string>();
    let depth = 0;
    for (const line of source.split('\n')) {
      // Only statement starts: `key=value` lines inside a call are arguments.
      if (depth === 0) {
        const def = /^\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)/.exec(
          line
        );
        const assign =
          /^\s*((?:[A-Za-z_][\w.]*(?:\[[^\]\n]*\])?\s*,\s*)*[A-Za-z_][\w.]*(?:\[[^\]\n]*\])?)\s*,?\s*(?:\*\*|\/\/|>>|<<|[-+*/%&|^@])?=(?!=)/.exec(
            line
          );
        if (def) {
          out.add(def[1]);
        } else if (assign) {
          for (const target of assign[1].split(',')) {
            const name = /^\s*([A-Za-z_]\w*)/.exec(target);
            if (name && !COMMON.has(name[1])) {
              out.add(name[1]);
            }
          }
        }
      }
      const bare = line.replace(/'[^'\n]*'|"[^"\n]*"/g, '');
      depth += (bare.match(/[([{]/g) ?? []).length;
      depth -= (bare.match(/[)\]}]/g) ?? []).length;
      depth = Math.max(0, depth);
    }
    return out;
  }

  /**
   * Interned tokens: sorted arrays of numbers compare as multisets in one
   * merge, which keeps 500 × 500 cell comparisons fast.
   */
  class Interner {
    /**
     * The id of a token.
     */
    id(token: string): number {
      let id = this._ids.get(token);
      if (id === undefined) {
        id = this._ids.size;
        this._ids.set(token, id);
        this._word.push(/^[\w'"]/.test(token) && !COMMON.has(token));
      }
      return id;
    }

    /**
     * Whether a token is a word (an identifier other than a keyword, a literal).
     */
    isWord(id: number): boolean {
      return this._word[id];
    }

    private _ids = new Map<string, number>();
    private _word: boolean[] = [];
  }

  /**
   * The code cells of a notebook, read for aligning.
   */
  function readCells(
    nb: Pick<INotebookJSON, 'cells'>,
    interner: Interner
  ): ICode[] {
    const out: ICode[] = [];
    nb.cells.forEach((cell, index) => {
      if (cell.cell_type !== 'code') {
        return;
      }
      const source = uncommented(cell);
      const tokens = codeTokens(source);
      const n = tokens.length;
      const ids = new Int32Array(n);
      // Two hashes of the ids in order: identical code, identical key.
      let h1 = 0x811c9dc5;
      let h2 = n;
      let words = 0;
      for (let k = 0; k < n; k++) {
        const id = interner.id(tokens[k]);
        ids[k] = id;
        h1 = Math.imul(h1 ^ id, 0x01000193);
        h2 = Math.imul(h2 + id, 0x5bd1e995) ^ (h2 >>> 15);
        words += interner.isWord(id) ? 1 : 0;
      }
      // A pair of token ids as one 32-bit hash (a rare collision only makes
      // two cells look a little more alike).
      const bigrams = new Int32Array(Math.max(0, n - 1));
      for (let k = 1; k < n; k++) {
        bigrams[k - 1] = Math.imul(ids[k - 1], 0x9e3779b1) ^ ids[k];
      }
      const wordIds = new Int32Array(words);
      for (let k = 0, w = 0; k < n; k++) {
        if (interner.isWord(ids[k])) {
          wordIds[w++] = ids[k];
        }
      }
      out.push({
        index,
        source,
        tokens: ids.sort(),
        bigrams: bigrams.sort(),
        words: wordIds.sort(),
        defs: null,
        empty: n === 0,
        count:
          typeof cell.execution_count === 'number'
            ? cell.execution_count
            : null,
        text: n
          ? ''
          : stripMarkers(sourceText(cell)).replace(/\s+/g, ' ').trim(),
        key: `${n}:${h1}:${h2}`
      });
    });
    return out;
  }

  /**
   * How many items two sorted multisets share.
   */
  function shared(x: Int32Array, y: Int32Array): number {
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < x.length && j < y.length) {
      if (x[i] === y[j]) {
        n++;
        i++;
        j++;
      } else if (x[i] < y[j]) {
        i++;
      } else {
        j++;
      }
    }
    return n;
  }

  /**
   * Dice of two sorted multisets (1 for two empty ones).
   */
  function diceOf(x: Int32Array, y: Int32Array): number {
    return x.length + y.length ? (2 * shared(x, y)) / (x.length + y.length) : 1;
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
    let same = 0;
    b.forEach(t => {
      const n = counts.get(t) ?? 0;
      if (n > 0) {
        same++;
        counts.set(t, n - 1);
      }
    });
    return (2 * same) / (a.length + b.length);
  }

  /**
   * The order-keeping alignment of greatest score of `n` items with `m` items
   * (Needleman–Wunsch with free gaps and an affine bonus): `weight(x, y)` is
   * the score of pairing item x with item y, null when they may not pair; a
   * pair right after the previous one scores `NEXT_TO` more, and so does the
   * first (last) pair of both sides when `ends.first` (`ends.last`) says an
   * aligned pair is just before (after) them. Returns the pairs in order.
   */
  function sequence(
    n: number,
    m: number,
    weight: (x: number, y: number) => number | null,
    ends: { first: boolean; last: boolean }
  ): Array<[number, number]> {
    if (!n || !m) {
      return [];
    }
    const w = m + 1;
    // best: any alignment of the prefixes; run: one that ends pairing x-1, y-1.
    const best = new Float64Array((n + 1) * w);
    const run = new Float64Array((n + 1) * w).fill(-Infinity);
    const bestFrom = new Uint8Array((n + 1) * w);
    const runFrom = new Uint8Array((n + 1) * w);
    for (let x = 1; x <= n; x++) {
      for (let y = 1; y <= m; y++) {
        const k = x * w + y;
        const v = weight(x - 1, y - 1);
        if (v !== null) {
          let score = v;
          if (x === 1 && y === 1 && ends.first) {
            score += NEXT_TO;
          }
          if (x === n && y === m && ends.last) {
            score += NEXT_TO;
          }
          const d = k - w - 1;
          const continued = run[d] + NEXT_TO;
          if (continued > best[d]) {
            run[k] = score + continued;
            runFrom[k] = 1;
          } else {
            run[k] = score + best[d];
          }
        }
        // Ties keep the pair, then drop the first side's item.
        let top = run[k];
        let from = 0;
        if (best[k - w] > top) {
          top = best[k - w];
          from = 1;
        }
        if (best[k - 1] > top) {
          top = best[k - 1];
          from = 2;
        }
        best[k] = top;
        bestFrom[k] = from;
      }
    }
    const out: Array<[number, number]> = [];
    let x = n;
    let y = m;
    let inRun = false;
    while (x > 0 && y > 0) {
      const k = x * w + y;
      if (!inRun) {
        const from = bestFrom[k];
        if (from === 1) {
          x--;
          continue;
        }
        if (from === 2) {
          y--;
          continue;
        }
      }
      out.push([x - 1, y - 1]);
      inRun = runFrom[k] === 1;
      x--;
      y--;
    }
    return out.reverse();
  }

  /**
   * The longest subsequence of `items` (in their order) whose keys increase.
   */
  function increasing<T>(items: T[], key: (item: T) => number): T[] {
    const tails: number[] = [];
    const prev = new Array<number>(items.length).fill(-1);
    items.forEach((item, k) => {
      const v = key(item);
      let lo = 0;
      let hi = tails.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (key(items[tails[mid]]) < v) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      prev[k] = lo > 0 ? tails[lo - 1] : -1;
      tails[lo] = k;
    });
    const out: T[] = [];
    for (let k = tails.length ? tails[tails.length - 1] : -1; k >= 0;) {
      out.push(items[k]);
      k = prev[k];
    }
    return out.reverse();
  }

  /**
   * A stretch of unaligned code cells (positions among code cells) between two
   * aligned pairs, or the notebook's start or end.
   */
  interface IGap {
    /** Positions in the first notebook. */
    a: number[];
    /** Positions in the second notebook. */
    b: number[];
    /** The aligned pair just before the stretch, null at the notebook's start. */
    before: [number, number] | null;
    /** The aligned pair just after the stretch, null at the notebook's end. */
    after: [number, number] | null;
  }

  /**
   * Whether aligned pairs are just before and just after a stretch.
   */
  function ends(gap: Pick<IGap, 'before' | 'after'>): {
    first: boolean;
    last: boolean;
  } {
    return { first: gap.before !== null, last: gap.after !== null };
  }

  /**
   * The alignment in the making: code cells are known by their position among
   * code cells (x in the first notebook, y in the second).
   */
  export class Aligner {
    /** The pairs found so far, by first-notebook cell index. */
    readonly pairs = new Map<number, IAlignedPair>();

    constructor(
      a: Pick<INotebookJSON, 'cells'>,
      b: Pick<INotebookJSON, 'cells'>,
      options: IAlignOptions
    ) {
      const interner = new Interner();
      this._a = a;
      this._b = b;
      this._A = readCells(a, interner);
      this._B = readCells(b, interner);
      this._toB = new Array<number>(this._A.length).fill(-1);
      this._toA = new Array<number>(this._B.length).fill(-1);
      this._sim = new Float64Array(this._A.length * this._B.length).fill(-1);
      this._runA = runNeighbours(this._A);
      this._runB = runNeighbours(this._B);
      this._counts = options.executionCounts !== false;
      // In a notebook where nothing ran, a never-run cell is no stale copy.
      this._ranB = this._B.some(c => c.count !== null);
    }

    /**
     * (1) Equal ids, in any order.
     */
    byId(fallbackId?: (index: number) => string | null): void {
      // An id that two cells of one notebook carry is no identity (a copied cell, or a decoy
      // given the crashing cell's id): those cells are aligned by their code instead.
      const twiceA = repeatedIds(this._a);
      const twiceB = repeatedIds(this._b);
      const idsB = new Map<string, number>();
      this._B.forEach((c, y) => {
        const id = idOf(this._b.cells[c.index]);
        if (id && !twiceB.has(id)) {
          idsB.set(id, y);
        }
      });
      this._A.forEach((c, x) => {
        const own = idOf(this._a.cells[c.index]);
        for (const id of [
          own !== null && twiceA.has(own) ? null : own,
          fallbackId?.(c.index) ?? null
        ]) {
          const y = id ? idsB.get(id) : undefined;
          if (y !== undefined && this._toA[y] < 0) {
            this._pair(x, y, 'id');
            break;
          }
        }
      });
    }

    /**
     * (2) The global alignment of the cells left with code, between the id
     * pairs that keep their order.
     */
    byContent(): void {
      for (const gap of this._gaps(this._anchors())) {
        const xs = gap.a.filter(x => !this._A[x].empty);
        const ys = gap.b.filter(y => !this._B[y].empty);
        // As in a patience diff, cells found once on each side with the very
        // same code (and the same execution evidence) anchor the alignment:
        // the quadratic search runs only between them.
        const same = this._uniqueSame(xs, ys);
        let i0 = 0;
        let j0 = 0;
        for (let k = 0; k <= same.length; k++) {
          const [i1, j1] = k < same.length ? same[k] : [xs.length, ys.length];
          this._align(xs.slice(i0, i1), ys.slice(j0, j1), {
            before: k > 0 ? [xs[i0 - 1], ys[j0 - 1]] : gap.before,
            after: k < same.length ? [xs[i1], ys[j1]] : gap.after
          });
          if (k < same.length) {
            this._pair(xs[i1], ys[j1], 'content');
          }
          i0 = i1 + 1;
          j0 = j1 + 1;
        }
      }
    }

    /**
     * The cells (indices into `xs`, `ys`) whose code occurs once among `xs`
     * and once among `ys`, but for never-run copies of cells that ran, in
     * order.
     */
    private _uniqueSame(xs: number[], ys: number[]): Array<[number, number]> {
      const once = (keys: string[]) => {
        const seen = new Map<string, number>();
        keys.forEach((key, i) => seen.set(key, seen.has(key) ? -1 : i));
        return seen;
      };
      const inA = once(xs.map(x => this._A[x].key));
      const inB = once(ys.map(y => this._B[y].key));
      const found: Array<[number, number]> = [];
      inA.forEach((i, key) => {
        const j = inB.get(key);
        if (
          i >= 0 &&
          j !== undefined &&
          j >= 0 &&
          !this._stale(xs[i], ys[j]) &&
          this._similarity(xs[i], ys[j]) === 1
        ) {
          found.push([i, j]);
        }
      });
      found.sort((p, q) => p[0] - q[0]);
      return increasing(found, p => p[1]);
    }

    /**
     * The global alignment of two runs of cells with code.
     */
    private _align(
      xs: number[],
      ys: number[],
      bounds: Pick<IGap, 'before' | 'after'>
    ): void {
      // Cells that ran at other times around the same neighbours are other
      // cells, unless near-identical.
      const eligible = (x: number, y: number) => {
        const s = this._similarity(x, y);
        return (
          s >= POLICY.cellMatch &&
          (s >= POLICY.movedMatch || !this._runConflict(x, y, bounds))
        );
      };
      const fresh = this._ranAlike(xs, ys, eligible);
      const found = sequence(
        xs.length,
        ys.length,
        (i, j) => {
          const x = xs[i];
          const y = ys[j];
          if (!eligible(x, y)) {
            return null;
          }
          const s = this._similarity(x, y);
          // Barely alike is little evidence: two such pairs next to each
          // other must not outweigh one identical pair (cells swapped).
          const content =
            EVEN +
            ((1 - EVEN) * (s - POLICY.cellMatch)) / (1 - POLICY.cellMatch);
          // The evidence decides between candidates, it never unpairs.
          return Math.max(
            MIN_SCORE,
            content +
              (fresh.has(x) && this._stale(x, y) ? -STALE : 0) +
              this._runOrder(x, y, false)
          );
        },
        ends(bounds)
      );
      for (const [i, j] of found) {
        this._pair(xs[i], ys[j], 'content');
      }
    }

    /**
     * (3) Cells out of order, most alike first: near-identical ones, or alike
     * ones in the same place in the order the cells ran (a cell moved to where
     * it ran, and edited).
     */
    moved(): void {
      const candidates: Array<[number, number, number]> = [];
      this._A.forEach((ca, x) => {
        if (this._toB[x] >= 0 || ca.empty) {
          return;
        }
        this._B.forEach((cb, y) => {
          if (this._toA[y] < 0 && !cb.empty) {
            const s = this._similarity(x, y);
            if (
              s >= POLICY.movedMatch ||
              (s >= POLICY.cellMatch && this._sameRunPlace(x, y))
            ) {
              candidates.push([x, y, s]);
            }
          }
        });
      });
      candidates.sort((p, q) => q[2] - p[2] || p[0] - q[0] || p[1] - q[1]);
      for (const [x, y] of candidates) {
        if (this._toB[x] < 0 && this._toA[y] < 0) {
          this._pair(x, y, 'moved');
        }
      }
    }

    /**
     * (4) The cells left between two aligned neighbours (or the notebook's
     * start or end).
     */
    inPlace(): void {
      for (const gap of this._gaps(this._anchors())) {
        this._inGap(gap);
      }
    }

    /**
     * Pair what is left in one gap: empty with empty (alike text and run first),
     * then as many with as many in order, else by weak likeness or run order,
     * else with never-run empty cells they became.
     */
    private _inGap(gap: IGap): void {
      const { a, b } = gap;
      const emptyA = a.filter(x => this._A[x].empty);
      const emptyB = b.filter(y => this._B[y].empty);
      const empties = sequence(
        emptyA.length,
        emptyB.length,
        (i, j) => {
          const x = this._A[emptyA[i]];
          const y = this._B[emptyB[j]];
          return (
            0.5 +
            (x.text === y.text ? 0.25 : 0) +
            ((x.count === null) === (y.count === null) ? 0.25 : 0)
          );
        },
        ends(gap)
      );
      for (const [i, j] of empties) {
        this._pair(emptyA[i], emptyB[j], 'content');
      }
      // Between two neighbours a never-run empty cell is a placeholder, in
      // nobody's place; at the notebook's end it is the end (a cell after it
      // was appended).
      const between = gap.before !== null && gap.after !== null;
      const left = () => ({
        a: a.filter(
          x => this._toB[x] < 0 && !(between && placeholder(this._A[x]))
        ),
        b: b.filter(
          y => this._toA[y] < 0 && !(between && placeholder(this._B[y]))
        )
      });
      const inOrder = () => {
        const rest = left();
        if (!rest.a.length || rest.a.length !== rest.b.length) {
          return false;
        }
        // At the notebook's start or end (one neighbour) only a lone cell with
        // a lone cell, and code never with an empty cell that was there before
        // it (a cell appended after the notebook's empty last cell).
        if (
          !between &&
          (rest.a.length > 1 ||
            (this._A[rest.a[0]].empty && !this._B[rest.b[0]].empty))
        ) {
          return false;
        }
        rest.a.forEach((x, k) => this._pair(x, rest.b[k], 'position'));
        return true;
      };
      // Weak likeness and run order only between two neighbours: at the
      // notebook's end, cells appended after the last one (a tool's tests of
      // the repair) are as alike and ran as late.
      if (inOrder() || !between) {
        return;
      }
      // Between the same neighbours in the order the cells ran.
      let rest = left();
      for (const x of rest.a) {
        const ys = rest.b.filter(
          y => this._toA[y] < 0 && this._sameRunPlace(x, y)
        );
        if (ys.length === 1) {
          const others = rest.a.filter(
            o => o !== x && this._toB[o] < 0 && this._sameRunPlace(o, ys[0])
          );
          if (!others.length) {
            this._pair(x, ys[0], 'position');
          }
        }
      }
      if (inOrder()) {
        return;
      }
      rest = left();
      const alike = (x: number, y: number) =>
        this._loose(x, y) >= POLICY.looseMatch && !this._runConflict(x, y, gap);
      const fresh = this._ranAlike(rest.a, rest.b, alike);
      const weak = sequence(
        rest.a.length,
        rest.b.length,
        (i, j) => {
          const x = rest.a[i];
          const y = rest.b[j];
          return alike(x, y)
            ? Math.max(
                MIN_SCORE,
                this._loose(x, y) +
                  (fresh.has(x) && this._stale(x, y) ? -STALE : 0) +
                  this._runOrder(x, y, true)
              )
            : null;
        },
        ends(gap)
      );
      for (const [i, j] of weak) {
        this._pair(rest.a[i], rest.b[j], 'position');
      }
      if (inOrder()) {
        return;
      }
      // Last, the second notebook's never-run empty cells may be what cells
      // became (emptied by a fix that removes the crashing line, or a cheat).
      const emptied = b.filter(y => this._toA[y] < 0);
      rest = left();
      if (rest.a.length && rest.a.length === emptied.length) {
        rest.a.forEach((x, k) => this._pair(x, emptied[k], 'position'));
      }
    }

    /**
     * The id pairs that keep their order (the anchors of the alignment).
     */
    private _anchors(): Array<[number, number]> {
      const all: Array<[number, number]> = [];
      this._toB.forEach((y, x) => {
        if (y >= 0) {
          all.push([x, y]);
        }
      });
      return increasing(all, p => p[1]);
    }

    /**
     * The unpaired code cells between consecutive anchors.
     */
    private _gaps(anchors: Array<[number, number]>): IGap[] {
      const bounds: Array<[number, number]> = [
        [-1, -1],
        ...anchors,
        [this._A.length, this._B.length]
      ];
      const out: IGap[] = [];
      for (let k = 0; k + 1 < bounds.length; k++) {
        const [x0, y0] = bounds[k];
        const [x1, y1] = bounds[k + 1];
        const a: number[] = [];
        const b: number[] = [];
        for (let x = x0 + 1; x < x1; x++) {
          if (this._toB[x] < 0) {
            a.push(x);
          }
        }
        for (let y = y0 + 1; y < y1; y++) {
          if (this._toA[y] < 0) {
            b.push(y);
          }
        }
        if (a.length || b.length) {
          out.push({
            a,
            b,
            before: k > 0 ? bounds[k] : null,
            after: k + 2 < bounds.length ? bounds[k + 1] : null
          });
        }
      }
      return out;
    }

    /**
     * Record a pair.
     */
    private _pair(x: number, y: number, method: AlignMethod): void {
      this._toB[x] = y;
      this._toA[y] = x;
      const from = this._A[x].index;
      this.pairs.set(from, {
        from,
        to: this._B[y].index,
        method,
        similarity: this._similarity(x, y)
      });
    }

    /**
     * Content similarity: Dice of the tokens, or for a cell that grew (or
     * shrank) the share of the smaller cell's token pairs found in the larger.
     */
    private _similarity(x: number, y: number): number {
      const k = x * this._B.length + y;
      if (this._sim[k] < 0) {
        const ca = this._A[x];
        const cb = this._B[y];
        const small = Math.min(ca.bigrams.length, cb.bigrams.length);
        const kept = small
          ? (GROWTH * shared(ca.bigrams, cb.bigrams)) / (small + SHRINK)
          : 0;
        this._sim[k] = Math.max(diceOf(ca.tokens, cb.tokens), kept);
      }
      return this._sim[k];
    }

    /**
     * Weak likeness, for cells already in the same place: shared words and
     * shared assigned names, half each.
     */
    private _loose(x: number, y: number): number {
      const ca = this._A[x];
      const cb = this._B[y];
      const words =
        ca.words.length && cb.words.length ? diceOf(ca.words, cb.words) : 0;
      const da = (ca.defs ??= definedNames(ca.source));
      const db = (cb.defs ??= definedNames(cb.source));
      let same = 0;
      da.forEach(n => (same += db.has(n) ? 1 : 0));
      const union = da.size + db.size - same;
      return (words + (union ? same / union : 0)) / 2;
    }

    /**
     * Whether pairing two cells would pair a cell that ran with a never-run
     * cell (a stale copy of it, or of what it became).
     */
    private _stale(x: number, y: number): boolean {
      return (
        this._counts &&
        this._ranB &&
        this._A[x].count !== null &&
        this._B[y].count === null
      );
    }

    /**
     * The cells among `xs` that ran and are alike (`alike`) a cell among `ys`
     * that ran: for them a never-run counterpart is a stale copy.
     */
    private _ranAlike(
      xs: number[],
      ys: number[],
      alike: (x: number, y: number) => boolean
    ): Set<number> {
      const out = new Set<number>();
      if (!this._counts) {
        return out;
      }
      const ran = ys.filter(y => this._B[y].count !== null);
      for (const x of xs) {
        if (this._A[x].count !== null && ran.some(y => alike(x, y))) {
          out.add(x);
        }
      }
      return out;
    }

    /**
     * The run-order evidence of a pair of cells that both ran: `RUN_ORDER`
     * per side (the cells that ran just before, just after) on which those are
     * paired, or, unless only pairs count (`paired`), unpaired and alike.
     */
    private _runOrder(x: number, y: number, paired: boolean): number {
      if (
        !this._counts ||
        this._A[x].count === null ||
        this._B[y].count === null
      ) {
        return 0;
      }
      let score = 0;
      for (const side of ['prev', 'next'] as const) {
        const p = this._runA[side][x];
        const q = this._runB[side][y];
        if (p >= 0 && q >= 0) {
          const linked = paired
            ? this._toB[p] === q
            : this._toB[p] === q ||
              (this._toB[p] < 0 &&
                this._toA[q] < 0 &&
                this._similarity(p, q) >= POLICY.cellMatch);
          score += linked ? RUN_ORDER : 0;
        }
      }
      return score;
    }

    /**
     * Whether two cells that ran are in the same place in the order the cells
     * ran: on both sides (just before, just after) the cells that ran next to
     * them are paired with each other, or neither has one (but not both sides).
     */
    private _sameRunPlace(x: number, y: number): boolean {
      if (
        !this._counts ||
        this._A[x].count === null ||
        this._B[y].count === null
      ) {
        return false;
      }
      let paired = 0;
      for (const side of ['prev', 'next'] as const) {
        const p = this._runA[side][x];
        const q = this._runB[side][y];
        if (p >= 0 && q >= 0 && this._toB[p] === q) {
          paired++;
        } else if (p >= 0 || q >= 0) {
          return false;
        }
      }
      return paired > 0;
    }

    /**
     * Whether two cells that ran did so at other times around the aligned
     * pairs just before and after them (one ran before a neighbour, the other
     * after its counterpart), when those ran too.
     */
    private _runConflict(
      x: number,
      y: number,
      bounds: Pick<IGap, 'before' | 'after'>
    ): boolean {
      const cx = this._A[x].count;
      const cy = this._B[y].count;
      if (!this._counts || cx === null || cy === null) {
        return false;
      }
      for (const bound of [bounds.before, bounds.after]) {
        const p = bound ? this._A[bound[0]].count : null;
        const q = bound ? this._B[bound[1]].count : null;
        if (p !== null && q !== null && cx !== p && cy !== q) {
          if (cx < p !== cy < q) {
            return true;
          }
        }
      }
      return false;
    }

    private _a: Pick<INotebookJSON, 'cells'>;
    private _b: Pick<INotebookJSON, 'cells'>;
    private _A: ICode[];
    private _B: ICode[];
    private _toB: number[];
    private _toA: number[];
    private _sim: Float64Array;
    private _counts: boolean;
    private _ranB: boolean;
    private _runA: IRunNeighbours;
    private _runB: IRunNeighbours;
  }

  /**
   * For each code cell that ran, the code cells (positions) that ran just
   * before and just after it; -1 for none.
   */
  interface IRunNeighbours {
    prev: number[];
    next: number[];
  }

  /**
   * The run-order neighbours of a notebook's code cells.
   */
  function runNeighbours(cells: ICode[]): IRunNeighbours {
    const prev = new Array<number>(cells.length).fill(-1);
    const next = new Array<number>(cells.length).fill(-1);
    const ran = cells
      .map((_, x) => x)
      .filter(x => cells[x].count !== null)
      .sort((p, q) => cells[p].count! - cells[q].count! || p - q);
    ran.forEach((x, k) => {
      prev[x] = k > 0 ? ran[k - 1] : -1;
      next[x] = k + 1 < ran.length ? ran[k + 1] : -1;
    });
    return { prev, next };
  }

  /**
   * Whether a cell is an empty cell that never ran.
   */
  function placeholder(cell: ICode): boolean {
    return cell.empty && cell.count === null;
  }

  /**
   * The ids that more than one cell of a notebook carries (any cell type).
   */
  function repeatedIds(nb: Pick<INotebookJSON, 'cells'>): Set<string> {
    const seen = new Set<string>();
    const twice = new Set<string>();
    for (const cell of nb.cells) {
      const id = idOf(cell);
      if (id !== null) {
        (seen.has(id) ? twice : seen).add(id);
      }
    }
    return twice;
  }

  /**
   * A cell's id, or null.
   */
  function idOf(cell: INbCell): string | null {
    return typeof cell.id === 'string' && cell.id ? cell.id : null;
  }
}
