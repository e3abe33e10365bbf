/**
 * Recording a case's order from a kernel's input history or from saved counts.
 */
import { describeNote } from '../../src/authoring/messages';
import {
  fixedNotebook,
  recordFromCounts,
  recordFromHistory
} from '../../src/authoring/record';
import type { RecordNote } from '../../src/authoring/record';
import {
  caseNameProblem,
  dataCandidates,
  labelSets,
  parseLabelArgs,
  suggestName
} from '../../src/authoring/spec';
import { recordedPlan, sourceText } from '../../src/replay/plan';
import type { INbCell, INotebookJSON } from '../../src/replay/types';
import { caseRecord } from '../casebook/fixtures';

/** A code cell; `error` gives it an error output. */
function code(source: string, count: number | null, error = false): INbCell {
  return {
    cell_type: 'code',
    source,
    execution_count: count,
    metadata: {},
    outputs: error
      ? [
          {
            output_type: 'error',
            ename: 'NameError',
            evalue: "name 'x' is not defined",
            traceback: ['NameError: x']
          }
        ]
      : [{ output_type: 'stream', name: 'stdout', text: 'ok' }]
  };
}

/** A notebook of cells. */
function nb(...cells: INbCell[]): INotebookJSON {
  return { nbformat: 4, nbformat_minor: 4, metadata: {}, cells };
}

/** The recorded steps as [cell, run] pairs. */
function steps(notebook: INotebookJSON): [number, number][] {
  return recordedPlan(notebook).steps.map(s => [s.cellIndex, s.run]);
}

describe('recordFromHistory', () => {
  it.each<[string, INotebookJSON, string[], [number, number][], string[]]>([
    [
      'an out-of-order NameError',
      nb(
        code('import math', 1),
        code('x = 1', null),
        code('print(x)', 2, true)
      ),
      ['', 'import math', 'print(x)'],
      [
        [0, 1],
        [2, 1]
      ],
      []
    ],
    [
      'a cell run twice in a row',
      nb(code('a = 1', 1), code('a += 1', 3), code('b = c', 4, true)),
      ['', 'a = 1', 'a += 1', 'a += 1', 'b = c'],
      [
        [0, 1],
        [1, 1],
        [1, 2],
        [2, 1]
      ],
      []
    ],
    [
      'a cell run twice apart (runs merged at the last place)',
      nb(code('a = 1', 4), code('b = a', 2), code('c = d', 5, true)),
      ['', 'a = 1', 'b = a', 'x = 0', 'a = 1', 'c = d'],
      [
        [1, 1],
        [0, 1],
        [0, 2],
        [2, 1]
      ],
      ['history-unmatched', 'runs-merged']
    ],
    [
      'runs after the crash, and an edited cell',
      nb(code('a = 2', 1), code('b = c', 2, true), code('a', 3)),
      ['', 'a = 1', 'b = c', 'a'],
      [
        [0, 1],
        [1, 1]
      ],
      ['edited-after-run', 'after-crash']
    ],
    [
      'an earlier crash kept as the last error of another cell',
      nb(code('import nope', 1, true), code('y', 2, true)),
      ['', 'import nope', 'y'],
      [
        [0, 1],
        [1, 1]
      ],
      ['earlier-error']
    ]
  ])('records %s', (_, notebook, history, expected, codes) => {
    const recording = recordFromHistory(notebook, history);
    if (!recording.ok) {
      throw new Error(recording.problem.code);
    }
    expect(steps(recording.reproduced)).toEqual(expected);
    expect(recording.notes.map(n => n.code)).toEqual(codes);
    for (const note of recording.notes) {
      expect(describeNote(note)).toMatch(/\w/);
    }
    // Only the crash keeps an error output, so the planner finds it.
    expect(recording.plan.target?.cellIndex).toBe(
      expected[expected.length - 1][0]
    );
  });

  it('drops the count and outputs of cells that did not run in this session', () => {
    const notebook = nb(
      code('old = 1', 7),
      code('a = 1', 1),
      code('b = c', 2, true)
    );
    const recording = recordFromHistory(notebook, ['', 'a = 1', 'b = c']);
    if (!recording.ok) {
      throw new Error(recording.problem.code);
    }
    expect(recording.reproduced.cells[0].execution_count).toBeNull();
    expect(recording.reproduced.cells[0].outputs).toEqual([]);
    // The notebook itself is left as it stands.
    expect(notebook.cells[0].execution_count).toBe(7);
  });

  it('takes the newest crash when several cells show errors', () => {
    const notebook = nb(code('a', 3, true), code('b', 5, true));
    const recording = recordFromHistory(notebook, [
      '',
      'x',
      'y',
      'a',
      'z',
      'b'
    ]);
    expect(recording.ok && recording.target.cellIndex).toBe(1);
  });

  it.each([
    ['no crash', nb(code('a = 1', 1)), ['', 'a = 1'], 'no-crash'],
    ['no history', nb(code('b', 1, true)), [''], 'empty-history'],
    [
      'a crash from another session',
      nb(code('b', 9, true)),
      ['', 'a = 1'],
      'crash-not-in-history'
    ]
  ])('refuses %s', (_, notebook, history, problem) => {
    const recording = recordFromHistory(notebook, history);
    expect(recording.ok ? null : recording.problem.code).toBe(problem);
  });
});

