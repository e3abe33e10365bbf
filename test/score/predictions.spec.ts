import { renderScoreMessage } from '../../src/score/messages';
import type { ScoreError } from '../../src/score/messages';
import { parsePredictions } from '../../src/score/predictions';
import type { IPredictionRow } from '../../src/score/predictions';

/** The rows of a file that must parse. */
function rows(text: string): IPredictionRow[] {
  const parsed = parsePredictions(text, 'tool.csv');
  if (!parsed.ok) {
    throw new Error(renderScoreMessage(parsed.error));
  }
  return parsed.rows;
}

/** The error of a file that must not parse. */
function error(text: string): ScoreError {
  const parsed = parsePredictions(text, 'tool.csv');
  if (parsed.ok) {
    throw new Error('parsed');
  }
  return parsed.error;
}

const HEADER = 'case,library,crash_type,root_cause,stage,cell,line';

describe('parsePredictions: CSV', () => {
  it('reads every field, trimmed, empty fields as null', () => {
    expect(
      rows(`${HEADER}\npandas_1, pandas ,key error,data confusion,,3,\n`)
    ).toEqual([
      {
        row: 2,
        case: 'pandas_1',
        library: 'pandas',
        crashType: 'key error',
        rootCause: 'data confusion',
        stage: null,
        cell: '3',
        line: null
      }
    ]);
  });

  it('reads quoted fields with separators, doubled quotes and line breaks, and numbers rows by where they start', () => {
    const text = `case,crash_type,root_cause\r\n"numpy_1","shape, mismatch","say ""no""\nthen more"\r\nnumpy_2,a,b\r\n`;
    const got = rows(text);
    expect(got.map(r => [r.row, r.case, r.crashType, r.rootCause])).toEqual([
      [2, 'numpy_1', 'shape, mismatch', 'say "no"\nthen more'],
      [4, 'numpy_2', 'a', 'b']
    ]);
  });

  it.each([
    ['a byte order mark', `\ufeff${HEADER}\nnumpy_1,numpy,,,,,\n`],
    ['tabs', `${HEADER.replace(/,/g, '\t')}\nnumpy_1\tnumpy\t\t\t\t\t\n`],
    ['semicolons', `${HEADER.replace(/,/g, ';')}\nnumpy_1;numpy;;;;;\n`],
    ['no final line break', `${HEADER}\nnumpy_1,numpy,,,,,`],
    ['blank lines', `\n${HEADER}\n\nnumpy_1,numpy,,,,,\n\n`]
  ])('reads a file with %s', (_, text) => {
    expect(rows(text).map(r => [r.case, r.library])).toEqual([
      ['numpy_1', 'numpy']
    ]);
  });

  it('matches column names whatever their case, spaces and underscores', () => {
    const [row] = rows(
      'Case,Crash Type,rootCause,PIPELINE_stage,STAGE\nx_1,a,b,c,d\n'
    );
    expect([row.crashType, row.rootCause, row.stage]).toEqual(['a', 'b', 'd']);
  });

  it('names the columns it does not score', () => {
    const parsed = parsePredictions(
      'case,confidence,stage\nx_1,0.9,s\n',
      't.csv'
    );
    expect(parsed).toMatchObject({
      ok: true,
      warnings: [
        { code: 'unknown-columns', file: 't.csv', columns: ['confidence'] }
      ]
    });
  });

  it('reads a header alone as no prediction', () => {
    expect(rows(`${HEADER}\n`)).toEqual([]);
  });

  it.each<[string, string, ScoreError]>([
    ['an empty file', '', { code: 'empty-file', file: 'tool.csv' }],
    ['white space only', ' \n\r\n\t', { code: 'empty-file', file: 'tool.csv' }],
    [
      'a binary file (an xlsx is a zip)',
      'PK\u0003\u0004\u0014\u0000\u0006\u0000',
      { code: 'binary-file', file: 'tool.csv' }
    ],
    [
      'wrong columns',
      'nb_name,label\npandas_1,key error\n',
      {
        code: 'no-case-column',
        file: 'tool.csv',
        columns: ['nb_name', 'label']
      }
    ],
    [
      'prose',
      'These are my predictions.\nThe first case is a key error.\n',
      {
        code: 'no-case-column',
        file: 'tool.csv',
        columns: ['These are my predictions.']
      }
    ],
    [
      'a column twice',
      'case,stage,Stage\nx_1,a,b\n',
      { code: 'repeated-column', file: 'tool.csv', column: 'Stage' }
    ],
    [
      'an unclosed quote',
      'case,stage\nx_1,a\nx_2,"b\nx_3,c\n',
      { code: 'unclosed-quote', file: 'tool.csv', row: 3 }
    ],
    [
      'an unquoted comma in a label',
      'case,root_cause,stage\nx_1,API misuse, really,training\n',
      {
        code: 'field-count',
        file: 'tool.csv',
        row: 2,
        found: 4,
        expected: 3
      }
    ]
  ])('refuses %s', (_, text, expected) => {
    expect(error(text)).toEqual(expected);
  });
});

describe('parsePredictions: JSON lines', () => {
  it('reads objects, numbers as text, null as empty, camelCase keys', () => {
    const text = [
      '{"case": "numpy_1", "library": "numpy", "crashType": "shape", "cell": 4, "line": 2}',
      '',
      '{"case": "numpy_2", "root_cause": null, "stage": " data preparation "}'
    ].join('\n');
    expect(rows(text)).toEqual([
      {
        row: 1,
        case: 'numpy_1',
        library: 'numpy',
        crashType: 'shape',
        rootCause: null,
        stage: null,
        cell: '4',
        line: '2'
      },
      {
        row: 3,
        case: 'numpy_2',
        library: null,
        crashType: null,
        rootCause: null,
        stage: 'data preparation',
        cell: null,
        line: null
      }
    ]);
  });

  it('names a value that is neither text nor a number, and keys it does not score', () => {
    const parsed = parsePredictions(
      '{"case": "x_1", "stage": ["a", "b"], "why": "because"}\n',
      't.jsonl'
    );
    expect(parsed).toEqual({
      ok: true,
      rows: [expect.objectContaining({ case: 'x_1', stage: null })],
      warnings: [
        { code: 'unknown-columns', file: 't.jsonl', columns: ['why'] },
        { code: 'bad-value', file: 't.jsonl', row: 1, column: 'stage' }
      ]
    });
  });

  it.each<[string, string, Partial<ScoreError>]>([
    [
      'a broken line',
      '{"case": "x_1"}\n{"case": "x_2"\n',
      { code: 'bad-json-line', row: 2 }
    ],
    [
      'a line that is not an object',
      '{"case": "x_1"}\n"x_2"\n',
      { code: 'not-an-object', row: 2 }
    ],
    [
      'a pretty-printed JSON object',
      '{\n  "case": "x_1"\n}\n',
      { code: 'bad-json-line', row: 1 }
    ],
    ['a JSON array', '[{"case": "x_1"}]', { code: 'json-document' }]
  ])('refuses %s', (_, text, expected) => {
    expect(error(text)).toMatchObject(expected);
  });

  it('renders every refusal as a sentence naming the file', () => {
    for (const text of ['', '[1]', '{"a":', 'x,y\n1,2']) {
      expect(renderScoreMessage(error(text))).toMatch(/^tool\.csv/);
    }
  });
});
