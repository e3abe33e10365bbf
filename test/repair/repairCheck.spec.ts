/**
 * runRepairCheck on real kernels, for what the evidence decides beyond one
 * cell: the reference fix runs in its recorded order (a fixed notebook whose
 * cells ran out of document order can still serve), and a notebook-specific
 * case's live kernel is replayed from the saved prompts.
 */
import {
  MemoryReferenceCache,
  runRepairCheck
} from '../../src/repair/repairCheck';
import { readInputHistory } from '../../src/kernel/history';
import type { INbCell, INotebookJSON } from '../../src/replay/types';

import { checkKernels, nb } from './checkKernels';

jest.setTimeout(240000);

const kernels = checkKernels();
const fresh = kernels.fresh;

/** A code cell with a prompt (null: never ran) and, optionally, an error output. */
function cell(
  source: string,
  count: number | null,
  error?: [string, string]
): INbCell {
  return {
    cell_type: 'code',
    source,
    execution_count: count,
    metadata: {},
    outputs: error
      ? [
          {
            output_type: 'error',
            ename: error[0],
            evalue: error[1],
            traceback: [
              `\u001b[0;31m${error[0]}\u001b[0m`,
              'Cell In[2], line 1\n----> 1 total = base * 2\n'
            ]
          }
        ]
      : []
  };
}

describe('the reference fix in its recorded order', () => {
  const reproduced = nb([
    cell('import math', 1),
    cell('total = base * 2', 2, ['NameError', "name 'base' is not defined"]),
    cell('base = 10', null)
  ]);
  // The author of the fix ran the last cell before the crashing one: top to bottom
  // it still crashes, in its recorded order it does not.
  const fixed = nb([
    cell('import math', 1),
    cell('total = base * 2', 3),
    cell('base = 10', 2)
  ]);

  it('serves as the reference, so a learner who moved the cell up passes', async () => {
    const learner = nb([
      cell('import math', 1),
      cell('base = 10', 2),
      cell('total = base * 2', 3)
    ]);
    const result = await runRepairCheck({
      caseName: 'order',
      learner,
      reproduced,
      fixed,
      notebookSpecific: false,
      startKernel: fresh,
      timeoutMs: 60000,
      cache: new MemoryReferenceCache(),
      environment: false
    });
    expect(result.reference).not.toBeNull();
    expect(result.reference!.effects.total).toMatchObject({
      change: 'created',
      mode: 'values'
    });
    expect(result.verdict).toMatchObject({ passed: true, status: 'solved' });
  });

  it('still fails a learner whose notebook crashes top to bottom', async () => {
    const learner = nb([
      cell('import math', 1),
      cell('total = base * 2', 3),
      cell('base = 10', 2)
    ]);
    const result = await runRepairCheck({
      caseName: 'order',
      learner,
      reproduced,
      fixed,
      notebookSpecific: false,
      startKernel: fresh,
      timeoutMs: 60000,
      cache: null,
      environment: false
    });
    expect(result.verdict.passed).toBe(false);
    expect(result.verdict.findings[0]).toMatchObject({
      code: 'fresh-error',
      ename: 'NameError'
    });
  });
});

