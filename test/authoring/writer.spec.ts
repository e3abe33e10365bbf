/**
 * The case writer (Python, openpyxl) read back through the TypeScript loader:
 * every descriptor column, long tracebacks and non-ASCII text round-trip, and a
 * copy of the real benchmark_desc.xlsx keeps its other 111 rows as they were.
 * The writer refuses with codes; their English here is the writer's own.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'fs';
import { execFileSync } from 'child_process';
import { tmpdir } from 'os';
import * as path from 'path';

import { caseSpec } from '../../src/authoring/spec';
import type { ICaseSpec } from '../../src/authoring/spec';
import {
  loadCasebook,
  MARKER_DRAFT,
  nameProblem,
  parseDescriptor,
  parseDiagnoses,
  renderNameProblem
} from '../../src/casebook';
import type { IDescriptorRow } from '../../src/casebook';
import { findTarget } from '../../src/replay/plan';
import type { INotebookJSON } from '../../src/replay/types';
import {
  newCasebook,
  setDraft,
  writeCase,
  WriterError,
  writerPython
} from '../../src/cli/writer';
import { FsCasebookSource } from '../casebook/fsSource';

jest.setTimeout(60000);

/**
 * The writer's refusal of `writing`: a code, worded here in English exactly
 * as the writer words it for its logs.
 */
async function refusal(writing: Promise<unknown>): Promise<WriterError> {
  const error = await writing.then(
    () => null,
    (e: unknown) => e
  );
  expect(error).toBeInstanceOf(WriterError);
  const refused = error as WriterError;
  expect(refused.message).toBe(refused.writerMessage);
  return refused;
}

const JUNOBENCH = path.resolve(__dirname, '../../../shared/junobench');
const REAL = path.join(JUNOBENCH, 'benchmark_desc.xlsx');
const realPresent = existsSync(REAL);
if (!realPresent) {
  console.log(
    `Skipping the real-descriptor writer test: ${REAL} is not there (the shared JunoBench material is not checked out beside this repository).`
  );
}

/** The bytes of a file as an ArrayBuffer. */
function bytesOf(file: string): ArrayBuffer {
  const data = readFileSync(file);
  return data.buffer.slice(
    data.byteOffset,
    data.byteOffset + data.byteLength
  ) as ArrayBuffer;
}

/** A crashed notebook whose error output carries `traceback`. */
function crashed(
  traceback: string[],
  evalue: string,
  ename = 'KeyError'
): INotebookJSON {
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      {
        cell_type: 'code',
        id: 'a',
        metadata: {},
        source: 'x = 1',
        execution_count: 1,
        outputs: []
      },
      {
        cell_type: 'code',
        id: 'b',
        metadata: {},
        source: 'y',
        execution_count: 2,
        outputs: [{ output_type: 'error', ename, evalue, traceback }]
      }
    ]
  };
}

/** A spec of case `name` from a crashed notebook, with every column filled. */
function fullSpec(name: string, nb: INotebookJSON, update = false): ICaseSpec {
  return caseSpec({
    name,
    original: nb,
    reproduced: nb,
    target: findTarget(nb)!,
    update,
    description: {
      labels: {
        rootCause: 'NB specific — réexécution',
        crashType: 'key error',
        pipelineStage: 'data preparation',
        mlBug: 'ML bug'
      },
      library: 'NBspecific',
      diagnosis:
        'La cellule « drop » a été exécutée deux fois.\nSecond line, "quotes", \\backslash\\, 日本語 🙂',
      notebookUrl: 'https://example.org/nb?x=1&y=é',
      datasets: [
        { title: 'Ventes – Zürich', license: 'CC0', url: 'https://a.example' },
        { title: 'Second', license: 'CC BY 4.0', url: 'https://b.example' },
        { title: 'Third (a new column)', license: 'MIT', url: 'https://c' }
      ]
    }
  });
}

/** A long traceback with ANSI colours, quotes, backslashes and non-ASCII text. */
function longTraceback(frames: number): string[] {
  const lines = [
    '\u001b[0;31m---------------------------------------------------------------------------\u001b[0m',
    '\u001b[0;31mKeyError\u001b[0m                                  Traceback (most recent call last)',
    'Cell \u001b[0;32mIn[2], line 1\u001b[0m\n\u001b[0;32m----> 1\u001b[0m y\n'
  ];
  for (let i = 0; i < frames; i++) {
    lines.push(
      `File \u001b[0;32m/lib/python3.10/site-packages/pändas/core/frame_${i}.py:${i}\u001b[0m, in \u001b[0;36mf_${i}\u001b[0;34m(self, key='a\\'b', q="\\"")\u001b[0m\n    ${i} return self._get(key)  # ünïcödé 日本\n`
    );
  }
  lines.push(`KeyError: "['café'] not found in axis"`);
  return lines;
}

