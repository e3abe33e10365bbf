/**
 * The guard of the check's scratch copy: its report is read and validated, and
 * turned into findings (each file once, at most three of a kind), which make
 * the verdict "not solved" whatever else the run shows.
 */
import { accessFindings, readAccessReport } from '../../src/repair/access';
import type { IAccessEvidence } from '../../src/repair/access';

describe('readAccessReport', () => {
  it.each([
    [null, null],
    ['events', null],
    [[], null],
    [{}, null],
    [{ events: 'x' }, null],
    [{ version: 1, events: [] }, { events: [] }],
    [
      {
        events: [
          { kind: 'answer', file: 'numpy_1_fixed.ipynb', how: 'open' },
          { kind: 'other', file: 'x', how: 'open' },
          { kind: 'input', file: 3, how: 'open' },
          null,
          { kind: 'input', file: 'data/x.csv', how: 'changed' }
        ]
      },
      {
        events: [
          { kind: 'answer', file: 'numpy_1_fixed.ipynb', how: 'open' },
          { kind: 'input', file: 'data/x.csv', how: 'changed' }
        ]
      }
    ]
  ])('reads %j as %j', (value, expected) => {
    expect(readAccessReport(value)).toEqual(expected);
  });
});

describe('accessFindings', () => {
  const answer = (file: string) => ({
    kind: 'answer' as const,
    file,
    how: 'open'
  });
  it.each<[string, IAccessEvidence | null, unknown[]]>([
    ['no evidence', null, []],
    ['reports that saw nothing', { fresh: { events: [] }, live: null }, []],
    [
      'one of each kind, the fresh run first',
      {
        fresh: {
          events: [
            answer('numpy_1_fixed.ipynb'),
            { kind: 'input', file: 'data/flowers.csv', how: 'open' }
          ]
        },
        live: {
          events: [
            {
              kind: 'casebook',
              file: 'benchmark/numpy_1/out.csv',
              how: 'open'
            },
            answer('numpy_1_fixed.ipynb')
          ]
        }
      },
      [
        { code: 'reads-answer-key', file: 'numpy_1_fixed.ipynb' },
        { code: 'rewrites-input', file: 'data/flowers.csv' },
        { code: 'writes-casebook', file: 'benchmark/numpy_1/out.csv' }
      ]
    ],
    [
      'at most three of a kind',
      {
        fresh: { events: ['a', 'b', 'c', 'd'].map(answer) },
        live: null
      },
      ['a', 'b', 'c'].map(file => ({ code: 'reads-answer-key', file }))
    ]
  ])('%s', (_what, evidence, expected) => {
    expect(accessFindings(evidence)).toEqual(expected);
  });
});
