/**
 * The cohort view as a render of one report (two learners' real export files
 * and one broken file): the table holds the report's cells, each case has a
 * chart whose label reads its bars, and the file left out is named.
 */
import { nullTranslator } from '@jupyterlab/translation';
import { MessageLoop } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';
import { act } from 'react';

import { toJSON } from '../../src/progress/export';
import {
  cohortBars,
  cohortCells,
  cohortReport
} from '../../src/progress/cohort';
import { emptyProgress } from '../../src/progress/types';
import { CohortView } from '../../src/widgets/cohortView';

// React renders inside `act` in these tests.
(
  globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
).IS_REACT_ACT_ENVIRONMENT = true;

const AT = '2026-01-01T10:00:00.000Z';

/** One learner's export file with a crashed case and a solved one. */
const file = (name: string, passes: number) => ({
  name,
  text: toJSON(
    {
      numpy_1: { ...emptyProgress(), status: 'crashed' as const },
      pandas_1: {
        ...emptyProgress(),
        status: 'solved' as const,
        hints: [0],
        attempts: Array.from({ length: passes }, () => ({
          at: AT,
          passed: true,
          status: 'fixed' as const,
          exception: null,
          snapshotPath: null
        }))
      }
    },
    { casebook: 'demo', exportedAt: AT, learner: name }
  )
});

describe('CohortView', () => {
  it('renders the table, a chart per case and the files left out', () => {
    const report = cohortReport([
      file('ada.json', 1),
      file('bob.json', 2),
      { name: 'broken.json', text: '{' }
    ]);
    const view = new CohortView({
      report,
      folder: 'class',
      trans: nullTranslator.load('jupyterlab_junobench')
    });
    act(() => {
      Widget.attach(view, document.body);
      MessageLoop.flush();
    });
    const node = view.node;
    expect(node.getAttribute('aria-label')).toBe('Cohort report');
    expect(node.querySelector('h2')!.textContent).toBe('Cohort report: class');
    expect(node.querySelector('p')!.textContent).toBe(
      '2 learner(s), 2 case(s), 1 file(s) left out.'
    );
    const rows = [...node.querySelectorAll('tbody tr')].map(tr =>
      [...tr.children].map(cell => cell.textContent)
    );
    expect(rows).toEqual(report.cases.map(cohortCells));
    const charts = [...node.querySelectorAll('svg.jp-Junobench-cohortChart')];
    expect(charts).toHaveLength(report.cases.length);
    const pandas = report.cases.findIndex(c => c.name === 'pandas_1');
    const bars = cohortBars(report.cases[pandas], report);
    expect(charts[pandas].getAttribute('aria-label')).toBe(
      'Cohort chart for pandas_1: ' +
        bars.map(b => `${b.measure} ${b.text}`).join(', ')
    );
    expect(
      charts[pandas].querySelectorAll('rect.jp-Junobench-cohortBar')
    ).toHaveLength(bars.length);
    expect(
      node.querySelector('.jp-Junobench-cohortProblems li code')!.textContent
    ).toBe('broken.json');
    act(() => view.dispose());
  });
});
