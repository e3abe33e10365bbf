/**
 * The "Save as JunoBench Case…" form, the body of a JupyterLab Dialog: case
 * name, labels (the casebook's own label sets offered, free entry allowed),
 * the written diagnosis, the dataset credits and the input files to copy.
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import { VDomRenderer } from '@jupyterlab/ui-components';
import { UUID } from '@lumino/coreutils';
import { Widget } from '@lumino/widgets';
import * as React from 'react';

import type { ILabelSets } from '../authoring/spec';
import type { ICaseDetails } from '../model/authoringFlow';
import { CaseFormModel } from '../model/caseFormModel';
import type { CaseFormField } from '../model/caseFormModel';

/** What the author filled in (the authoring flow's case details). */
export type ICaseFormValue = ICaseDetails;

/**
 * The case form, a render of a `CaseFormModel`; `getValue()` is what Dialog
 * returns.
 */
export class CaseForm extends VDomRenderer<CaseFormModel> {
  /**
   * Build the form.
   */
  constructor(readonly options: CaseForm.IOptions) {
    super(new CaseFormModel(options.value));
    this.addClass('jp-Junobench-caseForm');
  }

  /** Dispose the form's model with it. */
  dispose(): void {
    const model = this.model;
    super.dispose();
    model?.dispose();
  }

  /** The values as filled in (trimmed; empty data lines dropped). */
  getValue(): ICaseFormValue {
    return this.model.value;
  }

  protected render(): React.ReactElement {
    const { trans, labels, notes } = this.options;
    const model = this.model;
    const field = (
      key: CaseFormField,
      label: string,
      choices: string[] | null = null,
      rows = 0
    ) => {
      const props = {
        className: 'jp-mod-styled',
        name: key,
        value: model.text(key),
        onChange: (
          event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>
        ) => model.set(key, event.currentTarget.value)
      };
      const list = choices?.length ? `${this._uid}-${key}` : undefined;
      return (
        <label className="jp-Junobench-caseFormField">
          <span>{label}</span>
          {list && (
            <datalist id={list}>
              {choices!.map(choice => (
                <option key={choice} value={choice} />
              ))}
            </datalist>
          )}
          {rows ? (
            <textarea rows={rows} {...props} />
          ) : (
            <input type="text" list={list} {...props} />
          )}
        </label>
      );
    };
    return (
      <form onSubmit={event => event.preventDefault()}>
        {notes.length > 0 && (
          <ul
            className="jp-Junobench-caseFormNotes"
            aria-label={trans.__('About the recorded order')}
          >
            {notes.map((note, i) => (
              <li key={i}>{note}</li>
            ))}
          </ul>
        )}
        {field(
          'name',
          trans.__('Case name (letters, digits, "_", "." and "-")')
        )}
        {field('library', trans.__('Library'), labels.library)}
        {field('rootCause', trans.__('Root cause'), labels.rootCause)}
        {field('crashType', trans.__('Crash type'), labels.crashType)}
        {field(
          'pipelineStage',
          trans.__('ML pipeline stage'),
          labels.pipelineStage
        )}
        {field('mlBug', trans.__('ML bug or not'), labels.mlBug)}
        {field('diagnosis', trans.__('Written diagnosis'), null, 4)}
        {field('datasetTitle', trans.__('Dataset title'))}
        {field('datasetLicense', trans.__('Dataset licence'))}
        {field('datasetUrl', trans.__('Dataset URL'))}
        {field(
          'data',
          trans.__(
            'Input files to copy, one per line, relative to the notebook (e.g. data/train.csv)'
          ),
          null,
          3
        )}
      </form>
    );
  }

  private readonly _uid = `jp-Junobench-caseForm-${UUID.uuid4()}`;
}

/**
 * Options of CaseForm.
 */
export namespace CaseForm {
  /**
   * What the form shows.
   */
  export interface IOptions {
    /** The translation bundle. */
    trans: TranslationBundle;
    /** The casebook's label sets. */
    labels: ILabelSets;
    /** The initial values. */
    value: ICaseFormValue;
    /** Translated notes about the recorded order. */
    notes: string[];
  }

  /**
   * An empty value with a suggested name.
   */
  export function emptyValue(name: string): ICaseFormValue {
    return {
      name,
      rootCause: '',
      crashType: '',
      pipelineStage: '',
      mlBug: '',
      library: '',
      diagnosis: '',
      datasetTitle: '',
      datasetLicense: '',
      datasetUrl: '',
      data: []
    };
  }
}

/**
 * A dialog body of a few paragraphs (the result of a save and its verification).
 */
export function linesBody(lines: string[]): Widget {
  const body = new Widget();
  body.addClass('jp-Junobench-authoringResult');
  for (const line of lines) {
    const p = document.createElement('p');
    p.textContent = line;
    body.node.appendChild(p);
  }
  return body;
}
