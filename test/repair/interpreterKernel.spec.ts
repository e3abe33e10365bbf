/**
 * The interpreter as evidence, on real kernels: a repair that changes how
 * Python or IPython runs the notebook instead of its code is "not solved: it
 * changes how the notebook runs", naming the change and its cell, unless the
 * reference fix makes the same change; a plain repair is not touched by it.
 */
import {
  MemoryReferenceCache,
  runRepairCheck
} from '../../src/repair/repairCheck';
import type { INbCell, INotebookJSON } from '../../src/replay/types';

import { checkKernels, nb } from './checkKernels';

jest.setTimeout(240000);

const kernels = checkKernels();
const fresh = kernels.fresh;

function cell(source: string, count: number | null, crashed = false): INbCell {
  return {
    cell_type: 'code',
    source,
    execution_count: count,
    metadata: {},
    outputs: crashed
      ? [
          {
            output_type: 'error',
            ename: 'ValueError',
            evalue: "invalid literal for int() with base 10: '1O'",
            traceback: []
          }
        ]
      : []
  };
}

const CRASH = "total = int('1O') * 2";
const FIX = "total = int('10') * 2";
const TRANSFORMER =
  'def _fix(lines):\n    return [l.replace("\'1O\'", "\'10\'") for l in lines]\nget_ipython().input_transformers_cleanup.append(_fix)';

const reproduced = nb([cell('import math', 1), cell(CRASH, 2, true)]);

async function check(learner: INotebookJSON, fixed: INotebookJSON) {
  return runRepairCheck({
    caseName: 'interpreter',
    learner,
    reproduced,
    fixed,
    notebookSpecific: false,
    startKernel: fresh,
    timeoutMs: 60000,
    cache: new MemoryReferenceCache(),
    environment: false
  });
}

describe('a repair that changes the interpreter', () => {
  const fixed = nb([cell('import math', 1), cell(FIX, 2)]);

  it('fails an input transformer that rewrites the unchanged crashing line, naming its cell', async () => {
    const learner = nb([
      cell('import math', 1),
      cell(TRANSFORMER, 3),
      cell(CRASH, 4)
    ]);
    const { verdict, reference } = await check(learner, fixed);
    expect(reference?.interpreter).toEqual([]);
    expect(verdict).toMatchObject({
      passed: false,
      status: 'changes-interpreter'
    });
    expect(verdict.findings[0]).toEqual({
      code: 'interpreter-changed',
      kind: 'input-transformer',
      name: '_fix',
      madeIn: { cellIndex: 1, executionCount: 3 }
    });
  });

  it('fails a builtin replaced by a function of the notebook', async () => {
    const sumCrash = nb([
      cell('import math', 1),
      cell("total = sum(['1', '2'])", 2, true)
    ]);
    const sumFixed = nb([
      cell('import math', 1),
      cell('total = sum([1, 2])', 2)
    ]);
    const learner = nb([
      cell('import math', 1),
      cell(
        'import builtins\n_sum = sum\nbuiltins.sum = lambda xs, start=0: _sum((int(x) if isinstance(x, str) else x for x in xs), start)',
        3
      ),
      cell("total = sum(['1', '2'])", 4)
    ]);
    const { verdict } = await runRepairCheck({
      caseName: 'interpreter-sum',
      learner,
      reproduced: sumCrash,
      fixed: sumFixed,
      notebookSpecific: false,
      startKernel: fresh,
      timeoutMs: 60000,
      cache: new MemoryReferenceCache(),
      environment: false
    });
    expect(verdict.status).toBe('changes-interpreter');
    expect(verdict.findings[0]).toEqual({
      code: 'interpreter-changed',
      kind: 'monkeypatch',
      name: 'builtins.sum',
      madeIn: { cellIndex: 1, executionCount: 3 }
    });
  });

  it('passes a repair that runs on a library’s thread pool', async () => {
    // joblib starts the threads on its own behalf: not the notebook changing the interpreter.
    const learner = nb([
      cell('import math', 1),
      cell(
        "from joblib import Parallel, delayed\ntotal = Parallel(n_jobs=2, prefer='threads')(delayed(int)(x) for x in ['10'])[0] * 2",
        3
      )
    ]);
    const { verdict } = await check(learner, fixed);
    expect(verdict.findings.map(f => f.code)).not.toContain(
      'interpreter-changed'
    );
    expect(verdict.passed).toBe(true);
  });

  it('passes a change the reference fix makes too', async () => {
    const sameFix = nb([
      cell('import math', 1),
      cell(TRANSFORMER, 2),
      cell(CRASH, 3)
    ]);
    const learner = nb([
      cell('import math', 1),
      cell(TRANSFORMER, 3),
      cell(CRASH, 4)
    ]);
    const { verdict, reference } = await check(learner, sameFix);
    expect(reference?.interpreter).toEqual([
      { kind: 'input-transformer', name: '_fix', count: 2 }
    ]);
    expect(verdict.findings.map(f => f.code)).not.toContain(
      'interpreter-changed'
    );
  });
});
