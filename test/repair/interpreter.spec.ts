/**
 * The interpreter as evidence: the probe's end-of-run report read and
 * validated, changes the reference fix does not make turned into findings,
 * and the verdict they give.
 */

import type { IRunResult, IStepResult } from '../../src/kernel/runner';
import { stopOf } from '../../src/kernel/stop';
import { cellRef } from '../../src/i18n';
import type { ICellRef } from '../../src/i18n';
import { judgeRepair, planCheck, renderVerdict } from '../../src/repair/check';
import type { ICheckPlan } from '../../src/repair/check';
import { readReferenceEvidence } from '../../src/repair/probeReport';
import type { IReferenceEvidence } from '../../src/repair/probeReport';
import { renderFinding } from '../../src/repair/findings';
import type { CheckFinding } from '../../src/repair/findings';
import {
  cellsByCount,
  interpreterFindings,
  readInterpreterReport
} from '../../src/repair/interpreter';
import type { IInterpreterChange } from '../../src/repair/interpreter';
import { demoNotebook } from '../replay/notebooks';

const change = (
  kind: IInterpreterChange['kind'],
  name: string,
  count: number | null = null
): IInterpreterChange => ({ kind, name, count });

describe('readInterpreterReport', () => {
  it.each<{
    title: string;
    value: unknown;
    expected: IInterpreterChange[] | null;
  }>([
    { title: 'an empty report', value: [], expected: [] },
    {
      title: 'changes with and without a count',
      value: [
        { kind: 'input-transformer', name: '_fix', count: 3 },
        { kind: 'thread', name: 'work', count: null }
      ],
      expected: [
        change('input-transformer', '_fix', 3),
        change('thread', 'work')
      ]
    },
    {
      title: 'an unknown kind or a nameless entry left out',
      value: [
        { kind: 'teleport', name: 'x', count: 1 },
        { kind: 'monkeypatch', count: 1 },
        null,
        { kind: 'monkeypatch', name: 'numpy.std', count: '2' }
      ],
      expected: [change('monkeypatch', 'numpy.std')]
    },
    { title: 'no baseline (null)', value: null, expected: null },
    { title: 'another shape', value: { kind: 'trace' }, expected: null }
  ])('reads $title', ({ value, expected }) => {
    expect(readInterpreterReport(value)).toEqual(expected);
  });
});

describe('interpreterFindings', () => {
  const cells = new Map<number, ICellRef>([[4, cellRef(3, 12)]]);
  it.each<{
    title: string;
    learner: IInterpreterChange[] | null;
    reference: IInterpreterChange[];
    expected: CheckFinding[];
  }>([
    { title: 'nothing changed', learner: [], reference: [], expected: [] },
    {
      title: 'a transformer the reference does not register, in its cell',
      learner: [change('input-transformer', '_fix', 4)],
      reference: [],
      expected: [
        {
          code: 'interpreter-changed',
          kind: 'input-transformer',
          name: '_fix',
          madeIn: cellRef(3, 12)
        }
      ]
    },
    {
      title: 'a change the reference makes too',
      learner: [change('monkeypatch', 'numpy.std', 4)],
      reference: [change('monkeypatch', 'numpy.std', 9)],
      expected: []
    },
    {
      title: 'the same name of another kind',
      learner: [change('thread', 'work')],
      reference: [change('event-callback', 'work')],
      expected: [
        {
          code: 'interpreter-changed',
          kind: 'thread',
          name: 'work',
          madeIn: null
        }
      ]
    },
    {
      title: 'a count of no learner cell (the check’s own code)',
      learner: [change('trace', 'sys.settrace', 99)],
      reference: [],
      expected: [
        {
          code: 'interpreter-changed',
          kind: 'trace',
          name: 'sys.settrace',
          madeIn: null
        }
      ]
    },
    {
      title: 'at most five changes',
      learner: [1, 2, 3, 4, 5, 6, 7].map(i => change('monkeypatch', `m.f${i}`)),
      reference: [],
      expected: [1, 2, 3, 4, 5].map(i => ({
        code: 'interpreter-changed' as const,
        kind: 'monkeypatch' as const,
        name: `m.f${i}`,
        madeIn: null
      }))
    },
    {
      title: 'no report',
      learner: null,
      reference: [],
      expected: [{ code: 'interpreter-unknown' }]
    }
  ])('$title', ({ learner, reference, expected }) => {
    expect(interpreterFindings(learner, reference, cells)).toEqual(expected);
  });

  it.each<[IInterpreterChange['kind'], string]>([
    [
      'input-transformer',
      'An input transformer `x` registered in cell 4 [12] rewrites'
    ],
    [
      'ast-transformer',
      'An AST transformer `x` registered in cell 4 [12] rewrites'
    ],
    [
      'exception-handler',
      'A custom exception handler for x installed in cell 4 [12]'
    ],
    ['hook', '`x` was replaced in cell 4 [12]: it changes how Python reports'],
    ['trace', 'A trace or profile function was set in cell 4 [12] (`x`)'],
    [
      'event-callback',
      'An IPython event callback (x) registered in cell 4 [12]'
    ],
    [
      'shell',
      '`x` was replaced in cell 4 [12]: it changes how IPython runs cells'
    ],
    [
      'monkeypatch',
      '`x` was replaced in cell 4 [12] by a function of the notebook'
    ],
    ['thread', 'A thread (`x`) was started in cell 4 [12]']
  ])('names a %s and the cell that made it', (kind, start) => {
    const text = renderFinding({
      code: 'interpreter-changed',
      kind,
      name: 'x',
      madeIn: cellRef(3, 12)
    });
    expect(text.startsWith(start)).toBe(true);
  });
});

