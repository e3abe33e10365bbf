import { parsePredictions } from '../../src/score/predictions';
import { scoreHTML, scoreJSON, scoreText } from '../../src/score/report';
import type { IScoreReport } from '../../src/score/report';
import { groundTruth, scoreTool } from '../../src/score/score';
import { caseRecord } from '../casebook/fixtures';

const CASES = [
  caseRecord('numpy_1', {
    crashType: 'a',
    rootCause: 'r',
    pipelineStage: 's',
    row: 2
  }),
  caseRecord('pandas_1', {
    crashType: 'b',
    rootCause: 'r',
    pipelineStage: 's',
    row: 3
  })
];

/** A report of tools named by their predictions texts. */
function report(tools: Record<string, string>): IScoreReport {
  const truth = groundTruth({ cases: CASES });
  const bootstrap = { resamples: 200, seed: 5, confidence: 0.95 };
  return {
    casebook: 'demo',
    cases: truth.cases.length,
    bootstrap,
    tools: Object.entries(tools).map(([name, text]) => {
      const parsed = parsePredictions(text, `${name}.csv`);
      if (!parsed.ok) {
        throw new Error(parsed.error.code);
      }
      return scoreTool(
        truth,
        { name, file: `${name}.csv`, ...parsed },
        bootstrap
      );
    })
  };
}

const R = report({
  good: 'case,library,crash_type\nnumpy_1,numpy,a\npandas_1,pandas,b\n',
  '<b>bad</b>': 'case,library\nnumpy_1,pandas\nmystery_1,numpy\n'
});

describe('scoreJSON', () => {
  it('has the shape of the issue, with the bootstrap stated and each warning rendered', () => {
    const json = scoreJSON(R) as {
      bootstrap: unknown;
      tools: Record<string, unknown>[];
    };
    expect(json.bootstrap).toEqual({
      resamples: 200,
      seed: 5,
      confidence: 0.95
    });
    const tool = json.tools[0] as {
      dimensions: Record<string, Record<string, unknown>>;
      localisation: Record<string, unknown>;
    };
    expect(Object.keys(json.tools[0])).toEqual(
      expect.arrayContaining(['name', 'n', 'dimensions', 'localisation'])
    );
    expect(Object.keys(tool.dimensions)).toEqual([
      'library',
      'crashType',
      'rootCause',
      'stage'
    ]);
    for (const d of Object.values(tool.dimensions)) {
      expect(Object.keys(d).sort()).toEqual(
        [
          'accuracy',
          'accuracyCI',
          'confusion',
          'macroF1',
          'macroF1CI',
          'perLabel'
        ].sort()
      );
    }
    expect(Object.keys(tool.localisation)).toEqual(['cell', 'line']);
    expect(json.tools[1].warnings).toContainEqual(
      expect.objectContaining({
        code: 'unknown-case',
        message:
          '<b>bad</b>.csv, row 3: "mystery_1" is not a case of the casebook; not scored'
      })
    );
  });
});

describe('scoreText', () => {
  it('has a column per tool, a row per measure and states the interval method and seed', () => {
    const text = scoreText(R);
    expect(text).toContain(
      '95% percentile bootstrap over the cases, 200 resamples, seed 5'
    );
    const header = text.split('\n')[2];
    expect(header.indexOf('good')).toBeLessThan(header.indexOf('<b>bad</b>'));
    const library = text.split('\n').find(l => l.startsWith('library'))!;
    // good: both right; bad: numpy_1 wrong, pandas_1 not predicted.
    expect(library).toMatch(
      /accuracy\s+1\.000 \[1\.000, 1\.000\]\s+0\.000 \[0\.000, 0\.000\]/
    );
  });
});

describe('scoreHTML', () => {
  const scripts = [
    'window.vega = 1; var s = "</script><script>alert(1)";',
    'window.vegaLite = 2;'
  ];
  const html = scoreHTML(R, { scripts });

  it('inlines the libraries, escaping what would close their script element', () => {
    expect(html).toContain(
      'window.vega = 1; var s = "<\\/script><script>alert(1)";'
    );
    expect(html).toContain('window.vegaLite = 2;');
    expect(html).not.toMatch(/<script[^>]*\bsrc=/i);
    expect(html).toContain("default-src 'none'");
  });

  it('escapes tool names in the page and in the embedded chart data', () => {
    expect(html).not.toContain('<b>bad</b>');
    expect(html).toContain('&lt;b&gt;bad&lt;/b&gt;');
    const specs =
      /<script type="application\/json" id="junobench-specs">([^<]*)<\/script>/.exec(
        html
      );
    expect(specs).not.toBeNull();
    const parsed = JSON.parse(specs![1]) as Record<string, { $schema: string }>;
    // A summary chart, then a confusion matrix and a per-label chart per tool and dimension.
    expect(Object.keys(parsed)).toHaveLength(1 + 2 * 4 * 2);
    expect(JSON.stringify(parsed)).toContain('<b>bad</b>');
  });
});
