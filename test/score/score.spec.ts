import type { INotebookJSON } from '../../src/replay/types';
import type { ScoreWarning } from '../../src/score/messages';
import { parsePredictions } from '../../src/score/predictions';
import {
  crashLocation,
  groundTruth,
  NO_PREDICTION,
  OTHER_LABEL,
  resolveCell,
  scoreTool
} from '../../src/score/score';
import type { ICrashLocation, IToolScore } from '../../src/score/score';
import { caseRecord } from '../casebook/fixtures';

/** A described case with its labels. */
function labelled(
  name: string,
  crashType: string,
  rootCause: string,
  pipelineStage: string
) {
  return caseRecord(name, { crashType, rootCause, pipelineStage, row: 2 });
}

const CASES = [
  labelled('pandas_1', 'key error', 'data confusion', 'data preparation'),
  labelled('pandas_2', 'key error', 'implementation error', 'data preparation'),
  labelled(
    'numpy_1',
    'tensor shape mismatch',
    'implementation error',
    'training'
  ),
  labelled(
    'numpy_2',
    'unsupported broadcast',
    'implementation error',
    'data preparation'
  ),
  labelled(
    'NBspecific_1',
    'variable not found',
    'NB specific',
    'data preparation'
  ),
  labelled(
    'sklearn_1',
    'feature name mismatch',
    'API misuse',
    'evaluation/prediction'
  )
];

const PREDICTIONS = `case,library,crash_type,root_cause,stage
pandas_1, Pandas ,KEY  ERROR,data confusion,Data Preparation
pandas_2,pandas,key error,data confusion,data preparation
numpy_1,numpy,unsupported broadcast,implementation error,
numpy_2,scikit-learn,unsupported broadcast,implementation error,data preparation
NBspecific_1,NBspecific,name error,NB specific,data preparation
numpy_1,torch,tensor shape mismatch,API misuse,training
tensorflow_9,tensorflow,key error,API misuse,training
`;

/** Score a predictions text against the cases. */
function score(
  text: string,
  cases = CASES,
  locations = new Map<string, ICrashLocation | null>()
): IToolScore {
  const parsed = parsePredictions(text, 'tool.csv');
  if (!parsed.ok) {
    throw new Error(parsed.error.code);
  }
  return scoreTool(groundTruth({ cases }, locations), {
    name: 'tool',
    file: 'tool.csv',
    rows: parsed.rows,
    warnings: parsed.warnings
  });
}

describe('groundTruth', () => {
  it('takes the library from the name and the label sets from the cases', () => {
    const truth = groundTruth({
      cases: [
        ...CASES,
        caseRecord('pandas_9', { markers: [{ code: 'not-in-descriptor' }] })
      ]
    });
    expect(truth.cases.map(c => c.name)).toEqual(CASES.map(c => c.name));
    expect(truth.labels.library).toEqual([
      'pandas',
      'numpy',
      'NBspecific',
      'sklearn'
    ]);
    expect(truth.labels.rootCause).toEqual([
      'API misuse',
      'data confusion',
      'implementation error',
      'NB specific'
    ]);
    expect(truth.labels.stage).toEqual([
      'data preparation',
      'evaluation/prediction',
      'training'
    ]);
  });

  it('keeps one spelling of labels that differ only in case and spacing', () => {
    const truth = groundTruth({
      cases: [
        labelled('a_1', 'Key error', 'x', 'y'),
        labelled('a_2', 'key  error ', 'x', 'y')
      ]
    });
    expect(truth.labels.crashType).toHaveLength(1);
  });
});

