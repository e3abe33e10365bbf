/**
 * Comparing two values element by element, from the probe's views: whether a
 * learner's value is the reference fix's value, whatever container holds it
 * (list, tuple, ndarray, Series, DataFrame; size-1 dimensions squeezed), and
 * when it is not, where it differs. Pure logic.
 *
 * The tolerance rule (docs/threat-model.md says the same in words): two
 * numbers are equal within `POLICY.relativeTolerance` of the larger or
 * `POLICY.scaleTolerance` of the column's largest magnitude. Besides, a value exactly one
 * rounding step (`10**-d`) from the reference's is the same value only where
 * the reference rounded an unrounded value that sat half-way between the two
 * (the probe records those: `IRoundingEvidence`), so another rounding rule
 * (half up for half to even) rounds it the other way; the sums may then differ
 * by as many steps as the reference met such values, and no more. Anywhere
 * else one step is a wrong value.
 */
import { POLICY } from './policy';

/** One column's digest, as the probe reports it. */
export interface IColumnDigest {
  /** The column's name (frames and named series), or null. */
  name: string | null;
  /** Numbers or text. */
  kind: 'num' | 'text';
  /** Values at the view's sampled positions (numbers; 'nan', 'inf' as strings). */
  samples: Array<number | string>;
  /** The decimal step the sampled values sit on (0.1 for rounded to one decimal), or 0. */
  grain?: number;
  /** NaN count (numbers). */
  nan?: number;
  /** Sum of the finite values (numbers). */
  sum?: number | string;
  /** Sum of absolute values (numbers). */
  abs?: number | string;
  /** Sum weighted by a fixed pseudo-random weight per row: changes when rows move. */
  wsum?: number | string;
  /** Smallest finite value. */
  min?: number | string;
  /** Largest finite value. */
  max?: number | string;
  /** A hash of every value's text (text columns). */
  hash?: string;
  /** The same of the values sorted: equal for the same values in another order. */
  sortedHash?: string;
}

/** The element-wise view of an array-like value, as the probe reports it. */
export interface IValueView {
  /** The value's own shape. */
  shape: number[];
  /** Rows and columns after squeezing size-1 dimensions and folding the rest. */
  table?: [number, number];
  /** Per-column digests (at most the first `digestColumns` columns). */
  columns?: IColumnDigest[];
  /** Whether the columns carry the value's own names (a frame). */
  names?: boolean;
  /** The labels of a non-default index (series and frames), or null. */
  index?: {
    hash: string;
    n: number;
    samples: string[];
    /** The digest of the labels in sorted order (unique labels only). */
    sortedHash?: string;
    /** The labels are 0 to n - 1 in some order: each row labelled by its position once. */
    positional?: boolean;
  } | null;
  /** Digests of the rows in label order (a frame or series with a non-default index). */
  byLabel?: { columns: IColumnDigest[] } | null;
  /** The sampled row positions. */
  positions?: number[];
  /** Too large to digest: sampled values only. */
  partial?: boolean;
  /** Too large even to sample. */
  digested?: false;
  /** Why the view could not be made. */
  error?: string;
}

/** Something that differs but does not change the result, said beside a pass. */
export type ValueNote =
  /** Another container with the same values (a list for an ndarray, a frame for an array). */
  | { code: 'other-type'; expected: string; actual: string }
  /** The same values in another shape that only differs by size-1 dimensions. */
  | { code: 'squeezed'; expected: number[]; actual: number[] }
  /** Columns the reference keeps that the learner took out (`later`: the reference takes them out later itself). */
  | { code: 'columns-dropped'; columns: string[]; later: boolean }
  /** Columns the learner added; the reference's columns are all there and the same. */
  | { code: 'columns-extra'; columns: string[] }
  /** The same columns in another order. */
  | { code: 'column-order' }
  /** The same labelled rows in another order. */
  | { code: 'row-order' }
  /** The reference's index labels held in a column (or the other way round). */
  | { code: 'index-as-column'; column: string }
  /** A few values one rounding step apart. */
  | { code: 'rounding'; count: number; grain: number };

