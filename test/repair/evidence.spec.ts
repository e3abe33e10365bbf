/**
 * The evidence rules of the repair check as pure functions: which lines ran,
 * which exceptions were swallowed, when two values count as the same effect,
 * and the verdicts `judgeRepair` gives a fresh run carrying probe reports.
 */

import type { IRunResult, IStepResult } from '../../src/kernel/runner';
import { judgeRepair, planCheck, renderVerdict } from '../../src/repair/check';
import type { ICheckPlan } from '../../src/repair/check';
import {
  compareEffects,
  compareSummaries,
  lineEvidence,
  referenceEvidence,
  swallowedExceptions,
  unchangedOnOtherData,
  valuesMoved,
  columnMoved
} from '../../src/repair/evidence';
import { readProbeReport, readRounding } from '../../src/repair/probeReport';
import type {
  CompareMode,
  IEffectReport,
  IProbeReport,
  ITracedException,
  ITraceReport,
  IUnit
} from '../../src/repair/probeReport';
import type { IValueSummary } from '../../src/state/values';
import { cellRef } from '../../src/i18n';
import { cellName, english, renderFinding } from '../../src/repair/findings';
import { sourceText } from '../../src/replay/plan';
import type { INotebookJSON } from '../../src/replay/types';
import { demoNotebook } from '../replay/notebooks';
import { stopOf } from '../../src/kernel/stop';
import type { KernelFate } from '../../src/kernel/stop';

const load = demoNotebook;

function trace(partial: Partial<ITraceReport>): ITraceReport {
  return {
    lines: [],
    exceptions: [],
    spans: [],
    stringLines: [],
    units: null,
    instrumented: true,
    ...partial
  };
}

/** A namespace effect with the report's other parts empty. */
function effect(
  changes: IEffectReport['changes'],
  after: IEffectReport['after'],
  roles: IEffectReport['roles'] = {}
): IEffectReport {
  return { changes, after, before: {}, figures: [], roles };
}

const ARRAY: IValueSummary = {
  type: 'numpy.ndarray',
  shape: [30, 4],
  dtype: 'float64',
  nan: 0,
  sum: 12.5,
  abs: 40,
  min: -2,
  max: 3,
  constant: false
};

describe('lineEvidence', () => {
  const t = trace({
    lines: [1, 2, 4],
    spans: [
      [1, 1, 'Assign'],
      [2, 3, 'If'],
      [3, 3, 'Assign'],
      [4, 6, 'Assign'],
      [7, 9, 'String']
    ],
    stringLines: [8, 9]
  });
  it.each([
    [1, true, false, 'a simple statement that ran'],
    [3, false, false, 'the body of an if that was false'],
    [5, true, false, 'a later line of a multi-line statement that ran'],
    [8, false, true, 'a line inside a string literal'],
    [7, false, true, 'the first line of a bare string statement']
  ])(
    'line %i: executed %s, in a string %s (%s)',
    (line, executed, inString) => {
      const e = lineEvidence(t, line);
      expect(e.executed).toBe(executed);
      expect(e.inString).toBe(inString);
    }
  );
});

describe('swallowedExceptions', () => {
  const t = trace({
    exceptions: [
      { ename: 'KeyError', evalue: "'x'", line: 2 },
      { ename: 'StopIteration', evalue: '', line: 3 }
    ]
  });
  it('lists what a clean cell caught, benign ones left out', () => {
    expect(swallowedExceptions(t, false).map(e => e.ename)).toEqual([
      'KeyError'
    ]);
  });
  it('lists nothing for a cell that failed (the error escaped)', () => {
    expect(swallowedExceptions(t, true)).toEqual([]);
  });
});

