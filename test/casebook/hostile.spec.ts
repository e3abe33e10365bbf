/**
 * loadCasebook on hostile casebooks (issue #6): traversal in names, entries the
 * source refuses, oversized files, a huge descriptor, markup in the text.
 */

import {
  facetCounts,
  filterCases,
  emptyQuery,
  loadCasebook,
  MARKER_NO_README,
  MARKER_NO_REPRODUCED,
  MARKER_NOT_IN_DESCRIPTOR
} from '../../src/casebook';
import type {
  ICasebookSource,
  ISourceEntry,
  loadCasebook as LoadCasebook
} from '../../src/casebook';
import {
  caseFolder,
  descRow,
  descriptorXlsx,
  diagnosesXlsx,
  HEADER,
  spelled
} from './fixtures';
import { MemoryCasebookSource } from './memorySource';

/** Where the casebook sits in the source; everything else is outside it. */
const ROOT = 'course/junobench';

/** 100 MB, twice the default limit. */
const HUNDRED_MB = 100 * 1024 * 1024;

/** Files of a casebook under ROOT, plus bait outside it. */
function casebook(
  files: Record<string, ArrayBuffer | string>
): Record<string, ArrayBuffer | string> {
  const inside: Record<string, ArrayBuffer | string> = {
    ...caseFolder('pandas_1'),
    ...caseFolder('torch_2'),
    ...files
  };
  const all: Record<string, ArrayBuffer | string> = {
    'etc/passwd': 'root:x:0:0',
    'course/secret_fixed.ipynb': '{}'
  };
  for (const [path, content] of Object.entries(inside)) {
    all[`${ROOT}/${path}`] = content;
  }
  return all;
}

/** Expect that every path asked of the source stays below ROOT and is clean. */
function expectConfined(source: MemoryCasebookSource): void {
  for (const path of source.requested) {
    expect(path === ROOT || path.startsWith(`${ROOT}/`)).toBe(true);
    expect(path).not.toMatch(/(^|\/)\.\.(\/|$)|\\|\0/);
  }
}

/**
 * A source that marks some entries as refused, the way FsCasebookSource marks
 * a symbolic link that leads outside the casebook.
 */
class RefusingSource implements ICasebookSource {
  constructor(
    private readonly inner: MemoryCasebookSource,
    private readonly refused: Record<string, string>
  ) {}

  readonly rootName = 'refusing';

  async list(path: string): Promise<ISourceEntry[] | null> {
    const entries = await this.inner.list(path);
    return (
      entries?.map(entry => {
        const reason = this.refused[`${path}/${entry.name}`];
        return reason === undefined ? entry : { ...entry, refused: reason };
      }) ?? null
    );
  }

  readBinary(path: string): Promise<ArrayBuffer> {
    return this.inner.readBinary(path);
  }

  readText(path: string): Promise<string> {
    return this.inner.readText(path);
  }
}

