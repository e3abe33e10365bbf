/**
 * The reveal: the case's labels, the recorded exception, the written
 * diagnosis and the reference fix as a cell-aligned diff, a React render of
 * one case's reveal. Everything from the casebook is rendered as text, so
 * nothing in it can run.
 */
import { unifiedMergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import type { TranslationBundle } from '@jupyterlab/translation';
import { ReactWidget } from '@jupyterlab/ui-components';
import * as React from 'react';

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
export class RevealView extends ReactWidget {
  /**
   * Build the view.
   */
  constructor(readonly options: RevealView.IOptions) {
    super();
    this.addClass('jp-Junobench-reveal');
    this.node.setAttribute('role', 'region');
    this.node.setAttribute(
      'aria-label',
      options.trans.__('Reveal of %1', options.c.name)
    );
  }

  protected render(): React.ReactElement {
    const { c, diff, selfDiagnosis, trans } = this.options;
    const labels: [string, string][] = [
      [trans.__('Library'), LIBRARY_LABELS[c.library] ?? c.library],
      [trans.__('Crash type'), c.crashType],
      [trans.__('Root cause'), c.rootCause],
      [trans.__('Pipeline stage'), c.pipelineStage]
    ];
    const changed = diff.filter(
      d => d.kind !== 'same' || d.countBefore !== d.countAfter
    );
    return (
      <>
        <h2>{trans.__('%1: what went wrong', c.name)}</h2>
        <dl className="jp-Junobench-revealLabels">
          {labels.map(([name, value]) => (
            <React.Fragment key={name}>
              <dt>{name}</dt>
              <dd>{value || trans.__('(none)')}</dd>
            </React.Fragment>
          ))}
        </dl>
        <Private.Score score={selfDiagnosis} trans={trans} />
        <h3>{trans.__('Recorded exception')}</h3>
        <pre className="jp-Junobench-revealException">
          {`${displayEname(c)}: ${c.evalue}`}
        </pre>
        <h3>{trans.__('Diagnosis')}</h3>
        <p className="jp-Junobench-revealDiagnosis">
          {c.diagnosis ??
            trans.__('This casebook has no written diagnosis for this case.')}
        </p>
        <h3>{trans.__('Reference fix')}</h3>
        {!changed.length && (
          <p>{trans.__('The fixed notebook has the same cells.')}</p>
        )}
        {changed.map((d, i) => (
          <Private.Cell key={i} d={d} trans={trans} />
        ))}
      </>
    );
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

/**
 * Non-exported helpers.
 */
namespace Private {
  /** One changed cell: where it moved, the merge view, the line diff as text. */
  export function Cell(props: {
    d: ICellDiff;
    trans: TranslationBundle;
  }): React.ReactElement {
    const { d, trans } = props;
    const where = (n: number | null, count: number | null) =>
      n === null ? '—' : cellName(n - 1, count, trans.__.bind(trans));
    const heading = trans.__(
      '%1: %2 → %3',
      kindLabel(d.kind, trans),
      where(d.before, d.countBefore),
      where(d.after, d.countAfter)
    );
    return (
      <section className="jp-Junobench-revealCell" data-kind={d.kind}>
        <h4>{heading}</h4>
        {d.kind !== 'same' && (
          <MergeView
            d={d}
            label={trans.__('Reference fix of %1 (read only)', heading)}
          />
        )}
        <details className="jp-Junobench-textDiff" open={d.kind === 'same'}>
          <summary>{trans.__('Line diff as text')}</summary>
          <pre className="jp-Junobench-revealDiff">
            {d.lines.map((line, i) => (
              <span
                key={i}
                className={
                  line.op === '+'
                    ? 'jp-Junobench-diffAdd'
                    : line.op === '-'
                      ? 'jp-Junobench-diffDel'
                      : 'jp-Junobench-diffSame'
                }
              >
                {`${line.op} ${line.text}\n`}
              </span>
            ))}
          </pre>
        </details>
      </section>
    );
  }

  /**
   * CodeMirror's merge view of one cell: the fixed source, with the lines
   * the fix removed or changed shown inline; read-only, destroyed with the
   * view.
   */
  function MergeView(props: {
    d: ICellDiff;
    label: string;
  }): React.ReactElement {
    const { d, label } = props;
    const host = React.useRef<HTMLDivElement>(null);
    React.useEffect(() => {
      const view = new EditorView({
        parent: host.current!,
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
      return () => view.destroy();
    }, [d, label]);
    return <div className="jp-Junobench-mergeView" ref={host} />;
  }

  /** The learner's prediction against the labels, question by question. */
  export function Score(props: {
    score: ISelfDiagnosis | null;
    trans: TranslationBundle;
  }): React.ReactElement {
    const { score, trans } = props;
    return (
      <section className="jp-Junobench-revealScore">
        <h3>{trans.__('Your diagnosis')}</h3>
        <p>
          {!score
            ? trans.__('You made no prediction before the reveal.')
            : score.hinted > 0
              ? trans.__(
                  '%1 of %2 right before the hints (%3 more right after the hint naming it).',
                  score.correct,
                  score.total,
                  score.hinted
                )
              : trans.__('%1 of %2 right.', score.correct, score.total)}
        </p>
        {score && (
          <table>
            <thead>
              <tr>
                <th>{trans.__('Question')}</th>
                <th>{trans.__('Your answer')}</th>
                <th>{trans.__('Label')}</th>
                <th>{trans.__('Result')}</th>
              </tr>
            </thead>
            <tbody>
              {score.answers.map(answer => (
                <tr key={answer.question} data-correct={String(answer.correct)}>
                  <td>{DiagnosisForm.questionLabel(answer.question, trans)}</td>
                  <td>{answer.predicted ?? trans.__('(not sure)')}</td>
                  <td>{answer.actual}</td>
                  <td>
                    {!answer.correct
                      ? trans.__('✗ wrong')
                      : answer.hinted
                        ? trans.__('✓ right, after its hint (no point)')
                        : trans.__('✓ right')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    );
  }

  /** A changed cell's kind, in words. */
  function kindLabel(
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
