/**
 * The JunoBench side panel: casebook header, search, facets and the case list.
 *
 * It renders the catalogue model and forwards what the learner does; all text
 * from the casebook is set as text, never as HTML.
 */
import type { ITranslator, TranslationBundle } from '@jupyterlab/translation';
import { nullTranslator } from '@jupyterlab/translation';
import type { Message } from '@lumino/messaging';
import { Panel, Widget } from '@lumino/widgets';
import { SidePanel } from '@jupyterlab/ui-components';
import type { LabIcon } from '@jupyterlab/ui-components';

import { displayEname } from '../casebook/display';
import { LIBRARY_LABELS } from '../casebook/library';
import { MARKER_DRAFT } from '../casebook/loader';
import { runnability } from '../casebook/runnable';
import type { MissingPart } from '../casebook/runnable';
import type { ICase } from '../casebook/types';
import type { CaseStatus } from '../tokens';
import { renderFetchFailure } from '../model/caseFetcher';
import type { FetchFailure } from '../model/caseFetcher';
import { FACETS } from '../model/catalogue';
import type { CatalogueModel, FacetKey, IFacetValue } from '../model/catalogue';
import { formatCountdown } from '../workshop/playlist';
import { renderCaseMarker, renderCasebookMessage } from '../casebook/messages';
import { TRANSLATION_DOMAIN } from '../i18n';

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
    this.trans = translator.load(TRANSLATION_DOMAIN);
    this._model = options.model;
    this._onOpen = options.onOpen;
    this._onLeaveWorkshop = options.onLeaveWorkshop ?? null;
    this._onShow = options.onShow ?? null;
    this._onFetch = options.onFetch ?? null;
    this._describe = options.describe ?? null;
    this._labelsOpen = options.labelsOpen ?? null;
    this._statusOf = options.statusOf ?? (() => 'not-started');
    this.id = 'jp-junobench-panel';
    this.addClass('jp-Junobench-panel');
    this.title.icon = options.icon;
    this.title.caption = this.trans.__('JunoBench cases');
    this.node.setAttribute('role', 'region');
    this.node.setAttribute('aria-label', this.trans.__('JunoBench'));

    this._body = new Widget();
    this._body.addClass('jp-Junobench-body');
    // Focusable, so a click anywhere in the panel keeps the keyboard here
    // (for `/` and the arrows) without adding a tab stop.
    this._body.node.tabIndex = -1;
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

  /**
   * Say when the progress backup cannot be written (the server is down) or
   * could not be read; nothing is shown while it is fine.
   */
  setBackup(state: CasebookPanel.IBackup): void {
    const trans = this.trans;
    const lines: string[] = [];
    if (state.error) {
      lines.push(
        trans.__(
          'Progress not saved to the server yet; retrying. Keep this page open. (%1)',
          state.error
        )
      );
    }
    if (state.problem) {
      lines.push(state.problem);
    }
    this._saving.textContent = lines.join('\n');
    this._saving.hidden = lines.length === 0;
    this._saving.dataset.pending = String(state.pending);
  }

  /**
   * Show the active workshop above the list (its title, reveal policy,
   * countdown, missing cases and a way to leave), or null to hide it.
   */
  setWorkshop(workshop: CasebookPanel.IWorkshop | null): void {
    this._workshop = workshop;
    if (this._tick !== null) {
      clearInterval(this._tick);
      this._tick = null;
    }
    if (workshop && workshop.endsAt !== null && workshop.endsAt > Date.now()) {
      // Only the countdown text changes every second, not the list.
      this._tick = setInterval(() => this._renderCountdown(), 1000);
    }
    this.update();
  }

  /**
   * Say whether missing cases can be fetched into this casebook from the
   * panel ("Fetch this case"), or why not; null when the question does not
   * arise (the casebook is not a sparse copy).
   */
  setFetchSource(state: CasebookPanel.IFetchSource | null): void {
    this._fetchSource = state;
    this._rowsStale();
    this.update();
  }

  /** Show how fetching one case stands (null forgets it). */
  setFetchProgress(
    name: string,
    state: CasebookPanel.IFetchProgress | null
  ): void {
    if (state) {
      this._fetches.set(name, state);
    } else {
      this._fetches.delete(name);
    }
    this._rowsStale();
    this.update();
  }

  /** Render every row again (e.g. after the reveal policy changed). */
  invalidate(): void {
    this._rowsStale();
    this.update();
  }

  /** Stop the countdown. */
  dispose(): void {
    if (this._tick !== null) {
      clearInterval(this._tick);
      this._tick = null;
    }
    super.dispose();
  }

  /** Tell the owner the list is on screen. */
  protected onAfterShow(msg: Message): void {
    super.onAfterShow(msg);
    this._onShow?.();
  }

  /** Tell the owner the list is on screen when attached visible. */
  protected onAfterAttach(msg: Message): void {
    super.onAfterAttach(msg);
    if (this.isVisible) {
      this._onShow?.();
    }
  }

  /** Activated (its tab clicked, or a command): the keyboard lands in the list. */
  protected onActivateRequest(msg: Message): void {
    super.onActivateRequest(msg);
    if (!this.node.contains(document.activeElement)) {
      this._body.node.focus();
    }
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
    this._saving = document.createElement('div');
    this._saving.className = 'jp-Junobench-message jp-Junobench-saving';
    this._saving.setAttribute('role', 'status');
    this._saving.hidden = true;
    this._workshopNode = this._buildWorkshop();
    header.append(
      this._title,
      this._workshopNode,
      this._count,
      this._progress,
      this._saving,
      this._message
    );

    const search = document.createElement('input');
    search.type = 'search';
    search.className = 'jp-Junobench-search jp-mod-styled';
    search.placeholder = trans.__('Search name, library, exception…');
    search.setAttribute('aria-label', trans.__('Search cases'));
    search.addEventListener('input', () => this._model.setText(search.value));
    this._search = search;

    const runLabel = document.createElement('label');
    runLabel.className = 'jp-Junobench-runOnly';
    const runOnly = document.createElement('input');
    runOnly.type = 'checkbox';
    runOnly.addEventListener('change', () =>
      this._model.setRunnableOnly(runOnly.checked)
    );
    this._runOnlyText = document.createTextNode('');
    runLabel.append(runOnly, this._runOnlyText);
    this._runOnly = runOnly;

    const filters = document.createElement('details');
    filters.className = 'jp-Junobench-filters';
    // Closed at first: the cases come first, the filters are one line.
    filters.open = false;
    const summary = document.createElement('summary');
    summary.textContent = trans.__('Filters');
    filters.appendChild(summary);
    this._filtersSummary = summary;
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
    list.addEventListener('keydown', event => this._onListKey(event));
    // `/` anywhere in the panel (outside a text field) goes to the search.
    this.node.addEventListener('keydown', event => {
      const target = event.target as HTMLElement;
      if (
        event.key === '/' &&
        !event.ctrlKey &&
        !event.metaKey &&
        !event.altKey &&
        !Private.isTextField(target)
      ) {
        event.preventDefault();
        search.focus();
        search.select();
      }
    });
    search.addEventListener('keydown', event => {
      if (event.key === 'ArrowDown') {
        event.preventDefault();
        this._focusRow(0);
      }
    });
    root.append(header, search, runLabel, filters, list, this._more);
  }

  private _buildWorkshop(): HTMLElement {
    const trans = this.trans;
    const node = document.createElement('section');
    node.className = 'jp-Junobench-workshop';
    node.setAttribute('aria-label', trans.__('Workshop'));
    node.hidden = true;
    this._workshopLabel = document.createElement('div');
    this._workshopLabel.className = 'jp-Junobench-workshopLabel';
    this._workshopText = document.createElement('p');
    this._workshopText.className = 'jp-Junobench-workshopDescription';
    this._workshopReveal = document.createElement('div');
    this._workshopReveal.className = 'jp-Junobench-workshopReveal';
    this._countdown = document.createElement('div');
    this._countdown.className = 'jp-Junobench-countdown';
    this._countdown.setAttribute('role', 'timer');
    this._workshopMissing = document.createElement('div');
    this._workshopMissing.className = 'jp-Junobench-workshopMissing';
    this._workshopMissing.setAttribute('role', 'status');
    const leave = document.createElement('button');
    leave.className = 'jp-Junobench-leaveWorkshop jp-mod-styled';
    leave.textContent = trans.__('Leave workshop');
    leave.addEventListener('click', () => void this._onLeaveWorkshop?.());
    this._leaveWorkshop = leave;
    node.append(
      this._workshopLabel,
      this._workshopText,
      this._workshopReveal,
      this._countdown,
      this._workshopMissing,
      leave
    );
    return node;
  }

  private _renderWorkshop(): void {
    const trans = this.trans;
    const workshop = this._workshop;
    this._workshopNode.hidden = workshop === null;
    this.node.classList.toggle('jp-mod-workshop', workshop !== null);
    if (!workshop) {
      return;
    }
    this._title.textContent = workshop.title;
    this._workshopLabel.textContent = this._model.casebook
      ? trans.__('Workshop on the casebook %1', this._model.casebook.name)
      : trans.__('Workshop');
    this._workshopText.textContent = workshop.description ?? '';
    this._workshopText.hidden = !workshop.description;
    this._workshopReveal.textContent = workshop.reveal;
    this._workshopMissing.textContent = workshop.missing.length
      ? trans._n(
          'Not in the casebook: %2',
          'Not in the casebook (%1 cases): %2',
          workshop.missing.length,
          workshop.missing.join(', ')
        )
      : '';
    this._workshopMissing.hidden = workshop.missing.length === 0;
    this._leaveWorkshop.hidden = this._onLeaveWorkshop === null;
    this._renderCountdown();
  }

  private _renderCountdown(): void {
    const endsAt = this._workshop?.endsAt ?? null;
    this._countdown.hidden = endsAt === null;
    if (endsAt === null) {
      return;
    }
    const left = endsAt - Date.now();
    this._countdown.classList.toggle('jp-mod-over', left <= 0);
    if (left <= 0 && this._tick !== null) {
      clearInterval(this._tick);
      this._tick = null;
    }
    this._countdown.textContent =
      left > 0
        ? this.trans.__('Time left: %1', formatCountdown(left))
        : this.trans.__("Time's up");
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
    this._renderWorkshop();
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
        lines.push(
          `• ${p.file}${p.case ? ` (${p.case})` : ''}: ${renderCasebookMessage(p.why, trans.__.bind(trans))}`
        );
      }
    }
    this._message.textContent = lines.join('\n');
    this._message.hidden = lines.length === 0;

    for (const key of FACETS) {
      this._renderFacet(key);
    }
    this._renderStatusFacet();
    this._nbOnly.checked = this._model.query.notebookSpecificOnly;
    this._runOnly.checked = this._model.query.runnableOnly ?? false;
    const q = this._model.query;
    const active =
      q.library.length +
      q.crashType.length +
      q.rootCause.length +
      q.pipelineStage.length +
      (q.status?.length ?? 0) +
      (q.notebookSpecificOnly ? 1 : 0);
    const filtersText = active
      ? trans._n('Filters (%1 active)', 'Filters (%1 active)', active)
      : trans.__('Filters');
    if (this._filtersSummary.textContent !== filtersText) {
      this._filtersSummary.textContent = filtersText;
    }
    this._runOnlyText.data = trans.__(
      'Runnable here (%1)',
      this._model.runnableCount
    );
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
    // Options are updated in place, so a ticked box keeps its focus and a
    // keystroke does not rebuild every facet.
    let known = this._options.get(node);
    if (!known) {
      known = new Map();
      this._options.set(node, known);
    }
    const labels: HTMLLabelElement[] = [];
    const seen = new Set<string>();
    for (const entry of entries) {
      let option = known.get(entry.value);
      if (!option) {
        const label = document.createElement('label');
        label.className = 'jp-Junobench-facetOption';
        const box = document.createElement('input');
        box.type = 'checkbox';
        const value = entry.value;
        box.addEventListener('change', () => toggle(value, box.checked));
        const textNode = document.createTextNode('');
        label.append(box, textNode);
        option = { label, box, text: textNode };
        known.set(entry.value, option);
      }
      if (option.box.checked !== entry.selected) {
        option.box.checked = entry.selected;
      }
      const shown = text(entry);
      if (option.text.data !== shown) {
        option.text.data = shown;
      }
      labels.push(option.label);
      seen.add(entry.value);
    }
    for (const value of [...known.keys()]) {
      if (!seen.has(value)) {
        known.delete(value);
      }
    }
    if (!Private.sameChildren(node, labels)) {
      node.replaceChildren(...labels);
    }
  }

  private _renderList(): void {
    const trans = this.trans;
    const cases = this._model.visible;
    // Rows are built once per case and status, then reused: a keystroke
    // only reorders existing rows.
    const rows: HTMLLIElement[] = [];
    for (const c of cases.slice(0, this._limit)) {
      const key = this._rowKey(c);
      let row = this._rows.get(c);
      if (!row || row.status !== key) {
        row = { status: key, node: this._renderCase(c) };
        this._rows.set(c, row);
      }
      rows.push(row.node);
    }
    if (!cases.length) {
      const empty = document.createElement('li');
      empty.className = 'jp-Junobench-empty';
      empty.textContent = this._model.casebook?.cases.length
        ? trans.__('No case matches the filters.')
        : trans.__('No cases.');
      rows.push(empty);
    }
    if (!Private.sameChildren(this._list, rows)) {
      this._list.replaceChildren(...rows);
    }
    // One row in the tab order (the current one); arrows move between rows.
    const current = rows.find(r => r.dataset.case === this._current)
      ? this._current
      : (rows[0]?.dataset.case ?? null);
    for (const row of rows) {
      if (row.dataset.case === undefined) {
        continue;
      }
      const tabIndex = row.dataset.case === current ? '0' : '-1';
      if (row.getAttribute('tabindex') !== tabIndex) {
        row.setAttribute('tabindex', tabIndex);
      }
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
    item.setAttribute('tabindex', '-1');
    item.setAttribute(
      'aria-label',
      trans.__(
        'Case %1, %2, %3',
        c.name,
        (LIBRARY_LABELS as Record<string, string>)[c.library] ?? c.library,
        this._statusLabel(status)
      )
    );
    item.addEventListener('focusin', () => {
      this._current = c.name;
    });

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
      const markers = c.markers.map(m =>
        renderCaseMarker(m, trans.__.bind(trans))
      );
      // A draft did not verify yet: say so rather than "incomplete".
      warn.textContent = c.problems.includes(MARKER_DRAFT)
        ? trans.__('draft')
        : trans.__('incomplete');
      warn.title = markers.join('\n');
      warn.setAttribute(
        'aria-label',
        trans.__('Incomplete case: %1', markers.join('; '))
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
    open.addEventListener('click', () => void this._onOpen(c.name));
    item.append(top, error, open);

    const { runnable, missing } = runnability(c);
    const blocking = missing.filter(m => m !== 'fixed');
    if (!runnable) {
      // The reason is text in the row, not only a tooltip.
      const why = document.createElement('div');
      why.className = 'jp-Junobench-caseBlocked';
      why.id = `jp-junobench-blocked-${c.name}`;
      why.textContent = open.disabled
        ? trans.__(
            'Cannot open here: %1',
            blocking.map(m => this._missingText(m)).join('; ')
          )
        : trans.__(
            'Not runnable here: %1',
            blocking.map(m => this._missingText(m)).join('; ')
          );
      open.setAttribute('aria-describedby', why.id);
      item.appendChild(why);
    }

    const expanded = this._expanded.has(c.name);
    const toggle = document.createElement('button');
    toggle.className = 'jp-Junobench-details';
    toggle.textContent = expanded
      ? trans.__('Hide details')
      : trans.__('Details');
    toggle.setAttribute('aria-expanded', String(expanded));
    toggle.setAttribute('aria-label', trans.__('Details of case %1', c.name));
    const cardId = `jp-junobench-card-${c.name}`;
    toggle.setAttribute('aria-controls', cardId);
    toggle.addEventListener('click', () => {
      if (this._expanded.has(c.name)) {
        this._expanded.delete(c.name);
      } else {
        this._expanded.add(c.name);
      }
      this._rows.delete(c);
      this._renderList();
      this._list
        .querySelector<HTMLButtonElement>(
          `[data-case="${CSS.escape(c.name)}"] .jp-Junobench-details`
        )
        ?.focus();
    });
    // In the name line, so a collapsed row is no taller than before.
    top.appendChild(toggle);
    if (expanded) {
      item.appendChild(this._renderCard(c, cardId, missing));
    }
    return item;
  }

  /**
   * The case card: the datasets with their licences and links, what the
   * folder lacks and, for a case that cannot run, "Fetch this case".
   */
  private _renderCard(
    c: ICase,
    id: string,
    missing: MissingPart[]
  ): HTMLElement {
    const trans = this.trans;
    const card = document.createElement('section');
    card.className = 'jp-Junobench-caseCard';
    card.id = id;
    card.setAttribute('aria-label', trans.__('Case %1', c.name));
    if (c.files.readme && this._describe) {
      const known = this._descriptions.get(c.name);
      const about = document.createElement('p');
      about.className = 'jp-Junobench-caseAbout';
      if (known === undefined) {
        about.textContent = trans.__('Reading the case’s README…');
        this._descriptions.set(c.name, null);
        void this._describe(c).then(
          text => this._described(c, text ?? ''),
          () => this._described(c, '')
        );
      } else {
        about.textContent = known ?? trans.__('Reading the case’s README…');
      }
      about.hidden = known === '';
      card.appendChild(about);
    }
    const labels = this._labelsOpen?.(c.name) ?? { open: true, why: '' };
    const labelLine = document.createElement('div');
    labelLine.className = 'jp-Junobench-caseLabels';
    if (labels.open) {
      labelLine.textContent = trans.__(
        'Crash type: %1 · root cause: %2 · stage: %3',
        c.crashType || trans.__('(none)'),
        c.rootCause || trans.__('(none)'),
        c.pipelineStage || trans.__('(none)')
      );
    } else {
      labelLine.textContent = trans.__(
        'Labels (crash type, root cause, stage) hidden until the reveal: %1',
        labels.why
      );
    }
    card.appendChild(labelLine);
    for (const d of c.datasets) {
      const line = document.createElement('div');
      line.className = 'jp-Junobench-dataset';
      const label = document.createElement('span');
      label.className = 'jp-Junobench-cardLabel';
      label.textContent = trans.__('Dataset:');
      let title: HTMLElement;
      if (/^https?:\/\//i.test(d.url)) {
        const link = document.createElement('a');
        link.href = d.url;
        link.target = '_blank';
        link.rel = 'noopener noreferrer';
        title = link;
      } else {
        title = document.createElement('span');
      }
      title.textContent = d.title || trans.__('(untitled)');
      const licence = document.createElement('span');
      licence.className = 'jp-Junobench-licence';
      licence.textContent = trans.__(
        'licence: %1',
        d.license || trans.__('not stated')
      );
      line.append(label, title, document.createTextNode(' · '), licence);
      card.appendChild(line);
    }
    if (c.datasets.length === 0) {
      const none = document.createElement('div');
      none.textContent = trans.__('The descriptor credits no dataset.');
      card.appendChild(none);
    }
    if (missing.length) {
      const list = document.createElement('ul');
      list.className = 'jp-Junobench-missing';
      list.setAttribute('aria-label', trans.__('Missing here'));
      for (const m of missing) {
        const li = document.createElement('li');
        li.textContent = this._missingText(m);
        list.appendChild(li);
      }
      const head = document.createElement('div');
      head.className = 'jp-Junobench-cardLabel';
      head.textContent = trans.__('Missing here:');
      card.append(head, list);
    }
    const blocked = missing.some(m => m !== 'fixed');
    const source = this._fetchSource;
    if (blocked && source) {
      const progress = this._fetches.get(c.name) ?? null;
      if (source.fetchable && this._onFetch) {
        const fetch = document.createElement('button');
        fetch.className = 'jp-Junobench-fetch jp-mod-styled jp-mod-accept';
        fetch.textContent = trans.__('Fetch this case');
        fetch.setAttribute('aria-label', trans.__('Fetch case %1', c.name));
        fetch.disabled = progress?.state === 'running';
        fetch.addEventListener('click', () => void this._onFetch?.(c.name));
        card.appendChild(fetch);
      } else if (source.reason) {
        const why = document.createElement('div');
        why.className = 'jp-Junobench-fetchOff';
        why.textContent = source.reason;
        card.appendChild(why);
      }
      if (progress) {
        const status = document.createElement('div');
        status.className = 'jp-Junobench-fetchStatus';
        status.setAttribute('role', 'status');
        if (progress.state === 'running') {
          const bar = document.createElement('progress');
          bar.max = 100;
          if (progress.percent !== null) {
            bar.value = progress.percent;
          }
          bar.setAttribute('aria-label', trans.__('Fetching %1', c.name));
          status.append(
            bar,
            document.createTextNode(
              ' ' + (progress.detail || trans.__('Fetching…'))
            )
          );
        } else if (progress.state === 'failed') {
          status.classList.add('jp-mod-error');
          status.textContent = trans.__(
            'The fetch failed: %1',
            progress.error
              ? renderFetchFailure(progress.error, trans.__.bind(trans))
              : ''
          );
        } else {
          status.textContent = trans.__('Fetched; reloading the casebook…');
        }
        card.appendChild(status);
      }
    }
    return card;
  }

  /** A README description arrived: show it in the card. */
  private _described(c: ICase, text: string): void {
    this._descriptions.set(c.name, text);
    this._rows.delete(c);
    this._renderList();
  }

  /** Arrow keys, Home/End and Enter in the case list. */
  private _onListKey(event: KeyboardEvent): void {
    const rows = [
      ...this._list.querySelectorAll<HTMLLIElement>('li.jp-Junobench-caseItem')
    ];
    const row = (event.target as HTMLElement).closest<HTMLLIElement>(
      'li.jp-Junobench-caseItem'
    );
    const i = row ? rows.indexOf(row) : -1;
    let next = -1;
    switch (event.key) {
      case 'ArrowDown':
        next = Math.min(rows.length - 1, i + 1);
        break;
      case 'ArrowUp':
        if (i <= 0) {
          event.preventDefault();
          this._search.focus();
          return;
        }
        next = i - 1;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = rows.length - 1;
        break;
      case 'Enter':
        // Enter on the row itself opens the case; on a button it is the button's.
        if (row && event.target === row) {
          const open =
            row.querySelector<HTMLButtonElement>('.jp-Junobench-open');
          if (open && !open.disabled) {
            event.preventDefault();
            open.click();
          }
        }
        return;
      default:
        return;
    }
    event.preventDefault();
    this._focusRow(next);
  }

  /** Focus the row at a position of the list. */
  private _focusRow(index: number): void {
    const rows = this._list.querySelectorAll<HTMLLIElement>(
      'li.jp-Junobench-caseItem'
    );
    const row = rows[index];
    if (!row) {
      return;
    }
    for (const r of rows) {
      r.setAttribute('tabindex', r === row ? '0' : '-1');
    }
    this._current = row.dataset.case ?? null;
    row.focus();
    row.scrollIntoView({ block: 'nearest' });
  }

  /** What a missing part means for the learner. */
  private _missingText(part: MissingPart): string {
    const trans = this.trans;
    switch (part) {
      case 'folder':
        return trans.__('the case folder (notebooks and input data)');
      case 'reproduced':
        return trans.__('the reproduced notebook');
      case 'data':
        return trans.__(
          'the input data (the descriptor credits a dataset, the folder has no data files)'
        );
      case 'fixed':
        return trans.__(
          'the reference fix (a repair cannot be checked against it)'
        );
    }
  }

  /** What a rendered row depends on besides the case itself. */
  private _rowKey(c: ICase): string {
    const fetch = this._fetches.get(c.name);
    return [
      this._statusOf(c.name),
      this._expanded.has(c.name) ? 'open' : '',
      this._fetchSource ? `${this._fetchSource.fetchable}` : '',
      this._labelsOpen?.(c.name).open ? 'labels' : '',
      fetch ? `${fetch.state}:${fetch.percent}:${fetch.detail}` : ''
    ].join('|');
  }

  /** Forget rendered rows so they are rebuilt with new fetch state. */
  private _rowsStale(): void {
    this._rows = new WeakMap();
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
  private _onLeaveWorkshop: (() => Promise<void> | void) | null;
  private _onShow: (() => void) | null;
  private _onFetch: ((name: string) => Promise<void> | void) | null;
  private _fetchSource: CasebookPanel.IFetchSource | null = null;
  private _fetches = new Map<string, CasebookPanel.IFetchProgress>();
  private _expanded = new Set<string>();
  private _describe: ((c: ICase) => Promise<string | null>) | null;
  private _labelsOpen:
    ((name: string) => { open: boolean; why: string }) | null;
  private _descriptions = new Map<string, string | null>();
  private _current: string | null = null;
  private _filtersSummary!: HTMLElement;
  private _runOnly!: HTMLInputElement;
  private _runOnlyText!: Text;
  private _workshop: CasebookPanel.IWorkshop | null = null;
  private _tick: ReturnType<typeof setInterval> | null = null;
  private _workshopNode!: HTMLElement;
  private _workshopLabel!: HTMLDivElement;
  private _workshopText!: HTMLParagraphElement;
  private _workshopReveal!: HTMLDivElement;
  private _workshopMissing!: HTMLDivElement;
  private _countdown!: HTMLDivElement;
  private _leaveWorkshop!: HTMLButtonElement;
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
  private _saving!: HTMLDivElement;
  private _progressSummary: CasebookPanel.IProgress | null = null;
  private _facetNodes = {} as Record<FacetKey, HTMLDivElement>;
  private _options = new WeakMap<
    HTMLElement,
    Map<string, { label: HTMLLabelElement; box: HTMLInputElement; text: Text }>
  >();
  private _rows = new WeakMap<ICase, { status: string; node: HTMLLIElement }>();
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
    /** Called when the learner leaves the active workshop. */
    onLeaveWorkshop?: () => Promise<void> | void;
    /** Called when the panel comes on screen. */
    onShow?: () => void;
    /** Called when the learner asks to fetch a case missing here. */
    onFetch?: (name: string) => Promise<void> | void;
    /** The description of a case (from its README), for the case card. */
    describe?: (c: ICase) => Promise<string | null>;
    /** Whether a case's labels may be shown (the reveal policy), and why not. */
    labelsOpen?: (name: string) => { open: boolean; why: string };
  }

  /** Whether missing cases can be fetched into the casebook from the panel. */
  export interface IFetchSource {
    /** Whether "Fetch this case" is offered. */
    fetchable: boolean;
    /** Why not, as a sentence, or null. */
    reason: string | null;
  }

  /** How fetching one case stands. */
  export interface IFetchProgress {
    /** Running, done or failed. */
    state: 'running' | 'done' | 'failed';
    /** Percentage of the current phase, when known. */
    percent: number | null;
    /** What is happening, in words. */
    detail: string;
    /** Why it failed, as a code (rendered here, in the learner's language). */
    error: FetchFailure | null;
  }

  /** What the panel shows of the active workshop. */
  export interface IWorkshop {
    /** The workshop title (shown as the panel's heading). */
    title: string;
    /** The instructor's words for the learners, or null. */
    description: string | null;
    /** The effective reveal policy, as a sentence. */
    reveal: string;
    /** When the time box ends (ms since the epoch), or null without one. */
    endsAt: number | null;
    /** Workshop cases the casebook does not have. */
    missing: readonly string[];
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

  /** How the progress backup file stands. */
  export interface IBackup {
    /** Whether some change is not in it yet. */
    pending: boolean;
    /** Why the last write failed, while retrying; null otherwise. */
    error: string | null;
    /** What was wrong with the file when it was read, or null. */
    problem: string | null;
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

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * Whether an element takes typed text (so `/` is a character there).
   */
  export function isTextField(el: HTMLElement): boolean {
    const tag = el.tagName;
    if (tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable) {
      return true;
    }
    if (tag !== 'INPUT') {
      return false;
    }
    const type = (el as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
  }

  /**
   * Whether a node's children are exactly these nodes, in this order.
   */
  export function sameChildren(parent: HTMLElement, nodes: Node[]): boolean {
    const children = parent.childNodes;
    if (children.length !== nodes.length) {
      return false;
    }
    for (let i = 0; i < nodes.length; i++) {
      if (children[i] !== nodes[i]) {
        return false;
      }
    }
    return true;
  }
}
