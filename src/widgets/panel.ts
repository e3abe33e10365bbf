/**
 * The JunoBench side panel: casebook header, search, facets and the case list.
 *
 * It renders the catalogue model and forwards what the learner does; all text
 * from the casebook is set as text, never as HTML.
 */
import type { ITranslator, TranslationBundle } from '@jupyterlab/translation';
import { nullTranslator } from '@jupyterlab/translation';
import { Panel, Widget } from '@lumino/widgets';
import { SidePanel } from '@jupyterlab/ui-components';
import type { LabIcon } from '@jupyterlab/ui-components';

import { displayEname } from '../casebook/display';
import { LIBRARY_LABELS } from '../casebook/library';
import type { ICase } from '../casebook/types';
import type { CaseStatus } from '../tokens';
import { FACETS } from '../model/catalogue';
import type { CatalogueModel, FacetKey, IFacetValue } from '../model/catalogue';

/** How many cases are rendered before "Show more". */
const PAGE = 200;

/**
 * The side panel listing the cases of the casebook.
 */
export class CasebookPanel extends SidePanel {
  /**
   * Build the panel around a catalogue model.
   */
  constructor(options: CasebookPanel.IOptions) {
    const translator = options.translator ?? nullTranslator;
    super({ translator, content: new Panel() });
    this.trans = translator.load('jupyterlab_junobench');
    this._model = options.model;
    this._onOpen = options.onOpen;
    this._statusOf = options.statusOf ?? (() => 'not-started');
    this.id = 'jp-junobench-panel';
    this.addClass('jp-Junobench-panel');
    this.title.icon = options.icon;
    this.title.caption = this.trans.__('JunoBench cases');
    this.node.setAttribute('role', 'region');
    this.node.setAttribute('aria-label', this.trans.__('JunoBench'));

    this._body = new Widget();
    this._body.addClass('jp-Junobench-body');
    this.addWidget(this._body);
    this._build();
    this._model.changed.connect(this.update, this);
  }

  /** The catalogue model. */
  get model(): CatalogueModel {
    return this._model;
  }

  /** Set the headline: casebook name, loading state and error. */
  setHeadline(state: CasebookPanel.IHeadline): void {
    this._headline = state;
    this.update();
  }

  /** Show the learner's overall progress. */
  setProgress(summary: CasebookPanel.IProgress): void {
    this._progressSummary = summary;
    this.update();
  }

  /** Render after a change. */
  protected onUpdateRequest(): void {
    this._render();
  }

  private _build(): void {
    const trans = this.trans;
    const root = this._body.node;
    const header = document.createElement('div');
    header.className = 'jp-Junobench-header';
    this._title = document.createElement('h2');
    this._title.className = 'jp-Junobench-title';
    this._title.id = 'jp-junobench-title';
    this._count = document.createElement('div');
    this._count.className = 'jp-Junobench-count';
    this._count.setAttribute('aria-live', 'polite');
    this._message = document.createElement('div');
    this._message.className = 'jp-Junobench-message';
    this._message.setAttribute('role', 'status');
    this._progress = document.createElement('div');
    this._progress.className = 'jp-Junobench-progress';
    this._progressBar = document.createElement('progress');
    this._progressBar.className = 'jp-Junobench-progressBar';
    this._progressBar.max = 1;
    this._progressText = document.createElement('span');
    this._progressText.className = 'jp-Junobench-progressText';
    this._progress.append(this._progressBar, this._progressText);
    header.append(this._title, this._count, this._progress, this._message);

    const search = document.createElement('input');
    search.type = 'search';
    search.className = 'jp-Junobench-search jp-mod-styled';
    search.placeholder = trans.__('Search name, library, exception…');
    search.setAttribute('aria-label', trans.__('Search cases'));
    search.addEventListener('input', () => this._model.setText(search.value));
    this._search = search;

    const filters = document.createElement('details');
    filters.className = 'jp-Junobench-filters';
    filters.open = true;
    const summary = document.createElement('summary');
    summary.textContent = trans.__('Filters');
    filters.appendChild(summary);
    const nbOnlyLabel = document.createElement('label');
    nbOnlyLabel.className = 'jp-Junobench-nbOnly';
    const nbOnly = document.createElement('input');
    nbOnly.type = 'checkbox';
    nbOnly.addEventListener('change', () =>
      this._model.setNotebookSpecificOnly(nbOnly.checked)
    );
    nbOnlyLabel.append(
      nbOnly,
      document.createTextNode(trans.__('Notebook-specific only'))
    );
    filters.appendChild(nbOnlyLabel);
    this._nbOnly = nbOnly;
    for (const key of FACETS) {
      const fieldset = document.createElement('fieldset');
      fieldset.className = 'jp-Junobench-facet';
      fieldset.dataset.facet = key;
      const legend = document.createElement('legend');
      legend.textContent = this._facetTitle(key);
      fieldset.appendChild(legend);
      const options = document.createElement('div');
      options.className = 'jp-Junobench-facetOptions';
      fieldset.appendChild(options);
      this._facetNodes[key] = options;
      filters.appendChild(fieldset);
    }
    const statusSet = document.createElement('fieldset');
    statusSet.className = 'jp-Junobench-facet';
    statusSet.dataset.facet = 'status';
    const statusLegend = document.createElement('legend');
    statusLegend.textContent = trans.__('Status');
    statusSet.appendChild(statusLegend);
    this._statusNode = document.createElement('div');
    this._statusNode.className = 'jp-Junobench-facetOptions';
    statusSet.appendChild(this._statusNode);
    this._statusSet = statusSet;
    filters.appendChild(statusSet);
    const clear = document.createElement('button');
    clear.className = 'jp-Junobench-clear jp-mod-styled';
    clear.textContent = trans.__('Clear filters');
    clear.addEventListener('click', () => {
      search.value = '';
      nbOnly.checked = false;
      this._model.clear();
    });
    filters.appendChild(clear);

    const list = document.createElement('ul');
    list.className = 'jp-Junobench-caseList';
    list.setAttribute('aria-label', trans.__('Cases'));
    this._list = list;
    this._more = document.createElement('button');
    this._more.className = 'jp-Junobench-more jp-mod-styled';
    this._more.textContent = trans.__('Show more');
    this._more.addEventListener('click', () => {
      this._limit += PAGE;
      this._renderList();
    });
    root.append(header, search, filters, list, this._more);
  }

