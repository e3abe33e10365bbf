/**
 * The state timeline and the explainer as pure functions, on runs whose steps
 * carry the probe's `track` reports.
 */
import type { IRunResult, IStepResult } from '../../src/kernel/runner';
import {
  buildTimeline,
  explainCrash,
  nameHistory,
  renderExplanationLine
} from '../../src/state/timeline';
import type { INotebookJSON } from '../../src/replay/types';
import { stopOf } from '../../src/kernel/stop';
import { cellName } from '../../src/i18n';

const NB: INotebookJSON = {
  cells: [
    {
      cell_type: 'code',
      source: 'import pandas as pd',
      execution_count: 1,
      outputs: []
    },
    {
      cell_type: 'code',
      source: "df = pd.read_csv('d.csv')",
      execution_count: 2,
      outputs: []
    },
    {
      cell_type: 'code',
      source: "# [reexecute]\ndf = df.drop(columns=['id'])",
      execution_count: 4,
      outputs: []
    },
    {
      cell_type: 'code',
      source: 'model.fit(df)',
      execution_count: 5,
      outputs: []
    },
    {
      cell_type: 'code',
      source: 'model = Model()',
      execution_count: null,
      outputs: []
    }
  ],
  nbformat: 4
};

const frame = (columns: string[]) => ({
  type: 'pandas.DataFrame',
  shape: [10, columns.length],
  columns
});

function step(
  index: number,
  cellIndex: number,
  run: 1 | 2,
  probe: unknown,
  error: IStepResult['error'] = null
): IStepResult {
  return {
    index,
    step: {
      cellIndex,
      codeCellIndex: cellIndex,
      executionCount: NB.cells[cellIndex].execution_count ?? null,
      source: '',
      run,
      isTarget: false
    },
    outputs: [],
    executionCount: index + 1,
    durationMs: 1,
    error,
    probe
  };
}

function run(steps: IStepResult[]): IRunResult {
  const failed = steps.findIndex(s => s.error);
  return {
    status: failed >= 0 ? 'crashed' : 'completed',
    steps,
    failedIndex: failed >= 0 ? failed : null,
    error: failed >= 0 ? steps[failed].error : null,
    stop: stopOf(
      failed >= 0 ? 'crashed' : 'completed',
      steps.length,
      null,
      failed >= 0 ? steps[failed].error : null
    ),
    durationMs: 1
  };
}

const KEYERROR = {
  ename: 'KeyError',
  evalue: "['id'] not found in axis",
  traceback: [],
  line: 1
};
const NAMEERROR = {
  ename: 'NameError',
  evalue: "name 'model' is not defined",
  traceback: [],
  line: 1
};

describe('buildTimeline and nameHistory', () => {
  const timeline = buildTimeline(
    'recorded',
    run([
      step(0, 0, 1, {
        changes: {
          pd: { change: 'created', summary: { type: 'module', name: 'pandas' } }
        }
      }),
      step(1, 1, 1, {
        changes: { df: { change: 'created', summary: frame(['id', 'a']) } }
      }),
      step(2, 2, 1, {
        changes: { df: { change: 'rebound', summary: frame(['a']) } }
      }),
      step(3, 2, 2, { changes: {} }, KEYERROR)
    ])
  );

  it('names steps as the learner sees the cells, runs counted', () => {
    expect(
      timeline.steps.map(s => [cellName(s.cellIndex, s.executionCount), s.run])
    ).toEqual([
      ['cell 1 [1]', 1],
      ['cell 2 [2]', 1],
      ['cell 3 [4]', 1],
      ['cell 3 [4]', 2]
    ]);
    expect(timeline.names).toEqual(['pd', 'df']);
  });

  it('keeps each change with the value before and after', () => {
    const history = nameHistory(timeline, 'df');
    expect(
      history.map(h => [h.change, h.before?.columns, h.after?.columns])
    ).toEqual([
      ['created', undefined, ['id', 'a']],
      ['rebound', ['id', 'a'], ['a']]
    ]);
  });

  it('explains a crash after a re-run by the last change of the names involved', () => {
    const e = explainCrash(timeline, NB);
    expect(e.kind).toBe('after-reexecution');
    expect(e.names).toEqual(['df']);
    expect(e.lines.map(l => renderExplanationLine(l))[1]).toBe(
      'cell 3 [4] ran twice (step 4 is its second run).'
    );
    expect(e.lines.map(l => renderExplanationLine(l))[2]).toMatch(
      /^`df` last changed at step 3 \(cell 3 \[4\], its first run\): pandas.DataFrame \(10, 2\) columns id, a → pandas.DataFrame \(10, 1\) columns a\.$/
    );
  });

  it('explains a NameError by where the name is defined and when that cell ran', () => {
    const t = buildTimeline(
      'recorded',
      run([
        step(0, 0, 1, { changes: {} }),
        step(1, 1, 1, {
          changes: { df: { change: 'created', summary: frame(['a']) } }
        }),
        step(2, 3, 1, { changes: {} }, NAMEERROR)
      ])
    );
    const e = explainCrash(t, NB);
    expect(e.kind).toBe('name-error');
    expect(e.lines.map(l => renderExplanationLine(l))).toContain(
      '`model` is defined in cell 5 [ ], which never ran before the crash.'
    );
  });

  it('tells an untracked run apart, and a run without a crash', () => {
    const t = buildTimeline('top-to-bottom', run([step(0, 0, 1, null)]));
    expect(t.steps[0].changes).toBeNull();
    expect(explainCrash(t, NB).kind).toBe('no-crash');
  });
});