describe('the case writer and the loader', () => {
  it('judges case names exactly as the loader does, with the same codes and English', () => {
    const names = [
      'pandas_1',
      'a.b-c_1',
      '',
      '.',
      '..',
      'a..b',
      '../x',
      'a/b',
      '/abs',
      'C:x',
      'a\\b',
      'nul\u0000',
      'é',
      'tab\tname',
      'x'.repeat(255),
      'x'.repeat(256)
    ];
    const python = execFileSync(
      writerPython(),
      [
        '-c',
        'import json, sys\nfrom jupyterlab_junobench.authoring import name_problem\nfrom jupyterlab_junobench.names import describe_name_problem as d\nprint(json.dumps([[p, p and d(p)] for p in map(name_problem, json.load(sys.stdin))]))'
      ],
      { input: JSON.stringify(names), encoding: 'utf8' }
    );
    expect(JSON.parse(python)).toEqual(
      names.map(name => {
        const problem = nameProblem(name);
        return [problem, problem && renderNameProblem(problem)];
      })
    );
  });

  let dir: string;
  let book: string;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'junobench-writer-'));
    book = path.join(dir, 'casebook');
    await newCasebook(book);
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates an empty casebook the loader accepts without errors', async () => {
    const loaded = await loadCasebook(new FsCasebookSource(book));
    expect(loaded.cases).toEqual([]);
    expect(loaded.problems).toEqual([]);
    expect(loaded.hasDiagnoses).toBe(true);
    const refused = await refusal(newCasebook(book));
    expect(refused.problem).toEqual({
      code: 'already-casebook',
      folder: book,
      file: 'benchmark_desc.xlsx'
    });
    expect(refused.message).toMatch(/already holds benchmark_desc\.xlsx/);
  });

  it('round-trips every column, a long traceback and non-ASCII text', async () => {
    const traceback = longTraceback(120);
    const evalue = `"['café'] not found in axis"\nsecond line\tand a tab`;
    const nb = crashed(traceback, evalue);
    const spec = fullSpec('NBspecific_9', nb);
    const written = await writeCase(book, spec, null);
    expect(written.warnings).toEqual([]);
    expect(written.files).toEqual(
      expect.arrayContaining([
        'benchmark/NBspecific_9/NBspecific_9.ipynb',
        'benchmark/NBspecific_9/NBspecific_9_reproduced.ipynb',
        'benchmark/NBspecific_9/README.md',
        'benchmark_desc.xlsx',
        'diagnoses.xlsx'
      ])
    );

    const parsed = await parseDescriptor(
      bytesOf(path.join(book, 'benchmark_desc.xlsx'))
    );
    // Only a warning-free parse: the added DatasetTitle_3 columns are known.
    expect(parsed.problems).toEqual([]);
    expect(parsed.rows).toHaveLength(1);
    const row = parsed.rows[0];
    const target = findTarget(nb)!;
    expect(row).toEqual<IDescriptorRow>({
      name: 'NBspecific_9',
      eid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ename: 'keyerror',
      evalue: evalue.trim(),
      traceback: target.traceback,
      rootCause: 'NB specific — réexécution',
      crashType: 'key error',
      pipelineStage: 'data preparation',
      mlBug: 'ML bug',
      datasets: spec.row.datasets,
      notebookUrl: 'https://example.org/nb?x=1&y=é',
      row: 2
    });
    // The ANSI codes are gone and every line came back as it was.
    expect(row.traceback).toHaveLength(124);
    expect(row.traceback[row.traceback.length - 1]).toBe(
      `KeyError: "['café'] not found in axis"`
    );
    expect(JSON.stringify(row.traceback)).not.toContain('\\u001b');

    const diagnoses = await parseDiagnoses(
      bytesOf(path.join(book, 'diagnoses.xlsx'))
    );
    expect(diagnoses.problems).toEqual([]);
    expect(diagnoses.byCase.get('NBspecific_9')).toBe(spec.diagnosis);

    const loaded = await loadCasebook(new FsCasebookSource(book));
    const c = loaded.cases[0];
    expect(c.name).toBe('NBspecific_9');
    expect(c.diagnosis).toBe(spec.diagnosis);
    expect(c.files.reproduced).toBe(true);
    expect(c.files.readme).toBe(true);
    // Written as a draft until verified.
    expect(c.problems).toContain(MARKER_DRAFT);
    await setDraft(book, 'NBspecific_9', null);
    const verified = await loadCasebook(new FsCasebookSource(book));
    expect(verified.cases[0].problems).not.toContain(MARKER_DRAFT);
  });

  it('updates a row in place, keeping its eid, and refuses a second add without update', async () => {
    const nb = crashed(['KeyError: a'], 'a');
    await writeCase(book, fullSpec('pandas_1', nb), null);
    await writeCase(book, fullSpec('pandas_2', nb), null);
    const first = await parseDescriptor(
      bytesOf(path.join(book, 'benchmark_desc.xlsx'))
    );
    const refused = await refusal(
      writeCase(book, fullSpec('pandas_1', nb), null)
    );
    expect(refused.problem).toMatchObject({ code: 'case-exists', row: 2 });
    expect(refused.message).toMatch(
      /case pandas_1 already exists in .*\(row 2 of benchmark_desc\.xlsx\)/
    );
    const changed = crashed(['ValueError: b'], 'b', 'ValueError');
    const updated = await writeCase(
      book,
      fullSpec('pandas_1', changed, true),
      null
    );
    expect(updated.backups).toEqual([
      'benchmark_desc.xlsx.bak',
      'diagnoses.xlsx.bak'
    ]);
    const second = await parseDescriptor(
      bytesOf(path.join(book, 'benchmark_desc.xlsx'))
    );
    expect(second.rows.map(r => r.name)).toEqual(['pandas_1', 'pandas_2']);
    expect(second.rows[0]).toEqual({
      ...first.rows[0],
      ename: 'valueerror',
      evalue: 'b',
      traceback: ['ValueError: b']
    });
    expect(second.rows[1]).toEqual(first.rows[1]);
    // The backup is the file before the update.
    const backup = await parseDescriptor(
      bytesOf(path.join(book, 'benchmark_desc.xlsx.bak'))
    );
    expect(backup.rows).toEqual(first.rows);
  });

  it('shortens a traceback longer than an xlsx cell into a literal that still parses, keeping the cell frame and the exception line', async () => {
    const traceback = longTraceback(600);
    const nb = crashed(traceback, 'x');
    const written = await writeCase(book, fullSpec('numpy_1', nb), null);
    expect(written.warnings).toEqual([
      expect.stringMatching(
        /^the traceback of numpy_1 is longer than an xlsx cell holds \(32767 characters\); \d+ line\(s\) were left out or cut in benchmark_desc\.xlsx$/
      )
    ]);
    const parsed = await parseDescriptor(
      bytesOf(path.join(book, 'benchmark_desc.xlsx'))
    );
    expect(parsed.problems).toEqual([]);
    const lines = parsed.rows[0].traceback;
    const stripped = findTarget(nb)!.traceback;
    expect(lines.slice(0, 3)).toEqual(stripped.slice(0, 3));
    expect(lines[3]).toMatch(/left out by junobench/);
    expect(lines[lines.length - 1]).toBe(stripped[stripped.length - 1]);
  });

  it.each([
    [
      '../evil',
      /case name "\.\.\/evil" cannot be used: it has a "\.\." segment/
    ],
    ['a/b', /case name "a\/b" cannot be used: it contains "\/"/],
    ['..', /case name "\.\." cannot be used: it has a "\.\." segment/],
    [
      'with space',
      /case name "with space" cannot be used: it contains the character " "/
    ],
    ['', /case name "" cannot be used: it is empty/]
  ])('refuses the case name %j and writes nothing', async (name, message) => {
    const nb = crashed(['E'], 'e');
    const before = readFileSync(path.join(book, 'benchmark_desc.xlsx'));
    const refused = await refusal(writeCase(book, fullSpec(name, nb), null));
    expect(refused.problem).toEqual({
      code: 'bad-case-name',
      name,
      problem: nameProblem(name)
    });
    expect(refused.message).toMatch(message);
    expect(readFileSync(path.join(book, 'benchmark_desc.xlsx'))).toEqual(
      before
    );
    expect(existsSync(path.join(book, 'evil'))).toBe(false);
    expect(existsSync(path.join(dir, 'evil'))).toBe(false);
  });

  it.each([
    ['../secret.csv', /data path "\.\.\/secret\.csv" has a "\.\." segment/],
    ['/etc/passwd', /data path "\/etc\/passwd" is an absolute path/],
    ['data/link.csv', /data path data\/link\.csv resolves to .*outside/],
    ['data/none.csv', /data file data\/none\.csv does not exist/],
    [
      'pandas_5_reproduced.ipynb',
      /data path pandas_5_reproduced\.ipynb would overwrite the case's own pandas_5_reproduced\.ipynb/
    ]
  ])(
    'refuses the data path %j, naming the case, and writes nothing',
    async (data, message) => {
      const nbDir = path.join(dir, 'notebooks');
      mkdirSync(path.join(nbDir, 'data'), { recursive: true });
      writeFileSync(path.join(dir, 'secret.csv'), 'secret');
      writeFileSync(path.join(nbDir, 'pandas_5_reproduced.ipynb'), '{}');
      symlinkSync(
        path.join(dir, 'secret.csv'),
        path.join(nbDir, 'data', 'link.csv')
      );
      const spec = {
        ...fullSpec('pandas_5', crashed(['E'], 'e')),
        data: [data]
      };
      const refused = await refusal(writeCase(book, spec, nbDir));
      expect(refused.message).toMatch(
        new RegExp(`case pandas_5: ${message.source}`)
      );
      expect(existsSync(path.join(book, 'benchmark', 'pandas_5'))).toBe(false);
    }
  );

  it('copies data files and folders with their relative paths', async () => {
    const nbDir = path.join(dir, 'notebooks');
    mkdirSync(path.join(nbDir, 'data', 'sub'), { recursive: true });
    writeFileSync(path.join(nbDir, 'data', 'a.csv'), 'a');
    writeFileSync(path.join(nbDir, 'data', 'sub', 'b ü.csv'), 'b');
    writeFileSync(path.join(nbDir, 'top.txt'), 't');
    const spec = {
      ...fullSpec('pandas_6', crashed(['E'], 'e')),
      data: ['data', 'top.txt']
    };
    await writeCase(book, spec, nbDir);
    const loaded = await loadCasebook(new FsCasebookSource(book));
    expect(loaded.cases[0].files.data).toEqual([
      'benchmark/pandas_6/top.txt',
      'benchmark/pandas_6/data/a.csv',
      'benchmark/pandas_6/data/sub/b ü.csv'
    ]);
  });

  it('refuses a corrupt descriptor, naming it, and leaves it as it was', async () => {
    writeFileSync(path.join(book, 'benchmark_desc.xlsx'), 'not a zip');
    const refused = await refusal(
      writeCase(book, fullSpec('pandas_7', crashed(['E'], 'e')), null)
    );
    expect(refused.problem).toMatchObject({
      code: 'not-xlsx',
      file: 'benchmark_desc.xlsx'
    });
    expect(refused.message).toMatch(
      /benchmark_desc\.xlsx is not a readable \.xlsx file/
    );
    expect(readFileSync(path.join(book, 'benchmark_desc.xlsx'), 'utf8')).toBe(
      'not a zip'
    );
  });
});