  private _facetTitle(key: FacetKey): string {
    switch (key) {
      case 'library':
        return this.trans.__('Library');
      case 'crashType':
        return this.trans.__('Crash type');
      case 'rootCause':
        return this.trans.__('Root cause');
      case 'pipelineStage':
        return this.trans.__('Pipeline stage');
    }
  }

  private _render(): void {
    const trans = this.trans;
    const book = this._model.casebook;
    const headline = this._headline;
    this._title.textContent =
      book?.name ?? headline.name ?? trans.__('No casebook');
    const total = book?.cases.length ?? 0;
    this._count.textContent = trans._n(
      '%2 of %1 case',
      '%2 of %1 cases',
      total,
      this._model.visible.length
    );
    const progress = this._progressSummary;
    this._progress.hidden = !progress || progress.total === 0;
    if (progress && progress.total > 0) {
      this._progressBar.value = progress.fraction;
      const text = trans.__(
        'Solved %1 of %2 · attempted %3 · crashed %4',
        progress.solved,
        progress.total,
        progress.attempted,
        progress.crashed
      );
      this._progressText.textContent = text;
      this._progressBar.setAttribute('aria-label', text);
    }
    const lines: string[] = [];
    if (headline.loading) {
      lines.push(trans.__('Loading casebook…'));
    }
    if (headline.error) {
      lines.push(headline.error);
    }
    const problems = book?.problems ?? [];
    if (problems.length) {
      lines.push(
        trans._n(
          '%1 problem while loading:',
          '%1 problems while loading:',
          problems.length
        )
      );
      for (const p of problems.slice(0, 20)) {
        lines.push(`• ${p.file}${p.case ? ` (${p.case})` : ''}: ${p.message}`);
      }
    }
    this._message.textContent = lines.join('\n');
    this._message.hidden = lines.length === 0;

    for (const key of FACETS) {
      this._renderFacet(key);
    }
    this._renderStatusFacet();
    this._nbOnly.checked = this._model.query.notebookSpecificOnly;
    if (this._search.value !== this._model.query.text) {
      this._search.value = this._model.query.text;
    }
    this._limit = PAGE;
    this._renderList();
  }

  private _renderFacet(key: FacetKey): void {
    this._renderOptions(
      this._facetNodes[key],
      this._model.facets[key],
      entry => {
        const shown =
          key === 'library'
            ? ((LIBRARY_LABELS as Record<string, string>)[entry.value] ??
              entry.value)
            : entry.value || this.trans.__('(none)');
        return key === 'library' && shown !== entry.value
          ? `${entry.value} — ${shown} (${entry.count})`
          : `${shown} (${entry.count})`;
      },
      (value, on) => this._model.toggle(key, value, on)
    );
  }

  private _renderStatusFacet(): void {
    const values = this._model.statusFacet;
    this._statusSet.hidden = values.length === 0;
    this._renderOptions(
      this._statusNode,
      values,
      entry =>
        `${this._statusLabel(entry.value as CaseStatus)} (${entry.count})`,
      (value, on) => this._model.toggleStatus(value, on)
    );
  }

  /**
   * One labelled checkbox per facet value.
   */
  private _renderOptions(
    node: HTMLElement,
    entries: readonly IFacetValue[],
    text: (entry: IFacetValue) => string,
    toggle: (value: string, on: boolean) => void
  ): void {
    node.textContent = '';
    for (const entry of entries) {
      const label = document.createElement('label');
      label.className = 'jp-Junobench-facetOption';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = entry.selected;
      box.addEventListener('change', () => toggle(entry.value, box.checked));
      label.append(box, document.createTextNode(text(entry)));
      node.appendChild(label);
    }
  }

