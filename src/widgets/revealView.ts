/**
 * The reveal: the case's labels, the recorded exception, the written
 * diagnosis and the reference fix as a cell-aligned diff. Everything from the
 * casebook is set as text, so nothing in it can run.
 */
import { unifiedMergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import type { TranslationBundle } from '@jupyterlab/translation';
import { Widget } from '@lumino/widgets';

import { displayEname } from '../casebook/display';
import { LIBRARY_LABELS } from '../casebook/library';
import type { ICase } from '../casebook/types';
import type { ICellDiff } from '../repair/diff';
import type { ISelfDiagnosis } from '../progress/types';
import { DiagnosisForm } from './diagnosisForm';
import { cellName } from '../i18n';

/**
 * Renders the reveal of one case.
 */
export class RevealView extends Widget {
  /**
   * Build the view.
   */
  constructor(options: RevealView.IOptions) {
    super();
    this.addClass('jp-Junobench-reveal');
    this.node.setAttribute('role', 'region');
    const { c, diff, trans } = options;
    this.node.setAttribute('aria-label', trans.__('Reveal of %1', c.name));
    const add = <K extends keyof HTMLElementTagNameMap>(
      parent: HTMLElement,
      tag: K,
      text?: string,
      className?: string
    ): HTMLElementTagNameMap[K] => {
      const node = document.createElement(tag);
      if (text !== undefined) {
        node.textContent = text;
      }
      if (className) {
        node.className = className;
      }
      parent.appendChild(node);
      return node;
    };
    const root = this.node;
    add(root, 'h2', trans.__('%1: what went wrong', c.name));
    const labels = add(root, 'dl', undefined, 'jp-Junobench-revealLabels');
    const label = (name: string, value: string) => {
      add(labels, 'dt', name);
      add(labels, 'dd', value || trans.__('(none)'));
    };
    label(trans.__('Library'), LIBRARY_LABELS[c.library] ?? c.library);
    label(trans.__('Crash type'), c.crashType);
    label(trans.__('Root cause'), c.rootCause);
    label(trans.__('Pipeline stage'), c.pipelineStage);
    this._renderScore(root, options.selfDiagnosis, trans);
    add(root, 'h3', trans.__('Recorded exception'));
    add(
      root,
      'pre',
      `${displayEname(c)}: ${c.evalue}`,
      'jp-Junobench-revealException'
    );
    add(root, 'h3', trans.__('Diagnosis'));
    add(
      root,
      'p',
      c.diagnosis ??
        trans.__('This casebook has no written diagnosis for this case.'),
      'jp-Junobench-revealDiagnosis'
    );
    add(root, 'h3', trans.__('Reference fix'));
    const changed = diff.filter(
      d => d.kind !== 'same' || d.countBefore !== d.countAfter
    );
    if (!changed.length) {
      add(root, 'p', trans.__('The fixed notebook has the same cells.'));
    }
    for (const d of changed) {
      const section = add(
        root,
        'section',
        undefined,
        'jp-Junobench-revealCell'
      );
      section.dataset.kind = d.kind;
      const where = (n: number | null, count: number | null) =>
        n === null ? '—' : cellName(n - 1, count, trans.__.bind(trans));
      const heading = trans.__(
        '%1: %2 → %3',
        this._kindLabel(d.kind, trans),
        where(d.before, d.countBefore),
        where(d.after, d.countAfter)
      );
      add(section, 'h4', heading);
      if (d.kind !== 'same') {
        this._mergeView(
          section,
          d,
          trans.__('Reference fix of %1 (read only)', heading)
        );
      }
      const text = add(section, 'details', undefined, 'jp-Junobench-textDiff');
      add(text, 'summary', trans.__('Line diff as text'));
      if (d.kind === 'same') {
        text.open = true;
      }
      const pre = add(text, 'pre', undefined, 'jp-Junobench-revealDiff');
      for (const line of d.lines) {
        add(
          pre,
          'span',
          `${line.op} ${line.text}\n`,
          line.op === '+'
            ? 'jp-Junobench-diffAdd'
            : line.op === '-'
              ? 'jp-Junobench-diffDel'
              : 'jp-Junobench-diffSame'
        );
      }
    }
  }

  /** Dispose the read-only editors of the diff with the view. */
  dispose(): void {
    for (const view of this._editors) {
      view.destroy();
    }
    this._editors = [];
    super.dispose();
  }

  /**
   * CodeMirror's merge view of one cell: the fixed source, with the lines
   * the fix removed or changed shown inline; read-only.
   */
  private _mergeView(parent: HTMLElement, d: ICellDiff, label: string): void {
    const host = document.createElement('div');
    host.className = 'jp-Junobench-mergeView';
    parent.appendChild(host);
    const view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: d.afterText,
        extensions: [
          lineNumbers(),
          EditorState.readOnly.of(true),
          EditorView.editable.of(false),
          EditorView.lineWrapping,
          // The read-only editor is a text box for assistive technology: name it.
          EditorView.contentAttributes.of({ 'aria-label': label }),
          unifiedMergeView({
            original: d.beforeText,
            mergeControls: false,
            highlightChanges: true,
            gutter: true,
            syntaxHighlightDeletions: false
          })
        ]
      })
    });
    this._editors.push(view);
  }

  private _editors: EditorView[] = [];

  /** The learner's prediction against the labels, question by question. */
  private _renderScore(
    root: HTMLElement,
    score: ISelfDiagnosis | null,
    trans: TranslationBundle
  ): void {
    const section = document.createElement('section');
    section.className = 'jp-Junobench-revealScore';
    const title = document.createElement('h3');
    title.textContent = trans.__('Your diagnosis');
    section.appendChild(title);
    const summary = document.createElement('p');
    section.appendChild(summary);
    root.appendChild(section);
    if (!score) {
      summary.textContent = trans.__(
        'You made no prediction before the reveal.'
      );
      return;
    }
    summary.textContent =
      score.hinted > 0
        ? trans.__(
            '%1 of %2 right before the hints (%3 more right after the hint naming it).',
            score.correct,
            score.total,
            score.hinted
          )
        : trans.__('%1 of %2 right.', score.correct, score.total);
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    for (const text of [
      trans.__('Question'),
      trans.__('Your answer'),
      trans.__('Label'),
      trans.__('Result')
    ]) {
      const th = document.createElement('th');
      th.textContent = text;
      head.appendChild(th);
    }
    const body = table.createTBody();
    for (const answer of score.answers) {
      const row = body.insertRow();
      row.dataset.correct = String(answer.correct);
      row.insertCell().textContent = DiagnosisForm.questionLabel(
        answer.question,
        trans
      );
      row.insertCell().textContent = answer.predicted ?? trans.__('(not sure)');
      row.insertCell().textContent = answer.actual;
      row.insertCell().textContent = !answer.correct
        ? trans.__('✗ wrong')
        : answer.hinted
          ? trans.__('✓ right, after its hint (no point)')
          : trans.__('✓ right');
    }
    section.appendChild(table);
  }

  private _kindLabel(
    kind: ICellDiff['kind'],
    trans: TranslationBundle
  ): string {
    switch (kind) {
      case 'added':
        return trans.__('Added');
      case 'removed':
        return trans.__('Removed');
      case 'changed':
        return trans.__('Changed');
      case 'same':
        return trans.__('Run differently');
    }
  }
}

/**
 * A namespace for RevealView statics.
 */
export namespace RevealView {
  /** Options to build the view. */
  export interface IOptions {
    /** The case. */
    c: ICase;
    /** The cell-aligned diff from reproduced to fixed. */
    diff: ICellDiff[];
    /** The learner's scored prediction, or null when none was made. */
    selfDiagnosis: ISelfDiagnosis | null;
    /** Translation bundle. */
    trans: TranslationBundle;
  }
}