/** Where two views differ, as a code with parameters. */
export type ViewDifference =
  | { code: 'table'; expected: number[]; actual: number[] }
  | { code: 'extra-columns'; columns: string[] }
  | { code: 'missing-columns'; columns: string[] }
  | { code: 'kept-columns'; columns: string[] }
  | { code: 'missing-all-columns'; columns: string[] }
  | { code: 'kind'; column: string | null; expected: string; actual: string }
  | { code: 'nan'; column: string | null; expected: number; actual: number }
  | {
      code: 'at';
      column: string | null;
      row: number | null;
      expected: number | string;
      actual: number | string;
    }
  | {
      code: 'stats';
      column: string | null;
      expected: number | string;
      actual: number | string;
      stat: 'sum' | 'order' | 'min' | 'max' | 'hash';
    }
  | { code: 'index'; expected: string[]; actual: string[] }
  | { code: 'constant' };

/** The outcome of comparing two views. */
export interface IViewComparison {
  /** The first difference found, or null when the values are the same. */
  difference: ViewDifference | null;
  /** What differs without changing the values. */
  notes: ValueNote[];
}

/**
 * Roundings of values half-way between two steps of `10**-d` (the probe's `rounding()`):
 * how many per `d`, and which neighbours `[d, k]` (`k * 10**-d` and `(k + 1) * 10**-d`).
 */
export interface IRoundingEvidence {
  count: Record<string, number>;
  pairs: Array<[number, number]>;
}

/** Context a comparison may use. */
export interface IViewContext {
  /** Column names for an unnamed reference table (the frame it was made from). */
  expectedNames?: string[] | null;
  /** Column names for an unnamed learner table. */
  actualNames?: string[] | null;
  /** Words the reference fix's later cells use as strings (columns it takes out itself). */
  laterStrings?: ReadonlySet<string>;
  /**
   * The reference's columns of this value before its target cell: a column the
   * learner took out must be one of these (one the target itself makes must be there).
   */
  expectedBefore?: string[] | null;
  /** Columns the reference's target makes only to use them on the way (may be missing). */
  intermediateColumns?: string[];
  /** Compare values (true) or only the structure (a reference that is not deterministic). */
  values: boolean;
  /**
   * The values the reference's roundings met at a rounding boundary: a value one rounding
   * step from the reference's is the same only at one of these (none when absent).
   */
  rounding?: IRoundingEvidence;
}

/**
 * Compare a learner's view with the reference's: same table (after squeezing),
 * same columns (by name where both sides have names), the same values within
 * the tolerance rule; differences that keep the values are notes.
 */
export function compareViews(
  expected: IValueView,
  actual: IValueView,
  context: IViewContext
): IViewComparison {
  const notes: ValueNote[] = [];
  const te = expected.table;
  const ta = actual.table;
  if (!te || !ta || !expected.columns || !actual.columns) {
    // Too large to view: compare the shapes only.
    return Private.same(expected.shape, actual.shape)
      ? { difference: null, notes }
      : {
          difference: {
            code: 'table',
            expected: expected.shape,
            actual: actual.shape
          },
          notes
        };
  }
  const moved = Private.indexAsColumn(expected, actual, context);
  if (moved) {
    return moved;
  }
  if (
    te[0] !== ta[0] ||
    (te[1] !== ta[1] &&
      !(
        Private.named(expected, context.expectedNames) &&
        Private.named(actual, context.actualNames)
      ))
  ) {
    return {
      difference: {
        code: 'table',
        expected: expected.shape,
        actual: actual.shape
      },
      notes
    };
  }
  if (te[1] === ta[1] && !Private.same(expected.shape, actual.shape)) {
    notes.push({
      code: 'squeezed',
      expected: expected.shape,
      actual: actual.shape
    });
  }
  const pairs = Private.pairColumns(expected, actual, context, notes);
  if ('code' in pairs) {
    return { difference: pairs, notes };
  }
  if (!expected.index && actual.index?.positional && actual.byLabel) {
    // Rows labelled by the positions of the reference's unlabelled value (a Series of the
    // predictions per test row, sorted): the row labelled i is the reference's row i.
    const reordered = Private.byLabel(
      {
        ...expected,
        index: actual.index,
        byLabel: { columns: expected.columns ?? [] }
      },
      actual,
      pairs,
      context,
      te[0]
    );
    if (reordered) {
      return { difference: null, notes: [...notes, ...reordered] };
    }
  }
  if (
    expected.index &&
    actual.index &&
    expected.index.hash !== actual.index.hash
  ) {
    // The same labelled rows in another order are the same data.
    const reordered = Private.byLabel(expected, actual, pairs, context, te[0]);
    if (reordered) {
      return { difference: null, notes: [...notes, ...reordered] };
    }
    return {
      difference: {
        code: 'index',
        expected: expected.index.samples,
        actual: actual.index.samples
      },
      notes
    };
  }
  const d = Private.compareAll(
    pairs,
    expected.positions,
    actual.positions,
    context.values,
    te[0],
    context.rounding
  );
  if (d.difference) {
    return { difference: d.difference, notes };
  }
  if (Private.allConstant(actual) && !Private.allConstant(expected)) {
    return { difference: { code: 'constant' }, notes };
  }
  if (d.flips) {
    notes.push({ code: 'rounding', count: d.flips, grain: d.grain });
  }
  return { difference: null, notes };
}

