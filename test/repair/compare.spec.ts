/**
 * Element-wise comparison of two views (src/repair/compare.ts), table-driven:
 * the same values in other containers and shapes are alike (with a note),
 * moved, swapped or reversed values are not, and values one rounding step
 * apart are the same only where the reference rounded a value at a half.
 */
import { closeNumbers, compareViews } from '../../src/repair/compare';
import type { IColumnDigest, IValueView } from '../../src/repair/compare';

/** The probe's weights per row (python: 1 + ((i * 2654435761) % 1024) / 1024). */
function weight(i: number): number {
  return 1 + Number((BigInt(i) * 2654435761n) % 1024n) / 1024;
}

/** A numeric column digest as the probe makes it, with every row sampled. */
function column(
  values: number[],
  name: string | null = null,
  grain = 0
): IColumnDigest {
  return {
    name,
    kind: 'num',
    samples: values,
    grain,
    nan: 0,
    sum: values.reduce((a, b) => a + b, 0),
    abs: values.reduce((a, b) => a + Math.abs(b), 0),
    wsum: values.reduce((a, b, i) => a + b * weight(i), 0),
    min: Math.min(...values),
    max: Math.max(...values)
  };
}

/** A view of columns (rows = their length). */
function view(
  columns: number[][],
  options: { shape?: number[]; names?: string[]; grain?: number } = {}
): IValueView {
  const rows = columns[0]?.length ?? 0;
  return {
    shape:
      options.shape ?? (columns.length === 1 ? [rows] : [rows, columns.length]),
    table: [rows, columns.length],
    columns: columns.map((c, j) =>
      column(c, options.names?.[j] ?? null, options.grain ?? 0)
    ),
    names: !!options.names,
    index: null,
    positions: Array.from({ length: rows }, (_, i) => i)
  };
}

const A = [1.5, -2.25, 3, 4.75, 0.5, 8];
const B = [10, 20, 30, 40, 50, 60];