describe('compareSummaries', () => {
  it.each<[string, IValueSummary, CompareMode, string | null]>([
    ['the same array', { ...ARRAY }, 'values', null],
    ['a float rounding away', { ...ARRAY, sum: 12.5 + 1e-10 }, 'values', null],
    ['other values', { ...ARRAY, sum: 13 }, 'values', 'value'],
    ['other values, structure only', { ...ARRAY, sum: 13 }, 'structure', null],
    ['another shape', { ...ARRAY, shape: [30, 3] }, 'structure', 'shape'],
    [
      'int instead of float',
      { ...ARRAY, dtype: 'int64' },
      'structure',
      'dtype'
    ],
    ['float32 for float64', { ...ARRAY, dtype: 'float32' }, 'structure', null],
    [
      'a constant where the reference varies',
      { ...ARRAY, sum: 13, constant: true },
      'structure',
      'constant'
    ],
    ['a list instead', { type: 'builtins.list', len: 30 }, 'type', 'type']
  ])('%s → %s', (_, actual, mode, aspect) => {
    expect(compareSummaries(ARRAY, actual, mode)?.aspect ?? null).toBe(aspect);
  });

  it('treats Python and numpy numbers as one type, compared by value', () => {
    const a = { type: 'numpy.float64', value: 0.25 };
    expect(
      compareSummaries(a, { type: 'builtins.float', value: 0.25 }, 'values')
    ).toBeNull();
    expect(
      compareSummaries(a, { type: 'builtins.int', value: 0 }, 'values')?.aspect
    ).toBe('value');
  });

  it('names the columns a frame lacks', () => {
    const frame = {
      type: 'pandas.DataFrame',
      shape: [10, 3],
      columns: ['a', 'b', 'c'],
      dtypes: ['int64', 'int64', 'int64']
    };
    const d = compareSummaries(
      frame,
      { ...frame, shape: [10, 3], columns: ['a', 'b', 'customer_id'] },
      'structure'
    );
    expect(d).toMatchObject({ aspect: 'columns', expected: 'column c' });
  });

  it('tells a fitted estimator from an unfitted one', () => {
    const fitted = { type: 'sklearn.linear_model._ridge.Ridge', fitted: true };
    expect(
      compareSummaries(fitted, { ...fitted, fitted: false }, 'structure')
        ?.aspect
    ).toBe('fitted');
  });
});

describe('referenceEvidence and compareEffects', () => {
  const run = (
    sum: number,
    extra: Record<string, IValueSummary> = {}
  ): IProbeReport => ({
    trace: trace({
      exceptions: [{ ename: 'ValueError', evalue: '', line: 2 }]
    }),
    effect: effect(
      {
        Z: 'created',
        mu: 'created',
        model: 'mutated',
        old: 'deleted'
      },
      {
        Z: { ...ARRAY, sum },
        mu: { type: 'numpy.ndarray', shape: [4], dtype: 'float64', sum: 1 },
        model: { type: 'sklearn.linear_model._ridge.Ridge', fitted: true },
        ...extra
      },
      { Z: 'result', mu: 'intermediate' }
    )
  });

  it('compares values only where two reference runs agree', () => {
    const deterministic = referenceEvidence(
      run(12.5),
      run(12.5),
      [],
      ['Z.mean()']
    );
    expect(deterministic.effects.Z.mode).toBe('values');
    const random = referenceEvidence(run(12.5), run(11.1), [], ['Z.mean()']);
    expect(random.effects.Z.mode).toBe('structure');
    expect(deterministic.caught).toEqual(['ValueError']);
    expect(deterministic.effects.mu.role).toBe('intermediate');
    expect(deterministic.effects.model.role).toBe('result');
    expect(deterministic.usedLater).toEqual(['Z']);
    expect(Object.keys(deterministic.effects).sort()).toEqual([
      'Z',
      'model',
      'mu'
    ]);
  });

  it('requires every result, read later or not; an intermediate may be missing (noted)', () => {
    const ref = referenceEvidence(run(12.5), run(12.5), [], ['print(Z[:3])']);
    const model = { type: 'sklearn.linear_model._ridge.Ridge', fitted: true };
    // mu is only consumed by the reference's own cell: an intermediate.
    expect(compareEffects(ref, { Z: { ...ARRAY }, model })).toEqual({
      differences: [],
      notes: [{ name: 'mu', note: { code: 'intermediate-missing' } }],
      same: ['Z', 'model']
    });
    // model is mutated by the reference's cell: a result, so it must be there.
    expect(
      compareEffects(ref, {}).differences.map(d => [
        d.name,
        d.difference.aspect
      ])
    ).toEqual([
      ['model', 'missing'],
      ['Z', 'missing']
    ]);
    expect(
      compareEffects(ref, {
        Z: { ...ARRAY },
        model: { ...model, fitted: false }
      }).differences.map(d => [d.name, d.difference.aspect])
    ).toEqual([['model', 'fitted']]);
  });

  it('notes an intermediate kept in another form, and fails a result that is', () => {
    const ref = referenceEvidence(run(12.5), run(12.5), [], ['print(Z[:3])']);
    const model = { type: 'sklearn.linear_model._ridge.Ridge', fitted: true };
    const weights = { type: 'builtins.dict', len: 4 };
    // mu (an intermediate) as a dict, the results the same: a note.
    const kept = compareEffects(ref, { Z: { ...ARRAY }, model, mu: weights });
    expect(kept.differences).toEqual([]);
    expect(kept.notes).toEqual([
      {
        name: 'mu',
        note: expect.objectContaining({
          code: 'intermediate-differs',
          aspect: 'type'
        })
      }
    ]);
    // mu with other values: a difference (an intermediate read by the cell that shows it).
    expect(
      compareEffects(ref, {
        Z: { ...ARRAY },
        model,
        mu: { type: 'numpy.ndarray', shape: [4], dtype: 'float64', sum: 2 }
      }).differences.map(d => d.name)
    ).toEqual(['mu']);
    // Z (a result) as a dict: a difference.
    expect(
      compareEffects(ref, { Z: weights, model, mu: weights }).differences.map(
        d => [d.name, d.difference.aspect]
      )
    ).toEqual([['Z', 'type']]);
  });
});