/**
 * Whether two values of the same (squeezed) table agree within the tolerance
 * rule: used to learn whether two runs of the reference are deterministic.
 */
export function viewsAgree(a: IValueView, b: IValueView): boolean {
  return compareViews(a, b, { values: true }).difference === null;
}

/**
 * Whether two numbers are equal within the tolerance rule (`scale`: the
 * largest magnitude of their column).
 */
export function closeNumbers(
  x: number | string | undefined,
  y: number | string | undefined,
  scale = 0
): boolean {
  if (typeof x !== 'number' || typeof y !== 'number') {
    return x === y;
  }
  return (
    Math.abs(x - y) <=
    Math.max(
      POLICY.relativeTolerance * Math.max(Math.abs(x), Math.abs(y)),
      POLICY.scaleTolerance * scale,
      1e-300
    )
  );
}

namespace Private {
  /**
   * Whether `x` and `y` are the two neighbours, one rounding step apart, of a value the
   * reference rounded half-way between them.
   */
  export function atBoundary(
    x: number,
    y: number,
    rounding: IRoundingEvidence | undefined
  ): boolean {
    const step = Math.abs(x - y);
    if (!rounding || !(step > 0) || !Number.isFinite(step)) {
      return false;
    }
    const d = Math.round(-Math.log10(step));
    if (Math.abs(step - 10 ** -d) > POLICY.grainTolerance * 10 ** -d) {
      return false;
    }
    return boundaries(rounding).has(
      `${d}:${Math.round(Math.min(x, y) * 10 ** d)}`
    );
  }

  /** Whether two values are at most one step of the column's own grain apart (0: none). */
  function onGrain(x: number, y: number, grain: number): boolean {
    return grain > 0 && Math.abs(x - y) <= grain * (1 + POLICY.grainTolerance);
  }

  /**
   * How far a column's sum may move when values the reference rounded at a boundary are
   * rounded the other way: one step for each of them (at most one per row).
   */
  export function boundarySlack(
    rounding: IRoundingEvidence | undefined,
    rows: number
  ): number {
    let slack = 0;
    for (const [d, n] of Object.entries(rounding?.count ?? {})) {
      slack = Math.max(slack, Math.min(rows, n) * 10 ** -Number(d));
    }
    return slack;
  }

  const boundarySets = new WeakMap<IRoundingEvidence, Set<string>>();

  function boundaries(rounding: IRoundingEvidence): Set<string> {
    let set = boundarySets.get(rounding);
    if (!set) {
      set = new Set(rounding.pairs.map(([d, k]) => `${d}:${k}`));
      boundarySets.set(rounding, set);
    }
    return set;
  }

  /**
   * Every pair of columns compared, the samples where both views sampled the
   * same row: the first difference, or how many values were one grain apart.
   */
  export function compareAll(
    pairs: Array<[IColumnDigest, IColumnDigest]>,
    pe: number[] | undefined,
    pa: number[] | undefined,
    values: boolean,
    rows: number,
    rounding?: IRoundingEvidence
  ): { difference: ViewDifference | null; flips: number; grain: number } {
    const common = commonRows(pe, pa);
    let flips = 0;
    let grain = 0;
    for (const [e, a] of pairs) {
      const d = compareColumn(
        at(e, common.expected),
        at(a, common.actual),
        common.positions,
        values,
        rows,
        rounding
      );
      if (d.difference) {
        return { difference: d.difference, flips, grain };
      }
      if (d.flips) {
        flips += d.flips;
        grain = Math.max(grain, e.grain ?? 0);
      }
    }
    return { difference: null, flips, grain };
  }

