import type { IRunResult, IStepResult } from '../../src/kernel/runner';
import { recordedPlan } from '../../src/replay/plan';
import type { INotebookJSON } from '../../src/replay/types';
import { alignCell } from '../../src/verify/align';
import {
  caseVerdict,
  judgeFixed,
  judgeReproduced
} from '../../src/verify/verdict';
import type { NotebookVerdict } from '../../src/verify/verdict';

/** Reproduced notebook: cell 2 (count 3) crashed with a NameError. */
const reproduced: INotebookJSON = {
  cells: [
    {
      cell_type: 'code',
      id: 'a',
      source: 'import pandas as pd',
      execution_count: 1,
      outputs: []
    },
    {
      cell_type: 'code',
      id: 'b',
      source: 'df = load()',
      execution_count: 2,
      outputs: []
    },
    {
      cell_type: 'code',
      id: 'c',
      source: 'df.plot()',
      execution_count: 3,
      outputs: [
        {
          output_type: 'error',
          ename: 'NameError',
          evalue: "name 'df' is not defined",
          traceback: []
        }
      ]
    }
  ]
};
const plan = recordedPlan(reproduced);

/** A run result that stopped at step `failed` with `ename`, or completed. */
function run(
  status: IRunResult['status'],
  failed: number | null,
  ename = '',
  steps = 3
): IRunResult {
  const results: IStepResult[] = plan.steps
    .slice(0, failed === null ? steps : failed + 1)
    .map((step, index) => ({
      index,
      step,
      outputs: [],
      executionCount: index + 1,
      durationMs: 1,
      error:
        index === failed
          ? { ename, evalue: 'msg', traceback: [], line: 1 }
          : null
    }));
  const error = failed === null ? null : results[failed].error;
  return {
    status,
    steps: results,
    failedIndex: failed,
    error,
    message: status,
    durationMs: 3
  };
}

describe('judgeReproduced', () => {
  it.each<[string, IRunResult, string, NotebookVerdict]>([
    [
      'crash at the target with the recorded name',
      run('crashed', 2, 'NameError'),
      'nameerror',
      'pass'
    ],
    [
      'same name, qualified',
      run('crashed', 2, 'builtins.NameError'),
      'nameerror',
      'pass'
    ],
    [
      'another exception at the target',
      run('crashed', 2, 'TypeError'),
      'nameerror',
      'fail'
    ],
    [
      'a crash before the target',
      run('crashed', 1, 'NameError'),
      'nameerror',
      'fail'
    ],
    ['no crash at all', run('completed', null), 'nameerror', 'fail'],
    [
      'a missing module before the target',
      run('crashed', 0, 'ModuleNotFoundError'),
      'nameerror',
      'missing-dependency'
    ],
    [
      'a missing input file before the target',
      run('crashed', 1, 'FileNotFoundError'),
      'nameerror',
      'missing-data'
    ],
    ['a timeout', run('timeout', 1, ''), 'nameerror', 'timeout'],
    ['a dead kernel', run('kernel-died', 1, ''), 'nameerror', 'kernel-died']
  ])('%s', (_, result, recorded, expected) => {
    if (result.status === 'timeout' || result.status === 'kernel-died') {
      result.error = null;
      result.steps[result.steps.length - 1].error = null;
    }
    expect(judgeReproduced(plan, result, recorded).verdict).toBe(expected);
  });

  it('needs a recorded crash to aim at', () => {
    const clean = recordedPlan({
      cells: [
        { cell_type: 'code', source: 'x = 1', execution_count: 1, outputs: [] }
      ]
    });
    expect(
      judgeReproduced(clean, run('completed', null), 'nameerror').verdict
    ).toBe('no-recorded-crash');
  });
});

describe('judgeFixed', () => {
  it.each<[string, IRunResult, number, NotebookVerdict]>([
    ['a clean run', run('completed', null), 2, 'pass'],
    ['an error at the target', run('crashed', 2, 'ValueError'), 2, 'fail'],
    ['an error after the target', run('crashed', 2, 'ValueError'), 1, 'fail'],
    [
      'an error before the target only',
      run('completed', 0, 'OSError'),
      2,
      'pass'
    ]
  ])('%s', (_, result, targetStep, expected) => {
    expect(judgeFixed(result, targetStep).verdict).toBe(expected);
  });
});

describe('caseVerdict', () => {
  it.each<[NotebookVerdict, NotebookVerdict, string]>([
    ['pass', 'pass', 'pass'],
    ['pass', 'fail', 'fail'],
    ['fail', 'pass', 'fail'],
    ['missing-data', 'pass', 'missing'],
    ['pass', 'missing-notebook', 'missing'],
    ['missing-dependency', 'not-run', 'missing'],
    ['timeout', 'pass', 'error'],
    ['no-recorded-crash', 'pass', 'fail']
  ])('%s + %s = %s', (a, b, expected) => {
    expect(caseVerdict(a, b)).toBe(expected);
  });
});

describe('alignCell', () => {
  const fixed: INotebookJSON = {
    cells: [
      { cell_type: 'markdown', source: '# Fixed' },
      { cell_type: 'code', source: 'import pandas as pd', execution_count: 1 },
      {
        cell_type: 'code',
        source: 'df = load()\ndf = df.dropna()',
        execution_count: 2
      },
      { cell_type: 'code', source: 'df.plot()', execution_count: 3 }
    ]
  };
  it('finds the most similar code cell', () => {
    expect(alignCell(reproduced, 2, fixed)).toBe(3);
    expect(alignCell(reproduced, 1, fixed)).toBe(2);
  });
  it('prefers the same cell id', () => {
    const withIds: INotebookJSON = {
      cells: [
        { cell_type: 'code', id: 'c', source: 'totally different' },
        ...fixed.cells
      ]
    };
    expect(alignCell(reproduced, 2, withIds)).toBe(0);
  });
  it('gives null without code cells', () => {
    expect(
      alignCell(reproduced, 2, {
        cells: [{ cell_type: 'markdown', source: 'x' }]
      })
    ).toBeNull();
  });
});
