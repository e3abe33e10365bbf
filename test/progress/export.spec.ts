import {
  csvField,
  CSV_COLUMNS,
  fromJSON,
  toCSV,
  toJSON
} from '../../src/progress/export';
import type { ICaseProgress } from '../../src/progress/types';
import { ProgressFormatError } from '../../src/progress/types';

const progress: Record<string, ICaseProgress> = {
  NB_10: {
    status: 'solved',
    attempts: [
      {
        at: '2026-01-01T10:00:00.000Z',
        passed: false,
        status: 'still-crashes',
        exception: 'ValueError: could not convert "a,b"\nline 2',
        snapshotPath: 'work/NB_10/1.ipynb'
      },
      {
        at: '2026-01-01T10:05:00.000Z',
        passed: true,
        status: 'fixed',
        exception: null,
        snapshotPath: 'work/NB_10/2.ipynb'
      }
    ],
    hints: [0, 2],
    prediction: {
      rootCause: 'API misuse',
      crashType: 'key error',
      pipelineStage: null,
      at: '2026-01-01T10:01:00.000Z',
      hints: [0]
    },
    selfDiagnosis: {
      correct: 1,
      total: 3,
      hinted: 0,
      answers: [
        {
          question: 'rootCause',
          predicted: 'API misuse',
          actual: 'API misuse',
          correct: true,
          hinted: false
        },
        {
          question: 'crashType',
          predicted: 'key error',
          actual: 'value error',
          correct: false,
          hinted: false
        },
        {
          question: 'pipelineStage',
          predicted: null,
          actual: 'training',
          correct: false,
          hinted: false
        }
      ]
    },
    revealedAt: '2026-01-01T10:06:00.000Z',
    timeSpentMs: 61234
  },
  NB_2: {
    status: 'crashed',
    attempts: [],
    hints: [],
    prediction: null,
    selfDiagnosis: null,
    revealedAt: null,
    timeSpentMs: 0
  },
  NB_3: {
    status: 'attempted',
    attempts: [
      {
        at: '2026-01-02T08:00:00.000Z',
        passed: false,
        status: null,
        exception: "KeyError: 'col'",
        snapshotPath: null
      }
    ],
    hints: [1],
    prediction: null,
    selfDiagnosis: null,
    revealedAt: null,
    timeSpentMs: 950
  }
};