describe('path traversal in descriptor names', () => {
  it.each<[string, string]>([
    ['../../etc', 'has a ".." segment'],
    ['../../etc/passwd', 'has a ".." segment'],
    ['benchmark/../../etc', 'has a ".." segment'],
    ['pandas_1/..', 'has a ".." segment'],
    ['..', 'has a ".." segment'],
    ['.', 'is "."'],
    ['/etc/passwd', 'is an absolute path'],
    ['C:\\Windows\\System32', 'is an absolute path'],
    ['..\\..\\etc', 'contains a backslash'],
    ['torch_2\\..\\..', 'contains a backslash'],
    ['pandas_9\0.ipynb', 'contains a NUL byte'],
    ['benchmark/torch_2', 'contains "/"'],
    ['torch..2', 'contains ".."']
  ])(
    'rejects the row named %j, naming the row and the problem',
    async (name, problem) => {
      const source = new MemoryCasebookSource(
        casebook({
          'benchmark_desc.xlsx': descriptorXlsx([
            descRow('pandas_1'),
            descRow(name),
            descRow('torch_2')
          ])
        })
      );
      const book = await loadCasebook(source, { root: ROOT });
      expect(spelled(book.problems)).toEqual([
        {
          file: 'benchmark_desc.xlsx',
          case: name,
          message: expect.stringContaining(
            `benchmark_desc.xlsx row 3: case name ${JSON.stringify(name)} is unsafe: it ${problem} (`
          ),
          severity: 'error'
        }
      ]);
      // The other rows load, complete.
      expect(book.cases.map(c => [c.name, c.problems])).toEqual([
        ['pandas_1', []],
        ['torch_2', []]
      ]);
      expectConfined(source);
    }
  );

  it.each<[string, string, RegExp]>([
    [
      'a case folder with a backslash',
      'benchmark/evil\\..\\..\\etc/etc_reproduced.ipynb',
      /^The folder "benchmark\/evil\\\\\.\.\\\\\.\.\\\\etc" has an unsafe name/
    ],
    [
      'a case folder with a NUL',
      'benchmark/pandas_9\0/pandas_9_reproduced.ipynb',
      /^The folder "benchmark\/pandas_9\\u0000" has an unsafe name/
    ],
    [
      'a case folder with ".." inside',
      'benchmark/a..b/a..b_reproduced.ipynb',
      /^The folder "benchmark\/a\.\.b" has an unsafe name/
    ],
    [
      'a data file with backslashes',
      'benchmark/pandas_1/data/x\\..\\..\\x.csv',
      /^The entry "x\\\\\.\.\\\\\.\.\\\\x\.csv" in benchmark\/pandas_1\/data has an unsafe name/
    ]
  ])('skips %s in a listing', async (_, path, message) => {
    const source = new MemoryCasebookSource(
      casebook({
        'benchmark_desc.xlsx': descriptorXlsx([
          descRow('pandas_1'),
          descRow('torch_2')
        ]),
        [path]: '{}'
      })
    );
    const book = await loadCasebook(source, { root: ROOT });
    expect(spelled(book.problems)).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: expect.stringMatching(message)
      })
    ]);
    expect(book.cases.map(c => [c.name, c.problems, c.files.data])).toEqual([
      ['pandas_1', [], ['benchmark/pandas_1/data/train.csv']],
      ['torch_2', [], ['benchmark/torch_2/data/train.csv']]
    ]);
    expectConfined(source);
  });

  it('ignores a diagnosis whose instance is not a usable case name', async () => {
    const source = new MemoryCasebookSource(
      casebook({
        'benchmark_desc.xlsx': descriptorXlsx([descRow('pandas_1')]),
        'diagnoses.xlsx': diagnosesXlsx([
          ['../../etc/passwd_reproduced', 'Read me.'],
          ['pandas_1_reproduced', 'Wrong dtype.']
        ])
      })
    );
    const book = await loadCasebook(source, { root: ROOT });
    expect(spelled(book.problems)).toEqual([
      {
        file: 'diagnoses.xlsx',
        case: '../../etc/passwd',
        message:
          'diagnoses.xlsx row 2: instance "../../etc/passwd_reproduced" is not a usable case name: it has a ".." segment; the row was ignored.',
        severity: 'warning'
      }
    ]);
    expect(book.cases[0].diagnosis).toBe('Wrong dtype.');
    expectConfined(source);
  });
});

