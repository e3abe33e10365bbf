/**
 * The JunoBench side panel: casebook header, search, facets and the case list.
 *
 * A declarative render of one `CasebookModel` (the catalogue, headline,
 * progress, workshop, fetches and the list's own state) as a React tree; it
 * forwards what the learner does. Rows are keyed and memoized (see `CaseList`), the search
 * box is never written to while the learner types, and text from the
 * casebook is rendered as text, never as HTML.
 */
import type { ITranslator, TranslationBundle } from '@jupyterlab/translation';
import { nullTranslator } from '@jupyterlab/translation';
import { SidePanel, VDomRenderer } from '@jupyterlab/ui-components';
import type { LabIcon } from '@jupyterlab/ui-components';
import type { Message } from '@lumino/messaging';
import { Panel } from '@lumino/widgets';
import * as React from 'react';

import { renderCasebookMessage } from '../casebook/messages';
import type { ICasebook } from '../casebook/types';
import { TRANSLATION_DOMAIN } from '../i18n';
import type { CasebookModel } from '../model/casebookModel';
import type { RevealPolicy } from '../repair/reveal';
import { formatCountdown } from '../workshop/playlist';
import { CaseFilters } from './caseFilters';
import { CaseList } from './caseList';

/**
 * The side panel listing the cases of the casebook: a `SidePanel` whose body
 * renders one `CasebookModel`.
 */
export class CasebookPanel extends SidePanel {
  /**
   * Build the panel around the model it renders.
   */
  constructor(options: CasebookPanel.IOptions) {
    const translator = options.translator ?? nullTranslator;
    super({ translator, content: new Panel() });
    const trans = translator.load(TRANSLATION_DOMAIN);
    const { model, onOpen, onLeaveWorkshop } = options;
    const catalogue = model.catalogue;
    this._onShow = options.onShow ?? null;
    this.id = 'jp-junobench-panel';
    this.addClass('jp-Junobench-panel');
    this.title.icon = options.icon;
    this.title.caption = trans.__('JunoBench cases');
    this.node.setAttribute('role', 'region');
    this.node.setAttribute('aria-label', trans.__('JunoBench'));

    // One object for the panel's life: the rows are memoized on it.
    const actions: Private.IActions = {
      trans,
      canLeave: !!onLeaveWorkshop,
      onOpen: name => void onOpen(name),
      onFetch: name => void model.fetchCase(name),
      onToggle: name => model.toggle(name),
      onCurrent: name => model.setCurrent(name),
      onDescribe: c => model.requestDescription(c),
      focusSearch: () => this._focusSearch(false),
      setText: text => catalogue.setText(text),
      toggle: (facet, value, on) =>
        facet === 'status'
          ? catalogue.toggleStatus(value, on)
          : catalogue.toggle(facet, value, on),
      setNotebookSpecificOnly: on => catalogue.setNotebookSpecificOnly(on),
      setRunnableOnly: on => catalogue.setRunnableOnly(on),
      clear: () => catalogue.clear(),
      showMore: () => model.showMore(),
      leaveWorkshop: () => void onLeaveWorkshop?.()
    };
    this._body = new Private.Body(model, actions);
    this._body.addClass('jp-Junobench-body');
    // Focusable, so a click anywhere in the panel keeps the keyboard here
    // (for `/` and the arrows) without adding a tab stop.
    this._body.node.tabIndex = -1;
    this.addWidget(this._body);
    this.node.addEventListener('keydown', this._onKeyDown);
  }

  /** The model the panel renders. */
  get model(): CasebookModel {
    return this._body.model!;
  }

