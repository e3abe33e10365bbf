import type { IRunResult, IStepResult } from '../../src/kernel/runner';
import { recordedPlan } from '../../src/replay/plan';
import type { INotebookJSON, IReplayPlan } from '../../src/replay/types';
import { alignCell } from '../../src/verify/align';
import {
  caseVerdict,
  judgeFixed,
  judgeReproduced
} from '../../src/verify/verdict';
import type { NotebookVerdict } from '../../src/verify/verdict';
import { stopOf } from '../../src/kernel/stop';

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
  ],
  nbformat: 4
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
    stop: stopOf(status, results.length, null, error),
    durationMs: 3
  };
}

/** Fixed notebook: a markdown cell, then cells 2 [1], 3 [2] and 4 [3]. */
const fixedPlan = recordedPlan({
  cells: [
    { cell_type: 'markdown', source: '# Fixed' },
    {
      cell_type: 'code',
      source: 'import junobench_no_such_module\nimport pandas as pd',
      execution_count: 1,
      outputs: []
    },
    { cell_type: 'code', source: 'df = load()', execution_count: 2 },
    { cell_type: 'code', source: 'df.plot()', execution_count: 3 }
  ],
  nbformat: 4
});

/** One error a step raised: name, message and traceback. */
type StepError = [string, string, string[]?];

/**
 * A run of the first `ran` steps of `p` that went on past the errors given by
 * step index, ending with `status` (a crash ends at the last step that ran).
 */
function runOn(
  p: IReplayPlan,
  status: IRunResult['status'],
  errors: Record<number, StepError>,
  ran = p.steps.length
): IRunResult {
  const results: IStepResult[] = p.steps.slice(0, ran).map((step, index) => {
    const e = errors[index];
    return {
      index,
      step,
      outputs: [],
      executionCount: index + 1,
      durationMs: 1,
      error: e
        ? { ename: e[0], evalue: e[1], traceback: e[2] ?? [], line: 1 }
        : null
    };
  });
  const failed = status === 'completed' ? null : ran - 1;
  return {
    status,
    steps: results,
    failedIndex: failed,
    error: failed === null ? null : results[failed].error,
    stop: stopOf(
      status,
      results.length,
      null,
      failed === null ? null : results[failed].error
    ),
    durationMs: 3
  };
}

const NO_MODULE: StepError = [
  'ModuleNotFoundError',
  "No module named 'junobench_no_such_module'"
];
const NOT_INSTALLED =
  /^Module 'junobench_no_such_module' is not installed \(ModuleNotFoundError in cell 2 \[1\]\)\.$/;

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
      ],
      nbformat: 4
    });
    expect(
      judgeReproduced(clean, run('completed', null), 'nameerror').verdict
    ).toBe('no-recorded-crash');
  });
});

describe('judgeReproduced with a module missing', () => {
  it.each<[string, IRunResult, string, NotebookVerdict, RegExp]>([
    [
      'in the first cell, the run stopping there',
      runOn(plan, 'crashed', { 0: NO_MODULE }, 1),
      'nameerror',
      'missing-dependency',
      /^Module 'junobench_no_such_module' is not installed \(ModuleNotFoundError in cell 1 \[1\]\)\.$/
    ],
    [
      'before the target, the run going on to crash there as recorded',
      runOn(plan, 'crashed', { 0: NO_MODULE, 2: ['NameError', 'x'] }),
      'nameerror',
      'missing-dependency',
      /^Module 'junobench_no_such_module' is not installed \(ModuleNotFoundError in cell 1 \[1\]\)\.$/
    ],
    [
      'before the target, the run going on to the end',
      runOn(plan, 'completed', { 1: NO_MODULE }),
      'nameerror',
      'missing-dependency',
      /^Module 'junobench_no_such_module' is not installed \(ModuleNotFoundError in cell 2 \[2\]\)\.$/
    ],
    [
      'before the target, the run going on to time out',
      runOn(plan, 'timeout', { 0: NO_MODULE }),
      'nameerror',
      'missing-dependency',
      /junobench_no_such_module.*cell 1 \[1\]/
    ],
    [
      'at the target, with another exception recorded',
      runOn(plan, 'crashed', {
        2: ['builtins.ImportError', "No module named 'seaborn'"]
      }),
      'nameerror',
      'missing-dependency',
      /^Module 'seaborn' is not installed \(builtins\.ImportError in cell 3 \[3\]\)\.$/
    ],
    [
      'at the target, as recorded',
      runOn(plan, 'crashed', { 2: NO_MODULE }),
      'modulenotfounderror',
      'pass',
      /as recorded/
    ],
    [
      'only named in the message of another exception',
      runOn(plan, 'crashed', { 1: ['ValueError', "No module named 'x'"] }, 2),
      'nameerror',
      'fail',
      /at cell 2 \[2\] instead of the target cell 3 \[3\]/
    ]
  ])('%s', (_, result, recorded, verdict, reason) => {
    const judgement = judgeReproduced(plan, result, recorded);
    expect(judgement.verdict).toBe(verdict);
    expect(judgement.reason).toMatch(reason);
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
    ],
    // The interrupt of a timed-out cell shows as its KeyboardInterrupt.
    [
      'a timeout at the target',
      run('timeout', 2, 'KeyboardInterrupt'),
      2,
      'timeout'
    ]
  ])('%s', (_, result, targetStep, expected) => {
    expect(judgeFixed(result, targetStep).verdict).toBe(expected);
  });
});

