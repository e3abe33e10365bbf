/**
 * The casebook layer on the real JunoBench material in ../shared/junobench.
 */

import { existsSync, readFileSync } from 'fs';
import * as path from 'path';

import {
  libraryOf,
  loadCasebook,
  MARKER_FOLDER_NOT_FOUND,
  MARKER_NO_DATA,
  MARKER_NO_FIXED,
  parseDescriptor,
  parseDiagnoses
} from '../../src/casebook';
import type {
  ICasebook,
  ICasebookProblem,
  IDescriptorRow
} from '../../src/casebook';
import { FsCasebookSource } from './fsSource';

const JUNOBENCH = path.resolve(__dirname, '../../../shared/junobench');
const DESCRIPTOR = path.join(JUNOBENCH, 'benchmark_desc.xlsx');
const present = existsSync(DESCRIPTOR);

if (!present) {
  console.log(
    `Skipping the real-data casebook tests: ${DESCRIPTOR} is not there (the shared JunoBench material is not checked out beside this repository).`
  );
}

const describeReal = present ? describe : describe.skip;

/** Read a shared file as an ArrayBuffer. */
function bytesOf(file: string): ArrayBuffer {
  const data = readFileSync(path.join(JUNOBENCH, file));
  return data.buffer.slice(
    data.byteOffset,
    data.byteOffset + data.byteLength
  ) as ArrayBuffer;
}

/** Count values. */
function countBy<T>(
  items: T[],
  key: (item: T) => string
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) {
    const value = key(item);
    counts[value] = (counts[value] ?? 0) + 1;
  }
  return counts;
}

describeReal('the real benchmark_desc.xlsx', () => {
  let rows: IDescriptorRow[];
  let problems: ICasebookProblem[];

  beforeAll(async () => {
    ({ rows, problems } = await parseDescriptor(
      bytesOf('benchmark_desc.xlsx')
    ));
  });

  it('has 111 cases and no errors', () => {
    expect(rows).toHaveLength(111);
    expect(new Set(rows.map(row => row.name)).size).toBe(111);
    expect(problems.filter(problem => problem.severity === 'error')).toEqual(
      []
    );
  });

  it.each([
    ['valueerror', 37],
    ['typeerror', 20],
    ['nameerror', 13],
    ['keyerror', 11]
  ])('has ename %s %i times', (ename, count) => {
    expect(countBy(rows, row => row.ename)[ename]).toBe(count);
  });

  it.each([
    ['API misuse', 45],
    ['data confusion', 25],
    ['NB specific', 20],
    ['implementation error', 18]
  ])('has root cause %s %i times', (cause, count) => {
    expect(countBy(rows, row => row.rootCause)[cause]).toBe(count);
  });

  it.each([
    ['training', 31],
    ['data preparation', 30],
    ['evaluation/prediction', 21],
    ['data visualization', 20],
    ['model construction', 9]
  ])('has pipeline stage %s %i times', (stage, count) => {
    expect(countBy(rows, row => row.pipelineStage)[stage]).toBe(count);
  });

  it.each([
    ['NBspecific', 20],
    ['tensorflow', 15],
    ['torch', 15],
    ['sklearn', 15],
    ['numpy', 15],
    ['pandas', 15],
    ['matplotlib', 6],
    ['seaborn', 6],
    ['statsmodels', 2],
    ['torchvision', 1],
    ['lightgbm', 1]
  ])('has library %s %i times', (library, count) => {
    expect(countBy(rows, row => libraryOf(row.name))[library]).toBe(count);
  });

  it('maps every case name to a known library', () => {
    expect(rows.filter(row => libraryOf(row.name) === 'unknown')).toEqual([]);
  });

  it('parses the first traceback into a list', () => {
    const first = rows[0];
    expect(first.name).toBe('NBspecific_1');
    expect(first.traceback).toHaveLength(4);
    expect(first.traceback[first.traceback.length - 1]).toBe(
      "NameError: name 'tf_idf' is not defined"
    );
    expect(first.traceback[2]).toBe(
      '/tmp/ipykernel_1018/1279619201.py in <module>\n----> 1 tf_idf.toarray()\n'
    );
  });

  it('leaves no ANSI codes, quotes or brackets of the literal in any traceback', () => {
    for (const row of rows) {
      expect(row.traceback.length).toBeGreaterThan(0);
      for (const line of row.traceback) {
        // eslint-disable-next-line no-control-regex -- ESC is what we look for
        expect(line).not.toMatch(/\u001b/);
      }
      expect(row.traceback[0]).not.toMatch(/^\[/);
    }
  });

  it('reads the plain-text tracebacks as lines', () => {
    const plain = rows.filter(row =>
      ['NBspecific_6', 'torch_11', 'seaborn_6'].includes(row.name)
    );
    expect(plain).toHaveLength(3);
    for (const row of plain) {
      expect(row.traceback.join('\n')).not.toMatch(/\r/);
      expect(row.traceback[row.traceback.length - 1]).toMatch(/^\w+Error: /);
    }
  });

  it('recovers the cut traceback of tensorflow_10 with a warning', () => {
    const row = rows.find(item => item.name === 'tensorflow_10')!;
    expect(row.traceback.length).toBeGreaterThan(3);
    expect(row.traceback[1]).toMatch(/^TypeError +Traceback/);
    const warnings = problems.filter(
      problem => problem.case === 'tensorflow_10'
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0].severity).toBe('warning');
    expect(warnings[0].message).toMatch(/benchmark_desc\.xlsx.*cut short/);
    expect(problems).toHaveLength(1);
  });

  it('decodes non-ASCII text and escaped quotes', () => {
    const torch4 = rows.find(item => item.name === 'torch_4')!;
    expect(torch4.traceback.join('\n')).toContain('判断函数');
    const tf4 = rows.find(item => item.name === 'tensorflow_4')!;
    expect(tf4.traceback.join('\n')).toContain(
      "'sequential' (type Sequential)"
    );
  });

  it('reads the dataset credits', () => {
    expect(rows[0].datasets).toEqual([
      {
        title: 'IMDB Dataset of 50K Movie Reviews',
        license: 'Allow academic research',
        url: 'https://www.kaggle.com/datasets/lakshmi25npathi/imdb-dataset-of-50k-movie-reviews'
      }
    ]);
    expect(rows.filter(row => row.datasets.length === 2)).toHaveLength(5);
    expect(rows[0].row).toBe(2);
  });
});

