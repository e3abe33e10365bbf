/**
 * Catalogue search and facet counts.
 */

import {
  emptyQuery,
  facetCounts,
  filterCases,
  LIBRARY_LABELS
} from '../../src/casebook';
import type { CaseFacet, ICase, ICaseQuery } from '../../src/casebook';

import { caseRecord } from './fixtures';

/** A case with the given labels. */
function makeCase(
  name: string,
  ename: string,
  evalue: string,
  crashType: string,
  rootCause: string,
  pipelineStage: string
): ICase {
  return caseRecord(name, {
    ename,
    evalue,
    rootCause,
    crashType,
    pipelineStage,
    mlBug: 'ML bug'
  });
}

const CASES: ICase[] = [
  makeCase(
    'pandas_1',
    'keyerror',
    "'price'",
    'key error',
    'data confusion',
    'data preparation'
  ),
  makeCase(
    'pandas_2',
    'valueerror',
    'could not convert string to float',
    'value error',
    'API misuse',
    'data preparation'
  ),
  makeCase(
    'torch_1',
    'runtimeerror',
    'mat1 and mat2 shapes cannot be multiplied',
    'tensor shape mismatch',
    'implementation error',
    'training'
  ),
  makeCase(
    'tensorflow_1',
    'valueerror',
    'Input 0 is incompatible',
    'tensor shape mismatch',
    'API misuse',
    'model construction'
  ),
  makeCase(
    'NBspecific_1',
    'nameerror',
    "name 'tf_idf' is not defined",
    'variable not found',
    'NB specific',
    'data preparation'
  ),
  makeCase(
    'sklearn_1',
    'valueerror',
    'Input contains NaN',
    'data value violation',
    'data confusion',
    'training'
  )
];

const STATUS: Record<string, string> = {
  pandas_1: 'solved',
  torch_1: 'attempted'
};
const statusOf = (name: string): string => STATUS[name] ?? 'new';

/** A query with some parts set. */
function query(parts: Partial<ICaseQuery>): ICaseQuery {
  return { ...emptyQuery(), ...parts };
}

describe('filterCases', () => {
  it.each<[string, Partial<ICaseQuery>, string[]]>([
    ['everything for an empty query', {}, CASES.map(c => c.name)],
    ['a name', { text: 'torch_1' }, ['torch_1']],
    [
      'a case-insensitive exception name',
      { text: 'ValueError' },
      ['pandas_2', 'tensorflow_1', 'sklearn_1']
    ],
    ['words of a message', { text: 'NaN input' }, ['sklearn_1']],
    ['all terms only', { text: 'valueerror training' }, ['sklearn_1']],
    ['a library label', { text: 'pytorch' }, ['torch_1']],
    [
      'a library label with a slash',
      { text: 'tensorflow/keras' },
      ['tensorflow_1']
    ],
    ['a root cause', { text: 'misuse' }, ['pandas_2', 'tensorflow_1']],
    ['a stage', { text: 'construction' }, ['tensorflow_1']],
    ['nothing for an unknown word', { text: 'quantum' }, []],
    [
      'extra whitespace',
      { text: '  shape   mismatch ' },
      ['torch_1', 'tensorflow_1']
    ],
    [
      'libraries (any of them)',
      { library: ['pandas', 'sklearn'] },
      ['pandas_1', 'pandas_2', 'sklearn_1']
    ],
    [
      'a crash type',
      { crashType: ['tensor shape mismatch'] },
      ['torch_1', 'tensorflow_1']
    ],
    [
      'a root cause facet',
      { rootCause: ['data confusion'] },
      ['pandas_1', 'sklearn_1']
    ],
    [
      'a stage facet',
      { pipelineStage: ['training'] },
      ['torch_1', 'sklearn_1']
    ],
    [
      'facets together',
      { pipelineStage: ['training'], rootCause: ['data confusion'] },
      ['sklearn_1']
    ],
    ['facets and text', { library: ['pandas'], text: 'float' }, ['pandas_2']],
    [
      'notebook-specific cases',
      { notebookSpecificOnly: true },
      ['NBspecific_1']
    ],
    [
      'status ignored without statusOf',
      { status: ['solved'] },
      CASES.map(c => c.name)
    ]
  ])('finds %s', (_, parts, names) => {
    expect(filterCases(CASES, query(parts)).map(c => c.name)).toEqual(names);
  });

  it.each<[string[], string[]]>([
    [['solved'], ['pandas_1']],
    [['new'], ['pandas_2', 'tensorflow_1', 'NBspecific_1', 'sklearn_1']],
    [
      ['solved', 'attempted'],
      ['pandas_1', 'torch_1']
    ],
    [[], CASES.map(c => c.name)]
  ])('filters by status %j', (status, names) => {
    expect(
      filterCases(CASES, query({ status }), statusOf).map(c => c.name)
    ).toEqual(names);
  });
});

