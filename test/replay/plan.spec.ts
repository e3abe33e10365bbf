import type { INotebookJSON, IReplayPlan } from '../../src/replay';
import {
  compareCrash,
  hasReexecuteMarker,
  lineAfterStrip,
  normaliseEname,
  orderComparison,
  planSummary,
  recordedPlan,
  sourceText,
  stripMarkers,
  topToBottomPlan
} from '../../src/replay';

import { code, error, md, notebook, stream } from './notebooks';

/** A step reduced to what the tables compare: `codeCellIndex` or `codeCellIndex:run` for a second run. */
function order(plan: IReplayPlan): string[] {
  return plan.steps.map(s =>
    s.run === 2 ? `${s.codeCellIndex}:2` : `${s.codeCellIndex}`
  );
}

/** Code-cell indices of the steps flagged as target. */
function targets(plan: IReplayPlan): number[] {
  return plan.steps.filter(s => s.isTarget).map(s => s.codeCellIndex);
}

const crash = error('NameError', "name 'x' is not defined", [
  "\u001b[0;31mNameError\u001b[0m: name 'x' is not defined"
]);

describe('sourceText', () => {
  it.each([
    ['a string', 'a = 1\nb = 2', 'a = 1\nb = 2'],
    ['nbformat lines', ['a = 1\n', 'b = 2'], 'a = 1\nb = 2'],
    ['an empty list', [], ''],
    ['an empty string', '', '']
  ])('joins %s', (_name, source: string | string[], expected) => {
    expect(sourceText({ source })).toBe(expected);
  });
});

describe('hasReexecuteMarker', () => {
  it.each([
    ['# [reexecute]\nx = 1', true],
    ['# [re-execute]\nx = 1', true],
    ['#[REEXECUTE]', true],
    ['# [Re-Execute] run twice', true],
    ['model.fit(X, y)  # [reexecute]', true],
    ['x = 1\n# [reexecute]', false],
    ['# reexecute\nx = 1', false],
    ['# [re execute]', false],
    ['', false]
  ])('%j → %s', (source, expected) => {
    expect(hasReexecuteMarker(source)).toBe(expected);
  });
});

describe('stripMarkers', () => {
  it.each([
    ['comment line only', '# [reexecute]\nx = 1\n', 'x = 1\n'],
    ['hyphenated, upper case', '# [RE-EXECUTE]\nx = 1', 'x = 1'],
    ['no space after #', '#[reexecute]\nx = 1', 'x = 1'],
    ['CRLF line ends', '# [reexecute]\r\nx = 1\r\n', 'x = 1\r\n'],
    ['the whole cell is the marker', '# [reexecute]', ''],
    [
      'trailing comment after code',
      'model.fit(X, y)  # [reexecute]\nprint(1)',
      'model.fit(X, y)\nprint(1)'
    ],
    [
      'trailing comment with more text',
      'df = df.dropna()  # [reexecute] twice\nx',
      'df = df.dropna()  # twice\nx'
    ],
    [
      'comment with more text',
      '# [reexecute] load again\nx',
      '# load again\nx'
    ],
    [
      'marker only on a later line',
      'x = 1\n# [reexecute]',
      'x = 1\n# [reexecute]'
    ],
    ['marker inside a string', 's = "[reexecute]"\n', 's = "[reexecute]"\n'],
    [
      '`#` inside a string before the comment',
      'tag = "#"  # [reexecute]\n',
      'tag = "#"\n'
    ],
    ['no marker', 'x = 1  # keep\n', 'x = 1  # keep\n']
  ])('%s', (_name, source, expected) => {
    expect(stripMarkers(source)).toBe(expected);
  });
});

describe('lineAfterStrip', () => {
  it.each([
    ['dropped marker line, later line', '# [reexecute]\na\nb', 3, 2],
    ['dropped marker line itself', '# [reexecute]\na\nb', 1, null],
    ['trailing marker keeps lines', 'a  # [reexecute]\nb', 2, 2],
    ['no marker', 'a\nb', 2, 2]
  ])('%s', (_name, source, line, expected) => {
    expect(lineAfterStrip(source, line)).toBe(expected);
  });
});

