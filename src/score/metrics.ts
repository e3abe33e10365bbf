/**
 * Classification metrics over a fixed label set, and seeded bootstrap
 * intervals. A case's prediction is an index into the label set, or `NONE`
 * (no prediction) or `OTHER` (a label outside the set): both are wrong, and
 * neither is a label whose precision is measured. Pure logic.
 */

/** The prediction of a case that has none. */
export const NONE = -1;

/** The prediction of a case whose label is not in the label set. */
export const OTHER = -2;

/** One scored case: the index of its true label and of the predicted one (or NONE, OTHER). */
export interface IOutcome {
  /** Index of the true label. */
  actual: number;
  /** Index of the predicted label, NONE or OTHER. */
  predicted: number;
}

/** Precision, recall and F1 of one label. */
export interface ILabelMetrics {
  /** Cases with this label that were predicted so, over those predicted so; null when never predicted. */
  precision: number | null;
  /** Cases with this label that were predicted so, over the cases with it; null when no case has it. */
  recall: number | null;
  /** Their harmonic mean, 0 when either is 0 or null. */
  f1: number;
  /** Cases with this label. */
  support: number;
  /** Cases predicted with this label. */
  predicted: number;
}

/** The share of outcomes predicted right; null for none. */
export function accuracy(outcomes: readonly IOutcome[]): number | null {
  if (outcomes.length === 0) {
    return null;
  }
  return (
    outcomes.filter(o => o.predicted === o.actual).length / outcomes.length
  );
}

/** Precision, recall and F1 of each of `labels` labels (by index). */
export function perLabel(
  outcomes: readonly IOutcome[],
  labels: number
): ILabelMetrics[] {
  const tp = new Array<number>(labels).fill(0);
  const support = new Array<number>(labels).fill(0);
  const predicted = new Array<number>(labels).fill(0);
  for (const { actual, predicted: p } of outcomes) {
    support[actual]++;
    if (p >= 0) {
      predicted[p]++;
      if (p === actual) {
        tp[actual]++;
      }
    }
  }
  return tp.map((hits, i) => {
    const precision = predicted[i] ? hits / predicted[i] : null;
    const recall = support[i] ? hits / support[i] : null;
    const f1 =
      precision && recall ? (2 * precision * recall) / (precision + recall) : 0;
    return {
      precision,
      recall,
      f1,
      support: support[i],
      predicted: predicted[i]
    };
  });
}

/**
 * The mean F1 over the labels that occur in the outcomes, as a true or a
 * predicted label (with every label of the casebook present, its whole label
 * set); null for no outcome.
 */
export function macroF1(
  outcomes: readonly IOutcome[],
  labels: number
): number | null {
  const present = perLabel(outcomes, labels).filter(
    m => m.support > 0 || m.predicted > 0
  );
  if (present.length === 0) {
    return null;
  }
  return present.reduce((sum, m) => sum + m.f1, 0) / present.length;
}

/**
 * The confusion matrix: a row per true label, a column per predicted label,
 * then a column for NONE and one for OTHER.
 */
export function confusionMatrix(
  outcomes: readonly IOutcome[],
  labels: number
): number[][] {
  const rows = Array.from({ length: labels }, () =>
    new Array<number>(labels + 2).fill(0)
  );
  for (const { actual, predicted } of outcomes) {
    const column =
      predicted === NONE
        ? labels
        : predicted === OTHER
          ? labels + 1
          : predicted;
    rows[actual][column]++;
  }
  return rows;
}

/**
 * A pseudo-random generator of numbers in [0, 1): mulberry32, seeded with a
 * 32-bit whole number; the same seed gives the same sequence everywhere.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The `q` quantile (0 to 1) of sorted values, interpolated linearly between
 * the two nearest ranks (NumPy's default).
 */
export function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

/** How to draw bootstrap resamples. */
export interface IBootstrapOptions {
  /** The number of resamples. */
  resamples: number;
  /** The seed of the generator (see `seededRandom`). */
  seed: number;
  /** The confidence of the interval, 0.95 for 95%. */
  confidence: number;
}

/**
 * Percentile bootstrap interval of `statistic` over `items`: `resamples`
 * samples of the same size drawn with replacement from a generator seeded with
 * `seed`, so the same items and options give the same interval; resamples
 * where the statistic is null are left out. Null for no item.
 */
export function bootstrapInterval<T>(
  items: readonly T[],
  statistic: (sample: readonly T[]) => number | null,
  options: IBootstrapOptions
): [number, number] | null {
  if (items.length === 0) {
    return null;
  }
  const random = seededRandom(options.seed);
  const values: number[] = [];
  const sample = new Array<T>(items.length);
  for (let r = 0; r < options.resamples; r++) {
    for (let i = 0; i < items.length; i++) {
      sample[i] = items[Math.floor(random() * items.length)];
    }
    const value = statistic(sample);
    if (value !== null) {
      values.push(value);
    }
  }
  if (values.length === 0) {
    return null;
  }
  values.sort((a, b) => a - b);
  const tail = (1 - options.confidence) / 2;
  return [quantile(values, tail), quantile(values, 1 - tail)];
}
