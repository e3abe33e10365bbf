/**
 * The "Save as JunoBench Case…" form, the body of a JupyterLab Dialog: case
 * name, labels (the casebook's own label sets offered, free entry allowed),
 * the written diagnosis, the dataset credits and the input files to copy.
 */
import type { TranslationBundle } from '@jupyterlab/translation';
import { UUID } from '@lumino/coreutils';
import { Widget } from '@lumino/widgets';

import type { ILabelSets } from '../authoring/spec';
import type { ICaseDetails } from '../model/authoringFlow';

/** What the author filled in (the authoring flow's case details). */
export type ICaseFormValue = ICaseDetails;

/**
 * The case form; `getValue()` is what Dialog returns.
 */
export class CaseForm extends Widget {
  /**
   * Build the form.
   */
  constructor(options: CaseForm.IOptions) {
    super();
    const { trans, labels, value, notes } = options;
    this.addClass('jp-Junobench-caseForm');
    const form = document.createElement('form');
    form.addEventListener('submit', event => event.preventDefault());
    this.node.appendChild(form);
    const uid = `jp-Junobench-caseForm-${UUID.uuid4()}`;

    if (notes.length > 0) {
      const list = document.createElement('ul');
      list.className = 'jp-Junobench-caseFormNotes';
      list.setAttribute('aria-label', trans.__('About the recorded order'));
      for (const note of notes) {
        const item = document.createElement('li');
        item.textContent = note;
        list.appendChild(item);
      }
      form.appendChild(list);
    }

    const field = (
      key: keyof Omit<ICaseFormValue, 'data'>,
      label: string,
      choices: string[] | null = null,
      multiline = false
    ) => {
      const wrapper = document.createElement('label');
      wrapper.className = 'jp-Junobench-caseFormField';
      const text = document.createElement('span');
      text.textContent = label;
      wrapper.appendChild(text);
      const input = multiline
        ? document.createElement('textarea')
        : document.createElement('input');
      input.className = 'jp-mod-styled';
      input.name = key;
      input.value = value[key] ?? '';
      if (input instanceof HTMLInputElement) {
        input.type = 'text';
        if (choices && choices.length > 0) {
          const list = document.createElement('datalist');
          list.id = `${uid}-${key}`;
          for (const choice of choices) {
            const option = document.createElement('option');
            option.value = choice;
            list.appendChild(option);
          }
          wrapper.appendChild(list);
          input.setAttribute('list', list.id);
        }
      } else {
        input.rows = 4;
      }
      wrapper.appendChild(input);
      form.appendChild(wrapper);
      this._inputs.set(key, input);
    };

    field('name', trans.__('Case name (letters, digits, "_", "." and "-")'));
    field('library', trans.__('Library'), labels.library);
    field('rootCause', trans.__('Root cause'), labels.rootCause);
    field('crashType', trans.__('Crash type'), labels.crashType);
    field('pipelineStage', trans.__('ML pipeline stage'), labels.pipelineStage);
    field('mlBug', trans.__('ML bug or not'), labels.mlBug);
    field('diagnosis', trans.__('Written diagnosis'), null, true);
    field('datasetTitle', trans.__('Dataset title'));
    field('datasetLicense', trans.__('Dataset licence'));
    field('datasetUrl', trans.__('Dataset URL'));

    const data = document.createElement('label');
    data.className = 'jp-Junobench-caseFormField';
    const dataText = document.createElement('span');
    dataText.textContent = trans.__(
      'Input files to copy, one per line, relative to the notebook (e.g. data/train.csv)'
    );
    this._data = document.createElement('textarea');
    this._data.className = 'jp-mod-styled';
    this._data.name = 'data';
    this._data.rows = 3;
    this._data.value = value.data.join('\n');
    data.append(dataText, this._data);
    form.appendChild(data);
  }

  /**
   * The values as filled in (trimmed; empty data lines dropped).
   */
  getValue(): ICaseFormValue {
    const get = (key: keyof Omit<ICaseFormValue, 'data'>) =>
      this._inputs.get(key)?.value.trim() ?? '';
    return {
      name: get('name'),
      rootCause: get('rootCause'),
      crashType: get('crashType'),
      pipelineStage: get('pipelineStage'),
      mlBug: get('mlBug'),
      library: get('library'),
      diagnosis: get('diagnosis'),
      datasetTitle: get('datasetTitle'),
      datasetLicense: get('datasetLicense'),
      datasetUrl: get('datasetUrl'),
      data: this._data.value
        .split('\n')
        .map(line => line.trim())
        .filter(line => line !== '')
    };
  }

  private readonly _inputs = new Map<
    string,
    HTMLInputElement | HTMLTextAreaElement
  >();
  private readonly _data: HTMLTextAreaElement;
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