describe('recordedPlan', () => {
  it.each<[string, INotebookJSON, string[], number[]]>([
    [
      'plain ascending counts',
      notebook(code('a', 1), code('b', 2), code('c', 3, [crash])),
      ['0', '1', '2'],
      [2]
    ],
    [
      'out-of-order counts follow the counts, not the document',
      notebook(code('a', 1), code('b', 4), code('c', 2), code('d', 3, [crash])),
      ['0', '2', '3', '1'],
      [3]
    ],
    [
      'equal counts fall back to document order',
      notebook(code('a', 6), code('b', 1), code('c', 6), code('d', 7, [crash])),
      ['1', '0', '2', '3'],
      [3]
    ],
    [
      'cells without a count do not run',
      notebook(code('a', 1), code('b'), code('c', null), code('d', 2, [crash])),
      ['0', '3'],
      [3]
    ],
    [
      '[reexecute] cell runs twice in a row',
      notebook(
        code('a', 1),
        code('# [reexecute]\nb', 2),
        code('c', 3, [crash])
      ),
      ['0', '1', '1:2', '2'],
      [2]
    ],
    [
      '[re-execute] spelling runs twice too',
      notebook(code('# [Re-Execute]\na', 1), code('b', 2, [crash])),
      ['0', '0:2', '1'],
      [1]
    ],
    [
      '[reexecute] target: both runs are target steps',
      notebook(code('a', 1), code('# [reexecute]\nb', 2, [crash])),
      ['0', '1', '1:2'],
      [1, 1]
    ],
    [
      'target without a count is appended last',
      notebook(code('a', 2), code('b', null, [crash]), code('c', 1)),
      ['2', '0', '1'],
      [1]
    ],
    [
      'steps after the target in run order stay',
      notebook(code('a', 1), code('b', 2, [crash]), code('c', 3), code('d')),
      ['0', '1', '2'],
      [1]
    ],
    [
      'no error output: plan built, no target',
      notebook(code('a', 2), code('b', 1), code('c')),
      ['1', '0'],
      []
    ],
    [
      'markdown cells are ignored and do not shift code-cell indices',
      notebook(
        md('# intro'),
        code('a', 1),
        md('note'),
        md('more'),
        code('b', 2, [crash])
      ),
      ['0', '1'],
      [1]
    ],
    [
      'non-numeric counts are treated as missing',
      notebook(
        code('a', 1),
        {
          cell_type: 'code',
          source: 'b',
          execution_count: undefined,
          outputs: []
        },
        code('c', 2, [stream('ok')])
      ),
      ['0', '2'],
      []
    ]
  ])('%s', (_name, nb, expectedOrder, expectedTargets) => {
    const plan = recordedPlan(nb);
    expect(plan.kind).toBe('recorded');
    expect(order(plan)).toEqual(expectedOrder);
    expect(targets(plan)).toEqual(expectedTargets);
  });

  it.each([
    [
      'string[] with a marker line',
      ['# [reexecute]\n', 'x = 1\n', 'y = 2'],
      'x = 1\ny = 2'
    ],
    [
      'string with a marker line',
      '# [reexecute]\nx = 1\ny = 2',
      'x = 1\ny = 2'
    ],
    [
      'string[] with a trailing marker',
      ['x = 1  # [re-execute]\n', 'y = 2'],
      'x = 1\ny = 2'
    ],
    ['string[] without marker', ['x = 1\n', 'y = 2'], 'x = 1\ny = 2']
  ])(
    'step source from %s is joined and stripped',
    (_name, source: string | string[], expected) => {
      const plan = recordedPlan(notebook(code(source, 1, [crash])));
      expect(plan.steps.map(s => s.source)).toEqual(
        plan.steps.map(() => expected)
      );
    }
  );

  it('records positions and counts on each step', () => {
    const plan = recordedPlan(
      notebook(
        md('m'),
        code('a', 5),
        md('m'),
        code('# [reexecute]\nb', 3, [crash])
      )
    );
    expect(plan.steps).toEqual([
      {
        cellIndex: 3,
        codeCellIndex: 1,
        executionCount: 3,
        source: 'b',
        run: 1,
        isTarget: true
      },
      {
        cellIndex: 3,
        codeCellIndex: 1,
        executionCount: 3,
        source: 'b',
        run: 2,
        isTarget: true
      },
      {
        cellIndex: 1,
        codeCellIndex: 0,
        executionCount: 5,
        source: 'a',
        run: 1,
        isTarget: false
      }
    ]);
    expect(plan.target).toMatchObject({
      cellIndex: 3,
      codeCellIndex: 1,
      ename: 'NameError'
    });
  });
});