describe('readProbeReport', () => {
  it.each([null, 3, 'x', [], {}, { trace: { lines: 'no' } }])(
    'refuses %p',
    value => {
      expect(readProbeReport(value)).toBeNull();
    }
  );
  it('reads a report', () => {
    expect(
      readProbeReport({
        trace: {
          lines: [1],
          exceptions: [],
          spans: [[1, 1, 'Expr']],
          stringLines: []
        },
        effect: {
          changes: { x: 'created', y: 'odd' },
          after: { x: { type: 'builtins.int', value: 1 } }
        }
      })
    ).toEqual({
      trace: {
        lines: [1],
        exceptions: [],
        spans: [[1, 1, 'Expr']],
        stringLines: [],
        units: null,
        instrumented: true
      },
      effect: {
        changes: { x: 'created' },
        after: { x: { type: 'builtins.int', value: 1 } },
        before: {},
        figures: [],
        roles: {},
        inputs: {},
        columnRoles: {}
      }
    });
  });
});

/** pandas_1: the fixed notebook as the learner's, its target replaced. */
function pandasLearner(target: string): {
  nb: INotebookJSON;
  plan: ICheckPlan;
} {
  const nb = load('pandas_1', 'fixed');
  const t = nb.cells.findIndex(c => c.id === '8c03095f');
  nb.cells[t].source = target;
  const plan = planCheck(
    nb,
    {
      reproduced: load('pandas_1', 'reproduced'),
      fixed: load('pandas_1', 'fixed')
    },
    { notebookSpecific: false }
  );
  return { nb, plan };
}

/** A clean fresh run whose target step carries a probe report. */
function runWith(
  plan: ICheckPlan,
  probe: unknown,
  failAfterTarget = false
): IRunResult {
  const steps: IStepResult[] = plan.steps.map((step, index) => ({
    index,
    step,
    outputs: [],
    executionCount: index + 1,
    durationMs: 1,
    error:
      failAfterTarget && index === plan.steps.length - 1
        ? { ename: 'KeyError', evalue: 'units_lag1', traceback: [], line: 1 }
        : null,
    ...(plan.traced.includes(step.cellIndex)
      ? { probe: step.isTarget ? probe : null }
      : {})
  }));
  return {
    status: failAfterTarget ? 'crashed' : 'completed',
    steps,
    failedIndex: failAfterTarget ? steps.length - 1 : null,
    error: failAfterTarget ? steps[steps.length - 1].error : null,
    stop: stopOf(
      failAfterTarget ? 'crashed' : 'completed',
      steps.length,
      null,
      failAfterTarget ? steps[steps.length - 1].error : null
    ),
    durationMs: 1
  };
}

const SALES: IValueSummary = {
  type: 'pandas.DataFrame',
  shape: [159, 8],
  columns: [
    'date',
    'store',
    'units_sold',
    'unit_price',
    'promo',
    'revenue',
    'units_lag1',
    'units_lag7'
  ],
  dtypes: [],
  numeric: { nan: 0, sum: 1000, abs: 1000, min: 0, max: 40, constant: false }
};

const REFERENCE = referenceEvidence(
  {
    trace: trace({}),
    effect: effect({ sales: 'rebound' }, { sales: SALES })
  },
  {
    trace: trace({}),
    effect: effect({ sales: 'rebound' }, { sales: SALES })
  },
  [],
  ["X = sales[['units_lag1']]"]
);

const FIXED_TARGET = sourceText(
  load('pandas_1', 'fixed').cells.find(c => c.id === '8c03095f')!
);