const meta = {
  casebook: 'demo',
  exportedAt: new Date('2026-01-03T00:00:00Z'),
  learner: 'ada'
};

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['"', '""""'],
    ['line 1\nline 2', '"line 1\nline 2"'],
    ['cr\rlf', '"cr\rlf"'],
    ['crlf\r\n', '"crlf\r\n"'],
    [' spaced ', ' spaced '],
    ["KeyError: 'x'", "KeyError: 'x'"]
  ])('writes %j as %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});

describe('toCSV', () => {
  const csv = toCSV(progress);

  it('starts with the header row and ends rows with CRLF', () => {
    expect(csv.startsWith(`${CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('writes one row per case in natural order', () => {
    expect(csv).toBe(
      [
        CSV_COLUMNS.join(','),
        'NB_2,crashed,0,0,0,,,,0,,,',
        "NB_3,attempted,1,0,1,,,,1,,2026-01-02T08:00:00.000Z,KeyError: 'col'",
        'NB_10,solved,2,1,2,1,3,0,61.2,2026-01-01T10:06:00.000Z,2026-01-01T10:05:00.000Z,'
      ].join('\r\n') + '\r\n'
    );
  });

  it('quotes the last exception when it has commas, quotes and newlines', () => {
    const one = toCSV({
      x: {
        ...progress.NB_10,
        attempts: [progress.NB_10.attempts[0]]
      }
    });
    expect(one.split('\r\n')[1]).toBe(
      'x,solved,1,0,2,1,3,0,61.2,2026-01-01T10:06:00.000Z,2026-01-01T10:00:00.000Z,"ValueError: could not convert ""a,b""\nline 2"'
    );
  });

  it('gives only the header for no progress', () => {
    expect(toCSV({})).toBe(`${CSV_COLUMNS.join(',')}\r\n`);
  });
});

describe('toJSON and fromJSON', () => {
  it('round-trips the progress and the metadata', () => {
    const back = fromJSON(toJSON(progress, meta));
    expect(back).toEqual({
      version: 1,
      casebook: 'demo',
      exportedAt: '2026-01-03T00:00:00.000Z',
      learner: 'ada',
      cases: progress
    });
  });

  it('writes null for an unknown learner and accepts a string date', () => {
    const text = toJSON({}, { casebook: 'demo', exportedAt: '2026-01-03' });
    expect(JSON.parse(text)).toMatchObject({
      format: 'jupyterlab-junobench-progress',
      learner: null,
      exportedAt: '2026-01-03'
    });
    expect(fromJSON(text).learner).toBeNull();
  });

  /** A valid export with one change applied. */
  // The document is edited as loose JSON on purpose, to break its types.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function broken(change: (doc: any) => void): string {
    const doc: unknown = JSON.parse(toJSON(progress, meta));
    change(doc);
    return JSON.stringify(doc);
  }

  it.each<[string, string, RegExp]>([
    ['text that is not JSON', '{"format": ', /^\(file\): not valid JSON/],
    ['an array', '[]', /^\(file\): expected a JSON object/],
    [
      'another format',
      broken(d => (d.format = 'other')),
      /^format: expected "jupyterlab-junobench-progress", got "other"/
    ],
    [
      'a future version',
      broken(d => (d.version = 2)),
      /^version: expected 1, got 2/
    ],
    [
      'no casebook',
      broken(d => delete d.casebook),
      /^casebook: expected a casebook name, got nothing/
    ],
    [
      'a bad export date',
      broken(d => (d.exportedAt = 'soon')),
      /^exportedAt: expected an ISO 8601 date string/
    ],
    [
      'a numeric learner',
      broken(d => (d.learner = 7)),
      /^learner: expected a string or null, got 7/
    ],
    [
      'cases as a list',
      broken(d => (d.cases = [])),
      /^cases: expected an object of cases by name, got an array/
    ],
    [
      'an unknown status',
      broken(d => (d.cases.NB_2.status = 'done')),
      /^cases\["NB_2"\]\.status: expected one of not-started, crashed, attempted, solved, got "done"/
    ],
    [
      'a non-boolean passed',
      broken(d => (d.cases.NB_10.attempts[1].passed = 'yes')),
      /^cases\["NB_10"\]\.attempts\[1\]\.passed: expected true or false, got "yes"/
    ],
    [
      'a bad attempt date',
      broken(d => (d.cases.NB_3.attempts[0].at = 12)),
      /^cases\["NB_3"\]\.attempts\[0\]\.at: expected an ISO 8601 date string, got 12/
    ],
    [
      'a numeric exception',
      broken(d => (d.cases.NB_3.attempts[0].exception = 1)),
      /^cases\["NB_3"\]\.attempts\[0\]\.exception: expected a string or null/
    ],
    [
      'a fractional hint',
      broken(d => (d.cases.NB_3.hints = [0.5])),
      /^cases\["NB_3"\]\.hints\[0\]: expected a non-negative integer, got 0\.5/
    ],
    [
      'a score above its total',
      broken(d => (d.cases.NB_10.selfDiagnosis.correct = 9)),
      /^cases\["NB_10"\]\.selfDiagnosis: correct \(9\) and hinted \(0\) add up to more than total \(3\)/
    ],
    [
      'negative time',
      broken(d => (d.cases.NB_2.timeSpentMs = -1)),
      /^cases\["NB_2"\]\.timeSpentMs: expected a non-negative number, got -1/
    ],
    [
      'a case that is not an object',
      broken(d => (d.cases.NB_2 = 'solved')),
      /^cases\["NB_2"\]: expected an object, got "solved"/
    ]
  ])('rejects %s, naming what is wrong', (_label, text, message) => {
    let caught: unknown;
    try {
      fromJSON(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProgressFormatError);
    expect((caught as Error).message).toMatch(message);
  });
});