describe('topToBottomPlan', () => {
  it.each<[string, INotebookJSON, string[], number[]]>([
    [
      'out-of-order counts run in document order',
      notebook(code('a', 1), code('b', 4), code('c', 2), code('d', 3, [crash])),
      ['0', '1', '2', '3'],
      [3]
    ],
    [
      'cells without a count stay out, the target stays in',
      notebook(code('a', 2), code('b'), code('c', null, [crash]), code('d', 1)),
      ['0', '2', '3'],
      [2]
    ],
    [
      '[reexecute] cells run once',
      notebook(
        code('# [reexecute]\na', 2),
        code('b', 1),
        code('# [reexecute]\nc', 3, [crash])
      ),
      ['0', '1', '2'],
      [2]
    ],
    ['no target', notebook(md('m'), code('a', 2), code('b', 1)), ['0', '1'], []]
  ])('%s', (_name, nb, expectedOrder, expectedTargets) => {
    const plan = topToBottomPlan(nb);
    expect(plan.kind).toBe('top-to-bottom');
    expect(order(plan)).toEqual(expectedOrder);
    expect(targets(plan)).toEqual(expectedTargets);
    expect(new Set(plan.steps.map(s => s.cellIndex))).toEqual(
      new Set(recordedPlan(nb).steps.map(s => s.cellIndex))
    );
  });

  it('strips markers from what runs', () => {
    const plan = topToBottomPlan(notebook(code('# [reexecute]\nx = 1', 1)));
    expect(plan.steps.map(s => s.source)).toEqual(['x = 1']);
  });
});

describe('orderComparison', () => {
  // Document: a(1) b(3) c(2) d(4, crash); recorded run: a c b d.
  const shuffled = notebook(
    code('a', 1),
    code('b', 3),
    code('c', 2),
    code('d', 4, [crash])
  );
  // Document: a(1) t(4, crash) c(2) d(3); recorded run: a c d t — the crash sits above cells that ran.
  const crashAbove = notebook(
    code('a', 1),
    code('t', 4, [crash]),
    code('c', 2),
    code('d', 3)
  );

  it.each([
    [
      'document order',
      notebook(
        code('a', 1),
        code('# [reexecute]\nb', 2),
        code('c', 3, [crash])
      ),
      {
        ahead: [false, false, false, false],
        behind: [false, false, false, false],
        inOrder: true,
        cellsAhead: 0,
        cellsBehind: 0
      }
    ],
    [
      'one swapped pair',
      shuffled,
      {
        ahead: [false, true, false, false],
        behind: [false, false, true, false],
        inOrder: false,
        cellsAhead: 1,
        cellsBehind: 1
      }
    ],
    [
      'crash in a cell above cells that already ran',
      crashAbove,
      {
        ahead: [false, true, true, false],
        behind: [false, false, false, true],
        inOrder: false,
        cellsAhead: 2,
        cellsBehind: 1
      }
    ]
  ])('%s', (_name, nb, expected) => {
    const result = orderComparison(nb);
    expect(result.entries.map(e => e.runsAhead)).toEqual(expected.ahead);
    expect(result.entries.map(e => e.runsBehind)).toEqual(expected.behind);
    expect(result.inDocumentOrder).toBe(expected.inOrder);
    expect(result.cellsAhead).toBe(expected.cellsAhead);
    expect(result.cellsBehind).toBe(expected.cellsBehind);
  });

  it('gives each step its document position', () => {
    const result = orderComparison(recordedPlan(shuffled));
    expect(
      result.entries.map(e => [
        e.codeCellIndex,
        e.documentPosition,
        e.stepIndex
      ])
    ).toEqual([
      [0, 0, 0],
      [2, 2, 1],
      [1, 1, 2],
      [3, 3, 3]
    ]);
  });

  it('finds a top-to-bottom plan in document order', () => {
    expect(orderComparison(topToBottomPlan(crashAbove)).inDocumentOrder).toBe(
      true
    );
  });
});

