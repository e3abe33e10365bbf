/**
 * The planner against the real JunoBench material in ../shared/junobench (skipped when absent):
 * the 111 recorded cell sequences and the real case notebooks.
 */

import * as fs from 'fs';
import * as path from 'path';

import type { INbCell, INotebookJSON } from '../../src/replay';
import {
  findTarget,
  orderComparison,
  recordedPlan,
  sourceText,
  stripMarkers,
  topToBottomPlan
} from '../../src/replay';

/** One case of `cells/reproduced/<case>.json`. */
interface ICaseCells {
  executed: { execution_count: number; code_cell_id: number; code: string }[];
  target: { code_cell_id: number; code: string };
}

const ROOT = path.resolve(__dirname, '../../../shared/junobench');
const CELLS = path.join(ROOT, 'cells', 'reproduced');
const BENCHMARK = path.join(ROOT, 'benchmark');

const haveCells = fs.existsSync(CELLS);
if (!haveCells) {
  console.log(
    `Skipping the JunoBench cell-sequence tests: ${CELLS} is not there (real data lives outside the project).`
  );
}
const CASES = haveCells
  ? fs
      .readdirSync(CELLS)
      .filter(f => f.endsWith('.json'))
      .map(f => f.slice(0, -'.json'.length))
      .sort()
  : [];

/** Read one case's recorded cells. */
function loadCase(name: string): ICaseCells {
  return JSON.parse(
    fs.readFileSync(path.join(CELLS, `${name}.json`), 'utf-8')
  ) as ICaseCells;
}

/**
 * A notebook shaped like the case: code cells at their code_cell_id, uncounted filler cells in the
 * gaps, a markdown cell before every third code cell (so cell and code-cell indices differ), and
 * the target with count max+1 and an error output. A target that also appears in `executed` was run
 * again when it crashed: it gets the `[reexecute]` marker.
 */
function syntheticNotebook(c: ICaseCells): INotebookJSON {
  const byId = new Map(c.executed.map(e => [e.code_cell_id, e]));
  const maxId = Math.max(
    c.target.code_cell_id,
    ...c.executed.map(e => e.code_cell_id)
  );
  const maxCount = Math.max(0, ...c.executed.map(e => e.execution_count));
  const cells: INbCell[] = [];
  for (let id = 0; id <= maxId; id++) {
    if (id % 3 === 0) {
      cells.push({ cell_type: 'markdown', source: `## part ${id / 3}` });
    }
    const e = byId.get(id);
    if (id === c.target.code_cell_id) {
      const marker = e ? '# [reexecute]\n' : '';
      cells.push({
        cell_type: 'code',
        source: marker + c.target.code,
        execution_count: maxCount + 1,
        outputs: [
          {
            output_type: 'error',
            ename: 'RecordedError',
            evalue: 'recorded crash',
            traceback: [`Cell \u001b[0;32mIn[${maxCount + 1}], line 1\u001b[0m`]
          }
        ]
      });
    } else if (e) {
      cells.push({
        cell_type: 'code',
        source: e.code,
        execution_count: e.execution_count,
        outputs: []
      });
    } else {
      cells.push({
        cell_type: 'code',
        source: `# filler ${id}\npass`,
        execution_count: null,
        outputs: []
      });
    }
  }
  return { cells, metadata: {}, nbformat: 4, nbformat_minor: 5 };
}

/** The recorded run order computed straight from the JSON: executed by (count, id), then the target. */
function expectedOrder(c: ICaseCells): number[] {
  const executed = [...c.executed].sort(
    (a, b) =>
      a.execution_count - b.execution_count || a.code_cell_id - b.code_cell_id
  );
  return [...executed.map(e => e.code_cell_id), c.target.code_cell_id];
}

/** True when a sequence of code-cell ids ever goes back up the document. */
function goesBack(ids: number[]): boolean {
  return ids.some((id, i) => i > 0 && id < ids[i - 1]);
}