describe('judgeFixed with a module missing', () => {
  it.each<[string, IRunResult, number, NotebookVerdict, RegExp]>([
    [
      'in the first cell, the target then failing on the name it lacks',
      runOn(fixedPlan, 'crashed', {
        0: NO_MODULE,
        2: ['NameError', "name 'df' is not defined"]
      }),
      2,
      'missing-dependency',
      NOT_INSTALLED
    ],
    [
      'in the first cell, the run going on cleanly to the end',
      runOn(fixedPlan, 'completed', { 0: NO_MODULE }),
      2,
      'missing-dependency',
      NOT_INSTALLED
    ],
    [
      'in the first cell, then more errors before the target',
      runOn(fixedPlan, 'completed', {
        0: NO_MODULE,
        1: ['NameError', "name 'load' is not defined"]
      }),
      2,
      'missing-dependency',
      NOT_INSTALLED
    ],
    [
      'in the first cell, then a timeout at the target',
      runOn(fixedPlan, 'timeout', { 0: NO_MODULE }),
      2,
      'missing-dependency',
      NOT_INSTALLED
    ],
    [
      'in the first cell, which is the target',
      runOn(fixedPlan, 'crashed', { 0: NO_MODULE }, 1),
      0,
      'missing-dependency',
      NOT_INSTALLED
    ],
    [
      'after the target',
      runOn(fixedPlan, 'crashed', { 2: NO_MODULE }),
      1,
      'missing-dependency',
      /^Module 'junobench_no_such_module' is not installed \(ModuleNotFoundError in cell 4 \[3\]\)\.$/
    ],
    [
      'a name the installed version lacks, before the target',
      runOn(fixedPlan, 'crashed', {
        1: [
          'ImportError',
          "cannot import name 'load' from 'sklearn.datasets' (/x/__init__.py)"
        ],
        2: ['ValueError', 'bad']
      }),
      2,
      'missing-dependency',
      /^Module 'sklearn\.datasets' has no 'load': another version may be installed \(ImportError in cell 3 \[2\]\)\.$/
    ],
    [
      'a shared library the module needs, named by the traceback',
      runOn(fixedPlan, 'completed', {
        0: [
          'ImportError',
          'libGL.so.1: cannot open shared object file',
          [
            'ImportError                               Traceback (most recent call last)',
            'Cell In[1], line 1\n----> 1 import cv2\n      2 import pandas as pd',
            'File /x/cv2/__init__.py:181\n--> 181 from .cv2 import *'
          ]
        ]
      }),
      2,
      'missing-dependency',
      /^Module 'cv2' cannot be imported \(ImportError: libGL\.so\.1: cannot open shared object file in cell 2 \[1\]\)\.$/
    ],
    [
      'only named in the message of another exception',
      runOn(fixedPlan, 'crashed', {
        0: ['ValueError', "No module named 'x'"],
        2: ['NameError', "name 'df' is not defined"]
      }),
      2,
      'fail',
      /raised NameError at step 3/
    ]
  ])('%s', (_, result, targetStep, verdict, reason) => {
    const judgement = judgeFixed(result, targetStep);
    expect(judgement.verdict).toBe(verdict);
    expect(judgement.reason).toMatch(reason);
  });

  it('reports the missing module as what it observed', () => {
    const judgement = judgeFixed(
      runOn(fixedPlan, 'crashed', { 0: NO_MODULE, 2: ['NameError', 'x'] }),
      2
    );
    expect(judgement.observed).toBe(
      "ModuleNotFoundError: No module named 'junobench_no_such_module'"
    );
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
    ],
    nbformat: 4
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
      ],
      nbformat: 4
    };
    expect(alignCell(reproduced, 2, withIds)).toBe(0);
  });
  it('gives null without code cells', () => {
    expect(
      alignCell(reproduced, 2, {
        cells: [{ cell_type: 'markdown', source: 'x' }],
        nbformat: 4
      })
    ).toBeNull();
  });
});