describe('entries the source refuses', () => {
  const OUTSIDE =
    'it is a symbolic link to /tmp/elsewhere, outside the casebook folder';

  /** Load the two-case casebook with the given entries refused. */
  async function load(
    refused: Record<string, string>,
    files: Record<string, ArrayBuffer | string> = {}
  ) {
    const inner = new MemoryCasebookSource(
      casebook({
        'benchmark_desc.xlsx': descriptorXlsx([
          descRow('pandas_1'),
          descRow('torch_2')
        ]),
        ...files
      })
    );
    const prefixed: Record<string, string> = {};
    for (const [path, reason] of Object.entries(refused)) {
      prefixed[`${ROOT}/${path}`] = reason;
    }
    const book = await loadCasebook(new RefusingSource(inner, prefixed), {
      root: ROOT
    });
    return { book, inner };
  }

  it('refuses a case folder, keeping the other cases', async () => {
    const { book, inner } = await load({ 'benchmark/torch_2': OUTSIDE });
    expect(spelled(book.problems)).toEqual([
      {
        file: 'benchmark/torch_2',
        case: 'torch_2',
        message: `benchmark/torch_2 was refused: ${OUTSIDE}.`,
        severity: 'error'
      }
    ]);
    expect(book.cases.map(c => [c.name, c.files.folder, c.problems])).toEqual([
      ['pandas_1', 'benchmark/pandas_1', []],
      ['torch_2', null, [`benchmark/torch_2 was refused: ${OUTSIDE}`]]
    ]);
    expect(inner.requested).not.toContain(`${ROOT}/benchmark/torch_2`);
  });

  it('refuses a notebook without calling it missing', async () => {
    const { book } = await load({
      'benchmark/torch_2/torch_2_reproduced.ipynb': OUTSIDE
    });
    expect(spelled(book.problems)).toEqual([
      expect.objectContaining({
        file: 'benchmark/torch_2/torch_2_reproduced.ipynb',
        case: 'torch_2',
        severity: 'error'
      })
    ]);
    const torch = book.cases[1];
    expect(torch.files.reproduced).toBe(false);
    expect(torch.problems).toEqual([
      `benchmark/torch_2/torch_2_reproduced.ipynb was refused: ${OUTSIDE}`
    ]);
    expect(torch.problems).not.toContain(MARKER_NO_REPRODUCED);
    expect(book.cases[0].problems).toEqual([]);
  });

  it('refuses a data file', async () => {
    const { book } = await load(
      { 'benchmark/pandas_1/data/passwd': OUTSIDE },
      { 'benchmark/pandas_1/data/passwd': '' }
    );
    expect(book.cases[0].files.data).toEqual([
      'benchmark/pandas_1/data/train.csv'
    ]);
    expect(book.cases[0].problems).toEqual([
      `benchmark/pandas_1/data/passwd was refused: ${OUTSIDE}`
    ]);
  });

  it('refuses the descriptor and still lists the case folders', async () => {
    const { book, inner } = await load({ 'benchmark_desc.xlsx': OUTSIDE });
    expect(spelled(book.problems)).toEqual([
      {
        file: 'benchmark_desc.xlsx',
        message: `benchmark_desc.xlsx was refused: ${OUTSIDE}.`,
        severity: 'error'
      }
    ]);
    expect(book.cases.map(c => c.name)).toEqual(['pandas_1', 'torch_2']);
    expect(inner.requested).not.toContain(`${ROOT}/benchmark_desc.xlsx`);
  });

  it('refuses the benchmark folder and still finds root-level cases', async () => {
    const { book } = await load(
      { benchmark: OUTSIDE },
      {
        'numpy_3/numpy_3_reproduced.ipynb': '{}',
        'numpy_3/numpy_3_fixed.ipynb': '{}',
        'numpy_3/README.md': '',
        'numpy_3/data/a.csv': ''
      }
    );
    expect(spelled(book.problems)).toEqual([
      expect.objectContaining({ file: 'benchmark', severity: 'error' })
    ]);
    expect(
      book.cases.map(c => [c.name, c.files.folder, c.problems.length])
    ).toEqual([
      ['pandas_1', null, 1],
      ['torch_2', null, 1],
      ['numpy_3', 'numpy_3', 1]
    ]);
  });
});