describe('judgeRepair', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, k) => k + 1);
  it.each<{
    title: string;
    target: string;
    probe: unknown;
    failAfter?: boolean;
    reference?: typeof REFERENCE | null;
    status: string;
    first: string;
  }>([
    {
      title: 'the reference fix with its evidence',
      target: FIXED_TARGET,
      probe: {
        trace: {
          lines: lines(6),
          exceptions: [],
          spans: [[3, 3, 'Assign']],
          stringLines: []
        },
        effect: { changes: {}, after: { sales: SALES } }
      },
      status: 'solved',
      first: 'fresh-clean'
    },
    {
      title: 'a swallowed KeyError',
      target: FIXED_TARGET,
      probe: {
        trace: {
          lines: lines(6),
          exceptions: [{ ename: 'KeyError', evalue: "'units'", line: 3 }],
          spans: [],
          stringLines: []
        },
        effect: { changes: {}, after: { sales: SALES } }
      },
      failAfter: true,
      status: 'hidden-crash',
      first: 'swallowed'
    },
    {
      title: 'the repaired line never ran',
      target: FIXED_TARGET,
      probe: {
        trace: {
          lines: [1, 2],
          exceptions: [],
          spans: [[3, 3, 'Assign']],
          stringLines: []
        },
        effect: { changes: {}, after: { sales: SALES } }
      },
      status: 'hidden-crash',
      first: 'not-executed'
    },
    {
      title: 'a different frame after the target',
      target: FIXED_TARGET,
      probe: {
        trace: { lines: lines(6), exceptions: [], spans: [], stringLines: [] },
        effect: { changes: {}, after: { sales: { ...SALES, shape: [180, 8] } } }
      },
      status: 'different-effect',
      first: 'effect-differs'
    },
    {
      title: 'no probe report',
      target: FIXED_TARGET,
      probe: null,
      status: 'not-checked',
      first: 'no-evidence'
    },
    {
      title: 'no reference evidence',
      target: FIXED_TARGET,
      probe: {
        trace: { lines: lines(6), exceptions: [], spans: [], stringLines: [] },
        effect: { changes: {}, after: { sales: SALES } }
      },
      reference: null,
      status: 'no-reference',
      first: 'reference-failed'
    }
  ])(
    '$title → $status',
    ({ target, probe, failAfter, reference, status, first }) => {
      const { plan } = pandasLearner(target);
      expect(plan.repairedLine).toBe(3);
      const verdict = judgeRepair(
        plan,
        runWith(plan, probe, failAfter),
        { notebookSpecific: false },
        {
          reference: reference === undefined ? REFERENCE : reference,
          referenceError: {
            code: 'stopped',
            stop: stopOf('crashed', 1, null, { ename: 'E', evalue: 'V' })
          }
        }
      );
      expect(verdict.status).toBe(status);
      expect(verdict.passed).toBe(status === 'solved');
      expect(verdict.findings[0].code).toBe(first);
      // One voice: each reason once, and no claim about live state behind a hidden crash.
      const text = renderVerdict(verdict);
      expect(new Set(text.reasons).size).toBe(text.reasons.length);
      expect(text.reasons).not.toContain(text.headline);
      if (status === 'hidden-crash') {
        expect(verdict.findings.map(f => f.code)).not.toContain('live-only');
      }
    }
  );

  it('blames a missing library on the environment, not on live state', () => {
    const { plan } = pandasLearner(FIXED_TARGET);
    const run = runWith(plan, null);
    const first = run.steps[0];
    first.error = {
      ename: 'ModuleNotFoundError',
      evalue: "No module named 'tensorflow'",
      traceback: [],
      line: 1
    };
    run.status = 'crashed';
    run.steps = [first];
    run.failedIndex = 0;
    const verdict = judgeRepair(
      plan,
      run,
      { notebookSpecific: false },
      { reference: REFERENCE }
    );
    expect(verdict.status).toBe('fails-fresh');
    expect(verdict.findings.map(f => f.code)).toEqual(
      expect.arrayContaining(['fresh-error', 'missing-module'])
    );
    expect(verdict.findings.map(f => f.code)).not.toContain('live-only');
    expect(renderVerdict(verdict).reasons.join(' ')).toMatch(
      /cannot import tensorflow/
    );
  });

  it('names cells by position and prompt', () => {
    expect(cellName(6, 4)).toBe('cell 7 [4]');
    expect(cellName(0, null)).toBe('cell 1 [ ]');
    expect(
      renderFinding(
        {
          code: 'not-executed',
          cell: cellRef(6, 4),
          line: 3,
          statement: 'x = 1'
        },
        english
      )
    ).toMatch(/^In cell 7 \[4\] the repaired statement on line 3/);
  });

  it('finds a rewritten right-hand side as the repaired statement', () => {
    const nb = load('numpy_1', 'fixed');
    const t = nb.cells.findIndex(c => c.id === 'bce779cb');
    nb.cells[t].source =
      'Z = (data - data.mean(axis=0)) / data.std(axis=0)\nZ[:5].round(3)';
    const plan = planCheck(
      nb,
      {
        reproduced: load('numpy_1', 'reproduced'),
        fixed: load('numpy_1', 'fixed')
      },
      { notebookSpecific: false }
    );
    expect(plan.guard).toEqual([]);
    expect(plan.repairedLine).toBe(1);
  });
});

/** A unit of code as the probe reports it. */
function unit(
  line: number,
  text: string,
  ran: boolean,
  kind = 'Assign',
  endLine = line
): IUnit {
  return {
    id: line * 100 + text.length,
    kind,
    line,
    endLine,
    nested: false,
    text,
    ran
  };
}

