/**
 * Notebook checks: the size limit, JSON parsing and nbformat 4 validation.
 */

import {
  checkNotebookSize,
  MAX_NOTEBOOK_BYTES,
  parseNotebook,
  readNotebook,
  sizeProblem,
  validateNotebook
} from '../../src/casebook';
import type { ICasebookSource } from '../../src/casebook';
import { formatBytes } from '../../src/i18n';
import { MemoryCasebookSource } from './memorySource';

const PATH = 'benchmark/pandas_1/pandas_1_reproduced.ipynb';

/** A valid notebook with one code cell, with overrides at the top level. */
function notebook(overrides: Record<string, unknown> = {}): unknown {
  return {
    cells: [
      { cell_type: 'markdown', metadata: {}, source: '# Title' },
      {
        cell_type: 'code',
        execution_count: 1,
        id: 'abc',
        metadata: {},
        outputs: [
          { output_type: 'stream', name: 'stdout', text: ['a\n', 'b\n'] },
          {
            output_type: 'error',
            ename: 'ValueError',
            evalue: 'bad',
            traceback: ['line 1', 'line 2']
          },
          { output_type: 'display_data', data: {}, metadata: {} }
        ],
        source: ['import pandas\n', 'pandas.x()']
      },
      { cell_type: 'raw', metadata: {}, source: [] }
    ],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
    ...overrides
  };
}

/** The valid notebook with one cell replaced. */
function withCell(index: number, cell: unknown): unknown {
  const nb = notebook() as { cells: unknown[] };
  nb.cells[index] = cell;
  return nb;
}

/** The valid notebook's code cell with some fields replaced. */
function codeCell(fields: Record<string, unknown>): unknown {
  const nb = notebook() as { cells: Record<string, unknown>[] };
  return withCell(1, { ...nb.cells[1], ...fields });
}

describe('validateNotebook', () => {
  it('accepts an nbformat 4 notebook and returns it', () => {
    const nb = notebook();
    expect(validateNotebook(nb, PATH)).toBe(nb);
  });

  it.each<[string, unknown, string]>([
    ['an array', [], 'the JSON is a list, not an object'],
    ['null', null, 'the JSON is null, not an object'],
    ['a number', 4, 'the JSON is a number, not an object'],
    ['a string', '{}', 'the JSON is a string, not an object'],
    [
      'no nbformat',
      notebook({ nbformat: undefined }),
      '"nbformat" is missing; only version 4 is supported'
    ],
    [
      'nbformat 3',
      notebook({ nbformat: 3 }),
      '"nbformat" is 3; only version 4 is supported'
    ],
    [
      'nbformat as a string',
      notebook({ nbformat: '4' }),
      '"nbformat" is "4"; only version 4 is supported'
    ],
    [
      'a fractional nbformat_minor',
      notebook({ nbformat_minor: 0.5 }),
      '"nbformat_minor" is a number, not a whole number'
    ],
    [
      'metadata as a list',
      notebook({ metadata: [] }),
      '"metadata" is a list, not an object'
    ],
    ['missing cells', notebook({ cells: undefined }), '"cells" is missing'],
    [
      'cells as an object',
      notebook({ cells: {} }),
      '"cells" is an object, not a list'
    ],
    ['a null cell', withCell(0, null), 'cells[0] is null, not an object'],
    [
      'a cell without cell_type',
      withCell(2, { source: '' }),
      'cells[2] has no "cell_type"'
    ],
    [
      'an unknown cell_type',
      withCell(0, { cell_type: 'heading', source: '' }),
      'cells[0] has the cell_type "heading"; nbformat 4 knows "code", "markdown" and "raw"'
    ],
    [
      'a cell without source',
      withCell(0, { cell_type: 'markdown', metadata: {} }),
      'cells[0] has no "source"'
    ],
    [
      'a numeric source',
      codeCell({ source: 42 }),
      'cells[1].source is a number, not a string or a list of strings'
    ],
    [
      'a source line that is not a string',
      codeCell({ source: ['a\n', null] }),
      'cells[1].source[1] is null, not a string'
    ],
    [
      'a numeric id',
      codeCell({ id: 7 }),
      'cells[1].id is a number, not a string'
    ],
    [
      'a string execution_count',
      codeCell({ execution_count: '1' }),
      'cells[1].execution_count is a string, not a whole number or null'
    ],
    [
      'outputs as an object',
      codeCell({ outputs: {} }),
      'cells[1].outputs is an object, not a list'
    ],
    [
      'an output without output_type',
      codeCell({ outputs: [{ text: 'x' }] }),
      'cells[1].outputs[0] has no "output_type" string'
    ],
    [
      'an error without a traceback list',
      codeCell({
        outputs: [
          { output_type: 'error', ename: 'E', evalue: 'v', traceback: 'tb' }
        ]
      }),
      'cells[1].outputs[0].traceback is a string, not a list'
    ],
    [
      'an error with a numeric traceback line',
      codeCell({
        outputs: [
          { output_type: 'error', ename: 'E', evalue: 'v', traceback: ['a', 1] }
        ]
      }),
      'cells[1].outputs[0].traceback[1] is a number, not a string'
    ],
    [
      'an error without ename',
      codeCell({
        outputs: [{ output_type: 'error', evalue: 'v', traceback: [] }]
      }),
      'cells[1].outputs[0].ename is missing, not a string'
    ],
    [
      'a stream with numeric text',
      codeCell({ outputs: [{ output_type: 'stream', text: 3 }] }),
      'cells[1].outputs[0].text is a number, not a string or a list of strings'
    ],
    [
      'display data that is a string',
      codeCell({ outputs: [{ output_type: 'execute_result', data: 'x' }] }),
      'cells[1].outputs[0].data is a string, not an object'
    ]
  ])('refuses %s, naming the notebook and the problem', (_, value, what) => {
    expect(() => validateNotebook(value, PATH)).toThrow(
      `${PATH}: is not an nbformat 4 notebook (${what}).`
    );
  });
});

