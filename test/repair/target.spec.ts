/**
 * Where the check finds the target: the casebook's crashing cell aligned with the learner's
 * notebook, whatever the notebook says of itself, including a target split over consecutive
 * cells or merged into its neighbour, the way learners write them.
 */
import { planCheck } from '../../src/repair/check';
import { findTarget, sourceText } from '../../src/replay/plan';
import type { INbCell, INotebookJSON } from '../../src/replay/types';
import { demoNotebook } from '../replay/notebooks';

const load = demoNotebook;

function code(source: string, id: string): INbCell {
  return {
    cell_type: 'code',
    source,
    execution_count: null,
    outputs: [],
    metadata: {},
    id
  };
}

/** The reproduced notebook with `edit` applied to a copy (the crashing cell at `t`). */
function learnerOf(
  name: string,
  edit: (cells: INbCell[], t: number) => void
): INotebookJSON {
  const nb = JSON.parse(
    JSON.stringify(load(name, 'reproduced'))
  ) as INotebookJSON;
  edit(nb.cells, findTarget(load(name, 'reproduced'))!.cellIndex);
  return nb;
}

function plan(name: string, learner: INotebookJSON) {
  return planCheck(
    learner,
    { reproduced: load(name, 'reproduced'), fixed: load(name, 'fixed') },
    { notebookSpecific: false }
  );
}

describe('a target split over consecutive cells', () => {
  it.each<[string, string, (cells: INbCell[], t: number) => void, string[]]>([
    [
      'numpy_1',
      'the statistics in the crashing cell, their use in a new cell below',
      (cells, t) => {
        cells[t].source = 'mu = data.mean(axis=0)\nsigma = data.std(axis=0)';
        cells.splice(
          t + 1,
          0,
          code('Z = (data - mu) / sigma\nZ[:5].round(3)', 'below')
        );
      },
      ['mu = data.mean(axis=0)', 'Z = (data - mu) / sigma']
    ],
    [
      'numpy_1',
      'the statistics in a new cell above, their use in the crashing cell',
      (cells, t) => {
        cells[t].source = 'Z = (data - mu) / sigma\nZ[:5].round(3)';
        cells.splice(
          t,
          0,
          code('mu = data.mean(axis=0)\nsigma = data.std(axis=0)', 'above')
        );
      },
      ['mu = data.mean(axis=0)', 'Z = (data - mu) / sigma']
    ],
    [
      'pandas_1',
      'the dropna moved to a new cell below',
      (cells, t) => {
        cells[t].source = sourceText(cells[t])
          .replace(/'units'/g, "'units_sold'")
          .replace('sales = sales.dropna()\nsales.shape', '')
          .trimEnd();
        cells.splice(
          t + 1,
          0,
          code('sales = sales.dropna()\nsales.shape', 'below')
        );
      },
      ['shift(7)', 'sales = sales.dropna()']
    ]
  ])('%s: %s runs as one target', (name, _, edit, parts) => {
    const learner = learnerOf(name, edit);
    const p = plan(name, learner);
    expect(p.targetSpan).toHaveLength(2);
    const target = p.steps.find(s => s.isTarget)!;
    for (const part of parts) {
      expect(target.source).toContain(part);
    }
    // The span's other cell is no step of its own.
    expect(p.steps.filter(s => p.targetSpan!.includes(s.cellIndex))).toEqual([
      target
    ]);
    expect(p.guard).toEqual([]);
  });

  it.each<[string, string, (cells: INbCell[], t: number) => void]>([
    [
      'pandas_2',
      'a regression test appended below the repaired cell',
      (cells, t) => {
        cells[t].source = sourceText(cells[t]).replace("'Region'", "'region'");
        cells.splice(
          t + 1,
          0,
          code("assert avg_by_region.notna().all()\nprint('ok')", 'test')
        );
      }
    ],
    [
      'numpy_1',
      'an unrelated cell inserted above',
      (cells, t) => {
        cells[t].source = sourceText(cells[t]).replace(/axis=1/g, 'axis=0');
        cells.splice(t, 0, code("print('now standardising')", 'note'));
      }
    ],
    [
      'numpy_1',
      'a cell magic below, even one that holds the rest of the code',
      (cells, t) => {
        cells[t].source = 'mu = data.mean(axis=0)\nsigma = data.std(axis=0)';
        cells.splice(
          t + 1,
          0,
          code('%%time\nZ = (data - mu) / sigma\nZ[:5].round(3)', 'timed')
        );
      }
    ]
  ])('%s: %s is not part of the target', (name, _, edit) => {
    const p = plan(name, learnerOf(name, edit));
    expect(p.targetSpan).toEqual([]);
    const target = p.steps.find(s => s.isTarget)!;
    expect(target.source).toBe(
      sourceText(learnerOf(name, edit).cells[target.cellIndex])
    );
  });
});

describe('a target merged into its neighbour', () => {
  it.each<[string, 'previous' | 'next']>([
    ['numpy_1', 'previous'],
    ['pandas_2', 'previous'],
    ['pandas_1', 'next']
  ])('%s: merged into the %s code cell, which keeps its id', (name, side) => {
    const fixed = load(name, 'fixed');
    const reproduced = load(name, 'reproduced');
    const t = findTarget(reproduced)!.cellIndex;
    const fix = sourceText(
      fixed.cells.find(c => c.id === reproduced.cells[t].id)!
    );
    const codes = reproduced.cells
      .map((c, i) => ({ c, i }))
      .filter(({ c }) => c.cell_type === 'code')
      .map(({ i }) => i);
    const k = codes.indexOf(t);
    const n = side === 'previous' ? codes[k - 1] : codes[k + 1];
    const learner = learnerOf(name, cells => {
      const own = sourceText(cells[n]);
      cells[n].source =
        side === 'previous' ? `${own}\n\n${fix}` : `${fix}\n\n${own}`;
      cells.splice(t, 1);
    });
    const p = plan(name, learner);
    const merged = learner.cells.findIndex(
      c => c.id === reproduced.cells[n].id
    );
    expect(p.targetCellIndex).toBe(merged);
    expect(p.guard).toEqual([]);
  });

  it('does not take a neighbour for the target when the crashing cell was deleted', () => {
    const learner = learnerOf('numpy_1', (cells, t) => cells.splice(t, 1));
    const p = plan('numpy_1', learner);
    expect(p.targetCellIndex).toBeNull();
    expect(p.guard.map(g => g.kind)).toContain('target-deleted');
  });
});