(haveCells ? describe : describe.skip)(
  'JunoBench recorded cell sequences',
  () => {
    it('has all 111 cases', () => {
      expect(CASES).toHaveLength(111);
    });

    // Collected even under describe.skip: without the data, nothing to collect.
    if (CASES.length) {
      describe.each(CASES)('%s', name => {
        const c = loadCase(name);
        const nb = syntheticNotebook(c);
        const recorded = recordedPlan(nb);
        const planned = new Set([
          ...c.executed.map(e => e.code_cell_id),
          c.target.code_cell_id
        ]);

        it('replays the executed cells by (count, code_cell_id), then the target', () => {
          expect(recorded.steps.map(s => s.codeCellIndex)).toEqual(
            expectedOrder(c)
          );
        });

        it('finds the target at its code_cell_id and marks only its steps', () => {
          expect(recorded.target?.codeCellIndex).toBe(c.target.code_cell_id);
          const last = recorded.steps[recorded.steps.length - 1];
          expect(last).toMatchObject({
            codeCellIndex: c.target.code_cell_id,
            isTarget: true
          });
          for (const step of recorded.steps) {
            expect(step.isTarget).toBe(
              step.codeCellIndex === c.target.code_cell_id
            );
          }
          expect(last.source).toBe(c.target.code);
        });

        it('plans no cell outside `executed` and the target', () => {
          for (const step of recorded.steps) {
            expect(planned.has(step.codeCellIndex)).toBe(true);
          }
          expect(new Set(recorded.steps.map(s => s.codeCellIndex)).size).toBe(
            planned.size
          );
        });

        it('runs the same cells once each in code_cell_id order top to bottom', () => {
          expect(topToBottomPlan(nb).steps.map(s => s.codeCellIndex)).toEqual(
            [...planned].sort((a, b) => a - b)
          );
        });
      });
    }

    it('counts the cases that ran out of document order', () => {
      const cases = CASES.map(name => {
        const c = loadCase(name);
        const comparison = orderComparison(syntheticNotebook(c));
        const executedIds = [...c.executed]
          .sort(
            (a, b) =>
              a.execution_count - b.execution_count ||
              a.code_cell_id - b.code_cell_id
          )
          .map(e => e.code_cell_id);
        return {
          name,
          planner: !comparison.inDocumentOrder,
          plannerCrashAbove: comparison.entries.some(
            e => e.isTarget && e.runsBehind
          ),
          json: goesBack(expectedOrder(c)),
          jsonExecutedOnly: goesBack(executedIds),
          jsonCrashAbove: c.executed.some(
            e => e.code_cell_id > c.target.code_cell_id
          )
        };
      });
      const count = (key: keyof (typeof cases)[number]): number =>
        cases.filter(x => x[key] === true).length;

      console.log(
        `JunoBench: ${count('planner')} of ${cases.length} recorded runs are out of document order ` +
          `(${count('jsonExecutedOnly')} among the cells that ran before the crash, ` +
          `${count('jsonCrashAbove')} crash in a cell above one that already ran): ` +
          cases
            .filter(x => x.planner)
            .map(x => x.name)
            .join(', ')
      );
      expect(count('planner')).toBe(count('json'));
      expect(cases.filter(x => x.planner).map(x => x.name)).toEqual(
        cases.filter(x => x.json).map(x => x.name)
      );
      expect(count('plannerCrashAbove')).toBe(count('jsonCrashAbove'));
    });
  }
);

/** Real case notebooks under benchmark/<case>/<case>_{reproduced,fixed}.ipynb. */
const NOTEBOOKS = fs.existsSync(BENCHMARK)
  ? fs
      .readdirSync(BENCHMARK)
      .flatMap(dir =>
        ['reproduced', 'fixed']
          .map(kind => path.join(BENCHMARK, dir, `${dir}_${kind}.ipynb`))
          .filter(f => fs.existsSync(f))
      )
      .sort()
  : [];
if (NOTEBOOKS.length === 0) {
  console.log(
    `Skipping the real-notebook replay tests: no notebooks under ${BENCHMARK}.`
  );
}

(NOTEBOOKS.length ? describe : describe.skip)(
  'JunoBench case notebooks',
  () => {
    describe.each(
      // `.each` refuses an empty table, even under describe.skip.
      NOTEBOOKS.length
        ? NOTEBOOKS.map(f => [path.basename(f), f])
        : [['none', '']]
    )('%s', (_name, file) => {
      if (!file) {
        return;
      }
      const nb = JSON.parse(fs.readFileSync(file, 'utf-8')) as INotebookJSON;
      const plan = recordedPlan(nb);
      const target = findTarget(nb);

      it('plans the counted code cells by ascending count', () => {
        const counted = nb.cells.filter(
          c => c.cell_type === 'code' && typeof c.execution_count === 'number'
        );
        const counts = plan.steps
          .filter(s => s.run === 1)
          .map(s => s.executionCount ?? Infinity);
        expect(counts).toEqual([...counts].sort((a, b) => a - b));
        expect(plan.steps.filter(s => s.run === 1)).toHaveLength(
          counted.length +
            (target &&
            (nb.cells[target.cellIndex].execution_count ?? null) === null
              ? 1
              : 0)
        );
      });

      if (file.endsWith('_fixed.ipynb')) {
        it('has no recorded crash', () => {
          expect(target).toBeNull();
        });
        return;
      }

      it('locates the crash line on the line the traceback arrow shows', () => {
        expect(target).not.toBeNull();
        const t = target!;
        expect(t.traceback.join('\n')).toContain(`${t.ename}: `);
        expect(t.line).not.toBeNull();
        const cellLine = stripMarkers(sourceText(nb.cells[t.cellIndex])).split(
          '\n'
        )[t.line! - 1];
        const arrow = t.traceback
          .join('\n')
          .split('\n')
          .find(l => new RegExp(`^-+>\\s*${t.line}\\s`).test(l));
        expect(arrow?.replace(/^-+>\s*\d+\s/, '').trim()).toBe(cellLine.trim());
      });
    });
  }
);