  /** Stop following the keyboard (the countdown stops with the view). */
  dispose(): void {
    if (this.isDisposed) {
      return;
    }
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

  private _body: Private.Body;
  private _onShow: (() => void) | null;
}

/**
 * A namespace for CasebookPanel statics.
 */
export namespace CasebookPanel {
  /** Options to build the panel. */
  export interface IOptions {
    /** The model to render. */
    model: CasebookModel;
    /** Called when the learner opens a case. */
    onOpen: (name: string) => Promise<unknown> | void;
    /** The tab icon. */
    icon: LabIcon;
    /** The translator. */
    translator?: ITranslator;
    /** Called when the learner leaves the active workshop. */
    onLeaveWorkshop?: () => Promise<unknown> | void;
    /** Called when the panel comes on screen. */
    onShow?: () => void;
  }
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /** The panel's body: a render of the model, again on each of its changes. */
  export class Body extends VDomRenderer<CasebookModel> {
    constructor(
      model: CasebookModel,
      readonly actions: IActions
    ) {
      super(model);
    }

    protected render(): React.ReactElement {
      return <PanelView model={this.model!} actions={this.actions} />;
    }
  }

  /** What the view does: the case list's and the filters' actions, and the header's. */
  export interface IActions extends CaseList.IActions, CaseFilters.IActions {
    /** Set the search text. */
    setText: (text: string) => void;
    /** "Runnable here". */
    setRunnableOnly: (on: boolean) => void;
    /** "Show more". */
    showMore: () => void;
    /** Whether the workshop can be left here. */
    canLeave: boolean;
    /** "Leave workshop". */
    leaveWorkshop: () => void;
  }

  /** Properties of the whole view and its header. */
  interface IViewProps {
    model: CasebookModel;
    actions: IActions;
  }

  /** Header, search, "Runnable here", filters, the list and "Show more". */
  function PanelView(props: IViewProps): React.ReactElement {
    const { model, actions } = props;
    const { query, visible } = model.catalogue;
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
          {trans.__('Runnable here (%1)', model.catalogue.runnableCount)}
        </label>
        <CaseFilters
          query={query}
          facets={model.catalogue.facets}
          statusFacet={model.catalogue.statusFacet}
          actions={actions}
        />
        <CaseList
          cases={visible}
          limit={model.limit}
          total={model.catalogue.casebook?.cases.length ?? 0}
          current={model.current}
          generation={model.generation}
          rowState={c => model.rowState(c)}
          actions={actions}
          listRef={list}
          trans={trans}
        />
        <button
          className="jp-Junobench-more jp-mod-styled"
          hidden={visible.length <= model.limit}
          onClick={actions.showMore}
        >
          {trans.__('Show more')}
        </button>
      </>
    );
  }

  /** Title, workshop, count, progress, the backup's state and the casebook's problems. */
  function Header(props: IViewProps): React.ReactElement {
    const { model, actions } = props;
    const { headline, progress, backup, workshop } = model;
    const book = model.catalogue.casebook;
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
          {workshop?.title ?? book?.name ?? trans.__('No casebook')}
        </h2>
        <section
          className="jp-Junobench-workshop"
          aria-label={trans.__('Workshop')}
          hidden={workshop === null}
        >
          {workshop && (
            <Workshop workshop={workshop} book={book} actions={actions} />
          )}
        </section>
        <div className="jp-Junobench-count" aria-live="polite">
          {trans._n(
            '%2 of %1 case',
            '%2 of %1 cases',
            book?.cases.length ?? 0,
            model.catalogue.visible.length
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
    workshop: CasebookModel.IWorkshopView;
    book: ICasebook | null;
    actions: IActions;
  }): React.ReactElement {
    const { workshop, book, actions } = props;
    const { trans } = actions;
    return (
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
        <div className="jp-Junobench-workshopReveal">
          {revealText(workshop.revealPolicy, trans)}
        </div>
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
          hidden={!actions.canLeave}
          onClick={actions.leaveWorkshop}
        >
          {trans.__('Leave workshop')}
        </button>
      </>
    );
  }

  /** The reveal policy a workshop sets, in words. */
  function revealText(policy: RevealPolicy, trans: TranslationBundle): string {
    switch (policy) {
      case 'after-attempt':
        return trans.__('Reveal: after your first check (set by the workshop)');
      case 'after-pass':
        return trans.__('Reveal: after a pass (set by the workshop)');
      case 'always':
        return trans.__('Reveal: at any time (set by the workshop)');
      case 'never':
        return trans.__('Reveal: never (set by the workshop)');
    }
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