describe('recordFromCounts', () => {
  it('reads a saved notebook as the planner does, [reexecute] included', () => {
    const notebook = nb(
      code('a = 1', 1),
      code('# [reexecute]\na += 1', 2),
      code('b = c', 3, true)
    );
    const recording = recordFromCounts(notebook);
    expect(recording.ok && recording.reexecuted).toEqual([1]);
    expect(recording.ok && recording.reproduced).toBe(notebook);
  });

  it('refuses a notebook without a crash', () => {
    const recording = recordFromCounts(nb(code('a = 1', 1)));
    expect(recording.ok ? null : recording.problem.code).toBe('no-crash');
  });
});

describe('fixedNotebook', () => {
  it('counts the code cells top to bottom and removes markers', () => {
    const working = nb(code('# [reexecute]\na = 1', 4), code('b = a', 5, true));
    working.metadata = { junobench: { case: 'x' }, kernelspec: { name: 'k' } };
    const fixed = fixedNotebook(working);
    expect(fixed.metadata).toEqual({ kernelspec: { name: 'k' } });
    expect(fixed.cells.map(c => c.execution_count)).toEqual([1, 2]);
    expect(sourceText(fixed.cells[0])).toBe('a = 1');
    expect(fixed.cells[0].outputs).toEqual(working.cells[0].outputs);
    expect(fixed.cells[1].outputs).toEqual([]);
  });
});

describe('case names, labels and label sets', () => {
  it.each([
    ['../x', 'unsafe'],
    ['pandas_1', 'exists'],
    ['pandas_9', null]
  ])('checks %j', (name, expected) => {
    const cases = [caseRecord('pandas_1', { row: 2 })];
    expect(caseNameProblem(name, cases)?.code ?? null).toBe(expected);
  });

  it('lets an existing name through when updating', () => {
    const cases = [caseRecord('pandas_1', { row: 2 })];
    expect(caseNameProblem('pandas_1', cases, true)).toBeNull();
  });

  it('offers the distinct labels of the casebook', () => {
    const sets = labelSets([
      caseRecord('pandas_1', { rootCause: 'data confusion' }),
      caseRecord('numpy_1', { rootCause: 'API misuse' }),
      caseRecord('numpy_2', { rootCause: 'API misuse' })
    ]);
    expect(sets.rootCause).toEqual(['API misuse', 'data confusion']);
    expect(sets.library).toEqual(['numpy', 'pandas']);
  });

  it('parses --label key=value and names a bad one', () => {
    expect(
      parseLabelArgs([
        'root_cause=NB specific',
        'pipeline=training',
        'library=torch'
      ])
    ).toEqual({
      labels: {
        rootCause: 'NB specific',
        crashType: '',
        pipelineStage: 'training',
        mlBug: ''
      },
      library: 'torch',
      notebookUrl: ''
    });
    expect(() => parseLabelArgs(['nokey'])).toThrow(/--label "nokey"/);
  });

  it('describes every note code', () => {
    const notes: RecordNote[] = [
      { code: 'history-unmatched', count: 3, source: 'x = 1\ny' },
      { code: 'edited-after-run', cellIndex: 0, count: 1 },
      { code: 'runs-merged', cellIndex: 1, counts: [1, 4] },
      { code: 'after-crash', counts: [5, 6] },
      { code: 'earlier-error', cellIndex: 2, count: 2, ename: 'KeyError' }
    ];
    expect(notes.map(n => describeNote(n))).toEqual([
      'Input 3 ran code that is in no cell now (edited or deleted since): "x = 1". The replay cannot run it.',
      'cell 1 [1] was edited after it ran as input 1: the replay runs the new text.',
      'cell 2 [4] ran 2 times (inputs 1, 4), not twice in a row: the replay runs it twice at its last place.',
      'Inputs 5, 6 ran after the crash and are left out.',
      'cell 3 [2] raised KeyError in its last run too: the replay will stop there, before the crash.'
    ]);
  });

  it('offers the relative file paths the code names, never URLs, absolute or climbing paths', () => {
    const notebook = nb(
      code(
        'df = pd.read_csv(\'data/train.csv\')\nx = open("./notes.txt").read()',
        1
      ),
      code(
        "u = pd.read_csv('https://x.org/a.csv')\ny = '/etc/passwd.txt'\nz = '../up.csv'\nw = 'data/train.csv'\nname = 'not a path'",
        2
      )
    );
    expect(dataCandidates(notebook)).toEqual(['data/train.csv', 'notes.txt']);
  });

  it('suggests the next free name of a library', () => {
    expect(suggestName([])).toBe('NBspecific_1');
    expect(
      suggestName([caseRecord('NBspecific_1'), caseRecord('NBspecific_3')])
    ).toBe('NBspecific_4');
    expect(suggestName([caseRecord('NBspecific_2')], 'pandas')).toBe(
      'pandas_1'
    );
  });
});
