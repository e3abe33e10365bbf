/**
 * loadCasebook over an in-memory source.
 */

import {
  loadCasebook,
  MARKER_FOLDER_NOT_FOUND,
  MARKER_NO_DATA,
  MARKER_NO_FIXED,
  MARKER_NO_README,
  MARKER_NO_REPRODUCED,
  MARKER_NOT_IN_DESCRIPTOR
} from '../../src/casebook';
import type { ICasebookSource, ISourceEntry } from '../../src/casebook';
import {
  caseFolder,
  descRow,
  descriptorXlsx,
  diagnosesXlsx,
  HEADER,
  spelled
} from './fixtures';
import { renderCaseMarker } from '../../src/casebook/messages';
import { MemoryCasebookSource } from './memorySource';

/** A casebook with two complete cases and whatever else is given. */
function withCases(
  files: Record<string, ArrayBuffer | string>
): Record<string, ArrayBuffer | string> {
  return { ...caseFolder('pandas_1'), ...caseFolder('torch_2'), ...files };
}

describe('loadCasebook with bad input', () => {
  it.each<
    [
      string,
      Record<string, ArrayBuffer | string>,
      RegExp,
      string | undefined,
      [string, string[]][]
    ]
  >([
    [
      'a missing descriptor',
      withCases({}),
      /^No benchmark_desc\.xlsx in memory-casebook/,
      undefined,
      [
        ['pandas_1', [MARKER_NOT_IN_DESCRIPTOR]],
        ['torch_2', [MARKER_NOT_IN_DESCRIPTOR]]
      ]
    ],
    [
      'corrupt descriptor bytes',
      withCases({
        'benchmark_desc.xlsx': 'PK\u0003\u0004 this is not a workbook'
      }),
      /^benchmark_desc\.xlsx is not a readable \.xlsx file: .+/,
      undefined,
      [
        ['pandas_1', [MARKER_NOT_IN_DESCRIPTOR]],
        ['torch_2', [MARKER_NOT_IN_DESCRIPTOR]]
      ]
    ],
    [
      'missing columns',
      withCases({
        'benchmark_desc.xlsx': descriptorXlsx(
          [
            ['pandas_1', 'tb'],
            ['torch_2', 'tb']
          ],
          ['nb_name', 'traceback']
        )
      }),
      /^benchmark_desc\.xlsx .*missing the required column\(s\) ename, evalue/,
      undefined,
      [
        ['pandas_1', [MARKER_NOT_IN_DESCRIPTOR]],
        ['torch_2', [MARKER_NOT_IN_DESCRIPTOR]]
      ]
    ],
    [
      'an unknown extra column',
      withCases({
        'benchmark_desc.xlsx': descriptorXlsx(
          [
            [...descRow('pandas_1'), 'x'],
            [...descRow('torch_2'), 'y']
          ],
          [...HEADER, 'reviewer']
        )
      }),
      /^benchmark_desc\.xlsx has unknown column\(s\) reviewer/,
      undefined,
      [
        ['pandas_1', []],
        ['torch_2', []]
      ]
    ],
    [
      'a row whose folder is missing',
      withCases({
        'benchmark_desc.xlsx': descriptorXlsx([
          descRow('pandas_1'),
          descRow('numpy_7'),
          descRow('torch_2')
        ])
      }),
      /^$/,
      undefined,
      [
        ['pandas_1', []],
        ['numpy_7', [MARKER_FOLDER_NOT_FOUND]],
        ['torch_2', []]
      ]
    ],
    [
      'duplicate names',
      withCases({
        'benchmark_desc.xlsx': descriptorXlsx([
          descRow('pandas_1'),
          descRow('torch_2'),
          descRow('pandas_1', { evalue: 'second' })
        ])
      }),
      /^benchmark_desc\.xlsx row 4: case name "pandas_1" repeats row 2/,
      'pandas_1',
      [
        ['pandas_1', []],
        ['torch_2', []]
      ]
    ],
    [
      'a name with a slash',
      withCases({
        'benchmark_desc.xlsx': descriptorXlsx([
          descRow('pandas_1'),
          descRow('benchmark/torch_2'),
          descRow('torch_2')
        ])
      }),
      /^benchmark_desc\.xlsx row 3: case name "benchmark\/torch_2" is unsafe/,
      'benchmark/torch_2',
      [
        ['pandas_1', []],
        ['torch_2', []]
      ]
    ],
    [
      'a name with a backslash',
      withCases({
        'benchmark_desc.xlsx': descriptorXlsx([
          descRow('pandas_1'),
          descRow('..\\secrets'),
          descRow('torch_2')
        ])
      }),
      /^benchmark_desc\.xlsx row 3: case name "\.\.\\\\secrets" is unsafe/,
      '..\\secrets',
      [
        ['pandas_1', []],
        ['torch_2', []]
      ]
    ],
    [
      'a name with ..',
      withCases({
        'benchmark_desc.xlsx': descriptorXlsx([
          descRow('pandas_1'),
          descRow('..'),
          descRow('torch_2')
        ])
      }),
      /^benchmark_desc\.xlsx row 3: case name "\.\." is unsafe/,
      '..',
      [
        ['pandas_1', []],
        ['torch_2', []]
      ]
    ],
    [
      'an unparsable traceback',
      withCases({
        'benchmark_desc.xlsx': descriptorXlsx([
          descRow('pandas_1', { traceback: "['a', None]" }),
          descRow('torch_2')
        ])
      }),
      /^benchmark_desc\.xlsx row 2 \(pandas_1\): the traceback is not a parsable/,
      'pandas_1',
      [
        ['pandas_1', []],
        ['torch_2', []]
      ]
    ]
  ])('copes with %s', async (_, files, message, problemCase, expected) => {
    const source = new MemoryCasebookSource(files);
    const casebook = await loadCasebook(source);
    expect(casebook.cases.map(item => [item.name, item.problems])).toEqual(
      expected
    );
    // The markers' codes render, in English, to exactly the markers.
    expect(
      casebook.cases.map(item => item.markers.map(m => renderCaseMarker(m)))
    ).toEqual(casebook.cases.map(item => item.problems));
    const problems = spelled(casebook.problems);
    if (message.source === '^$') {
      expect(problems).toEqual([]);
    } else {
      expect(problems).toHaveLength(1);
      expect(problems[0].message).toMatch(message);
      expect(problems[0].file).toBe('benchmark_desc.xlsx');
      expect(problems[0].case).toBe(problemCase);
    }
    // Paths built from rejected names never reach the source.
    for (const path of source.requested) {
      expect(path).not.toMatch(/\.\.|\\|benchmark\/benchmark/);
    }
    // The cases that loaded are complete and readable.
    for (const item of casebook.cases) {
      if (item.files.folder) {
        expect(item.files.data).toEqual([
          `${item.files.folder}/data/train.csv`
        ]);
      }
    }
  });
});

