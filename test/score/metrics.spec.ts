import {
  accuracy,
  bootstrapInterval,
  confusionMatrix,
  macroF1,
  NONE,
  OTHER,
  perLabel,
  quantile,
  seededRandom
} from '../../src/score/metrics';
import type { IOutcome } from '../../src/score/metrics';

/** Outcomes from [actual, predicted] pairs. */
const pairs = (...p: [number, number][]): IOutcome[] =>
  p.map(([actual, predicted]) => ({ actual, predicted }));

// Three labels a=0, b=1, c=2; seven cases:
//   a->a, a->a, a->b, b->b, b->NONE, c->a, c->OTHER
// a: tp 2, predicted 3 (two a, one from c), support 3 -> P 2/3, R 2/3, F1 2/3
// b: tp 1, predicted 2 (b, and a->b),       support 2 -> P 1/2, R 1/2, F1 1/2
// c: tp 0, predicted 0,                     support 2 -> P null, R 0, F1 0
// accuracy 3/7; macro-F1 (2/3 + 1/2 + 0) / 3 = 7/18
const TABLE = pairs(
  [0, 0],
  [0, 0],
  [0, 1],
  [1, 1],
  [1, NONE],
  [2, 0],
  [2, OTHER]
);

describe('metrics on a table worked by hand', () => {
  it('accuracy', () => {
    expect(accuracy(TABLE)).toBeCloseTo(3 / 7, 12);
    expect(accuracy([])).toBeNull();
  });

  it('per-label precision, recall and F1', () => {
    const m = perLabel(TABLE, 3);
    expect(m.map(x => x.precision)).toEqual([2 / 3, 1 / 2, null]);
    expect(m.map(x => x.recall)).toEqual([2 / 3, 1 / 2, 0]);
    expect(m[0].f1).toBeCloseTo(2 / 3, 12);
    expect(m[1].f1).toBeCloseTo(1 / 2, 12);
    expect(m[2].f1).toBe(0);
    expect(m.map(x => [x.support, x.predicted])).toEqual([
      [3, 3],
      [2, 2],
      [2, 0]
    ]);
  });

  it('macro-F1 over the label set', () => {
    expect(macroF1(TABLE, 3)).toBeCloseTo(7 / 18, 12);
  });

  it('macro-F1 leaves out labels neither true nor predicted in the sample', () => {
    // Only label a occurs: a->a, a->a -> F1 1; b and c absent.
    expect(macroF1(pairs([0, 0], [0, 0]), 3)).toBe(1);
    // a->b: a has F1 0, b (predicted) F1 0.
    expect(macroF1(pairs([0, 1]), 3)).toBe(0);
    expect(macroF1([], 3)).toBeNull();
  });

  it('the confusion matrix, with columns for no prediction and other labels', () => {
    expect(confusionMatrix(TABLE, 3)).toEqual([
      [2, 1, 0, 0, 0],
      [0, 1, 0, 1, 0],
      [1, 0, 0, 0, 1]
    ]);
  });

  it('a constant predictor: F1 of its label 2s/(s+n), the others 0', () => {
    // n = 5: supports a 2, b 2, c 1; always predict b.
    const outcomes = pairs([0, 1], [0, 1], [1, 1], [1, 1], [2, 1]);
    expect(accuracy(outcomes)).toBeCloseTo(2 / 5, 12);
    expect(macroF1(outcomes, 3)).toBeCloseTo((2 * 2) / (2 + 5) / 3, 12);
  });
});

describe('quantile', () => {
  it.each([
    [[1, 2, 3, 4, 5], 0.5, 3],
    [[1, 2, 3, 4], 0.5, 2.5],
    [[0, 10], 0.025, 0.25],
    [[0, 10], 0.975, 9.75],
    [[7], 0.975, 7]
  ])('of %j at %d is %d (linear, as NumPy)', (values, q, expected) => {
    expect(quantile(values, q)).toBeCloseTo(expected, 12);
  });
});

describe('seededRandom', () => {
  it('gives the same sequence for the same seed, another for another seed', () => {
    const draw = (seed: number) => {
      const r = seededRandom(seed);
      return Array.from({ length: 5 }, () => r());
    };
    expect(draw(38)).toEqual(draw(38));
    expect(draw(38)).not.toEqual(draw(39));
    for (const x of draw(7)) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });

  it('is roughly uniform', () => {
    const r = seededRandom(1);
    const bins = new Array<number>(10).fill(0);
    for (let i = 0; i < 10000; i++) {
      bins[Math.floor(r() * 10)]++;
    }
    for (const b of bins) {
      expect(b).toBeGreaterThan(900);
      expect(b).toBeLessThan(1100);
    }
  });
});

describe('bootstrapInterval', () => {
  const options = { resamples: 500, seed: 38, confidence: 0.95 };
  const mean = (s: readonly number[]) =>
    s.reduce((a, b) => a + b, 0) / s.length;

  it('is one point when every item is the same', () => {
    expect(bootstrapInterval([1, 1, 1, 1], mean, options)).toEqual([1, 1]);
  });

  it('draws `resamples` samples of the same size', () => {
    const sizes: number[] = [];
    bootstrapInterval(
      [1, 2, 3],
      s => {
        sizes.push(s.length);
        return 0;
      },
      options
    );
    expect(sizes).toHaveLength(500);
    expect(new Set(sizes)).toEqual(new Set([3]));
  });

  it('is the same for the same seed and brackets the mean of a 0/1 sample', () => {
    const items = [
      ...new Array<number>(30).fill(1),
      ...new Array<number>(70).fill(0)
    ];
    const a = bootstrapInterval(items, mean, options)!;
    expect(bootstrapInterval(items, mean, options)).toEqual(a);
    // Another seed draws other samples (seen on values that are all different).
    const spread = Array.from({ length: 50 }, (_, i) => Math.sqrt(i));
    expect(
      bootstrapInterval(spread, mean, { ...options, seed: 1 })
    ).not.toEqual(bootstrapInterval(spread, mean, options));
    // The normal approximation: 0.3 +- 1.96 * sqrt(0.3 * 0.7 / 100) = 0.3 +- 0.09.
    expect(a[0]).toBeGreaterThan(0.18);
    expect(a[0]).toBeLessThan(0.25);
    expect(a[1]).toBeGreaterThan(0.35);
    expect(a[1]).toBeLessThan(0.42);
  });

  it('is null for no item, and leaves out resamples without a value', () => {
    expect(bootstrapInterval([], mean, options)).toBeNull();
    expect(bootstrapInterval([1, 2], () => null, options)).toBeNull();
  });
});
