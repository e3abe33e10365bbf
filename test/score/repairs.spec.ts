import type { ScoreWarning } from '../../src/score/messages';
import { parseRepairs, scoreRepairs } from '../../src/score/repairs';
import type { IRepairSubmission } from '../../src/score/repairs';
import { groundTruth } from '../../src/score/score';
import { caseRecord } from '../casebook/fixtures';

/** A case with both notebooks (gradable) unless told otherwise. */
function gradable(name: string, rootCause: string, fixed = true) {
  return caseRecord(name, {
    rootCause,
    crashType: 'c',
    pipelineStage: 's',
    files: {
      folder: `benchmark/${name}`,
      original: true,
      reproduced: true,
      fixed,
      readme: true,
      data: []
    }
  });
}

const TRUTH = groundTruth({
  cases: [
    gradable('pandas_1', 'data confusion'),
    gradable('pandas_2', 'API misuse'),
    gradable('numpy_1', 'API misuse'),
    gradable('NBspecific_1', 'NB specific'),
    gradable('NBspecific_2', 'NB specific'),
    // No fixed notebook: the check cannot grade it, so it is not counted.
    gradable('numpy_2', 'API misuse', false)
  ]
});

/** A graded or ungraded submission. */
const sub = (
  c: string | null,
  file: string,
  passed: boolean | null,
  error: string | null = null
): IRepairSubmission => ({ case: c, file, passed, error });

describe('scoreRepairs', () => {
  const warnings: ScoreWarning[] = [];
  const score = scoreRepairs(
    TRUTH,
    [
      sub('pandas_1', 'pandas_1/a.ipynb', true),
      sub('pandas_1', 'pandas_1/b.ipynb', false),
      sub('pandas_2', 'pandas_2/a.ipynb', false),
      sub('numpy_1', 'numpy_1/a.ipynb', null, 'not a notebook'),
      sub('NBspecific_1', 'NBspecific_1/a.ipynb', true),
      sub('numpy_2', 'numpy_2/a.ipynb', true),
      sub('torch_1', 'torch_1/a.ipynb', true),
      sub(null, 'stray.ipynb', null, 'not in a case folder')
    ],
    'batch.json',
    warnings
  );

  // Gradable: pandas_1 (yes), pandas_2 (no), numpy_1 (not graded: no),
  // NBspecific_1 (yes), NBspecific_2 (no submission: no).
  it('counts the rates per library, root cause and notebook-specific cases', () => {
    expect(score.overall).toEqual({ repaired: 2, total: 5, rate: 2 / 5 });
    expect(score.byLibrary).toEqual({
      pandas: { repaired: 1, total: 2, rate: 1 / 2 },
      numpy: { repaired: 0, total: 1, rate: 0 },
      NBspecific: { repaired: 1, total: 2, rate: 1 / 2 }
    });
    expect(score.byRootCause).toEqual({
      'data confusion': { repaired: 1, total: 1, rate: 1 },
      'API misuse': { repaired: 0, total: 2, rate: 0 },
      'NB specific': { repaired: 1, total: 2, rate: 1 / 2 }
    });
    expect(score.notebookSpecific).toEqual({
      repaired: 1,
      total: 2,
      rate: 1 / 2
    });
    expect(score.repairedCases).toEqual(['pandas_1', 'NBspecific_1']);
  });

  it('names the second submission, the ungraded one and those of no gradable case', () => {
    expect(warnings).toEqual<ScoreWarning[]>([
      {
        code: 'duplicate-submission',
        file: 'batch.json',
        submission: 'pandas_1/b.ipynb',
        case: 'pandas_1',
        first: 'pandas_1/a.ipynb'
      },
      {
        code: 'unknown-submission',
        file: 'batch.json',
        submission: 'numpy_2/a.ipynb',
        case: 'numpy_2'
      },
      {
        code: 'unknown-submission',
        file: 'batch.json',
        submission: 'torch_1/a.ipynb',
        case: 'torch_1'
      },
      {
        code: 'unknown-submission',
        file: 'batch.json',
        submission: 'stray.ipynb',
        case: null
      },
      {
        code: 'not-graded',
        file: 'batch.json',
        submission: 'numpy_1/a.ipynb',
        case: 'numpy_1',
        error: 'not a notebook'
      }
    ]);
  });
});

describe('parseRepairs', () => {
  it('reads the results of a batch report', () => {
    const text = JSON.stringify({
      casebook: 'demo',
      summary: {},
      results: [
        {
          case: 'numpy_1',
          file: 'numpy_1/a.ipynb',
          report: { passed: true, status: 'fixed' },
          error: null
        },
        {
          case: null,
          file: 'x.ipynb',
          report: null,
          error: 'not in a case folder'
        }
      ]
    });
    expect(parseRepairs(text, 'b.json')).toEqual({
      ok: true,
      submissions: [
        sub('numpy_1', 'numpy_1/a.ipynb', true),
        sub(null, 'x.ipynb', null, 'not in a case folder')
      ]
    });
  });

  it.each([
    ['not JSON', '{"results": ['],
    ['no results', '{"tools": []}'],
    ['null', 'null'],
    [
      'a result without a file',
      '{"results": [{"case": "a_1", "report": {"passed": true}}]}'
    ],
    [
      'a report without passed',
      '{"results": [{"case": "a_1", "file": "f", "report": {}}]}'
    ],
    ['a predictions file', '{"case": "a_1", "stage": "training"}']
  ])('refuses %s', (_, text) => {
    expect(parseRepairs(text, 'b.json')).toMatchObject({
      ok: false,
      error: { code: 'bad-repairs', file: 'b.json' }
    });
  });
});
