/**
 * The reveal as a render of one demo case (its real reproduced and fixed
 * notebooks, read from disk): the labels, the recorded exception, the
 * diagnosis, the learner's scored prediction, and one section per changed
 * cell with a read-only merge editor that goes with the view.
 */
import * as fs from 'fs';
import * as path from 'path';

import { nullTranslator } from '@jupyterlab/translation';
import { MessageLoop } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';
import { act } from 'react';

import { loadLocalCasebook } from '../../src/cli/verify';
import { notebookDiff } from '../../src/repair/diff';
import type { INotebookJSON } from '../../src/replay/types';
import { RevealView } from '../../src/widgets/revealView';

// React renders inside `act` in these tests.
(
  globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
).IS_REACT_ACT_ENVIRONMENT = true;

const DEMO = path.resolve(__dirname, '../../demo/casebook');
const CASE = 'numpy_1';

/** A notebook of the demo case. */
const notebook = (kind: string): INotebookJSON =>
  JSON.parse(
    fs.readFileSync(
      path.join(DEMO, 'benchmark', CASE, `${CASE}_${kind}.ipynb`),
      'utf8'
    )
  ) as INotebookJSON;

describe('RevealView', () => {
  it("renders a case's labels, exception, score and reference fix", async () => {
    const book = await loadLocalCasebook(DEMO);
    const c = book.cases.find(x => x.name === CASE)!;
    const diff = notebookDiff(notebook('reproduced'), notebook('fixed'));
    const changed = diff.filter(d => d.kind !== 'same');
    expect(changed.length).toBeGreaterThan(0);
    const view = new RevealView({
      c,
      diff,
      selfDiagnosis: {
        correct: 1,
        total: 3,
        hinted: 0,
        answers: [
          {
            question: 'rootCause',
            predicted: 'data confusion',
            actual: c.rootCause,
            correct: true,
            hinted: false
          },
          {
            question: 'crashType',
            predicted: null,
            actual: c.crashType,
            correct: false,
            hinted: false
          }
        ]
      },
      trans: nullTranslator.load('jupyterlab_junobench')
    });
    act(() => {
      Widget.attach(view, document.body);
      MessageLoop.flush();
    });
    const node = view.node;
    expect(node.getAttribute('aria-label')).toBe(`Reveal of ${CASE}`);
    expect(
      [...node.querySelectorAll('.jp-Junobench-revealLabels dd')].map(
        dd => dd.textContent
      )
    ).toEqual([
      expect.any(String),
      c.crashType || '(none)',
      c.rootCause || '(none)',
      c.pipelineStage || '(none)'
    ]);
    expect(
      node.querySelector('.jp-Junobench-revealException')!.textContent
    ).toContain(c.evalue);
    const score = node.querySelector('.jp-Junobench-revealScore')!;
    expect(score.querySelector('p')!.textContent).toBe('1 of 3 right.');
    expect(
      [...score.querySelectorAll('tbody tr')].map(tr => [
        tr.getAttribute('data-correct'),
        tr.children[1].textContent
      ])
    ).toEqual([
      ['true', 'data confusion'],
      ['false', '(not sure)']
    ]);
    const cells = node.querySelectorAll('.jp-Junobench-revealCell');
    expect(cells.length).toBeGreaterThanOrEqual(changed.length);
    expect(
      node.querySelectorAll('.jp-Junobench-mergeView .cm-editor')
    ).toHaveLength(changed.length);
    const first = cells[0].querySelector('.cm-content')!;
    expect(first.getAttribute('aria-label')).toMatch(
      /^Reference fix of .* \(read only\)$/
    );
    expect(
      cells[0].querySelectorAll('.jp-Junobench-revealDiff span').length
    ).toBe(changed[0].lines.length);
    act(() => view.dispose());
    expect(document.querySelectorAll('.cm-editor')).toHaveLength(0);
  });
});
