/**
 * The self-diagnosis form in the check bar: the learner predicts the root
 * cause, crash type and pipeline stage from the casebook's label sets before
 * the reveal; once the reveal is opened the form shows the frozen score.
 */
import type { TranslationBundle } from '@jupyterlab/translation';

import { DIAGNOSIS_QUESTIONS } from '../repair/selfDiagnosis';
import type {
  DiagnosisQuestion,
  IPredictionAnswers
} from '../repair/selfDiagnosis';
import type { ICaseProgress } from '../progress/types';

/**
 * A collapsible form with one choice per question and a save button.
 */
export class DiagnosisForm {
  /**
   * Build the form; call `render()` after progress or the casebook changes.
   */
  constructor(options: DiagnosisForm.IOptions) {
    this._options = options;
    const { trans } = options;
    this.node = document.createElement('details');
    this.node.className = 'jp-Junobench-diagnosis';
    const summary = document.createElement('summary');
    this._summary = summary;
    this.node.appendChild(summary);
    const form = document.createElement('form');
    form.className = 'jp-Junobench-diagnosisForm';
    form.addEventListener('submit', event => {
      event.preventDefault();
      void this._save();
    });
    const intro = document.createElement('p');
    intro.textContent = trans.__(
      'Before the reveal, say what you think went wrong. Your prediction is scored against the case labels when you open the reveal; an answer given after the hint that names it earns no point.'
    );
    form.appendChild(intro);
    for (const question of DIAGNOSIS_QUESTIONS) {
      const label = document.createElement('label');
      label.className = 'jp-Junobench-diagnosisQuestion';
      const text = document.createElement('span');
      text.textContent = DiagnosisForm.questionLabel(question, trans);
      const select = document.createElement('select');
      select.className = 'jp-mod-styled';
      select.name = question;
      select.addEventListener('change', () => {
        this._dirty = true;
        this._status.textContent = trans.__('Not saved yet.');
      });
      label.append(text, select);
      form.appendChild(label);
      this._selects[question] = select;
    }
    this._saveButton = document.createElement('button');
    this._saveButton.type = 'submit';
    this._saveButton.className = 'jp-Junobench-button jp-mod-styled';
    this._saveButton.textContent = trans.__('Save prediction');
    this._status = document.createElement('span');
    this._status.className = 'jp-Junobench-diagnosisStatus';
    this._status.setAttribute('role', 'status');
    this._status.setAttribute('aria-live', 'polite');
    form.append(this._saveButton, this._status);
    this.node.appendChild(form);
  }

  /** The form's root element. */
  readonly node: HTMLDetailsElement;

  /** Show the saved prediction (unless the learner is changing it) or the score. */
  render(): void {
    const { trans } = this._options;
    const progress = this._options.progress();
    const choices = this._options.choices();
    const prediction = progress?.prediction ?? null;
    const locked = !!progress?.revealedAt;
    for (const question of DIAGNOSIS_QUESTIONS) {
      const select = this._selects[question]!;
      const wanted = this._dirty
        ? select.value
        : (prediction?.[question] ?? '');
      const options = ['', ...choices[question]];
      if (wanted && !options.includes(wanted)) {
        options.push(wanted);
      }
      if (
        select.options.length !== options.length ||
        this._stale(select, options)
      ) {
        select.textContent = '';
        for (const value of options) {
          const option = document.createElement('option');
          option.value = value;
          option.textContent = value || trans.__('— not sure —');
          select.appendChild(option);
        }
      }
      select.value = wanted;
      select.disabled = locked || !progress;
    }
    this._saveButton.disabled = locked || !progress;
    const score = progress?.selfDiagnosis ?? null;
    if (locked) {
      this._summary.textContent = score
        ? trans.__('Your diagnosis: %1 of %2 right', score.correct, score.total)
        : trans.__('Your diagnosis: no prediction before the reveal');
      this._status.textContent = trans.__(
        'The reveal is open, so the prediction is final.'
      );
    } else {
      this._summary.textContent = prediction
        ? trans.__('Your diagnosis (saved, scored at the reveal)')
        : trans.__('Diagnose it yourself');
      if (!this._dirty && prediction) {
        this._status.textContent = trans.__('Saved.');
      }
    }
  }

  private _stale(select: HTMLSelectElement, options: string[]): boolean {
    return options.some((value, i) => select.options[i]?.value !== value);
  }

  private async _save(): Promise<void> {
    const { trans } = this._options;
    const answers = {} as Record<DiagnosisQuestion, string | null>;
    for (const question of DIAGNOSIS_QUESTIONS) {
      answers[question] = this._selects[question]!.value || null;
    }
    try {
      await this._options.save(answers);
      this._dirty = false;
      this._status.textContent = trans.__('Saved.');
    } catch (reason) {
      this._status.textContent = trans.__(
        'Not saved: %1',
        (reason as Error).message ?? String(reason)
      );
    }
    this.render();
  }

  private _options: DiagnosisForm.IOptions;
  private _summary: HTMLElement;
  private _selects: Partial<Record<DiagnosisQuestion, HTMLSelectElement>> = {};
  private _saveButton: HTMLButtonElement;
  private _status: HTMLSpanElement;
  private _dirty = false;
}

/**
 * A namespace for DiagnosisForm statics.
 */
export namespace DiagnosisForm {
  /** Options to build the form. */
  export interface IOptions {
    /** The choices per question (the casebook's label sets). */
    choices: () => Record<DiagnosisQuestion, string[]>;
    /** The case's progress, or null when no progress is kept. */
    progress: () => ICaseProgress | null;
    /** Save a prediction. */
    save: (answers: IPredictionAnswers) => Promise<void>;
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
}