/** The fixed target's units, every one that ran. */
const RAN = [
  unit(1, "sales = sales.sort_values(['store', 'date'])", true),
  unit(
    3,
    "sales['units_lag1'] = sales.groupby('store')['units_sold'].shift(1)",
    true
  ),
  unit(
    4,
    "sales['units_lag7'] = sales.groupby('store')['units_sold'].shift(7)",
    true
  ),
  unit(5, 'sales = sales.dropna()', true),
  unit(6, 'sales.shape', true, 'Expr')
];

/** A probe report of the new probe: units, exceptions by class, the effect on `sales`. */
function probeOf(
  units: IUnit[],
  exceptions: ITracedException[] = [],
  after: Record<string, IValueSummary> = { sales: SALES }
): IProbeReport {
  return {
    trace: trace({ units, exceptions, instrumented: true }),
    effect: effect({ sales: 'rebound' }, after)
  };
}

/** A genuine builtins exception seen in the traced cell. */
function raised(
  ename: string,
  over: Partial<ITracedException> = {}
): ITracedException {
  return {
    ename,
    evalue: 'V',
    line: 3,
    key: `builtins.${ename}`,
    genuine: true,
    mro: [ename, 'Exception', 'BaseException', 'object'],
    benign: false,
    inCell: true,
    thread: false,
    cellCount: 4,
    function: '<module>',
    ...over
  };
}

describe('judgeRepair on units of code, classes and values', () => {
  const judge = (
    target: string,
    probe: IProbeReport,
    reference = REFERENCE
  ) => {
    const { plan } = pandasLearner(target);
    return judgeRepair(
      plan,
      runWith(plan, probe),
      { notebookSpecific: false },
      {
        reference
      }
    );
  };

  it.each<[string, string, IProbeReport, string, string | null]>([
    ['every unit ran', FIXED_TARGET, probeOf(RAN), 'solved', null],
    [
      'the repaired statement on one line under if False',
      FIXED_TARGET,
      probeOf([
        ...RAN.filter(u => u.line !== 3),
        unit(3, "if False: sales['units_lag1'] = 0", true, 'If'),
        unit(
          3,
          "sales['units_lag1'] = sales.groupby('store')['units_sold'].shift(1)",
          false
        )
      ]),
      'hidden-crash',
      'not-executed'
    ],
    [
      'a cell magic: no unit of code holds the line',
      `%%script true\n${FIXED_TARGET}`,
      probeOf([
        unit(
          1,
          "get_ipython().run_cell_magic('script', 'true', '...')",
          true,
          'Expr'
        )
      ]),
      'hidden-crash',
      'not-python'
    ],
    [
      'a KeyError caught by a helper of another cell',
      FIXED_TARGET,
      probeOf(RAN, [
        raised('KeyError', { inCell: false, function: 'quietly', cellCount: 2 })
      ]),
      'hidden-crash',
      'swallowed'
    ],
    [
      'a look-alike StopIteration (a KeyError subclass) is not benign',
      FIXED_TARGET,
      probeOf(RAN, [
        raised('StopIteration', {
          key: '__main__.StopIteration',
          genuine: false,
          mro: ['StopIteration', 'KeyError', 'LookupError', 'Exception']
        })
      ]),
      'hidden-crash',
      'swallowed'
    ],
    [
      'the real StopIteration of a generator is benign',
      FIXED_TARGET,
      probeOf(RAN, [raised('StopIteration', { benign: true })]),
      'solved',
      null
    ]
  ])('%s → %s', (_, target, probe, status, first) => {
    const verdict = judge(target, probe);
    expect(verdict.status).toBe(status);
    if (first) {
      expect(verdict.findings[0].code).toBe(first);
    }
  });

  it('says where a swallowed exception was caught', () => {
    const verdict = judge(
      FIXED_TARGET,
      probeOf(RAN, [raised('ValueError', { thread: true, inCell: false })])
    );
    expect(verdict.findings[0]).toMatchObject({
      code: 'swallowed',
      where: 'thread'
    });
    expect(renderVerdict(verdict).reasons[0]).toMatch(
      /in another thread and lost there/
    );
  });

  it('grades the same values in another container as solved, with the difference noted', () => {
    const view = (type: string): IValueSummary => ({
      type,
      view: {
        shape: [3],
        table: [3, 1],
        columns: [
          {
            name: null,
            kind: 'num',
            samples: [1, 2, 3],
            nan: 0,
            sum: 6,
            abs: 6,
            wsum: 9,
            min: 1,
            max: 3
          }
        ],
        names: false,
        index: null,
        positions: [0, 1, 2]
      }
    });
    const reference = referenceEvidence(
      {
        trace: trace({}),
        effect: effect({ sales: 'rebound' }, { sales: view('numpy.ndarray') })
      },
      {
        trace: trace({}),
        effect: effect({ sales: 'rebound' }, { sales: view('numpy.ndarray') })
      },
      [],
      ['sales']
    );
    const verdict = judge(
      FIXED_TARGET,
      probeOf(RAN, [], { sales: view('builtins.list') }),
      reference
    );
    expect(verdict).toMatchObject({
      passed: true,
      noted: true,
      grade: 'solved-with-differences'
    });
    expect(renderVerdict(verdict).headline).toMatch(
      /^Solved, with differences noted/
    );
    expect(renderVerdict(verdict).reasons).toContain(
      '`sales` is a list where the reference fix has a numpy.ndarray, with the same values.'
    );
  });

  it('lets a removed failing line pass when every result is there and the same', () => {
    // The lags computed in a cell inserted above; the crashing cell keeps the rest.
    const target = [
      "sales = sales.sort_values(['store', 'date'])",
      'sales = sales.dropna()',
      'sales.shape'
    ].join('\n');
    const { plan } = pandasLearner(target);
    expect(plan.guard.map(g => g.kind)).toEqual(['failing-line-removed']);
    const verdict = judgeRepair(
      plan,
      runWith(plan, probeOf([unit(1, 'x', true)])),
      { notebookSpecific: false },
      { reference: REFERENCE }
    );
    expect(verdict).toMatchObject({ passed: true, noted: true });
    expect(verdict.findings.map(f => f.code)).toContain('restructured');
    // The same removal with another result stays a hidden crash.
    const other = judgeRepair(
      plan,
      runWith(
        plan,
        probeOf([unit(1, 'x', true)], [], {
          sales: { ...SALES, shape: [10, 8] }
        })
      ),
      { notebookSpecific: false },
      { reference: REFERENCE }
    );
    expect(other.status).toBe('hidden-crash');
  });
});