  /**
   * The same labelled rows in another order: the labels are the same set and
   * the rows sorted by label hold the same values. Null when not.
   */
  export function byLabel(
    expected: IValueView,
    actual: IValueView,
    pairs: Array<[IColumnDigest, IColumnDigest]>,
    context: IViewContext,
    rows: number
  ): ValueNote[] | null {
    const ie = expected.index;
    const ia = actual.index;
    if (
      !ie?.sortedHash ||
      ie.sortedHash !== ia?.sortedHash ||
      !expected.byLabel ||
      !actual.byLabel
    ) {
      return null;
    }
    const byName = (cols: IColumnDigest[]) =>
      new Map(cols.map((c, j) => [c.name ?? String(j), c]));
    const se = byName(expected.byLabel.columns);
    const sa = byName(actual.byLabel.columns);
    const sorted: Array<[IColumnDigest, IColumnDigest]> = [];
    for (const [e, a] of pairs) {
      const x =
        se.get(e.name ?? '') ??
        (pairs.length === 1 ? expected.byLabel.columns[0] : undefined);
      const y =
        sa.get(a.name ?? '') ??
        (pairs.length === 1 ? actual.byLabel.columns[0] : undefined);
      if (!x || !y) {
        return null;
      }
      sorted.push([x, y]);
    }
    const positions = expected.positions;
    const d = compareAll(
      sorted,
      positions,
      positions,
      context.values,
      rows,
      context.rounding
    );
    if (d.difference) {
      return null;
    }
    return d.flips
      ? [
          { code: 'row-order' },
          { code: 'rounding', count: d.flips, grain: d.grain }
        ]
      : [{ code: 'row-order' }];
  }

  /**
   * A series whose index labels sit in a column of a two-column frame (or the
   * other way round: `groupby(as_index=False)`, `reset_index()`): the same data.
   */
  export function indexAsColumn(
    expected: IValueView,
    actual: IValueView,
    context: IViewContext
  ): IViewComparison | null {
    const pick = (
      series: IValueView,
      frame: IValueView
    ): {
      label: IColumnDigest;
      value: IColumnDigest;
      other: IColumnDigest;
    } | null => {
      if (
        !series.index ||
        frame.index ||
        series.table?.[1] !== 1 ||
        frame.table?.[1] !== 2 ||
        series.table?.[0] !== frame.table?.[0] ||
        !frame.columns ||
        !series.columns
      ) {
        return null;
      }
      const label = frame.columns.find(
        c => c.kind === 'text' && c.hash === series.index!.hash
      );
      if (!label) {
        return null;
      }
      const value = frame.columns.find(c => c !== label)!;
      return { label, value, other: series.columns[0] };
    };
    const forward = pick(expected, actual);
    const backward = forward ? null : pick(actual, expected);
    const found = forward ?? backward;
    if (!found) {
      return null;
    }
    const [e, a] = forward
      ? [found.other, found.value]
      : [found.value, found.other];
    const d = compareAll(
      [[e, a]],
      expected.positions,
      actual.positions,
      context.values,
      expected.table![0],
      context.rounding
    );
    if (d.difference) {
      return { difference: d.difference, notes: [] };
    }
    const notes: ValueNote[] = [
      { code: 'index-as-column', column: String(found.label.name) }
    ];
    if (d.flips) {
      notes.push({ code: 'rounding', count: d.flips, grain: d.grain });
    }
    return { difference: null, notes };
  }

  /**
   * The rows both views sampled: their positions, and where each view keeps
   * them among its samples.
   */
  export function commonRows(
    e: number[] | undefined,
    a: number[] | undefined
  ): { positions: number[]; expected: number[]; actual: number[] } {
    const pe = e ?? [];
    const pa = a ?? [];
    if (!e || !a || same(pe, pa)) {
      const k = Array.from({ length: pe.length || pa.length }, (_, i) => i);
      return { positions: pe.length ? pe : pa, expected: k, actual: k };
    }
    const where = new Map(pa.map((p, i) => [p, i]));
    const out = {
      positions: [] as number[],
      expected: [] as number[],
      actual: [] as number[]
    };
    pe.forEach((p, i) => {
      const j = where.get(p);
      if (j !== undefined) {
        out.positions.push(p);
        out.expected.push(i);
        out.actual.push(j);
      }
    });
    return out;
  }