describeReal('the real diagnoses.xlsx', () => {
  it('has one diagnosis for each of the 111 cases', async () => {
    const { rows } = await parseDescriptor(bytesOf('benchmark_desc.xlsx'));
    const { byCase, problems } = await parseDiagnoses(
      bytesOf('diagnoses.xlsx')
    );
    expect(problems).toEqual([]);
    expect(byCase.size).toBe(111);
    for (const row of rows) {
      expect(byCase.get(row.name)).toEqual(expect.any(String));
    }
    expect(byCase.get('tensorflow_3')).toMatch(/load_model\(\)/);
  });
});

describeReal('the real casebook through a file-system source', () => {
  let casebook: ICasebook;

  beforeAll(async () => {
    casebook = await loadCasebook(new FsCasebookSource(JUNOBENCH));
  });

  it('lists the 111 described cases and nothing else', () => {
    expect(casebook.name).toBe('junobench');
    expect(casebook.cases).toHaveLength(111);
    expect(casebook.hasDiagnoses).toBe(true);
    expect(
      casebook.problems.filter(problem => problem.severity === 'error')
    ).toEqual([]);
    expect(casebook.cases.every(item => item.diagnosis !== null)).toBe(true);
  });

  it('finds sklearn_3 complete with its data', () => {
    const item = casebook.cases.find(c => c.name === 'sklearn_3')!;
    expect(item.files).toEqual({
      folder: 'benchmark/sklearn_3',
      original: false,
      reproduced: true,
      fixed: true,
      readme: true,
      data: [
        'benchmark/sklearn_3/data/greeks_synthetic.csv',
        'benchmark/sklearn_3/data/test_synthetic.csv',
        'benchmark/sklearn_3/data/train_synthetic.csv'
      ]
    });
    expect(item.problems).toEqual([]);
    expect(item.library).toBe('sklearn');
  });

  it('marks sklearn_5 as reproduced only', () => {
    const item = casebook.cases.find(c => c.name === 'sklearn_5')!;
    expect(item.files.reproduced).toBe(true);
    expect(item.files.fixed).toBe(false);
    expect(item.files.readme).toBe(true);
    expect(item.problems).toEqual([MARKER_NO_FIXED, MARKER_NO_DATA]);
  });

  it.each(['sklearn_6', 'sklearn_7'])('marks %s as lacking data only', name => {
    const item = casebook.cases.find(c => c.name === name)!;
    expect(item.problems).toEqual([MARKER_NO_DATA]);
  });

  it('marks the other 107 cases as having no folder', () => {
    const missing = casebook.cases.filter(c =>
      c.problems.includes(MARKER_FOLDER_NOT_FOUND)
    );
    expect(missing).toHaveLength(107);
    for (const item of missing) {
      expect(item.files.folder).toBeNull();
      expect(item.problems).toEqual([MARKER_FOLDER_NOT_FOUND]);
    }
  });

  it('flags the notebook-specific cases', () => {
    expect(casebook.cases.filter(c => c.notebookSpecific)).toHaveLength(20);
  });
});