describe('judgeRepair on the live kernel of a notebook-specific case', () => {
  const { plan } = pandasLearner(FIXED_TARGET);
  const run = runWith(plan, probeOf(RAN));
  const live = (probe: IProbeReport | null, learnerRanTarget = true) => ({
    learnerRanTarget,
    run: probe ? runWith(plan, probe) : null
  });
  const judged = (
    liveEvidence: ReturnType<typeof live>,
    reproducedFresh: 'clean' | 'crashes' = 'clean'
  ) =>
    judgeRepair(
      plan,
      run,
      { notebookSpecific: true },
      {
        reference: { ...REFERENCE, reproducedFresh },
        live: liveEvidence
      }
    );

  it.each<[string, ReturnType<typeof live>, string, string | null]>([
    ['a live kernel that ran the fix', live(probeOf(RAN)), 'solved', null],
    [
      'a target never run since the crash',
      live(null, false),
      'not-run-live',
      'nb-live-not-run'
    ],
    [
      'a re-run’s error caught by a cell made safe to run again, the state right',
      live(probeOf(RAN, [raised('KeyError')])),
      'solved',
      null
    ],
    [
      'a re-run’s error swallowed, the result left wrong',
      live(
        probeOf(RAN, [raised('KeyError')], {
          sales: { ...SALES, shape: [3, 8] }
        })
      ),
      'fails-live',
      'live-effect-differs'
    ],
    [
      'the result missing in the live kernel',
      live(probeOf(RAN, [], {})),
      'fails-live',
      'live-effect-missing'
    ]
  ])('%s → %s', (_, liveEvidence, status, first) => {
    const verdict = judged(liveEvidence);
    expect(verdict.status).toBe(status);
    if (first) {
      expect(verdict.findings[0].code).toBe(first);
    }
  });

  it('compares what the target reads live with what a fresh run gives it', () => {
    const withInputs = (features: number): IProbeReport => {
      const p = probeOf(RAN);
      p.effect!.inputs = {
        model: { type: 'sklearn.Model', fitted: true, features }
      };
      return p;
    };
    const verdict = judgeRepair(
      plan,
      runWith(plan, withInputs(4)),
      { notebookSpecific: true },
      {
        reference: { ...REFERENCE, reproducedFresh: 'clean' },
        live: live(withInputs(3))
      }
    );
    expect(verdict.status).toBe('fails-live');
    expect(verdict.findings[0]).toMatchObject({
      code: 'live-input-differs',
      name: 'model'
    });
  });

  it('only says the live kernel where the reproduced notebook’s own fresh run crashes too', () => {
    expect(judged(live(null, false), 'crashes').status).toBe('solved');
  });

  it.each<[KernelFate, string, string]>([
    ['died', 'fails-live', 'kernel-died'],
    ['lost', 'not-checked', 'live-unfinished']
  ])('a live replay whose kernel %s → %s', (fate, status, code) => {
    const replay = runWith(plan, probeOf(RAN));
    const target = replay.steps.find(r => r.step.isTarget)!;
    const cell = cellRef(target.step.cellIndex, target.step.executionCount);
    const gone = {
      ...replay,
      status: 'kernel-died' as const,
      steps: replay.steps.slice(0, target.index + 1),
      failedIndex: target.index,
      stop: { code: 'kernel' as const, fate, cell }
    };
    const verdict = judged({ learnerRanTarget: true, run: gone });
    expect(verdict.status).toBe(status);
    expect(verdict.findings[0]).toEqual(
      code === 'kernel-died'
        ? { code, run: 'live', cell }
        : { code, stop: gone.stop }
    );
  });

  // A saved error on the target is the live kernel's last word on it: prompts typed in so
  // the notebook looks re-run, or an untouched notebook, never pass beside it.
  it.each<[string, ReturnType<typeof live>, 'clean' | 'crashes', string]>([
    [
      'prompts that claim a clean re-run',
      live(probeOf(RAN)),
      'clean',
      'live-error-saved'
    ],
    ['no re-run at all', live(null, false), 'clean', 'nb-live-error'],
    [
      'no re-run, where a fresh run of the reproduced notebook crashes too',
      live(null, false),
      'crashes',
      'nb-live-error'
    ]
  ])(
    'a target whose saved output is an error, with %s, is not solved',
    (_, liveEvidence, reproducedFresh, code) => {
      const saved = JSON.parse(JSON.stringify(plan)) as ICheckPlan;
      saved.live = 'error';
      const verdict = judgeRepair(
        saved,
        run,
        { notebookSpecific: true },
        {
          reference: { ...REFERENCE, reproducedFresh },
          live: liveEvidence
        }
      );
      expect(verdict).toMatchObject({ passed: false, status: 'fails-live' });
      expect(verdict.findings[0].code).toBe(code);
      expect(renderVerdict(verdict).reasons.join('\n')).not.toMatch(/^Solved/);
    }
  );
});

