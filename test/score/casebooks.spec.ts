/**
 * The scorer on real casebooks, against figures computed here by counting and
 * by scikit-learn's metrics: the demo casebook always, and the real JunoBench
 * descriptor (`../shared/junobench` beside the project, or
 * $JUNOBENCH_CASEBOOK) when present; what is skipped is said with its reason.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import { loadLocalCasebook } from '../../src/cli/verify';
import { SCORE_DIMENSIONS } from '../../src/score/messages';
import type { ScoreDimension } from '../../src/score/messages';
import { parsePredictions } from '../../src/score/predictions';
import { groundTruth, scoreTool } from '../../src/score/score';
import type { IGroundTruth, IToolScore } from '../../src/score/score';

const ROOT = path.resolve(__dirname, '../..');
const JUNOBENCH =
  process.env.JUNOBENCH_CASEBOOK ?? path.resolve(ROOT, '../shared/junobench');
const PRESENT = fs.existsSync(path.join(JUNOBENCH, 'benchmark_desc.xlsx'));
if (!PRESENT) {
  console.log(
    `skipped: the scorer on the real descriptor: no ${path.join(JUNOBENCH, 'benchmark_desc.xlsx')} (set JUNOBENCH_CASEBOOK)`
  );
}

/** The casebooks scored: the demo always, JunoBench when present. */
const CASEBOOKS: [string, string, number][] = [
  ['the demo casebook', path.join(ROOT, 'demo/casebook'), 10],
  ...(PRESENT
    ? [['the real descriptor', JUNOBENCH, 111] as [string, string, number]]
    : [])
];

/** The fields of a prediction as a CSV column. */
const COLUMN: Record<ScoreDimension, string> = {
  library: 'library',
  crashType: 'crash_type',
  rootCause: 'root_cause',
  stage: 'stage'
};

/** A CSV field, quoted. */
const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Predictions as CSV from a label per case and dimension. */
function csv(
  names: string[],
  label: (name: string, dimension: ScoreDimension, i: number) => string
): string {
  const header = ['case', ...SCORE_DIMENSIONS.map(d => COLUMN[d])].join(',');
  const rows = names.map((name, i) =>
    [name, ...SCORE_DIMENSIONS.map(d => label(name, d, i))].map(quote).join(',')
  );
  return `${header}\n${rows.join('\n')}\n`;
}

/** Score a CSV text. */
function score(truth: IGroundTruth, text: string): IToolScore {
  const parsed = parsePredictions(text, 'tool.csv');
  if (!parsed.ok) {
    throw new Error(parsed.error.code);
  }
  return scoreTool(truth, { name: 'tool', file: 'tool.csv', ...parsed });
}

/** A label as this test compares it, written here rather than imported. */
const key = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

describe.each(CASEBOOKS)('score on %s', (_, dir, size) => {
  let truth: IGroundTruth;
  let names: string[];
  let labelOf: (name: string, d: ScoreDimension) => string;

  beforeAll(async () => {
    const book = await loadLocalCasebook(dir);
    truth = groundTruth(book);
    names = truth.cases.map(c => c.name);
    const byName = new Map(book.cases.map(c => [c.name, c]));
    labelOf = (name, d) => {
      const c = byName.get(name)!;
      return {
        library: c.library as string,
        crashType: c.crashType,
        rootCause: c.rootCause,
        stage: c.pipelineStage
      }[d];
    };
  }, 60_000);

  it(`has the ${size} cases of its descriptor`, () => {
    expect(names).toHaveLength(size);
  });

  it('gives the ground truth itself accuracy 1 and macro-F1 1, even shouted', () => {
    const t = score(
      truth,
      csv(names, (n, d) => `  ${labelOf(n, d).toUpperCase()} `)
    );
    for (const d of SCORE_DIMENSIONS) {
      expect(t.dimensions[d].accuracy).toBe(1);
      expect(t.dimensions[d].macroF1).toBe(1);
    }
    expect(t.warnings).toEqual([]);
  });

  it.each(SCORE_DIMENSIONS)(
    'gives a constant predictor of the most common %s the counted figures',
    dimension => {
      const counts = new Map<string, number>();
      for (const n of names) {
        const k = key(labelOf(n, dimension));
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      const [top, support] = [...counts].sort((a, b) => b[1] - a[1])[0];
      const t = score(
        truth,
        csv(names, () => top)
      );
      const n = names.length;
      // Its label: precision support/n, recall 1, F1 2s/(s+n); every other label F1 0.
      expect(t.dimensions[dimension].accuracy).toBeCloseTo(support / n, 12);
      expect(t.dimensions[dimension].macroF1).toBeCloseTo(
        (2 * support) / (support + n) / counts.size,
        12
      );
    }
  );

  it('agrees with scikit-learn on a scrambled predictor', () => {
    const python = fs.existsSync(path.join(ROOT, '.venv/bin/python'))
      ? path.join(ROOT, '.venv/bin/python')
      : 'python3';
    // Case i gets the labels of case 7i mod n, and every fifth case no label.
    const pick = (d: ScoreDimension, i: number) =>
      i % 5 === 4 ? '' : labelOf(names[(7 * i) % names.length], d);
    const t = score(
      truth,
      csv(names, (_, d, i) => pick(d, i))
    );
    const input = SCORE_DIMENSIONS.map(d => ({
      labels: [...new Set(names.map(n => key(labelOf(n, d))))],
      y_true: names.map(n => key(labelOf(n, d))),
      y_pred: names.map((_, i) => key(pick(d, i)) || '(none)')
    }));
    const script = `
import json, sys
from sklearn.metrics import accuracy_score, f1_score
out = []
for d in json.load(sys.stdin):
    out.append([accuracy_score(d["y_true"], d["y_pred"]),
                f1_score(d["y_true"], d["y_pred"], labels=d["labels"], average="macro", zero_division=0)])
print(json.dumps(out))
`;
    const run = spawnSync(python, ['-c', script], {
      input: JSON.stringify(input),
      encoding: 'utf8'
    });
    if (run.status !== 0) {
      console.log(
        `skipped: the comparison with scikit-learn: ${python} -c failed: ${run.stderr.trim().split('\n').pop()}`
      );
      return;
    }
    const expected = JSON.parse(run.stdout) as [number, number][];
    SCORE_DIMENSIONS.forEach((d, i) => {
      expect(t.dimensions[d].accuracy).toBeCloseTo(expected[i][0], 12);
      expect(t.dimensions[d].macroF1).toBeCloseTo(expected[i][1], 12);
    });
  });
});