describe('scoreTool on a table worked by hand', () => {
  const tool = score(PREDICTIONS);

  // library: pandas 2/2 right, numpy 1 of 2 (numpy_2 said scikit-learn, i.e.
  // sklearn), NBspecific right, sklearn_1 not predicted: accuracy 4/6;
  // F1 pandas 1, numpy 2/3 (P 1, R 1/2), NBspecific 1, sklearn 0 (P 0): 2/3.
  it('library', () => {
    const d = tool.dimensions.library;
    expect(d.accuracy).toBeCloseTo(4 / 6, 12);
    expect(d.macroF1).toBeCloseTo(2 / 3, 12);
    expect(d.perLabel.numpy).toEqual({
      precision: 1,
      recall: 0.5,
      f1: 2 / 3,
      support: 2,
      predicted: 1
    });
    expect(d.perLabel.sklearn).toMatchObject({ precision: 0, recall: 0 });
  });

  // crash type: both key errors right (one spelt "KEY  ERROR"), numpy_1 wrong,
  // numpy_2 right, NBspecific_1 an unknown label, sklearn_1 none: 3/6;
  // F1 key error 1, unsupported broadcast 2/3 (P 1/2, R 1), others 0: (5/3)/5.
  it('crash type', () => {
    const d = tool.dimensions.crashType;
    expect(d.accuracy).toBeCloseTo(3 / 6, 12);
    expect(d.macroF1).toBeCloseTo(1 / 3, 12);
    expect(d.confusion.predicted).toEqual([
      'feature name mismatch',
      'key error',
      'tensor shape mismatch',
      'unsupported broadcast',
      'variable not found',
      NO_PREDICTION,
      OTHER_LABEL
    ]);
    expect(d.confusion.counts).toEqual([
      [0, 0, 0, 0, 0, 1, 0],
      [0, 2, 0, 0, 0, 0, 0],
      [0, 0, 0, 1, 0, 0, 0],
      [0, 0, 0, 1, 0, 0, 0],
      [0, 0, 0, 0, 0, 0, 1]
    ]);
  });

  // root cause: pandas_2 wrong, sklearn_1 none: 4/6; F1 API misuse 0, data
  // confusion 2/3, implementation error 4/5 (P 1, R 2/3), NB specific 1: 37/60.
  it('root cause', () => {
    const d = tool.dimensions.rootCause;
    expect(d.accuracy).toBeCloseTo(4 / 6, 12);
    expect(d.macroF1).toBeCloseTo(37 / 60, 12);
  });

  // stage: numpy_1 empty, sklearn_1 none: 4/6; F1 data preparation 1, others 0.
  it('stage', () => {
    const d = tool.dimensions.stage;
    expect(d.accuracy).toBeCloseTo(4 / 6, 12);
    expect(d.macroF1).toBeCloseTo(1 / 3, 12);
    expect(d.accuracyCI![0]).toBeLessThanOrEqual(4 / 6);
    expect(d.accuracyCI![1]).toBeGreaterThanOrEqual(4 / 6);
  });

  it('names the duplicate (the first counts), the unknown case and label, and the case without prediction', () => {
    expect(tool.n).toBe(6);
    expect(tool.warnings).toEqual<ScoreWarning[]>([
      {
        code: 'unknown-label',
        file: 'tool.csv',
        row: 6,
        case: 'NBspecific_1',
        dimension: 'crashType',
        label: 'name error'
      },
      {
        code: 'duplicate-case',
        file: 'tool.csv',
        row: 7,
        case: 'numpy_1',
        first: 4
      },
      { code: 'unknown-case', file: 'tool.csv', row: 8, case: 'tensorflow_9' },
      { code: 'no-prediction', file: 'tool.csv', cases: ['sklearn_1'] }
    ]);
  });

  it('matches case names whatever their case and spacing', () => {
    const t = score('case,stage\n PANDAS_1 ,data preparation\n');
    expect(t.dimensions.stage.confusion.counts[0][0]).toBe(1);
  });

  it('counts every case wrong for a file with no prediction', () => {
    const t = score('case,stage\n');
    for (const d of Object.values(t.dimensions)) {
      expect(d.accuracy).toBe(0);
      expect(d.macroF1).toBe(0);
      expect(d.accuracyCI).toEqual([0, 0]);
    }
    expect(t.warnings).toEqual([
      { code: 'no-prediction', file: 'tool.csv', cases: CASES.map(c => c.name) }
    ]);
  });

  it('takes a case spelt another way as the same case: a duplicate, not a second chance', () => {
    const t = score(
      'case,stage\npandas_1,training\n PANDAS_1 ,data preparation\n'
    );
    // Row "data preparation": pandas_1 as training (the first row), the
    // other three cases with the label not predicted.
    expect(t.dimensions.stage.confusion.counts[0]).toEqual([0, 0, 1, 3, 0]);
    expect(t.warnings[0]).toEqual({
      code: 'duplicate-case',
      file: 'tool.csv',
      row: 3,
      case: 'pandas_1',
      first: 2
    });
  });

  it('names a row without a case', () => {
    expect(score('case,stage\n,training\n').warnings[0]).toEqual({
      code: 'no-case',
      file: 'tool.csv',
      row: 2
    });
  });
});