describe('judgeRepair on what the notebook finally computes', () => {
  const { plan } = pandasLearner(FIXED_TARGET);
  const run = runWith(plan, probeOf(RAN));
  const withFinal = {
    ...REFERENCE,
    final: { sales: { ...REFERENCE.effects.sales } }
  };
  it.each<[string, Record<string, IValueSummary> | null, boolean]>([
    ['the same result at the end', { sales: SALES }, true],
    [
      'the result overwritten by a later cell with other rows',
      { sales: { ...SALES, shape: [3, 8] } },
      false
    ],
    ['the result deleted by a later cell', {}, true],
    ['no end state (the probe could not say)', null, true]
  ])('%s → passed %s', (_, final, passed) => {
    const verdict = judgeRepair(
      plan,
      run,
      { notebookSpecific: false },
      { reference: withFinal, final }
    );
    expect(verdict.passed).toBe(passed);
    if (!passed) {
      expect(verdict.findings[0]).toMatchObject({
        code: 'final-differs',
        name: 'sales'
      });
      expect(renderVerdict(verdict).reasons[0]).toMatch(
        /^At the end of the notebook \(or just before a cell deletes it\), `sales` no longer holds the reference’s value/
      );
    }
  });
});

describe('judgeRepair on cells with no code', () => {
  it('an empty code cell that never ran leaves the verdict alone', () => {
    const nb = load('pandas_1', 'fixed');
    nb.cells.push({
      cell_type: 'code',
      source: '',
      execution_count: null,
      outputs: [],
      metadata: {}
    });
    nb.cells.splice(2, 0, {
      cell_type: 'code',
      source: '# TODO\n',
      execution_count: null,
      outputs: [],
      metadata: {}
    });
    const plan = planCheck(
      nb,
      {
        reproduced: load('pandas_1', 'reproduced'),
        fixed: load('pandas_1', 'fixed')
      },
      { notebookSpecific: false }
    );
    // Both cells are in play (added) and traced, and they report nothing.
    expect(plan.traced.length).toBeGreaterThan(1);
    const verdict = judgeRepair(
      plan,
      runWith(plan, probeOf(RAN)),
      { notebookSpecific: false },
      {
        reference: REFERENCE
      }
    );
    expect(verdict.status).toBe('solved');
  });
});

describe('what counts as a result of the reference’s crashing cell', () => {
  // An import, a class or a function the cell defines is code: a repair need not repeat it
  // unless later code uses it; a value computed from the data always is a result.
  const encoder: IValueSummary = {
    type: 'builtins.type',
    definition: true
  };
  const pandasModule: IValueSummary = {
    type: 'module',
    name: 'pandas',
    definition: true
  };
  it.each<[string, IValueSummary, string[], 'result' | 'intermediate']>([
    ['an unused imported class', encoder, [], 'intermediate'],
    ['an unused imported module', pandasModule, [], 'intermediate'],
    [
      'an imported class a later cell uses',
      encoder,
      ['enc = OneHotEncoder()'],
      'result'
    ],
    ['an array computed from the data', ARRAY, [], 'result']
  ])('%s is %s', (_, summary, later, role) => {
    const report = {
      trace: trace({}),
      effect: effect({ OneHotEncoder: 'created' }, { OneHotEncoder: summary })
    };
    const evidence = referenceEvidence(report, report, [], later);
    expect(evidence.effects.OneHotEncoder.role).toBe(role);
    const cmp = compareEffects(evidence, {});
    expect(cmp.differences.length).toBe(role === 'result' ? 1 : 0);
  });
});