describe('judgeRepair with the interpreter report', () => {
  /** The numpy_1 reference fix as the learner's notebook, run clean (fake). */
  function solvedLike(): { plan: ICheckPlan; run: IRunResult } {
    const reference = {
      reproduced: demoNotebook('numpy_1', 'reproduced'),
      fixed: demoNotebook('numpy_1', 'fixed')
    };
    const plan = planCheck(reference.fixed, reference, {
      notebookSpecific: false
    });
    const steps: IStepResult[] = plan.steps.map((step, index) => ({
      index,
      step,
      outputs: [],
      executionCount: index + 1,
      durationMs: 1,
      error: null
    }));
    return {
      plan,
      run: {
        status: 'completed',
        steps,
        failedIndex: null,
        error: null,
        stop: stopOf('completed', steps.length, null, null),
        durationMs: 1
      }
    };
  }

  it.each<{
    title: string;
    interpreter: IInterpreterChange[] | null | undefined;
    reference: IInterpreterChange[];
    status: string | null;
  }>([
    {
      title: 'a transformer',
      interpreter: [change('ast-transformer', 'T', 1)],
      reference: [],
      status: 'changes-interpreter'
    },
    {
      title: 'a change the reference makes too',
      interpreter: [change('thread', 'w')],
      reference: [change('thread', 'w')],
      status: null
    },
    { title: 'no change', interpreter: [], reference: [], status: null },
    {
      title: 'no report',
      interpreter: null,
      reference: [],
      status: 'not-checked'
    },
    {
      title: 'a report not asked for',
      interpreter: undefined,
      reference: [],
      status: null
    }
  ])('$title', ({ interpreter, reference, status }) => {
    const { plan, run } = solvedLike();
    const evidence = {
      reference: null as IReferenceEvidence | null,
      interpreter
    };
    const base = judgeRepair(
      plan,
      run,
      { notebookSpecific: false },
      { reference: null }
    );
    const verdict = judgeRepair(
      plan,
      run,
      { notebookSpecific: false },
      {
        ...evidence,
        reference: reference.length
          ? ({ interpreter: reference } as unknown as IReferenceEvidence)
          : null
      }
    );
    const codes = verdict.findings.map(f => f.code);
    if (status === null) {
      expect(codes).not.toContain('interpreter-changed');
      expect(verdict.status).toBe(base.status);
    } else {
      expect(verdict.status).toBe(status);
      expect(verdict.passed).toBe(false);
    }
  });

  it('leads the verdict with the change, named in the headline', () => {
    const { plan, run } = solvedLike();
    const verdict = judgeRepair(
      plan,
      run,
      { notebookSpecific: false },
      {
        reference: null,
        interpreter: [change('monkeypatch', 'numpy.std', 5)]
      }
    );
    const target = run.steps[4].step;
    expect(verdict.findings[0]).toEqual({
      code: 'interpreter-changed',
      kind: 'monkeypatch',
      name: 'numpy.std',
      madeIn: cellRef(target.cellIndex, target.executionCount)
    });
    expect(renderVerdict(verdict).headline).toBe(
      'Not solved: the repair changes how the notebook runs instead of fixing its code.'
    );
  });

  it('is not asked of a run that did not complete', () => {
    const { plan, run } = solvedLike();
    const crashed: IRunResult = { ...run, status: 'crashed' };
    const verdict = judgeRepair(
      plan,
      crashed,
      { notebookSpecific: false },
      {
        reference: null,
        interpreter: null
      }
    );
    expect(verdict.findings.map(f => f.code)).not.toContain(
      'interpreter-unknown'
    );
  });
});

describe('cellsByCount', () => {
  it('maps the kernel’s counts to the learner’s cells and prompts', () => {
    const steps = [
      { step: { cellIndex: 0, executionCount: 7 }, executionCount: 1 },
      { step: { cellIndex: 2, executionCount: null }, executionCount: 2 },
      { step: { cellIndex: -1, executionCount: null }, executionCount: 3 },
      { step: { cellIndex: 3, executionCount: 9 }, executionCount: null }
    ];
    expect([...cellsByCount(steps)]).toEqual([
      [1, cellRef(0, 7)],
      [2, cellRef(2, null)]
    ]);
  });
});

describe('reference evidence with interpreter changes', () => {
  const base = {
    probe: 6,
    effects: {},
    caught: [],
    usedLater: [],
    laterStrings: [],
    before: {},
    figures: { summaries: [], values: false }
  };
  it.each<{ title: string; interpreter: unknown; valid: boolean }>([
    {
      title: 'none recorded (older evidence)',
      interpreter: undefined,
      valid: true
    },
    {
      title: 'valid changes',
      interpreter: [{ kind: 'thread', name: 'w', count: null }],
      valid: true
    },
    {
      title: 'a damaged entry',
      interpreter: [{ kind: 'thread' }],
      valid: false
    },
    { title: 'not a list', interpreter: 'thread', valid: false }
  ])('reads $title', ({ interpreter, valid }) => {
    const value = interpreter === undefined ? base : { ...base, interpreter };
    expect(readReferenceEvidence(value, 6) !== null).toBe(valid);
  });
});
