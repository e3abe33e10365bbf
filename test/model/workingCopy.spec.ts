import * as nbformat from '@jupyterlab/nbformat';

import {
  makeWorkingCopy,
  readWorkingCopyMeta,
  workingCopyPath
} from '../../src/model/workingCopy';
import type { INotebookJSON } from '../../src/replay/types';

const reproduced: INotebookJSON = {
  cells: [
    { cell_type: 'markdown', source: '# Title' },
    {
      cell_type: 'code',
      source: 'print(x)',
      execution_count: 3,
      outputs: [
        {
          output_type: 'error',
          ename: 'NameError',
          evalue: "name 'x' is not defined",
          traceback: ['Cell In[3], line 1']
        }
      ]
    },
    {
      cell_type: 'code',
      id: 'keep',
      source: ['# [reexecute]\n', 'y = 1'],
      execution_count: 2,
      outputs: [{ output_type: 'stream', name: 'stdout', text: 'hi' }]
    },
    { cell_type: 'code', source: 'x = 1', execution_count: null, outputs: [] }
  ],
  metadata: { kernelspec: { name: 'python3' } },
  nbformat: 4,
  nbformat_minor: 4
};

describe('makeWorkingCopy', () => {
  const copy = makeWorkingCopy(reproduced, {
    caseName: 'NBspecific_9',
    casebook: 'demo',
    caseFolder: 'demo/benchmark/NBspecific_9',
    attempt: 2,
    recordedEname: 'nameerror',
    recordedEvalue: "name 'x' is not defined",
    now: new Date('2026-01-01T00:00:00Z')
  });
  const meta = readWorkingCopyMeta(copy.metadata)!;

  it('clears outputs and counts and strips markers', () => {
    const code = copy.cells.filter(nbformat.isCode);
    expect(
      code.every(c => c.execution_count === null && c.outputs.length === 0)
    ).toBe(true);
    expect(copy.cells[2].source).toBe('y = 1');
    expect(copy.cells[0].source).toBe('# Title');
  });

  it('keeps existing ids and gives every cell a unique one', () => {
    const ids = copy.cells.map(c => c.id);
    expect(ids[2]).toBe('keep');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('stores both plans by cell id, the target and the recorded crash', () => {
    expect(meta.recordedPlan.map(s => [s.cellId, s.run])).toEqual([
      ['keep', 1],
      ['keep', 2],
      [copy.cells[1].id, 1]
    ]);
    expect(meta.topToBottomPlan.map(s => s.cellId)).toEqual([
      copy.cells[1].id,
      'keep'
    ]);
    expect(meta.targetCellId).toBe(copy.cells[1].id);
    expect(meta.recorded).toEqual({
      ename: 'nameerror',
      evalue: "name 'x' is not defined",
      line: 1
    });
    expect(meta.attempt).toBe(2);
    expect(meta.created).toBe('2026-01-01T00:00:00.000Z');
  });

  it('does not touch the original', () => {
    expect(reproduced.cells[1].outputs).toHaveLength(1);
    expect(reproduced.cells[2].execution_count).toBe(2);
  });

  it('is recognised as a working copy, and plain notebooks are not', () => {
    expect(readWorkingCopyMeta(reproduced.metadata)).toBeNull();
    expect(readWorkingCopyMeta(undefined)).toBeNull();
    expect(meta.case).toBe('NBspecific_9');
  });
});

describe('workingCopyPath', () => {
  it.each([
    [
      'junobench-work',
      'demo',
      'numpy_1',
      1,
      'junobench-work/demo/numpy_1/numpy_1-1.ipynb'
    ],
    ['', 'demo', 'numpy_1', 3, 'demo/numpy_1/numpy_1-3.ipynb']
  ])('%s/%s/%s attempt %i', (ws, book, name, n, expected) => {
    expect(workingCopyPath(ws, book, name, n as number)).toBe(expected);
  });
});
