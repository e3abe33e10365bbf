/**
 * The self-diagnosis form of the case side panel: a render of one
 * `DiagnosisModel`, one choice per question and a save button; once the
 * reveal is open the form shows the frozen score.
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import * as React from 'react';

import type { DiagnosisModel } from '../model/diagnosisModel';
import { DIAGNOSIS_QUESTIONS } from '../repair/selfDiagnosis';
import type { DiagnosisQuestion } from '../repair/selfDiagnosis';

/**
 * A collapsible form with one choice per question and a save button.
 */
export function DiagnosisForm(props: DiagnosisForm.IProps): React.ReactElement {
  const { model, trans } = props;
  const progress = model.progress;
  const prediction = progress?.prediction ?? null;
  const score = progress?.selfDiagnosis ?? null;
  const disabled = model.locked || !progress;
  const summary = model.locked
    ? score
      ? trans.__('Your diagnosis: %1 of %2 right', score.correct, score.total)
      : trans.__('Your diagnosis: no prediction before the reveal')
    : prediction
      ? trans.__('Your diagnosis (saved, scored at the reveal)')
      : trans.__('Diagnose it yourself');
  return (
    <details className="jp-Junobench-diagnosis" open>
      <summary>{summary}</summary>
      <form
        className="jp-Junobench-diagnosisForm"
        onSubmit={event => {
          event.preventDefault();
          void model.save();
        }}
      >
        <p>
          {trans.__(
            'Before the reveal, say what you think went wrong. Your prediction is scored against the case labels when you open the reveal; an answer given after the hint that names it earns no point.'
          )}
        </p>
        {DIAGNOSIS_QUESTIONS.map(question => (
          <label key={question} className="jp-Junobench-diagnosisQuestion">
            <span>{DiagnosisForm.questionLabel(question, trans)}</span>
            <select
              className="jp-mod-styled"
              name={question}
              value={model.value(question)}
              disabled={disabled}
              onChange={event =>
                model.choose(question, event.currentTarget.value)
              }
            >
              {model.choices(question).map(value => (
                <option key={value} value={value}>
                  {value || trans.__('— not sure —')}
                </option>
              ))}
            </select>
          </label>
        ))}
        <button
          type="submit"
          className="jp-Junobench-button jp-mod-styled"
          disabled={disabled}
        >
          {trans.__('Save prediction')}
        </button>
        <span
          className="jp-Junobench-diagnosisStatus"
          role="status"
          aria-live="polite"
        >
          {DiagnosisForm.statusText(model, trans)}
        </span>
      </form>
    </details>
  );
}

/**
 * A namespace for DiagnosisForm statics.
 */
export namespace DiagnosisForm {
  /** Properties of the form. */
  export interface IProps {
    /** The self-diagnosis of the current working copy. */
    model: DiagnosisModel;
    /** Translation bundle. */
    trans: TranslationBundle;
  }

  /** The label of a question, translated. */
  export function questionLabel(
    question: DiagnosisQuestion,
    trans: TranslationBundle
  ): string {
    switch (question) {
      case 'rootCause':
        return trans.__('Root cause');
      case 'crashType':
        return trans.__('Crash type');
      case 'pipelineStage':
        return trans.__('Pipeline stage');
    }
  }

  /** How the prediction stands, in words. */
  export function statusText(
    model: DiagnosisModel,
    trans: TranslationBundle
  ): string {
    switch (model.status) {
      case 'final':
        return trans.__('The reveal is open, so the prediction is final.');
      case 'saved':
        return trans.__('Saved.');
      case 'unsaved':
        return trans.__('Not saved yet.');
      case 'failed':
        return trans.__('Not saved: %1', model.error);
      case null:
        return '';
    }
  }
}