  private _renderList(): void {
    const trans = this.trans;
    const cases = this._model.visible;
    this._list.textContent = '';
    const shown = cases.slice(0, this._limit);
    for (const c of shown) {
      this._list.appendChild(this._renderCase(c));
    }
    if (!cases.length) {
      const empty = document.createElement('li');
      empty.className = 'jp-Junobench-empty';
      empty.textContent = this._model.casebook?.cases.length
        ? trans.__('No case matches the filters.')
        : trans.__('No cases.');
      this._list.appendChild(empty);
    }
    this._more.hidden = cases.length <= this._limit;
  }

  private _renderCase(c: ICase): HTMLLIElement {
    const trans = this.trans;
    const item = document.createElement('li');
    item.className = 'jp-Junobench-caseItem';
    item.dataset.case = c.name;
    const status = this._statusOf(c.name);
    item.dataset.status = status;

    const top = document.createElement('div');
    top.className = 'jp-Junobench-caseTop';
    const name = document.createElement('span');
    name.className = 'jp-Junobench-caseName';
    name.textContent = c.name;
    const lib = document.createElement('span');
    lib.className = 'jp-Junobench-caseLibrary';
    lib.textContent =
      (LIBRARY_LABELS as Record<string, string>)[c.library] ?? c.library;
    const badge = document.createElement('span');
    badge.className = `jp-Junobench-badge jp-Junobench-badge-${status}`;
    badge.textContent = this._statusLabel(status);
    top.append(name, lib, badge);
    if (c.problems.length) {
      const warn = document.createElement('span');
      warn.className = 'jp-Junobench-caseProblem';
      warn.textContent = trans.__('incomplete');
      warn.title = c.problems.join('\n');
      warn.setAttribute(
        'aria-label',
        trans.__('Incomplete case: %1', c.problems.join('; '))
      );
      top.appendChild(warn);
    }
    const error = document.createElement('div');
    error.className = 'jp-Junobench-caseError';
    const ename = displayEname(c);
    error.textContent = c.evalue ? `${ename}: ${c.evalue}` : ename;
    error.title = error.textContent;

    const open = document.createElement('button');
    open.className = 'jp-Junobench-open jp-mod-styled jp-mod-accept';
    open.textContent = trans.__('Open');
    open.setAttribute('aria-label', trans.__('Open case %1', c.name));
    open.disabled = !c.files.reproduced;
    if (open.disabled) {
      open.title = trans.__('This case has no reproduced notebook.');
    }
    open.addEventListener('click', () => void this._onOpen(c.name));
    item.append(top, error, open);
    return item;
  }

  private _statusLabel(status: CaseStatus): string {
    switch (status) {
      case 'not-started':
        return this.trans.__('not started');
      case 'crashed':
        return this.trans.__('crashed');
      case 'attempted':
        return this.trans.__('attempted');
      case 'solved':
        return this.trans.__('solved');
    }
  }

  private trans: TranslationBundle;
  private _model: CatalogueModel;
  private _onOpen: (name: string) => Promise<void> | void;
  private _statusOf: (name: string) => CaseStatus;
  private _body: Widget;
  private _title!: HTMLHeadingElement;
  private _count!: HTMLDivElement;
  private _message!: HTMLDivElement;
  private _search!: HTMLInputElement;
  private _nbOnly!: HTMLInputElement;
  private _list!: HTMLUListElement;
  private _more!: HTMLButtonElement;
  private _statusSet!: HTMLFieldSetElement;
  private _statusNode!: HTMLDivElement;
  private _progress!: HTMLDivElement;
  private _progressBar!: HTMLProgressElement;
  private _progressText!: HTMLSpanElement;
  private _progressSummary: CasebookPanel.IProgress | null = null;
  private _facetNodes = {} as Record<FacetKey, HTMLDivElement>;
  private _limit = PAGE;
  private _headline: CasebookPanel.IHeadline = { loading: false, error: null };
}

/**
 * A namespace for CasebookPanel statics.
 */
export namespace CasebookPanel {
  /** Options to build the panel. */
  export interface IOptions {
    /** The catalogue model to render. */
    model: CatalogueModel;
    /** Called when the learner opens a case. */
    onOpen: (name: string) => Promise<void> | void;
    /** The status of a case, for the badge slot. */
    statusOf?: (name: string) => CaseStatus;
    /** The tab icon. */
    icon: LabIcon;
    /** The translator. */
    translator?: ITranslator;
  }

  /** Overall progress counts. */
  export interface IProgress {
    /** Cases counted. */
    total: number;
    /** Solved cases. */
    solved: number;
    /** Cases with attempts, not solved. */
    attempted: number;
    /** Cases that crashed, without attempts. */
    crashed: number;
    /** Solved fraction. */
    fraction: number;
  }

  /** What the header says besides the casebook. */
  export interface IHeadline {
    /** Casebook name to show before one is loaded. */
    name?: string;
    /** Whether a load is in progress. */
    loading: boolean;
    /** Why no casebook is loaded. */
    error: string | null;
  }
}