describe('parseNotebook', () => {
  it('parses and validates, tolerating a byte order mark', () => {
    const text = `\ufeff${JSON.stringify(notebook())}`;
    expect(parseNotebook(text, PATH).cells).toHaveLength(3);
  });

  it.each<[string, string, RegExp]>([
    ['empty text', '', /^x\.ipynb: is empty, not a notebook\.$/],
    ['blank text', ' \n', /^x\.ipynb: is empty, not a notebook\.$/],
    ['truncated JSON', '{"cells": [', /^x\.ipynb: is not valid JSON \(.+\)\.$/],
    ['not JSON at all', '<html>', /^x\.ipynb: is not valid JSON \(.+\)\.$/],
    [
      'JSON that is no notebook',
      '{"hello": "world"}',
      /^x\.ipynb: is not an nbformat 4 notebook \("nbformat" is missing/
    ]
  ])('refuses %s', (_, text, message) => {
    expect(() => parseNotebook(text, 'x.ipynb')).toThrow(message);
  });
});

describe('size limit', () => {
  it('is 50 MB by default', () => {
    expect(MAX_NOTEBOOK_BYTES).toBe(50 * 1024 * 1024);
  });

  it.each<[number | null | undefined, number, string | null]>([
    [
      100 * 1024 * 1024,
      MAX_NOTEBOOK_BYTES,
      'is 100.0 MB, over the limit of 50.0 MB'
    ],
    [MAX_NOTEBOOK_BYTES, MAX_NOTEBOOK_BYTES, null],
    [
      MAX_NOTEBOOK_BYTES + 1,
      MAX_NOTEBOOK_BYTES,
      'is 50.0 MB, over the limit of 50.0 MB'
    ],
    [2048, 1000, 'is 2.0 KB, over the limit of 1000 bytes'],
    [null, 1, null],
    [undefined, 1, null],
    [NaN, 1, null]
  ])('size %p with a limit of %p', (size, limit, problem) => {
    expect(sizeProblem(size, limit)).toBe(problem);
  });

  it('throws an error naming the notebook', () => {
    expect(() => checkNotebookSize(100 * 1024 * 1024, PATH)).toThrow(
      `${PATH}: is 100.0 MB, over the limit of 50.0 MB; it was not opened.`
    );
    expect(() => checkNotebookSize(10, PATH)).not.toThrow();
  });

  it.each([
    [0, '0 bytes'],
    [1023, '1023 bytes'],
    [1536, '1.5 KB'],
    [3 * 1024 * 1024, '3.0 MB'],
    [2048 * 1024 * 1024, '2.0 GB']
  ])('formats %p bytes as %p', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('readNotebook', () => {
  it('reads and validates through a source', async () => {
    const source = new MemoryCasebookSource({
      [PATH]: JSON.stringify(notebook())
    });
    const nb = await readNotebook(source, PATH);
    expect(nb.cells.map(cell => cell.cell_type)).toEqual([
      'markdown',
      'code',
      'raw'
    ]);
  });

  it('checks the size the source reports before reading', async () => {
    const source = new MemoryCasebookSource(
      { [PATH]: JSON.stringify(notebook()) },
      'memory-casebook',
      { [PATH]: 100 * 1024 * 1024 }
    );
    await expect(readNotebook(source, PATH)).rejects.toThrow(
      `${PATH}: is 100.0 MB, over the limit of 50.0 MB; it was not opened.`
    );
    // Only the size was asked for, never the content.
    expect(source.requested).toEqual([PATH]);
  });

  it('takes the limit from its options', async () => {
    const source = new MemoryCasebookSource({
      [PATH]: JSON.stringify(notebook())
    });
    await expect(readNotebook(source, PATH, { maxBytes: 100 })).rejects.toThrow(
      /over the limit of 100 bytes/
    );
  });

  it('checks the length of what was read when the source cannot tell sizes', async () => {
    const text = JSON.stringify(notebook());
    const source: ICasebookSource = {
      rootName: 'no-size',
      list: async () => null,
      readBinary: async () => new ArrayBuffer(0),
      readText: async () => text
    };
    await expect(
      readNotebook(source, PATH, { maxBytes: text.length - 1 })
    ).rejects.toThrow(/over the limit/);
    await expect(
      readNotebook(source, PATH, { maxBytes: text.length })
    ).resolves.toMatchObject({ nbformat: 4 });
  });

  it.each<[string, Record<string, string>, RegExp]>([
    [
      'a missing notebook',
      {},
      /^benchmark\/pandas_1\/pandas_1_reproduced\.ipynb: cannot be read \(No such file: .+\)\.$/
    ],
    [
      'a notebook that is not JSON',
      { [PATH]: '{"cells": [' },
      /^benchmark\/pandas_1\/pandas_1_reproduced\.ipynb: is not valid JSON/
    ],
    [
      'a notebook without cells',
      { [PATH]: '{"nbformat": 4}' },
      /^benchmark\/pandas_1\/pandas_1_reproduced\.ipynb: is not an nbformat 4 notebook \("cells" is missing\)\.$/
    ]
  ])('rejects %s, naming it', async (_, files, message) => {
    await expect(
      readNotebook(new MemoryCasebookSource(files), PATH)
    ).rejects.toThrow(message);
  });
});