describe('oversized files', () => {
  /** Load the two-case casebook with pretend sizes. */
  async function load(
    sizes: Record<string, number>,
    files: Record<string, ArrayBuffer | string> = {},
    options: LoadCasebook.IOptions = {}
  ) {
    const prefixed: Record<string, number> = {};
    for (const [path, size] of Object.entries(sizes)) {
      prefixed[`${ROOT}/${path}`] = size;
    }
    const source = new MemoryCasebookSource(
      casebook({
        'benchmark_desc.xlsx': descriptorXlsx([
          descRow('pandas_1'),
          descRow('torch_2')
        ]),
        ...files
      }),
      'big',
      prefixed
    );
    const book = await loadCasebook(source, { root: ROOT, ...options });
    return { book, source };
  }

  it.each<[string, 'reproduced' | 'fixed' | 'original']>([
    ['torch_2_reproduced.ipynb', 'reproduced'],
    ['torch_2_fixed.ipynb', 'fixed'],
    ['torch_2.ipynb', 'original']
  ])('marks a 100 MB %s as not to be opened', async (file, kind) => {
    const path = `benchmark/torch_2/${file}`;
    const { book } = await load({ [path]: HUNDRED_MB }, { [path]: '{}' });
    const torch = book.cases[1];
    expect(torch.files[kind]).toBe(false);
    expect(torch.problems).toEqual([
      `${path} is 100.0 MB, over the limit of 50.0 MB; it will not be opened`
    ]);
    expect(book.cases[0].problems).toEqual([]);
  });

  it('takes the limit from the loader options', async () => {
    const { book } = await load(
      {
        'benchmark/pandas_1/pandas_1_reproduced.ipynb': 1000,
        'benchmark/torch_2/torch_2_reproduced.ipynb': 4096
      },
      {},
      { maxFileBytes: 2048 }
    );
    expect(book.cases.map(c => [c.files.reproduced, c.problems])).toEqual([
      [true, []],
      [
        false,
        [
          'benchmark/torch_2/torch_2_reproduced.ipynb is 4.0 KB, over the limit of 2.0 KB; it will not be opened'
        ]
      ]
    ]);
  });

  it('does not read a 100 MB descriptor', async () => {
    const { book, source } = await load({
      'benchmark_desc.xlsx': HUNDRED_MB
    });
    expect(spelled(book.problems)).toEqual([
      {
        file: 'benchmark_desc.xlsx',
        message:
          'benchmark_desc.xlsx is 100.0 MB, over the limit of 50.0 MB; it was not read.',
        severity: 'error'
      }
    ]);
    expect(source.requested).not.toContain(`${ROOT}/benchmark_desc.xlsx`);
    expect(book.cases.map(c => c.name)).toEqual(['pandas_1', 'torch_2']);
  });

  it('does not read a 100 MB diagnoses file', async () => {
    const { book, source } = await load(
      { 'diagnoses.xlsx': HUNDRED_MB },
      { 'diagnoses.xlsx': diagnosesXlsx([['pandas_1_reproduced', 'x']]) }
    );
    expect(book.hasDiagnoses).toBe(false);
    expect(spelled(book.problems)).toEqual([
      expect.objectContaining({
        file: 'diagnoses.xlsx',
        message: expect.stringMatching(/^diagnoses\.xlsx is 100\.0 MB/)
      })
    ]);
    expect(source.requested).not.toContain(`${ROOT}/diagnoses.xlsx`);
  });

  it('asks the source for the size when the listing does not tell it', async () => {
    const inner = new MemoryCasebookSource(
      casebook({ 'benchmark_desc.xlsx': descriptorXlsx([]) }),
      'sizeless',
      { [`${ROOT}/benchmark_desc.xlsx`]: HUNDRED_MB }
    );
    const sizeless: ICasebookSource = {
      rootName: 'sizeless',
      list: async path =>
        (await inner.list(path))?.map(({ name, type }) => ({ name, type })) ??
        null,
      readBinary: path => inner.readBinary(path),
      readText: path => inner.readText(path),
      size: path => inner.size(path)
    };
    const book = await loadCasebook(sizeless, { root: ROOT });
    expect(book.problems[0].message).toMatch(
      /^benchmark_desc\.xlsx is 100\.0 MB, over the limit/
    );
    expect(inner.requested.filter(p => p.endsWith('.xlsx'))).toEqual([
      `${ROOT}/benchmark_desc.xlsx`
    ]);
  });
});

describe('a descriptor with 10,000 rows', () => {
  const COUNT = 10_000;
  const LIBRARIES = ['pandas', 'torch', 'numpy', 'sklearn', 'tensorflow'];
  const names = Array.from(
    { length: COUNT },
    (_, i) => `${LIBRARIES[i % LIBRARIES.length]}_${i + 1}`
  );

  it('loads every case, with a bounded number of source calls', async () => {
    const files: Record<string, ArrayBuffer | string> = {
      'benchmark_desc.xlsx': descriptorXlsx(
        names.map((name, i) =>
          descRow(name, { label_root_cause: `cause ${i % 7}` })
        ),
        HEADER,
        'Sheet1',
        { store: true }
      ),
      'diagnoses.xlsx': diagnosesXlsx(
        names.map((name): [string, string] => [
          `${name}_reproduced`,
          `Diagnosis of ${name}.`
        ]),
        'Ground_truth',
        { store: true }
      )
    };
    for (const name of names) {
      Object.assign(files, caseFolder(name));
    }
    const source = new MemoryCasebookSource(files);
    const book = await loadCasebook(source);

    expect(spelled(book.problems)).toEqual([]);
    expect(book.cases).toHaveLength(COUNT);
    expect(book.cases.every(c => c.problems.length === 0)).toBe(true);
    expect(book.cases[COUNT - 1]).toMatchObject({
      name: names[COUNT - 1],
      row: COUNT + 1,
      diagnosis: `Diagnosis of ${names[COUNT - 1]}.`
    });
    // Root, benchmark/, two workbooks, then two listings per case: linear.
    expect(source.requested).toHaveLength(4 + 2 * COUNT);

    // The catalogue search and facets work at that size too.
    const query = { ...emptyQuery(), text: 'torch', rootCause: ['cause 3'] };
    const shown = filterCases(book.cases, query);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every(c => c.library === 'torch')).toBe(true);
    const facets = facetCounts(book.cases, emptyQuery());
    expect(facets.library.find(f => f.value === 'pandas')?.count).toBe(
      COUNT / LIBRARIES.length
    );
  }, 120_000);
});