describe('loadCasebook', () => {
  const descriptor = descriptorXlsx([
    descRow('pandas_1'),
    descRow('torch_2', { label_root_cause: 'NB specific' }),
    descRow('NBspecific_3', { label_root_cause: 'NB specific' })
  ]);

  it('fills in labels, files, diagnoses and markers', async () => {
    const casebook = await loadCasebook(
      new MemoryCasebookSource(
        {
          'benchmark_desc.xlsx': descriptor,
          'diagnoses.xlsx': diagnosesXlsx([
            ['pandas_1_reproduced', 'Wrong dtype.'],
            ['pandas_1_fixed', null],
            ['ghost_9_reproduced', 'Nobody.']
          ]),
          ...caseFolder('pandas_1'),
          'benchmark/pandas_1/pandas_1.ipynb': '{}',
          'benchmark/pandas_1/data/.ipynb_checkpoints/x.csv': '',
          'benchmark/torch_2/torch_2_reproduced.ipynb': '{}',
          'NBspecific_3/NBspecific_3_fixed.ipynb': '{}',
          'cells/fixed/x.json': '{}'
        },
        'my-casebook'
      )
    );
    expect(casebook.name).toBe('my-casebook');
    expect(casebook.root).toBe('');
    expect(casebook.hasDiagnoses).toBe(true);
    expect(spelled(casebook.problems)).toEqual([
      {
        file: 'diagnoses.xlsx',
        message: expect.stringMatching(/not in the casebook: ghost_9\.$/),
        severity: 'warning'
      }
    ]);
    const [pandas, torch, nb] = casebook.cases;
    expect(pandas).toMatchObject({
      name: 'pandas_1',
      library: 'pandas',
      notebookSpecific: false,
      diagnosis: 'Wrong dtype.',
      problems: [],
      files: {
        folder: 'benchmark/pandas_1',
        original: true,
        reproduced: true,
        fixed: true,
        readme: true,
        data: ['benchmark/pandas_1/data/train.csv']
      }
    });
    expect(torch).toMatchObject({
      library: 'torch',
      notebookSpecific: true,
      diagnosis: null,
      problems: [MARKER_NO_FIXED, MARKER_NO_README, MARKER_NO_DATA]
    });
    expect(nb).toMatchObject({
      library: 'NBspecific',
      notebookSpecific: true,
      files: { folder: 'NBspecific_3', fixed: true },
      problems: [MARKER_NO_REPRODUCED, MARKER_NO_README, MARKER_NO_DATA]
    });
    expect(casebook.cases).toHaveLength(3);
  });

  it('prefers benchmark/<case> to <case> and lists undescribed folders in natural order', async () => {
    const casebook = await loadCasebook(
      new MemoryCasebookSource({
        'benchmark_desc.xlsx': descriptorXlsx([descRow('pandas_1')]),
        ...caseFolder('pandas_1'),
        'pandas_1/stale.ipynb': '{}',
        ...caseFolder('numpy_10'),
        ...caseFolder('numpy_9'),
        'seaborn_2/seaborn_2_reproduced.ipynb': '{}',
        'notes/readme.txt': ''
      })
    );
    expect(
      casebook.cases.map(item => [item.name, item.files.folder, item.row])
    ).toEqual([
      ['pandas_1', 'benchmark/pandas_1', 2],
      ['numpy_9', 'benchmark/numpy_9', 0],
      ['numpy_10', 'benchmark/numpy_10', 0],
      ['seaborn_2', 'seaborn_2', 0]
    ]);
    expect(casebook.cases[1]).toMatchObject({
      library: 'numpy',
      ename: '',
      rootCause: '',
      problems: [MARKER_NOT_IN_DESCRIPTOR]
    });
  });

  it('skips an unsafely named folder under benchmark/', async () => {
    const source = new MemoryCasebookSource({
      'benchmark_desc.xlsx': descriptorXlsx([descRow('pandas_1')]),
      ...caseFolder('pandas_1'),
      'benchmark/my case/x.ipynb': '{}'
    });
    const casebook = await loadCasebook(source);
    expect(casebook.cases.map(item => item.name)).toEqual(['pandas_1']);
    expect(spelled(casebook.problems)).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: expect.stringContaining('"benchmark/my case"')
      })
    ]);
    expect(source.requested).not.toContain('benchmark/my case');
  });

  it('keeps data files whose names have spaces', async () => {
    const casebook = await loadCasebook(
      new MemoryCasebookSource({
        ...caseFolder('pandas_1'),
        'benchmark/pandas_1/data/my data (1).csv': ''
      })
    );
    expect(casebook.cases[0].files.data).toEqual([
      'benchmark/pandas_1/data/my data (1).csv',
      'benchmark/pandas_1/data/train.csv'
    ]);
  });

  it.each<[string, number, number, string[], string[]]>([
    [
      'a depth limit',
      1,
      500,
      ['benchmark/pandas_1/a.csv', 'benchmark/pandas_1/d1/b.csv'],
      ['folders deeper than 1 levels were not listed']
    ],
    [
      'an entry cap',
      4,
      2,
      ['benchmark/pandas_1/a.csv', 'benchmark/pandas_1/d1/b.csv'],
      ['more than 2 data files; only the first 2 are listed']
    ],
    [
      'generous limits',
      4,
      500,
      [
        'benchmark/pandas_1/a.csv',
        'benchmark/pandas_1/d1/b.csv',
        'benchmark/pandas_1/d1/d2/c.csv',
        'benchmark/pandas_1/d1/d2/d3/d.csv'
      ],
      []
    ]
  ])('lists data within %s', async (_, maxDepth, maxEntries, data, markers) => {
    const casebook = await loadCasebook(
      new MemoryCasebookSource({
        'benchmark_desc.xlsx': descriptorXlsx([descRow('pandas_1')]),
        'benchmark/pandas_1/pandas_1_reproduced.ipynb': '',
        'benchmark/pandas_1/pandas_1_fixed.ipynb': '',
        'benchmark/pandas_1/README.md': '',
        'benchmark/pandas_1/a.csv': '',
        'benchmark/pandas_1/d1/b.csv': '',
        'benchmark/pandas_1/d1/d2/c.csv': '',
        'benchmark/pandas_1/d1/d2/d3/d.csv': ''
      }),
      { maxDepth, maxEntries }
    );
    expect(casebook.cases[0].files.data).toEqual(data);
    expect(casebook.cases[0].problems).toEqual(markers);
    expect(casebook.cases[0].markers.map(m => renderCaseMarker(m))).toEqual(
      markers
    );
  });

  it('reads below a root folder only', async () => {
    const source = new MemoryCasebookSource({
      'courses/junobench/benchmark_desc.xlsx': descriptorXlsx([
        descRow('pandas_1')
      ]),
      'courses/junobench/benchmark/pandas_1/pandas_1_reproduced.ipynb': '{}',
      'benchmark/pandas_1/pandas_1_fixed.ipynb': '{}'
    });
    const casebook = await loadCasebook(source, { root: 'courses/junobench' });
    expect(casebook.root).toBe('courses/junobench');
    expect(casebook.cases[0].files).toMatchObject({
      folder: 'benchmark/pandas_1',
      reproduced: true,
      fixed: false
    });
    for (const path of source.requested) {
      expect(path.startsWith('courses/junobench')).toBe(true);
    }
  });

  it('rejects a root that climbs out of the source', async () => {
    await expect(
      loadCasebook(new MemoryCasebookSource({}), { root: '../elsewhere' })
    ).rejects.toThrow(/\.\./);
  });

  it('reports a missing casebook folder', async () => {
    const casebook = await loadCasebook(
      new MemoryCasebookSource({ 'x/y': '' }),
      {
        root: 'nowhere'
      }
    );
    expect(casebook.cases).toEqual([]);
    expect(spelled(casebook.problems)).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: 'The casebook folder nowhere was not found.'
      })
    ]);
  });

  it('turns source failures into problems and markers', async () => {
    const inner = new MemoryCasebookSource(
      withCases({
        'benchmark_desc.xlsx': descriptorXlsx([
          descRow('pandas_1'),
          descRow('torch_2')
        ]),
        'diagnoses.xlsx': diagnosesXlsx([])
      })
    );
    const flaky: ICasebookSource = {
      rootName: 'flaky',
      list: (path: string): Promise<ISourceEntry[] | null> =>
        path === 'benchmark/torch_2'
          ? Promise.reject(new Error('403 Forbidden'))
          : inner.list(path),
      readBinary: (path: string): Promise<ArrayBuffer> =>
        path === 'diagnoses.xlsx'
          ? Promise.reject(new Error('timeout'))
          : inner.readBinary(path),
      readText: (path: string) => inner.readText(path)
    };
    const casebook = await loadCasebook(flaky);
    expect(casebook.hasDiagnoses).toBe(false);
    expect(spelled(casebook.problems)).toEqual([
      {
        file: 'diagnoses.xlsx',
        message: 'Could not read diagnoses.xlsx: timeout.',
        severity: 'error'
      }
    ]);
    expect(casebook.cases.map(item => [item.name, item.problems])).toEqual([
      ['pandas_1', []],
      ['torch_2', ['could not list benchmark/torch_2: 403 Forbidden']]
    ]);
  });
});