describe('readRounding', () => {
  it.each<[string, unknown, boolean]>([
    [
      'a report',
      {
        count: { '1': 2 },
        pairs: [
          [1, 15],
          [1, -3]
        ]
      },
      true
    ],
    ['no halves met', { count: {}, pairs: [] }, true],
    [
      'a pair that is not two integers',
      { count: {}, pairs: [[1, 1.5]] },
      false
    ],
    ['a pair of three', { count: {}, pairs: [[1, 2, 3]] }, false],
    [
      'a count that is not a number',
      { count: { '1': 'two' }, pairs: [] },
      false
    ],
    ['no pairs', { count: {} }, false],
    ['not an object', 'halves', false]
  ])('%s', (_, value, valid) => {
    expect(readRounding(value) !== null).toBe(valid);
  });
});

describe('results on other data', () => {
  /** A frame (named columns) or an array (one unnamed column) as the probe views it. */
  const table = (
    columns: Record<string, number[]>,
    names = true
  ): IValueSummary => {
    const entries = Object.entries(columns);
    const rows = entries[0][1].length;
    return {
      type: names ? 'pandas.DataFrame' : 'numpy.ndarray',
      view: {
        shape: names ? [rows, entries.length] : [rows],
        table: [rows, entries.length],
        columns: entries.map(([name, values]) => ({
          name: names ? name : null,
          kind: 'num',
          samples: values,
          nan: 0,
          sum: values.reduce((a, b) => a + b, 0),
          abs: values.reduce((a, b) => a + Math.abs(b), 0),
          min: Math.min(...values),
          max: Math.max(...values)
        })),
        names,
        index: null,
        positions: values(rows)
      }
    };
  };
  const values = (n: number) => Array.from({ length: n }, (_, i) => i);
  const grades = [50.2, 75.2, 63.8, 64.3];

  it('counts other values as a change, the same values in another order not', () => {
    const a = table({ g: grades }, false);
    expect(valuesMoved(a, table({ g: [...grades].reverse() }, false))).toBe(
      false
    );
    expect(valuesMoved(a, table({ g: grades.map(g => g * 1.01) }, false))).toBe(
      true
    );
    expect(
      valuesMoved({ type: 'float', value: 0.5 }, { type: 'float', value: 0.6 })
    ).toBe(true);
  });

  it('counts a text column as moved by its values, not their order', () => {
    const text = (samples: string[], hash: string, sortedHash?: string) => ({
      name: 'w',
      kind: 'text' as const,
      samples,
      hash,
      ...(sortedHash ? { sortedHash } : {})
    });
    // Sorted the other way: other samples, another hash, the same values.
    const a = text(['ant', 'bee'], 'h1', 's1');
    expect(columnMoved(a, text(['bee', 'ant'], 'h2', 's1'))).toBe(false);
    expect(columnMoved(a, text(['ant', 'elk'], 'h3', 's2'))).toBe(true);
    // A digest without the sorted hash (an older probe): its hash and samples decide.
    expect(columnMoved(text(['ant'], 'h1'), text(['elk'], 'h2'))).toBe(true);
    expect(columnMoved(text(['ant'], 'h1'), text(['ant'], 'h1'))).toBe(false);
  });

  it('names a result that stays the same, and the columns a frame keeps', () => {
    const perturbed = {
      seed: 1,
      changed: ['course_grade', 'patients'],
      columns: { patients: ['bmi', 'risk'] }
    };
    const typed = table({ g: grades }, false);
    const mine = {
      course_grade: typed,
      patients: table({ bmi: [22.1, 30.4], risk: [0.2, 0.7] })
    };
    const other = {
      course_grade: typed,
      patients: table({ bmi: [22.1, 30.4], risk: [0.3, 0.6] })
    };
    expect(unchangedOnOtherData(perturbed, mine, other)).toEqual([
      'course_grade',
      "patients['bmi']"
    ]);
  });

  it('names nothing when the learner’s results change too, even only in order', () => {
    const perturbed = { seed: 1, changed: ['course_grade'], columns: {} };
    const mine = { course_grade: table({ g: grades }, false) };
    expect(
      unchangedOnOtherData(perturbed, mine, {
        course_grade: table({ g: [...grades].reverse() }, false)
      })
    ).toEqual([]);
    // A result missing on either run is no evidence either way.
    expect(unchangedOnOtherData(perturbed, mine, {})).toEqual([]);
  });
});