describe('markup in descriptor text and diagnoses', () => {
  const SCRIPT = '<script>alert("descriptor")</script>';
  const IMG = '<img src=x onerror="alert(1)">';
  const ENTITY = '&lt;b&gt;not bold&lt;/b&gt; &amp; &#x3C;';

  it('keeps every cell as literal text, decoding nothing twice', async () => {
    const book = await loadCasebook(
      new MemoryCasebookSource({
        ...caseFolder('pandas_1'),
        'benchmark_desc.xlsx': descriptorXlsx([
          descRow('pandas_1', {
            ename: '<b>valueerror</b>',
            evalue: SCRIPT,
            traceback: `['${IMG}', 'ValueError: ${ENTITY}']`,
            label_root_cause: IMG,
            label_refined_exp_type: ENTITY,
            label_ML_pipeline: '<iframe src="https://example.invalid">',
            DatasetTitle_1: '<a href="javascript:alert(1)">data</a>',
            DatasetUrl_1: 'javascript:alert(1)',
            NotebookUrl: 'data:text/html,<script>alert(1)</script>'
          })
        ]),
        'diagnoses.xlsx': diagnosesXlsx([
          ['pandas_1_reproduced', `${SCRIPT}\n${IMG}\n${ENTITY}`]
        ])
      })
    );
    expect(spelled(book.problems)).toEqual([]);
    expect(book.cases[0]).toMatchObject({
      ename: '<b>valueerror</b>',
      evalue: SCRIPT,
      traceback: [IMG, `ValueError: ${ENTITY}`],
      rootCause: IMG,
      crashType: ENTITY,
      pipelineStage: '<iframe src="https://example.invalid">',
      datasets: [
        {
          title: '<a href="javascript:alert(1)">data</a>',
          license: 'CC0',
          url: 'javascript:alert(1)'
        }
      ],
      notebookUrl: 'data:text/html,<script>alert(1)</script>',
      diagnosis: `${SCRIPT}\n${IMG}\n${ENTITY}`
    });
  });

  it('keeps markup in a rejected name as text in the problem', async () => {
    const name = '<img src=x onerror=alert(1)>';
    const book = await loadCasebook(
      new MemoryCasebookSource({
        'benchmark_desc.xlsx': descriptorXlsx([descRow(name)])
      })
    );
    expect(book.problems[0]).toMatchObject({
      case: name,
      message: expect.stringContaining(`case name "${name}" is unsafe`)
    });
  });
});

describe('the default markers still apply', () => {
  it('reports a missing README alongside a refused notebook', async () => {
    const inner = new MemoryCasebookSource({
      'benchmark/pandas_1/pandas_1_reproduced.ipynb': '{}',
      'benchmark/pandas_1/pandas_1_fixed.ipynb': '{}',
      'benchmark/pandas_1/data/a.csv': ''
    });
    const book = await loadCasebook(
      new RefusingSource(inner, {
        'benchmark/pandas_1/pandas_1_fixed.ipynb': 'it is a FIFO'
      })
    );
    expect(book.cases[0].problems).toEqual([
      MARKER_NOT_IN_DESCRIPTOR,
      'benchmark/pandas_1/pandas_1_fixed.ipynb was refused: it is a FIFO',
      MARKER_NO_README
    ]);
  });
});