describe('localisation', () => {
  // cells: 0 markdown, 1 id "a" [1], 2 id "b" [3] (crashes at line 2), 3 id "7" [2]
  const LOCATION: ICrashLocation = {
    cells: [
      { id: 'm', executionCount: null },
      { id: 'a', executionCount: 1 },
      { id: 'b', executionCount: 3 },
      { id: '7', executionCount: 2 }
    ],
    cellIndex: 2,
    line: 2
  };

  it.each([
    ['b', 2],
    ['2', 2],
    ['[3]', 2],
    ['In [3]', 2],
    ['in[3]:', 2],
    ['[2]', 3],
    // A cell id first: "7" is the id of cell 3, not an index past the end.
    ['7', 3],
    ['4', null],
    ['[9]', null],
    ['cell 2', null],
    ['-1', null]
  ])('resolves %j to cell %j', (cell, expected) => {
    expect(resolveCell(LOCATION, cell)).toBe(expected);
  });

  const locations = new Map<string, ICrashLocation | null>([
    ['pandas_1', LOCATION],
    ['pandas_2', LOCATION],
    ['numpy_1', LOCATION],
    ['numpy_2', { ...LOCATION, line: null }],
    ['NBspecific_1', LOCATION]
  ]);

  it('scores the cell over the cases with a crash location, and the line only with the right cell', () => {
    const t = score(
      `case,cell,line
pandas_1,b,2
pandas_2,[1],2
numpy_1,2,two
numpy_2,[3],5
NBspecific_1,nowhere,
sklearn_1,0,1
`,
      CASES,
      locations
    );
    // cell: pandas_1, numpy_1, numpy_2 right of 5 located cases.
    expect(t.localisation.cell).toMatchObject({
      correct: 3,
      n: 5,
      accuracy: 3 / 5
    });
    // line: 4 cases with a known line; only pandas_1 has both right (pandas_2
    // has the line but the wrong cell).
    expect(t.localisation.line).toMatchObject({
      correct: 1,
      n: 4,
      accuracy: 1 / 4
    });
    expect(t.warnings.map(w => w.code)).toEqual([
      'bad-line',
      'unknown-cell',
      'no-notebook'
    ]);
    expect(t.warnings[2]).toEqual({
      code: 'no-notebook',
      file: 'tool.csv',
      cases: ['sklearn_1']
    });
  });

  it('is not scored without a reproduced notebook', () => {
    const t = score('case,cell\npandas_1,1\n');
    expect(t.localisation.cell).toEqual({
      accuracy: null,
      accuracyCI: null,
      correct: 0,
      n: 0
    });
  });
});

describe('crashLocation', () => {
  it('takes the crashing cell the replay finds, its line, and every cell id and count', () => {
    const nb: INotebookJSON = {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        { cell_type: 'markdown', id: 'm', source: '# Title' },
        {
          cell_type: 'code',
          id: 'a',
          source: 'x = 1',
          execution_count: 1,
          outputs: []
        },
        {
          cell_type: 'code',
          id: 'b',
          source: 'y = 2\nx[0]',
          execution_count: 2,
          outputs: [
            {
              output_type: 'error',
              ename: 'TypeError',
              evalue: "'int' object is not subscriptable",
              traceback: [
                '\u001b[0;31mTypeError\u001b[0m  Traceback (most recent call last)',
                'Cell \u001b[0;32mIn[2], line 2\u001b[0m',
                '\u001b[0;32m----> 2\u001b[0m x[0]',
                "TypeError: 'int' object is not subscriptable"
              ]
            }
          ]
        },
        {
          cell_type: 'code',
          source: 'z = 3',
          execution_count: null,
          outputs: []
        }
      ]
    };
    expect(crashLocation(nb)).toEqual({
      cells: [
        { id: 'm', executionCount: null },
        { id: 'a', executionCount: 1 },
        { id: 'b', executionCount: 2 },
        { id: null, executionCount: null }
      ],
      cellIndex: 2,
      line: 2
    });
    expect(crashLocation({ ...nb, cells: nb.cells.slice(0, 2) })).toBeNull();
  });
});