describe('planSummary', () => {
  it.each([
    [
      'recorded with a repeat and a step after the target',
      recordedPlan(
        notebook(
          code('# [reexecute]\na', 1),
          code('b', 2, [crash]),
          code('c', 3)
        )
      ),
      {
        kind: 'recorded',
        steps: 4,
        cells: 3,
        reexecuted: [0],
        targetStep: 2,
        stepsAfterTarget: 1,
        inDocumentOrder: true
      }
    ],
    [
      'repeated target',
      recordedPlan(
        notebook(
          code('b', 2),
          code('# [reexecute]\na', 3, [crash]),
          code('c', 1)
        )
      ),
      {
        kind: 'recorded',
        steps: 4,
        cells: 3,
        reexecuted: [1],
        targetStep: 2,
        stepsAfterTarget: 0,
        inDocumentOrder: false
      }
    ],
    [
      'no target',
      topToBottomPlan(notebook(code('a', 2), code('b', 1))),
      {
        kind: 'top-to-bottom',
        steps: 2,
        cells: 2,
        reexecuted: [],
        targetStep: null,
        stepsAfterTarget: 0,
        inDocumentOrder: true
      }
    ]
  ])('%s', (_name, plan, expected) => {
    expect(planSummary(plan)).toEqual(expected);
  });
});

describe('normaliseEname', () => {
  it.each([
    ['ValueError', 'valueerror'],
    ['valueerror', 'valueerror'],
    ['sklearn.exceptions.NotFittedError', 'notfittederror'],
    ['notfittederror', 'notfittederror'],
    ["<class 'pandas.errors.ParserError'>", 'parsererror'],
    ['\u001b[0;31mKeyError\u001b[0m', 'keyerror'],
    ['  TypeError ', 'typeerror'],
    ['', '']
  ])('%j → %j', (input, expected) => {
    expect(normaliseEname(input)).toBe(expected);
  });
});

describe('compareCrash', () => {
  it.each([
    [
      'same name and message',
      {
        ename: 'ValueError',
        evalue: "could not convert string to float: 'Male'"
      },
      {
        ename: 'ValueError',
        evalue: "could not convert string to float: 'Male'"
      },
      'as-recorded'
    ],
    [
      'module prefix and case differ only',
      { ename: 'sklearn.exceptions.NotFittedError', evalue: 'not fitted' },
      { ename: 'notfittederror', evalue: 'not fitted' },
      'as-recorded'
    ],
    [
      'memory addresses and whitespace differ only',
      {
        ename: 'TypeError',
        evalue: '<function f at 0x7f3a2c1b0d30> is not  subscriptable'
      },
      {
        ename: 'TypeError',
        evalue: '<function f at 0x7fe0aa11c040> is not subscriptable\n'
      },
      'as-recorded'
    ],
    [
      'same exception, other message',
      { ename: 'KeyError', evalue: "'Age'" },
      { ename: 'KeyError', evalue: "'Fare'" },
      'same-exception-different-message'
    ],
    [
      'other exception',
      { ename: 'ValueError', evalue: 'x' },
      { ename: 'FileNotFoundError', evalue: 'x' },
      'different-exception'
    ]
  ])('%s', (_name, recorded, observed, expected) => {
    expect(compareCrash(recorded, observed)).toBe(expected);
  });
});