describe('compareViews', () => {
  it.each<[string, IValueView, string | null, string[]]>([
    ['the same table', view([A, B]), null, []],
    [
      'another shape with size-1 dimensions (keepdims)',
      view([A], { shape: [1, 6] }),
      null,
      []
    ],
    ['rows reversed', view([[...A].reverse(), [...B].reverse()]), 'at', []],
    ['two columns swapped', view([B, A]), 'at', []],
    ['one value changed', view([[...A.slice(0, 5), 9], B]), 'at', []],
    [
      'a constant instead of the values',
      view([A.map(() => 1), B.map(() => 1)]),
      'at',
      []
    ],
    ['fewer rows', view([A.slice(1), B.slice(1)]), 'table', []]
  ])('%s', (_, actual, difference, notes) => {
    const expected =
      actual.shape.length === 2 && actual.shape[0] === 1
        ? view([A])
        : view([A, B]);
    const result = compareViews(expected, actual, { values: true });
    expect(result.difference?.code ?? null).toBe(difference);
    if (difference === null) {
      expect(result.notes.map(n => n.code)).toEqual(
        actual.shape.length === 2 && actual.shape[0] === 1
          ? ['squeezed']
          : notes
      );
    }
  });

  it('finds values moved between rows by the order-sensitive sum when the samples miss them', () => {
    const expected = view([A]);
    const swapped = view([[A[1], A[0], ...A.slice(2)]]);
    // Only the last rows are sampled: the swap is in rows the samples skip.
    for (const v of [expected, swapped]) {
      v.positions = [4, 5];
      v.columns![0].samples = v.columns![0].samples.slice(4);
    }
    const result = compareViews(expected, swapped, { values: true });
    expect(result.difference).toMatchObject({ code: 'stats', stat: 'order' });
  });

  it('compares frames by column name and notes another column order', () => {
    const expected = view([A, B], { names: ['a', 'b'] });
    const actual = view([B, A], { names: ['b', 'a'] });
    const result = compareViews(expected, actual, { values: true });
    expect(result.difference).toBeNull();
    expect(result.notes).toEqual([{ code: 'column-order' }]);
  });

  it('notes the columns the learner took out, and whether the reference does so later', () => {
    const expected = view([A, B], { names: ['x', 'Class'] });
    const actual = view([A], { names: ['x'] });
    expect(
      compareViews(expected, actual, {
        values: true,
        laterStrings: new Set(['Class'])
      })
    ).toEqual({
      difference: null,
      notes: [{ code: 'columns-dropped', columns: ['Class'], later: true }]
    });
    expect(compareViews(expected, actual, { values: true }).notes).toEqual([
      { code: 'columns-dropped', columns: ['Class'], later: false }
    ]);
  });

  it('names the columns of arrays from the frames they were made of', () => {
    const expected = view([A, B]);
    const actual = view([B]);
    const result = compareViews(expected, actual, {
      values: true,
      expectedNames: ['x', 'Class'],
      actualNames: ['Class']
    });
    expect(result).toEqual({
      difference: null,
      notes: [{ code: 'columns-dropped', columns: ['x'], later: false }]
    });
  });

  it('notes columns the learner added, and fails a table that both drops and adds', () => {
    const expected = view([A], { names: ['x'] });
    expect(
      compareViews(expected, view([A, B], { names: ['x', 'y'] }), {
        values: true
      })
    ).toEqual({
      difference: null,
      notes: [{ code: 'columns-extra', columns: ['y'] }]
    });
    expect(
      compareViews(
        view([A, B], { names: ['x', 'y'] }),
        view([A, B], { names: ['x', 'z'] }),
        { values: true }
      ).difference
    ).toEqual({ code: 'extra-columns', columns: ['z'] });
    expect(
      compareViews(
        view([A, B], { names: ['x', 'y'] }),
        view([A], { names: ['z'] }),
        {
          values: true
        }
      ).difference
    ).toMatchObject({ code: 'missing-all-columns' });
  });

  it('fails a column the reference’s target makes when it is missing', () => {
    const expected = view([A, B], { names: ['x', 'risk'] });
    const actual = view([A], { names: ['x'] });
    expect(
      compareViews(expected, actual, { values: true, expectedBefore: ['x'] })
        .difference
    ).toEqual({ code: 'missing-columns', columns: ['risk'] });
  });

  it('takes the same labelled rows in another order as the same data', () => {
    const labels = ['a', 'b', 'c', 'd', 'e', 'f'];
    const indexed = (values: number[], order: number[]): IValueView => ({
      ...view([order.map(i => values[i])], { names: ['v'] }),
      index: {
        hash: order.join(''),
        n: 6,
        samples: order.map(i => labels[i]),
        sortedHash: 'abcdef'
      },
      byLabel: { columns: [column(values, 'v')] }
    });
    const expected = indexed(A, [0, 1, 2, 3, 4, 5]);
    const shuffled = indexed(A, [3, 0, 5, 1, 4, 2]);
    expect(compareViews(expected, shuffled, { values: true })).toEqual({
      difference: null,
      notes: [{ code: 'row-order' }]
    });
    // The same order of labels with the values moved between them is not.
    const moved = {
      ...shuffled,
      byLabel: { columns: [column([...A].reverse(), 'v')] }
    };
    expect(
      compareViews(expected, moved, { values: true }).difference
    ).toMatchObject({
      code: 'index'
    });
  });

  it('takes rows labelled by the positions of an unlabelled reference in another order', () => {
    // The reference's array of predictions; the learner's Series of them labelled by test row
    // (0..5) and sorted by value: row label i is the reference's position i.
    const order = [3, 0, 5, 1, 4, 2];
    const labelled = (byLabel: number[]): IValueView => ({
      ...view([order.map(i => A[i])], { names: ['v'] }),
      index: {
        hash: order.join(''),
        n: 6,
        samples: order.map(String),
        sortedHash: '012345',
        positional: true
      },
      byLabel: { columns: [column(byLabel, 'v')] }
    });
    expect(compareViews(view([A]), labelled(A), { values: true })).toEqual({
      difference: null,
      notes: [{ code: 'row-order' }]
    });
    // A value moved to another label is another result.
    const moved = [A[1], A[0], ...A.slice(2)];
    expect(
      compareViews(view([A]), labelled(moved), { values: true }).difference
    ).not.toBeNull();
    // Labels that are not positions (ids) say nothing of the reference's order.
    const ids = labelled(A);
    ids.index = { ...ids.index!, positional: undefined };
    expect(
      compareViews(view([A]), ids, { values: true }).difference
    ).not.toBeNull();
  });

  it('takes index labels held in a column (groupby as_index=False) as the same data', () => {
    const text = (
      samples: string[],
      name: string | null,
      hash: string
    ): IColumnDigest => ({
      name,
      kind: 'text',
      samples,
      hash
    });
    const labels = ['n', 's', 'e', 'w', 'c', 'x'];
    const series: IValueView = {
      ...view([A]),
      index: { hash: 'L', n: 6, samples: labels }
    };
    const frame: IValueView = {
      shape: [6, 2],
      table: [6, 2],
      columns: [text(labels, 'region', 'L'), column(A, 'kwh')],
      names: true,
      index: null,
      positions: series.positions
    };
    expect(compareViews(series, frame, { values: true })).toEqual({
      difference: null,
      notes: [{ code: 'index-as-column', column: 'region' }]
    });
    const wrong: IValueView = {
      ...frame,
      columns: [text(labels, 'region', 'L'), column(B, 'kwh')]
    };
    expect(
      compareViews(series, wrong, { values: true }).difference
    ).toMatchObject({
      code: 'at'
    });
  });

  it('tells other index labels apart (grouped by another column)', () => {
    const expected = {
      ...view([A]),
      index: { hash: 'h1', n: 6, samples: ['n', 's'] }
    };
    const actual = {
      ...view([A]),
      index: { hash: 'h2', n: 6, samples: ['gas', 'oil'] }
    };
    expect(compareViews(expected, actual, { values: true }).difference).toEqual(
      {
        code: 'index',
        expected: ['n', 's'],
        actual: ['gas', 'oil']
      }
    );
  });

  describe('rounding', () => {
    // Unrounded values: every fifth one half-way between two tenths (k + 0.5) / 10,
    // exactly representable (k + 0.5 is a binary fraction once scaled), the others not.
    const unrounded = Array.from({ length: 200 }, (_, i) =>
      i % 5 === 0 ? (2 * i + 1) / 20 : ((i * 7.3) % 97) + 0.0123
    );
    // numpy's rule (half to even) and another honest one (half away from zero).
    const halfEven = (u: number) => {
      const t = u * 10;
      const f = Math.floor(t);
      const r = t - f === 0.5 ? (f % 2 === 0 ? f : f + 1) : Math.round(t);
      return r / 10;
    };
    const halfUp = (u: number) => Math.floor(u * 10 + 0.5) / 10;
    const reference = unrounded.map(halfEven);
    const learner = unrounded.map(halfUp);
    // What the probe records of the reference's rounding: the halves it met, written here
    // from the construction (d = 1, k = floor(u * 10) for the values on a half).
    const halves = unrounded.filter((_, i) => i % 5 === 0);
    const rounding = {
      count: { '1': halves.length },
      pairs: halves.map(u => [1, Math.floor(u * 10)] as [number, number])
    };
    const flippedCount = reference.filter((v, i) => v !== learner[i]).length;

    it('accepts values at a half rounded the other way where the reference met those halves, with a note', () => {
      expect(flippedCount).toBeGreaterThan(10);
      const result = compareViews(
        view([reference], { grain: 0.1 }),
        view([learner], { grain: 0.1 }),
        { values: true, rounding }
      );
      expect(result.difference).toBeNull();
      expect(result.notes).toEqual([
        { code: 'rounding', count: flippedCount, grain: 0.1 }
      ]);
    });

    it('refuses the same values when the reference met no half (nothing recorded)', () => {
      const result = compareViews(
        view([reference], { grain: 0.1 }),
        view([learner], { grain: 0.1 }),
        { values: true }
      );
      expect(result.difference).toMatchObject({ code: 'at' });
    });

    it('refuses one step on values that were not at a half, however few', () => {
      const moved = reference.map((v, i) =>
        i === 3 ? Math.round((v + 0.1) * 10) / 10 : v
      );
      const result = compareViews(
        view([reference], { grain: 0.1 }),
        view([moved], { grain: 0.1 }),
        { values: true, rounding }
      );
      expect(result.difference).toMatchObject({ code: 'at', row: 3 });
    });

    it('refuses one step on a quarter of the values, the halves among them', () => {
      const moved = reference.map((v, i) =>
        i % 4 === 0 ? Math.round((v + 0.1) * 10) / 10 : v
      );
      const result = compareViews(
        view([reference], { grain: 0.1 }),
        view([moved], { grain: 0.1 }),
        { values: true, rounding }
      );
      expect(result.difference).not.toBeNull();
    });

    it('refuses one step on rows it does not sample once the sums move more than the halves allow', () => {
      // Only every tenth row is sampled; the other rows move by one step each.
      const positions = reference.map((_, i) => i).filter(i => i % 10 === 0);
      const moved = reference.map((v, i) =>
        i % 10 === 0 ? v : Math.round((v + 0.1) * 10) / 10
      );
      const sampled = (values: number[]): IValueView => ({
        ...view([values], { grain: 0.1 }),
        columns: [
          {
            ...column(values, null, 0.1),
            samples: positions.map(i => values[i])
          }
        ],
        positions
      });
      const result = compareViews(sampled(reference), sampled(moved), {
        values: true,
        rounding
      });
      expect(result.difference).toMatchObject({ code: 'stats' });
    });

    it('refuses a one-grain difference where the values sit on no grain', () => {
      const result = compareViews(
        view([A]),
        view([[A[0] + 0.1, ...A.slice(1)]]),
        {
          values: true,
          rounding
        }
      );
      expect(result.difference).toMatchObject({ code: 'at', row: 0 });
    });
  });

  it('compares only the structure when the reference is not deterministic, constants excepted', () => {
    const expected = view([A, B]);
    expect(
      compareViews(expected, view([B, A]), { values: false }).difference
    ).toBeNull();
    expect(
      compareViews(expected, view([A.map(() => 0), B.map(() => 0)]), {
        values: false
      }).difference
    ).toEqual({ code: 'constant' });
  });

  it('tells text columns apart by their samples and digest', () => {
    const text = (samples: string[], hash: string): IValueView => ({
      shape: [samples.length],
      table: [samples.length, 1],
      columns: [{ name: null, kind: 'text', samples, hash }],
      names: false,
      index: null,
      positions: samples.map((_, i) => i)
    });
    expect(
      compareViews(text(['a', 'b'], 'h'), text(['a', 'b'], 'h'), {
        values: true
      }).difference
    ).toBeNull();
    expect(
      compareViews(text(['a', 'b'], 'h'), text(['b', 'a'], 'k'), {
        values: true
      }).difference
    ).toMatchObject({ code: 'at', row: 0 });
  });
});

describe('closeNumbers', () => {
  it.each<[number | string, number | string, number, boolean]>([
    [1, 1 + 1e-9, 0, true],
    [1, 1.001, 0, false],
    [1e-15, -2e-15, 1, true],
    [1e-15, -2e-15, 0, false],
    ['nan', 'nan', 0, true],
    ['nan', 1, 0, false]
  ])('%p ~ %p (scale %p): %p', (x, y, scale, expected) => {
    expect(closeNumbers(x, y, scale)).toBe(expected);
  });
});
