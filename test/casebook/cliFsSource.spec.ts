/**
 * The command line's FsCasebookSource on a real temporary folder: symbolic
 * links that leave the casebook, special files and oversized notebooks.
 */

import { execFileSync } from 'child_process';
import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';

import {
  loadCasebook,
  MARKER_NO_REPRODUCED,
  readNotebook
} from '../../src/casebook';
import { FsCasebookSource } from '../../src/cli/fsSource';
import { caseFolder, descRow, descriptorXlsx } from './fixtures';

/** 100 MB, twice the default limit. */
const HUNDRED_MB = 100 * 1024 * 1024;

/** A minimal valid notebook. */
const NOTEBOOK = JSON.stringify({
  cells: [{ cell_type: 'code', source: 'x = 1', outputs: [] }],
  metadata: {},
  nbformat: 4,
  nbformat_minor: 5
});

/** Write files (strings or bytes) below a folder, creating parents. */
async function writeTree(
  base: string,
  files: Record<string, ArrayBuffer | string>
): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(base, ...rel.split('/'));
    await fs.mkdir(path.dirname(full), { recursive: true });
    await fs.writeFile(
      full,
      typeof content === 'string' ? content : new Uint8Array(content)
    );
  }
}

describe('FsCasebookSource on a real folder', () => {
  let tmp: string;
  let root: string;
  let elsewhere: string;

  beforeAll(async () => {
    tmp = await fs.realpath(
      await fs.mkdtemp(path.join(os.tmpdir(), 'junobench-hostile-'))
    );
    root = path.join(tmp, 'casebook');
    elsewhere = path.join(tmp, 'elsewhere');
    await writeTree(elsewhere, {
      'secret_fixed.ipynb': NOTEBOOK,
      'numpy_3/numpy_3_reproduced.ipynb': NOTEBOOK,
      'numpy_3/numpy_3_fixed.ipynb': NOTEBOOK,
      'numpy_3/README.md': '',
      'numpy_3/data/a.csv': ''
    });
    await writeTree(root, {
      'benchmark_desc.xlsx': descriptorXlsx([
        descRow('pandas_1'),
        descRow('torch_2'),
        descRow('numpy_3'),
        descRow('sklearn_4'),
        descRow('seaborn_5'),
        descRow('big_6')
      ]),
      ...caseFolder('pandas_1'),
      'benchmark/torch_2/README.md': '',
      'benchmark/torch_2/torch_2_fixed.ipynb': NOTEBOOK,
      'benchmark/torch_2/data/a.csv': '',
      'store/sklearn_4/sklearn_4_reproduced.ipynb': NOTEBOOK,
      'store/sklearn_4/sklearn_4_fixed.ipynb': NOTEBOOK,
      'store/sklearn_4/README.md': '',
      'store/sklearn_4/data/a.csv': '',
      'benchmark/seaborn_5/seaborn_5_fixed.ipynb': NOTEBOOK,
      'benchmark/seaborn_5/README.md': '',
      'benchmark/seaborn_5/data/a.csv': '',
      'store/shared.ipynb': NOTEBOOK,
      'benchmark/big_6/big_6_fixed.ipynb': NOTEBOOK,
      'benchmark/big_6/README.md': '',
      'benchmark/big_6/data/a.csv': ''
    });
    const b = path.join(root, 'benchmark');
    // A notebook linked to a file outside the casebook.
    await fs.symlink(
      path.join(elsewhere, 'secret_fixed.ipynb'),
      path.join(b, 'torch_2', 'torch_2_reproduced.ipynb')
    );
    // A whole case folder linked outside, relative link included.
    await fs.symlink('../../elsewhere/numpy_3', path.join(b, 'numpy_3'));
    // Links that stay inside the casebook are fine.
    await fs.symlink('../store/sklearn_4', path.join(b, 'sklearn_4'));
    await fs.symlink(
      path.join(root, 'store', 'shared.ipynb'),
      path.join(b, 'seaborn_5', 'seaborn_5_reproduced.ipynb')
    );
    // A dangling link and a link loop are not listed.
    await fs.symlink(
      path.join(tmp, 'nowhere'),
      path.join(b, 'pandas_1', 'dangling.csv')
    );
    await fs.symlink('loop.csv', path.join(b, 'pandas_1', 'loop.csv'));
    // A sparse 100 MB notebook: nothing is allocated on disk.
    const big = path.join(b, 'big_6', 'big_6_reproduced.ipynb');
    await fs.writeFile(big, '');
    await fs.truncate(big, HUNDRED_MB);
  });

  afterAll(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('loads the casebook, refusing what leaves it and keeping the rest', async () => {
    const book = await loadCasebook(new FsCasebookSource(root));
    const byName = new Map(book.cases.map(c => [c.name, c]));

    expect(byName.get('pandas_1')?.problems).toEqual([]);
    expect(byName.get('pandas_1')?.files.data).toEqual([
      'benchmark/pandas_1/data/train.csv'
    ]);

    expect(byName.get('torch_2')?.files.reproduced).toBe(false);
    expect(byName.get('torch_2')?.problems).toEqual([
      `benchmark/torch_2/torch_2_reproduced.ipynb was refused: it is a symbolic link to ${path.join(elsewhere, 'secret_fixed.ipynb')}, outside the casebook folder ${root}`
    ]);

    expect(byName.get('numpy_3')?.files.folder).toBeNull();
    expect(byName.get('numpy_3')?.problems).toEqual([
      `benchmark/numpy_3 was refused: it is a symbolic link to ${path.join(elsewhere, 'numpy_3')}, outside the casebook folder ${root}`
    ]);

    expect(byName.get('sklearn_4')?.files).toMatchObject({
      folder: 'benchmark/sklearn_4',
      reproduced: true,
      fixed: true,
      data: ['benchmark/sklearn_4/data/a.csv']
    });
    expect(byName.get('sklearn_4')?.problems).toEqual([]);
    expect(byName.get('seaborn_5')?.files.reproduced).toBe(true);
    expect(byName.get('seaborn_5')?.problems).toEqual([]);

    expect(byName.get('big_6')?.files.reproduced).toBe(false);
    expect(byName.get('big_6')?.problems).toEqual([
      'benchmark/big_6/big_6_reproduced.ipynb is 100.0 MB, over the limit of 50.0 MB; it will not be opened'
    ]);
    expect(byName.get('big_6')?.problems).not.toContain(MARKER_NO_REPRODUCED);

    expect(book.problems.map(p => [p.file, p.case, p.severity]).sort()).toEqual(
      [
        ['benchmark/numpy_3', 'numpy_3', 'error'],
        ['benchmark/torch_2/torch_2_reproduced.ipynb', 'torch_2', 'error']
      ]
    );
  });

  it('lists links outside as refused and leaves out dangling links and loops', async () => {
    const source = new FsCasebookSource(root);
    const benchmark = await source.list('benchmark');
    expect(benchmark?.find(e => e.name === 'numpy_3')).toEqual({
      name: 'numpy_3',
      type: 'directory',
      refused: expect.stringMatching(/^it is a symbolic link to .*elsewhere/)
    });
    expect(benchmark?.find(e => e.name === 'sklearn_4')).toEqual({
      name: 'sklearn_4',
      type: 'directory'
    });
    const names = (await source.list('benchmark/pandas_1'))?.map(e => e.name);
    expect(names).not.toContain('dangling.csv');
    expect(names).not.toContain('loop.csv');
  });

  it.each<[string, RegExp]>([
    [
      'benchmark/torch_2/torch_2_reproduced.ipynb',
      /^benchmark\/torch_2\/torch_2_reproduced\.ipynb: resolves to .*elsewhere.*secret_fixed\.ipynb, outside the casebook folder .*; refused$/
    ],
    [
      'benchmark/numpy_3/numpy_3_fixed.ipynb',
      /^benchmark\/numpy_3\/numpy_3_fixed\.ipynb: resolves to .*elsewhere.*, outside the casebook folder/
    ],
    ['../elsewhere/secret_fixed.ipynb', /^Unsafe path .*"\.\." would leave/],
    [`${'x/'.repeat(2)}../../../elsewhere/secret_fixed.ipynb`, /^Unsafe path/],
    ['/etc/passwd', /^Unsafe path "\/etc\/passwd": absolute paths/],
    ['benchmark\\..\\..\\etc', /^Unsafe path .*backslash/],
    ['benchmark/pandas_1\0.ipynb', /^Unsafe path .*NUL byte/],
    [
      'benchmark/big_6/big_6_reproduced.ipynb',
      /^benchmark\/big_6\/big_6_reproduced\.ipynb: is 100\.0 MB, over the limit of 50\.0 MB; it was not read$/
    ],
    ['benchmark', /^benchmark: is not a regular file; refused$/]
  ])('refuses to read %j', async (rel, message) => {
    const source = new FsCasebookSource(root);
    await expect(source.readText(rel)).rejects.toThrow(message);
    await expect(source.readBinary(rel)).rejects.toThrow(message);
  });

  it('reads through links that stay inside', async () => {
    const source = new FsCasebookSource(root);
    await expect(
      source.readText('benchmark/seaborn_5/seaborn_5_reproduced.ipynb')
    ).resolves.toBe(NOTEBOOK);
    await expect(
      readNotebook(source, 'benchmark/sklearn_4/sklearn_4_fixed.ipynb')
    ).resolves.toMatchObject({ nbformat: 4 });
  });

  it('works when the casebook root itself is reached through a link', async () => {
    const link = path.join(tmp, 'casebook-link');
    await fs.symlink(root, link);
    const book = await loadCasebook(new FsCasebookSource(link));
    expect(book.cases.find(c => c.name === 'sklearn_4')?.problems).toEqual([]);
  });

  it('checks a notebook size with a stat, before reading', async () => {
    const source = new FsCasebookSource(root);
    const rel = 'benchmark/big_6/big_6_reproduced.ipynb';
    expect(await source.size(rel)).toBe(HUNDRED_MB);
    expect(await source.size('benchmark/none.ipynb')).toBeNull();
    await expect(readNotebook(source, rel)).rejects.toThrow(
      `${rel}: is 100.0 MB, over the limit of 50.0 MB; it was not opened.`
    );
  });

  it('takes its hard size limit from its options', async () => {
    const source = new FsCasebookSource(root, { maxBytes: 10 });
    await expect(source.readText('benchmark/pandas_1/README.md')).resolves.toBe(
      '# pandas_1'
    );
    await expect(
      source.readText('benchmark/pandas_1/pandas_1_reproduced.ipynb')
    ).resolves.toBe('{}');
    await expect(
      source.readText('benchmark/sklearn_4/sklearn_4_fixed.ipynb')
    ).rejects.toThrow(/over the limit of 10 bytes; it was not read$/);
  });

  it('never lists or opens a FIFO (opening one would block)', async () => {
    const fifo = path.join(root, 'benchmark', 'pandas_1', 'pipe.ipynb');
    execFileSync('mkfifo', [fifo]);
    try {
      const source = new FsCasebookSource(root);
      const names = (await source.list('benchmark/pandas_1'))?.map(e => e.name);
      expect(names).not.toContain('pipe.ipynb');
      await expect(
        source.readText('benchmark/pandas_1/pipe.ipynb')
      ).rejects.toThrow(
        /^benchmark\/pandas_1\/pipe\.ipynb: is not a regular file; refused$/
      );
    } finally {
      await fs.rm(fifo);
    }
  });

  it('names the notebook and the problem for invalid content', async () => {
    await writeTree(root, {
      'bad/not-json.ipynb': '{"cells": [',
      'bad/v3.ipynb': JSON.stringify({ nbformat: 3, worksheets: [] }),
      'bad/no-source.ipynb': JSON.stringify({
        nbformat: 4,
        cells: [{ cell_type: 'code' }]
      })
    });
    const source = new FsCasebookSource(root);
    await expect(readNotebook(source, 'bad/not-json.ipynb')).rejects.toThrow(
      /^bad\/not-json\.ipynb: is not valid JSON \(.+\)\.$/
    );
    await expect(readNotebook(source, 'bad/v3.ipynb')).rejects.toThrow(
      'bad/v3.ipynb: is not an nbformat 4 notebook ("nbformat" is 3; only version 4 is supported).'
    );
    await expect(readNotebook(source, 'bad/no-source.ipynb')).rejects.toThrow(
      'bad/no-source.ipynb: is not an nbformat 4 notebook (cells[0] has no "source").'
    );
  });
});