  /** A column digest with only the samples at the given indices. */
  export function at(c: IColumnDigest, indices: number[]): IColumnDigest {
    if (
      indices.length === c.samples.length &&
      indices.every((k, i) => k === i)
    ) {
      return c;
    }
    return { ...c, samples: indices.map(k => c.samples[k]) };
  }

  export function same(a: unknown, b: unknown): boolean {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  /** Whether a view's columns can be named (its own names, or names from context). */
  export function named(
    view: IValueView,
    names: string[] | null | undefined
  ): boolean {
    return (
      !!view.names ||
      (!!names && !!view.table && names.length === view.table[1])
    );
  }

  /** A view's column names: its own, the context's when they fit, else null. */
  function namesOf(
    view: IValueView,
    context: string[] | null | undefined
  ): string[] | null {
    if (view.names && view.columns) {
      return view.columns.map(c => String(c.name));
    }
    if (context && view.table && context.length === view.table[1]) {
      return context;
    }
    return null;
  }

  /**
   * The columns to compare, reference with learner: by name when both sides
   * can be named, else by position; columns the learner dropped are a note,
   * columns the reference does not have a difference.
   */
  export function pairColumns(
    expected: IValueView,
    actual: IValueView,
    context: IViewContext,
    notes: ValueNote[]
  ): Array<[IColumnDigest, IColumnDigest]> | ViewDifference {
    const ce = expected.columns!;
    const ca = actual.columns!;
    const ne = namesOf(expected, context.expectedNames);
    const na = namesOf(actual, context.actualNames);
    if (!ne || !na) {
      if (ce.length !== ca.length) {
        return {
          code: 'table',
          expected: expected.shape,
          actual: actual.shape
        };
      }
      return ce.map((c, j) => [c, ca[j]] as [IColumnDigest, IColumnDigest]);
    }
    const byName = new Map(na.map((n, j) => [n, j]));
    const extra = na.filter(n => !ne.includes(n));
    const dropped = ne.filter(n => !byName.has(n));
    if (dropped.length === ne.length) {
      return { code: 'missing-all-columns', columns: dropped };
    }
    if (extra.length && dropped.length) {
      // Columns both taken out and added: another table, not a subset or a superset.
      return { code: 'extra-columns', columns: extra };
    }
    if (extra.length) {
      // A column the reference's target took out is part of what it does: keeping it is not.
      const before = new Set(context.expectedBefore ?? []);
      const kept = extra.filter(n => before.has(n));
      if (kept.length) {
        return { code: 'kept-columns', columns: kept };
      }
      notes.push({ code: 'columns-extra', columns: extra });
    }
    if (dropped.length) {
      // A column the reference's target makes is part of its result: it must be there.
      const before = new Set([
        ...(context.expectedBefore ?? ne),
        ...(context.intermediateColumns ?? [])
      ]);
      const made = dropped.filter(n => !before.has(n));
      if (made.length) {
        return { code: 'missing-columns', columns: made };
      }
      notes.push({
        code: 'columns-dropped',
        columns: dropped,
        later: dropped.every(n => context.laterStrings?.has(n) ?? false)
      });
    }
    const kept = ne.filter(n => byName.has(n));
    const order = kept.map(n => byName.get(n)!);
    if (order.some((j, k) => k > 0 && j < order[k - 1])) {
      notes.push({ code: 'column-order' });
    }
    const out: Array<[IColumnDigest, IColumnDigest]> = [];
    ne.forEach((n, i) => {
      const j = byName.get(n);
      if (j !== undefined && i < ce.length && j < ca.length) {
        out.push([
          { ...ce[i], name: n },
          { ...ca[j], name: n }
        ]);
      }
    });
    return out;
  }

  function num(v: unknown): number | null {
    return typeof v === 'number' ? v : null;
  }

  /**
   * One column against its counterpart: kind, NaN count, sampled values (a few
   * may be one grain apart), then the sums (an order-sensitive weighted sum
   * among them) and the extremes.
   */
  export function compareColumn(
    e: IColumnDigest,
    a: IColumnDigest,
    positions: number[],
    values: boolean,
    rows: number,
    rounding?: IRoundingEvidence
  ): { difference: ViewDifference | null; flips: number } {
    const column = e.name ?? null;
    if (e.kind !== a.kind) {
      return {
        difference: { code: 'kind', column, expected: e.kind, actual: a.kind },
        flips: 0
      };
    }
    if (!values) {
      return { difference: null, flips: 0 };
    }
    if (e.kind === 'text') {
      for (let k = 0; k < e.samples.length; k++) {
        if (e.samples[k] !== a.samples[k]) {
          return {
            difference: {
              code: 'at',
              column,
              row: positions[k] ?? null,
              expected: e.samples[k],
              actual: a.samples[k] ?? ''
            },
            flips: 0
          };
        }
      }
      if (e.hash && a.hash && e.hash !== a.hash) {
        return {
          difference: {
            code: 'stats',
            column,
            stat: 'hash',
            expected: e.hash,
            actual: a.hash
          },
          flips: 0
        };
      }
      return { difference: null, flips: 0 };
    }
    if (e.nan !== undefined && a.nan !== undefined && e.nan !== a.nan) {
      return {
        difference: { code: 'nan', column, expected: e.nan, actual: a.nan },
        flips: 0
      };
    }
    const scale = Math.max(
      Math.abs(num(e.min) ?? 0),
      Math.abs(num(e.max) ?? 0),
      ...e.samples.map(v => Math.abs(num(v) ?? 0))
    );
    const grain = e.grain && e.grain > 0 ? e.grain : 0;
    let flips = 0;
    for (let k = 0; k < e.samples.length; k++) {
      const x = e.samples[k];
      const y = a.samples[k];
      if (closeNumbers(x, y, scale)) {
        continue;
      }
      if (
        typeof x === 'number' &&
        typeof y === 'number' &&
        onGrain(x, y, grain) &&
        atBoundary(x, y, rounding)
      ) {
        flips++;
        continue;
      }
      return {
        difference: {
          code: 'at',
          column,
          row: positions[k] ?? null,
          expected: x,
          actual: y ?? 'nan'
        },
        flips
      };
    }
    const steps = boundarySlack(rounding, rows);
    const sumSlack = (abs: number, weight: number) =>
      POLICY.relativeTolerance * Math.max(abs, 1e-12) +
      POLICY.scaleTolerance * scale +
      steps * weight;
    const abs = Math.max(num(e.abs) ?? 0, num(a.abs) ?? 0);
    for (const stat of ['sum', 'wsum'] as const) {
      const x = num(e[stat]);
      const y = num(a[stat]);
      if (x === null || y === null) {
        if (
          e[stat] !== undefined &&
          a[stat] !== undefined &&
          e[stat] !== a[stat]
        ) {
          return {
            difference: {
              code: 'stats',
              column,
              stat: stat === 'sum' ? 'sum' : 'order',
              expected: e[stat]!,
              actual: a[stat]!
            },
            flips
          };
        }
        continue;
      }
      // The order-sensitive sum weighs each row by less than 2.
      const weight = stat === 'wsum' ? 2 : 1;
      if (Math.abs(x - y) > sumSlack(abs * weight, weight)) {
        return {
          difference: {
            code: 'stats',
            column,
            stat: stat === 'sum' ? 'sum' : 'order',
            expected: x,
            actual: y
          },
          flips
        };
      }
    }
    for (const stat of ['min', 'max'] as const) {
      const x = num(e[stat]);
      const y = num(a[stat]);
      if (
        x !== null &&
        y !== null &&
        !closeNumbers(x, y, scale) &&
        !(onGrain(x, y, grain) && atBoundary(x, y, rounding))
      ) {
        return {
          difference: { code: 'stats', column, stat, expected: x, actual: y },
          flips
        };
      }
    }
    return { difference: null, flips };
  }

  /** Whether every numeric column of a view holds one value everywhere. */
  export function allConstant(view: IValueView): boolean {
    const cols = (view.columns ?? []).filter(c => c.kind === 'num');
    if (!cols.length || (view.table?.[0] ?? 0) < 2) {
      return false;
    }
    return cols.every(
      c => typeof c.min === 'number' && c.min === c.max && (c.nan ?? 0) === 0
    );
  }
}