(realPresent ? describe : describe.skip)(
  'the writer on a copy of the real benchmark_desc.xlsx',
  () => {
    let dir: string;

    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'junobench-writer-real-'));
      copyFileSync(REAL, path.join(dir, 'benchmark_desc.xlsx'));
      copyFileSync(
        path.join(JUNOBENCH, 'diagnoses.xlsx'),
        path.join(dir, 'diagnoses.xlsx')
      );
      mkdirSync(path.join(dir, 'benchmark'));
    });

    afterAll(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it('keeps the other 111 rows and diagnoses identical in value after adding and updating rows', async () => {
      const file = path.join(dir, 'benchmark_desc.xlsx');
      const before = await parseDescriptor(bytesOf(file));
      const diagnosesBefore = await parseDiagnoses(
        bytesOf(path.join(dir, 'diagnoses.xlsx'))
      );
      expect(before.rows).toHaveLength(111);

      const nb = crashed(longTraceback(40), 'é');
      await writeCase(dir, fullSpec('NBspecific_100', nb), null);
      // Update a real case's row too: only that row may change.
      const real = before.rows[5];
      await writeCase(dir, fullSpec(real.name, nb, true), null);
      await writeCase(dir, fullSpec('NBspecific_100', nb, true), null);

      const after = await parseDescriptor(bytesOf(file));
      expect(after.rows).toHaveLength(112);
      const others = (rows: IDescriptorRow[]) =>
        rows.filter(r => r.name !== real.name && r.name !== 'NBspecific_100');
      expect(others(after.rows)).toEqual(others(before.rows));
      expect(after.rows[5].name).toBe(real.name);
      expect(after.rows[5].eid).toBe(real.eid);
      expect(after.rows[5].ename).toBe('keyerror');
      expect(after.rows[111].name).toBe('NBspecific_100');
      expect(after.problems).toEqual(before.problems);

      const diagnosesAfter = await parseDiagnoses(
        bytesOf(path.join(dir, 'diagnoses.xlsx'))
      );
      for (const [name, text] of diagnosesBefore.byCase) {
        if (name !== real.name) {
          expect(diagnosesAfter.byCase.get(name)).toBe(text);
        }
      }
      expect(diagnosesAfter.byCase.get('NBspecific_100')).toMatch(/deux fois/);
      // The backup is the file before the last write.
      expect(existsSync(`${file}.bak`)).toBe(true);
    });
  }
);