describe('facetCounts', () => {
  it('counts every value for an empty query, by count then value', () => {
    const facets = facetCounts(CASES, emptyQuery(), statusOf);
    expect(facets.library).toEqual([
      { value: 'pandas', count: 2 },
      { value: 'NBspecific', count: 1 },
      { value: 'sklearn', count: 1 },
      { value: 'tensorflow', count: 1 },
      { value: 'torch', count: 1 }
    ]);
    expect(facets.pipelineStage).toEqual([
      { value: 'data preparation', count: 3 },
      { value: 'training', count: 2 },
      { value: 'model construction', count: 1 }
    ]);
    expect(facets.status).toEqual([
      { value: 'new', count: 4 },
      { value: 'attempted', count: 1 },
      { value: 'solved', count: 1 }
    ]);
    expect(facets.notebookSpecific).toBe(1);
  });

  it.each<[string, Partial<ICaseQuery>, CaseFacet, [string, number][]]>([
    [
      'a facet ignores its own selection',
      { library: ['pandas'] },
      'library',
      [
        ['pandas', 2],
        ['NBspecific', 1],
        ['sklearn', 1],
        ['tensorflow', 1],
        ['torch', 1]
      ]
    ],
    [
      'other facets narrow it',
      { library: ['pandas'] },
      'pipelineStage',
      [['data preparation', 2]]
    ],
    [
      'the text narrows every facet',
      { text: 'valueerror' },
      'library',
      [
        ['pandas', 1],
        ['sklearn', 1],
        ['tensorflow', 1]
      ]
    ],
    [
      'two selections narrow each other',
      { rootCause: ['API misuse'], pipelineStage: ['training'] },
      'rootCause',
      [
        ['data confusion', 1],
        ['implementation error', 1],
        ['API misuse', 0]
      ]
    ],
    [
      'a selected value is kept with count 0',
      { library: ['lightgbm'], text: 'shape' },
      'library',
      [
        ['tensorflow', 1],
        ['torch', 1],
        ['lightgbm', 0]
      ]
    ],
    [
      'the notebook switch narrows facets',
      { notebookSpecificOnly: true },
      'crashType',
      [['variable not found', 1]]
    ],
    [
      'status counts ignore the status selection',
      { status: ['solved'] },
      'status',
      [
        ['new', 4],
        ['attempted', 1],
        ['solved', 1]
      ]
    ],
    [
      'status selection narrows other facets',
      { status: ['solved', 'attempted'] },
      'library',
      [
        ['pandas', 1],
        ['torch', 1]
      ]
    ]
  ])('%s', (_, parts, facet, expected) => {
    const facets = facetCounts(CASES, query(parts), statusOf);
    expect(facets[facet].map(v => [v.value, v.count])).toEqual(expected);
  });

  it('counts notebook-specific cases regardless of the switch', () => {
    expect(
      facetCounts(CASES, query({ notebookSpecificOnly: true })).notebookSpecific
    ).toBe(1);
    expect(
      facetCounts(CASES, query({ library: ['pandas'] })).notebookSpecific
    ).toBe(0);
  });

  it('has no status facet without statusOf', () => {
    expect(facetCounts(CASES, query({ status: ['solved'] })).status).toEqual(
      []
    );
  });
});