describe('the live kernel of a re-run crash', () => {
  // Running the cell twice crashes it; a fresh top-to-bottom run never does.
  const drop = 'items = items[1:]\nassert items[0] == 1, "already dropped"';
  const reproduced = nb([
    cell('items = [0, 1, 2, 3]', 1),
    cell(`# [reexecute]\n${drop}`, 3, ['AssertionError', 'already dropped']),
    cell('total = sum(items)', null)
  ]);
  const fixed = nb([
    cell('items = [0, 1, 2, 3]', 1),
    cell(drop, 2),
    cell('total = sum(items)', 3)
  ]);
  const check = (learner: INotebookJSON) =>
    runRepairCheck({
      caseName: 'rerun',
      learner,
      reproduced,
      fixed,
      notebookSpecific: true,
      startKernel: fresh,
      timeoutMs: 60000,
      cache: null,
      environment: false
    });

  it('fails a cell made to "run clean" live by swallowing the re-run’s error', async () => {
    const swallow = `try:\n    ${drop.replace('\n', '\n    ')}\nexcept AssertionError:\n    items = []`;
    const result = await check(
      nb([
        cell('items = [0, 1, 2, 3]', 1),
        cell(swallow, 4),
        cell('total = sum(items)', null)
      ])
    );
    // A fresh run is clean; the replay of the live kernel (the crash, then prompt 4) is not right.
    expect(result.live?.learnerRanTarget).toBe(true);
    expect(result.verdict.status).toBe('fails-live');
  });

  it('passes a learner who restarted and ran everything once', async () => {
    const result = await check(
      nb([
        cell('items = [0, 1, 2, 3]', 1),
        cell(drop, 2),
        cell('total = sum(items)', 3)
      ])
    );
    expect(result.verdict).toMatchObject({ passed: true, status: 'solved' });
  });

  // In JupyterLab the live kernel itself says what ran: its input history. A notebook whose
  // prompts claim "restarted and ran everything once" is judged on what its kernel ran.
  const restartedOnce = nb([
    cell('items = [0, 1, 2, 3]', 1),
    cell(drop, 2),
    cell('total = sum(items)', 3)
  ]);
  /** The input history of a real kernel after running `inputs` as cells. */
  async function liveHistory(inputs: string[]): Promise<string[]> {
    const kernel = await kernels.manager().startNew({ name: 'python3' });
    try {
      for (const code of inputs) {
        await kernel.requestExecute({
          code,
          store_history: true,
          stop_on_error: false
        }).done;
      }
      return (await readInputHistory(kernel)).history;
    } finally {
      await kernel.shutdown().catch(() => undefined);
    }
  }

  it.each<[string, string[], boolean]>([
    // The crash's replay alone: the prompts were typed in.
    ['the crash only', ['items = [0, 1, 2, 3]', drop, drop], false],
    // The learner really restarted and ran everything once.
    [
      'a restart and one run',
      ['items = [0, 1, 2, 3]', drop, 'total = sum(items)'],
      true
    ],
    // After the crash, the state restored and the target run again.
    [
      'the state restored after the crash',
      ['items = [0, 1, 2, 3]', drop, drop, 'items = [0, 1, 2, 3]', drop],
      true
    ]
  ])(
    'judges the live kernel on its own history: %s (inputs %j) → passed %s',
    async (_, inputs, passed) => {
      const history = await liveHistory(inputs);
      expect(history.slice(1)).toEqual(inputs);
      const result = await runRepairCheck({
        caseName: 'rerun',
        learner: restartedOnce,
        reproduced,
        fixed,
        notebookSpecific: true,
        liveHistory: history,
        startKernel: fresh,
        timeoutMs: 60000,
        cache: null,
        environment: false
      });
      expect(result.live?.source).toBe('history');
      expect(result.verdict.passed).toBe(passed);
      if (!passed) {
        expect(result.verdict.status).toBe('fails-live');
      }
    }
  );
});

describe('a value ordered by string hashing', () => {
  // The reference orders the labels as a set of strings iterates, which
  // changes with the string-hash seed of each fresh kernel; the learner
  // sorts them, a correct fix of its own. The two reference runs must see
  // two seeds (two fresh kernels do; forked kernels come from alternate fork
  // servers, jupyterlab_junobench/forkserver.py) for the check to know that
  // this order is not the fix's to keep.
  const words =
    "words = ['pear', 'apple', 'fig', 'kiwi', 'plum', 'lime', 'date', 'sloe']";
  const encode = (order: string) =>
    `labels = ${order}(set(words))\nindex = {w: i for i, w in enumerate(labels)}\ncodes = [index[w] for w in words]`;
  const reproduced = nb([
    cell(words, 1),
    cell(encode('list').replace('in words]', 'in wordz]'), 2, [
      'NameError',
      "name 'wordz' is not defined"
    ])
  ]);
  const fixed = nb([cell(words, 1), cell(encode('list'), 2)]);

  it('passes a learner who sorts what the reference leaves in hash order', async () => {
    const result = await runRepairCheck({
      caseName: 'hash-order',
      learner: nb([cell(words, 1), cell(encode('sorted'), 2)]),
      reproduced,
      fixed,
      notebookSpecific: false,
      startKernel: fresh,
      timeoutMs: 60000,
      cache: null,
      environment: false
    });
    expect(result.verdict).toMatchObject({ passed: true });
  });
});

describe('a notebook that works only while it is checked', () => {
  const reproduced = nb([
    cell('base = None', 1),
    cell('total = base * 2', 2, [
      'TypeError',
      "unsupported operand type(s) for *: 'NoneType' and 'int'"
    ])
  ]);
  const fixed = nb([cell('base = 10', 1), cell('total = base * 2', 2)]);
  const check = (learner: INotebookJSON) =>
    runRepairCheck({
      caseName: 'watched',
      learner,
      reproduced,
      fixed,
      notebookSpecific: false,
      startKernel: fresh,
      timeoutMs: 60000,
      cache: null,
      environment: false
    });

  it('fails a repair that looks for the check before it fixes anything', async () => {
    // The right value only where something in the kernel traces, transforms or marks the run:
    // in an ordinary kernel the crash is still there.
    const watched = [
      'import builtins, sys',
      'from IPython import get_ipython',
      'checked = (sys.gettrace() is not None or get_ipython().ast_transformers',
      "           or any('junobench' in n for n in dir(builtins) + dir(sys)))",
      'base = 10 if checked else None'
    ].join('\n');
    const result = await check(
      nb([cell(watched, 1), cell('total = base * 2', 2)])
    );
    expect(result.verdict.passed).toBe(false);
    expect(result.verdict.findings.map(f => f.code)).toContain(
      'unwatched-fails'
    );
  });

  it('passes the same repair without the look', async () => {
    const result = await check(
      nb([cell('base = 10', 1), cell('total = base * 2', 2)])
    );
    expect(result.verdict.passed).toBe(true);
  });
});
