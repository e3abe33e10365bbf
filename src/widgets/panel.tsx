/**
 * The JunoBench side panel: casebook header, search, facets and the case list.
 *
 * A declarative render of the catalogue model and of what the panel is told
 * (headline, progress, workshop, fetches) as a React tree; it forwards what
 * the learner does. Rows are keyed and memoized (see `CaseList`), the search
 * box is never written to while the learner types, and text from the
 * casebook is rendered as text, never as HTML.
 */
import type { ITranslator, TranslationBundle } from '@jupyterlab/translation';
import { nullTranslator } from '@jupyterlab/translation';
import { ReactWidget, SidePanel } from '@jupyterlab/ui-components';
import type { LabIcon } from '@jupyterlab/ui-components';
import type { Message } from '@lumino/messaging';
import { Panel } from '@lumino/widgets';
import * as React from 'react';

import { renderCasebookMessage } from '../casebook/messages';
import type { ICase, ICasebook } from '../casebook/types';
import { TRANSLATION_DOMAIN } from '../i18n';
import type { CatalogueModel, IFacetValue } from '../model/catalogue';
import type { CaseStatus } from '../tokens';
import { formatCountdown } from '../workshop/playlist';
import type { CaseCard } from './caseCard';
import { CaseFilters } from './caseFilters';
import { CaseList } from './caseList';
import { PAGE } from '../model/panelLogic';

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
    const trans = translator.load(TRANSLATION_DOMAIN);
    this._model = options.model;
    this._onLeaveWorkshop = options.onLeaveWorkshop ?? null;
    this._onShow = options.onShow ?? null;
    this._describe = options.describe ?? null;
    this._labelsOpen = options.labelsOpen ?? null;
    this._statusOf = options.statusOf ?? (() => 'not-started');
    this.id = 'jp-junobench-panel';
    this.addClass('jp-Junobench-panel');
    this.title.icon = options.icon;
    this.title.caption = trans.__('JunoBench cases');
    this.node.setAttribute('role', 'region');
    this.node.setAttribute('aria-label', trans.__('JunoBench'));

    const onOpen = options.onOpen;
    const onFetch = options.onFetch ?? null;
    // One object for the panel's life: the rows are memoized on it.
    this._actions = {
      trans,
      onOpen: name => void onOpen(name),
      onFetch: onFetch ? name => void onFetch(name) : null,
      onToggle: name => this._toggle(name),
      onCurrent: name => this._setCurrent(name),
      onDescribe: c => this._requestDescription(c),
      focusSearch: () => this._focusSearch(false),
      setText: text => this._model.setText(text),
      toggle: (facet, value, on) =>
        facet === 'status'
          ? this._model.toggleStatus(value, on)
          : this._model.toggle(facet, value, on),
      setNotebookSpecificOnly: on => this._model.setNotebookSpecificOnly(on),
      setRunnableOnly: on => this._model.setRunnableOnly(on),
      clear: () => this._model.clear(),
      showMore: () => {
        this._limit += PAGE;
        this._body.update();
      },
      leaveWorkshop: () => void this._onLeaveWorkshop?.()
    };

    this._body = new Private.Body(() => this._render());
    this._body.addClass('jp-Junobench-body');
    // Focusable, so a click anywhere in the panel keeps the keyboard here
    // (for `/` and the arrows) without adding a tab stop.
    this._body.node.tabIndex = -1;
    this.addWidget(this._body);
    this.node.addEventListener('keydown', this._onKeyDown);
    this._model.changed.connect(this._onModelChanged, this);
    this._body.update();
  }

  /** The catalogue model. */
  get model(): CatalogueModel {
    return this._model;
  }

  /** Set the headline: casebook name, loading state and error. */
  setHeadline(state: CasebookPanel.IHeadline): void {
    this._headline = state;
    this._body.update();
  }

  /** Show the learner's overall progress. */
  setProgress(summary: CasebookPanel.IProgress): void {
    this._progress = summary;
    this._body.update();
  }

  /**
   * Say when the progress backup cannot be written (the server is down) or
   * could not be read; nothing is shown while it is fine.
   */
  setBackup(state: CasebookPanel.IBackup): void {
    this._backup = state;
    this._body.update();
  }

  /**
   * Show the active workshop above the list (its title, reveal policy,
   * countdown, missing cases and a way to leave), or null to hide it.
   */
  setWorkshop(workshop: CasebookPanel.IWorkshop | null): void {
    this._workshop = workshop;
    this.node.classList.toggle('jp-mod-workshop', workshop !== null);
    this._body.update();
  }

  /**
   * Say whether missing cases can be fetched into this casebook from the
   * panel ("Fetch this case"), or why not; null when the question does not
   * arise (the casebook is not a sparse copy).
   */
  setFetchSource(state: CasebookPanel.IFetchSource | null): void {
    this._fetchSource = state;
    this._body.update();
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
    this._body.update();
  }

  /** Render every row again (e.g. after the reveal policy changed). */
  invalidate(): void {
    this._generation++;
    this._body.update();
  }

  /** Stop following the model and the keyboard (the countdown stops with the view). */
  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._model.changed.disconnect(this._onModelChanged, this);
    this.node.removeEventListener('keydown', this._onKeyDown);
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

  /** The whole view, from the model and what the panel was told. */
  private _render(): React.ReactElement {
    const model = this._model;
    return (
      <Private.PanelView
        book={model.casebook}
        visible={model.visible}
        query={model.query}
        facets={model.facets}
        statusFacet={model.statusFacet}
        runnableCount={model.runnableCount}
        headline={this._headline}
        progress={this._progress}
        backup={this._backup}
        workshop={this._workshop}
        canLeave={this._onLeaveWorkshop !== null}
        limit={this._limit}
        current={this._current}
        generation={this._generation}
        rowState={this._rowState}
        actions={this._actions}
      />
    );
  }

  /** What a row shows besides its case. */
  private _rowState = (c: ICase): CaseList.IRowState => {
    const labels = this._labelsOpen?.(c.name) ?? { open: true, why: '' };
    const known = this._descriptions.get(c.name);
    return {
      status: this._statusOf(c.name),
      expanded: this._expanded.has(c.name),
      labelsOpen: labels.open,
      labelsWhy: labels.open ? '' : labels.why,
      // Being read (null in the map) shows as not read yet.
      description:
        c.files.readme && this._describe ? (known ?? undefined) : null,
      fetchSource: this._fetchSource,
      fetch: this._fetches.get(c.name) ?? null
    };
  };

  /** A new query, casebook or statuses: the list starts at its first page. */
  private _onModelChanged(): void {
    this._limit = PAGE;
    this._body.update();
  }

  /** Open or close a case's card (the Details button keeps the focus). */
  private _toggle(name: string): void {
    if (!this._expanded.delete(name)) {
      this._expanded.add(name);
    }
    this._body.update();
  }

  /** A row took the focus: it is the one in the tab order from now on. */
  private _setCurrent(name: string): void {
    if (this._current !== name) {
      this._current = name;
      this._body.update();
    }
  }

  /** Read a case's README once, for its card. */
  private _requestDescription(c: ICase): void {
    const describe = this._describe;
    if (!describe || this._descriptions.has(c.name)) {
      return;
    }
    this._descriptions.set(c.name, null);
    const described = (text: string) => {
      this._descriptions.set(c.name, text);
      this._body.update();
    };
    void describe(c).then(
      text => described(text ?? ''),
      () => described('')
    );
  }

  /** Focus the search box (and select its text for `/`). */
  private _focusSearch(select: boolean): void {
    const search = this._body.node.querySelector<HTMLInputElement>(
      'input.jp-Junobench-search'
    );
    search?.focus();
    if (select) {
      search?.select();
    }
  }

  /** `/` anywhere in the panel (outside a text field) goes to the search. */
  private _onKeyDown = (event: KeyboardEvent): void => {
    if (
      event.key === '/' &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.altKey &&
      !Private.isTextField(event.target as HTMLElement)
    ) {
      event.preventDefault();
      this._focusSearch(true);
    }
  };

  private _model: CatalogueModel;
  private _body: Private.Body;
  private _actions: Private.IActions;
  private _onLeaveWorkshop: (() => Promise<void> | void) | null;
  private _onShow: (() => void) | null;
  private _describe: ((c: ICase) => Promise<string | null>) | null;
  private _labelsOpen:
    ((name: string) => { open: boolean; why: string }) | null;
  private _statusOf: (name: string) => CaseStatus;
  private _headline: CasebookPanel.IHeadline = { loading: false, error: null };
  private _progress: CasebookPanel.IProgress | null = null;
  private _backup: CasebookPanel.IBackup | null = null;
  private _workshop: CasebookPanel.IWorkshop | null = null;
  private _fetchSource: CasebookPanel.IFetchSource | null = null;
  private _fetches = new Map<string, CasebookPanel.IFetchProgress>();
  private _expanded = new Set<string>();
  private _descriptions = new Map<string, string | null>();
  private _current: string | null = null;
  private _limit = PAGE;
  private _generation = 0;
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
  export type IFetchSource = CaseCard.IFetchSource;

  /** How fetching one case stands. */
  export type IFetchProgress = CaseCard.IFetchProgress;

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
   * The panel's body: a React root that follows the panel as an external
   * store (`useSyncExternalStore`). A change asks for an update (Lumino
   * delivers it in a microtask, several changes in one), and the store's
   * update renders synchronously, so the new list is committed before the
   * browser paints again; the stock `ReactWidget` would leave that to a later
   * task of React's scheduler.
   */
  export class Body extends ReactWidget {
    constructor(view: () => React.ReactElement) {
      super();
      this.view = view;
    }

    /** The view, from the panel's current state. */
    readonly view: () => React.ReactElement;

    /** Subscribe to renders (the store's side of `useSyncExternalStore`). */
    readonly subscribe = (listener: () => void): (() => void) => {
      this._listeners.add(listener);
      return () => this._listeners.delete(listener);
    };

    /** The store's snapshot: bumped by every update. */
    readonly version = (): number => this._version;

    protected render(): React.ReactElement {
      return <Live body={this} />;
    }

    protected onUpdateRequest(msg: Message): void {
      if (this._listeners.size === 0) {
        // Not mounted (yet, or again after a detach): mount.
        super.onUpdateRequest(msg);
        return;
      }
      this._version++;
      for (const listener of [...this._listeners]) {
        listener();
      }
    }

    private _listeners = new Set<() => void>();
    private _version = 0;
  }

  /** The body's content, rendered again whenever the body's store says so. */
  function Live(props: { body: Body }): React.ReactElement {
    const { body } = props;
    React.useSyncExternalStore(body.subscribe, body.version);
    return body.view();
  }

  /** What the view does: the case list's and the filters' actions, and the header's. */
  export interface IActions extends CaseList.IActions, CaseFilters.IActions {
    /** Set the search text. */
    setText: (text: string) => void;
    /** "Runnable here". */
    setRunnableOnly: (on: boolean) => void;
    /** "Show more". */
    showMore: () => void;
    /** "Leave workshop". */
    leaveWorkshop: () => void;
  }

  /** Properties of the whole view. */
  export interface IViewProps {
    book: ICasebook | null;
    visible: readonly ICase[];
    query: CatalogueModel['query'];
    facets: CatalogueModel['facets'];
    statusFacet: readonly IFacetValue[];
    runnableCount: number;
    headline: CasebookPanel.IHeadline;
    progress: CasebookPanel.IProgress | null;
    backup: CasebookPanel.IBackup | null;
    workshop: CasebookPanel.IWorkshop | null;
    canLeave: boolean;
    limit: number;
    current: string | null;
    generation: number;
    rowState: (c: ICase) => CaseList.IRowState;
    actions: IActions;
  }

  /** Header, search, "Runnable here", filters, the list and "Show more". */
  export function PanelView(props: IViewProps): React.ReactElement {
    const { query, visible, limit, actions } = props;
    const { trans } = actions;
    const list = React.useRef<HTMLUListElement>(null);
    return (
      <>
        <Header {...props} />
        <SearchBox
          text={query.text}
          onText={actions.setText}
          onDown={() => {
            if (list.current) {
              CaseList.focusRow(list.current, 0);
            }
          }}
          trans={trans}
        />
        <label className="jp-Junobench-runOnly">
          <input
            type="checkbox"
            checked={query.runnableOnly ?? false}
            onChange={event =>
              actions.setRunnableOnly(event.currentTarget.checked)
            }
          />
          {trans.__('Runnable here (%1)', props.runnableCount)}
        </label>
        <CaseFilters
          query={query}
          facets={props.facets}
          statusFacet={props.statusFacet}
          actions={actions}
        />
        <CaseList
          cases={visible}
          limit={limit}
          total={props.book?.cases.length ?? 0}
          current={props.current}
          generation={props.generation}
          rowState={props.rowState}
          actions={actions}
          listRef={list}
          trans={trans}
        />
        <button
          className="jp-Junobench-more jp-mod-styled"
          hidden={visible.length <= limit}
          onClick={actions.showMore}
        >
          {trans.__('Show more')}
        </button>
      </>
    );
  }

  /** Title, workshop, count, progress, the backup's state and the casebook's problems. */
  function Header(props: IViewProps): React.ReactElement {
    const { book, headline, progress, backup, workshop, actions } = props;
    const { trans } = actions;
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
    const saving: string[] = [];
    if (backup?.error) {
      saving.push(
        trans.__(
          'Progress not saved to the server yet; retrying. Keep this page open. (%1)',
          backup.error
        )
      );
    }
    if (backup?.problem) {
      saving.push(backup.problem);
    }
    const shown = progress !== null && progress.total > 0;
    const progressText = shown
      ? trans.__(
          'Solved %1 of %2 · attempted %3 · crashed %4',
          progress.solved,
          progress.total,
          progress.attempted,
          progress.crashed
        )
      : '';
    return (
      <div className="jp-Junobench-header">
        <h2 className="jp-Junobench-title" id="jp-junobench-title">
          {workshop?.title ??
            book?.name ??
            headline.name ??
            trans.__('No casebook')}
        </h2>
        <Workshop
          workshop={workshop}
          book={book}
          canLeave={props.canLeave}
          onLeave={actions.leaveWorkshop}
          trans={trans}
        />
        <div className="jp-Junobench-count" aria-live="polite">
          {trans._n(
            '%2 of %1 case',
            '%2 of %1 cases',
            book?.cases.length ?? 0,
            props.visible.length
          )}
        </div>
        <div className="jp-Junobench-progress" hidden={!shown}>
          <progress
            className="jp-Junobench-progressBar"
            max={1}
            value={shown ? progress.fraction : undefined}
            aria-label={shown ? progressText : undefined}
          />
          <span className="jp-Junobench-progressText">{progressText}</span>
        </div>
        <div
          className="jp-Junobench-message jp-Junobench-saving"
          role="status"
          hidden={saving.length === 0}
          data-pending={backup ? String(backup.pending) : undefined}
        >
          {saving.join('\n')}
        </div>
        <div
          className="jp-Junobench-message"
          role="status"
          hidden={lines.length === 0}
        >
          {lines.join('\n')}
        </div>
      </div>
    );
  }

  /** The active workshop: its casebook, words, reveal policy, time left, missing cases. */
  function Workshop(props: {
    workshop: CasebookPanel.IWorkshop | null;
    book: ICasebook | null;
    canLeave: boolean;
    onLeave: () => void;
    trans: TranslationBundle;
  }): React.ReactElement {
    const { workshop, book, trans } = props;
    return (
      <section
        className="jp-Junobench-workshop"
        aria-label={trans.__('Workshop')}
        hidden={workshop === null}
      >
        {workshop && (
          <>
            <div className="jp-Junobench-workshopLabel">
              {book
                ? trans.__('Workshop on the casebook %1', book.name)
                : trans.__('Workshop')}
            </div>
            <p
              className="jp-Junobench-workshopDescription"
              hidden={!workshop.description}
            >
              {workshop.description ?? ''}
            </p>
            <div className="jp-Junobench-workshopReveal">{workshop.reveal}</div>
            <Countdown endsAt={workshop.endsAt} trans={trans} />
            <div
              className="jp-Junobench-workshopMissing"
              role="status"
              hidden={workshop.missing.length === 0}
            >
              {workshop.missing.length
                ? trans._n(
                    'Not in the casebook: %2',
                    'Not in the casebook (%1 cases): %2',
                    workshop.missing.length,
                    workshop.missing.join(', ')
                  )
                : ''}
            </div>
            <button
              className="jp-Junobench-leaveWorkshop jp-mod-styled"
              hidden={!props.canLeave}
              onClick={props.onLeave}
            >
              {trans.__('Leave workshop')}
            </button>
          </>
        )}
      </section>
    );
  }

  /** Time left in the workshop; only this line renders every second. */
  function Countdown(props: {
    endsAt: number | null;
    trans: TranslationBundle;
  }): React.ReactElement {
    const { endsAt, trans } = props;
    const [, setTick] = React.useState(0);
    React.useEffect(() => {
      if (endsAt === null || endsAt <= Date.now()) {
        return;
      }
      const tick = setInterval(() => {
        setTick(t => t + 1);
        if (Date.now() >= endsAt) {
          clearInterval(tick);
        }
      }, 1000);
      return () => clearInterval(tick);
    }, [endsAt]);
    const left = endsAt === null ? 0 : endsAt - Date.now();
    return (
      <div
        className={
          endsAt !== null && left <= 0
            ? 'jp-Junobench-countdown jp-mod-over'
            : 'jp-Junobench-countdown'
        }
        role="timer"
        hidden={endsAt === null}
      >
        {endsAt === null
          ? ''
          : left > 0
            ? trans.__('Time left: %1', formatCountdown(left))
            : trans.__("Time's up")}
      </div>
    );
  }

  /**
   * The search box. Uncontrolled: a render never writes to it while the
   * learner types (the caret and selection stay); only a change made
   * elsewhere ("Clear filters") is written back.
   */
  function SearchBox(props: {
    text: string;
    onText: (text: string) => void;
    onDown: () => void;
    trans: TranslationBundle;
  }): React.ReactElement {
    const { text, onText, onDown, trans } = props;
    const ref = React.useRef<HTMLInputElement>(null);
    React.useEffect(() => {
      // The element's own `input` event: whoever typed or scripted it, the
      // query follows the box.
      const input = ref.current!;
      const listener = () => onText(input.value);
      input.addEventListener('input', listener);
      return () => input.removeEventListener('input', listener);
    }, [onText]);
    React.useLayoutEffect(() => {
      const input = ref.current!;
      if (input.value !== text) {
        input.value = text;
      }
    });
    return (
      <input
        ref={ref}
        type="search"
        className="jp-Junobench-search jp-mod-styled"
        placeholder={trans.__('Search name, library, exception…')}
        aria-label={trans.__('Search cases')}
        defaultValue={text}
        onKeyDown={event => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            onDown();
          }
        }}
      />
    );
  }

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
}