describe('at 10,000 cases', () => {
  const libraries = [
    'pandas',
    'torch',
    'numpy',
    'sklearn',
    'NBspecific',
    'seaborn'
  ];
  const types = [
    'key error',
    'value error',
    'tensor shape mismatch',
    'type error'
  ];
  const causes = [
    'API misuse',
    'data confusion',
    'NB specific',
    'implementation error'
  ];
  const stages = ['training', 'data preparation', 'evaluation/prediction'];
  const enames = ['valueerror', 'keyerror', 'typeerror'];
  const statuses = ['new', 'attempted', 'solved'];
  // A deterministic pseudo-random sequence.
  let seed = 12345;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const big: ICase[] = [];
  const status = new Map<string, string>();
  for (let i = 0; i < 10000; i++) {
    const name = `${libraries[next(libraries.length)]}_${i}`;
    big.push(
      makeCase(
        name,
        enames[next(enames.length)],
        `message ${next(100)}`,
        types[next(types.length)],
        causes[next(causes.length)],
        stages[next(stages.length)]
      )
    );
    status.set(name, statuses[next(statuses.length)]);
  }
  const bigStatusOf = (name: string): string => status.get(name) ?? 'new';

  /** The straightforward definition of a match, for comparison. */
  function naiveMatch(c: ICase, q: ICaseQuery, skip?: CaseFacet): boolean {
    const text = [
      c.name,
      c.library,
      LIBRARY_LABELS[c.library],
      c.ename,
      c.evalue,
      c.crashType,
      c.rootCause,
      c.pipelineStage
    ]
      .join(' ')
      .toLowerCase();
    const terms = q.text.toLowerCase().split(/\s+/).filter(Boolean);
    const ok = (facet: CaseFacet, value: string, selected: string[]): boolean =>
      facet === skip || selected.length === 0 || selected.includes(value);
    return (
      terms.every(t => text.includes(t)) &&
      ok('library', c.library, q.library) &&
      ok('crashType', c.crashType, q.crashType) &&
      ok('rootCause', c.rootCause, q.rootCause) &&
      ok('pipelineStage', c.pipelineStage, q.pipelineStage) &&
      ok('status', bigStatusOf(c.name), q.status ?? []) &&
      (!q.notebookSpecificOnly || c.notebookSpecific)
    );
  }

  it.each<[string, Partial<ICaseQuery>]>([
    ['an empty query', {}],
    ['text', { text: 'valueerror message 4' }],
    ['facets', { library: ['pandas', 'torch'], pipelineStage: ['training'] }],
    [
      'everything',
      {
        text: 'error',
        crashType: ['type error', 'key error'],
        rootCause: ['API misuse'],
        status: ['solved'],
        notebookSpecificOnly: true
      }
    ]
  ])('filters and counts correctly with %s', (_, parts) => {
    const q = query(parts);
    const expected = big.filter(c => naiveMatch(c, q));
    expect(filterCases(big, q, bigStatusOf)).toEqual(expected);

    const facets = facetCounts(big, q, bigStatusOf);
    const values: Record<Exclude<CaseFacet, 'status'>, (c: ICase) => string> = {
      library: c => c.library,
      crashType: c => c.crashType,
      rootCause: c => c.rootCause,
      pipelineStage: c => c.pipelineStage
    };
    for (const facet of [
      'library',
      'crashType',
      'rootCause',
      'pipelineStage',
      'status'
    ] as CaseFacet[]) {
      const counts = new Map<string, number>();
      for (const c of big) {
        if (naiveMatch(c, q, facet)) {
          const value =
            facet === 'status' ? bigStatusOf(c.name) : values[facet](c);
          counts.set(value, (counts.get(value) ?? 0) + 1);
        }
      }
      const got = new Map(facets[facet].map(v => [v.value, v.count]));
      for (const [value, count] of counts) {
        expect([facet, value, got.get(value)]).toEqual([facet, value, count]);
      }
      for (const [value, count] of got) {
        expect([facet, value, count]).toEqual([
          facet,
          value,
          counts.get(value) ?? 0
        ]);
      }
    }
  });
});
