/**
 * The model the JunoBench side panel renders: the catalogue (casebook, query,
 * facets), the workshop's playlist, the headline, progress and backup,
 * whether cases can be fetched into the casebook and how each fetch stands,
 * the "Runnable here" choice remembered per casebook, and the list's own
 * state (open cards, their README descriptions, the current row, the page
 * limit). No DOM; the panel renders it on `stateChanged`.
 */
import { PathExt } from '@jupyterlab/coreutils';
import type { Contents } from '@jupyterlab/services';
import type { IStateDB } from '@jupyterlab/statedb';
import type { IDisposable } from '@lumino/disposable';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import { readmeSummary } from '../casebook/display';
import { mostlyIncomplete } from '../casebook/runnable';
import type { ICase } from '../casebook/types';
import type { IProgressTracker } from '../progress/interfaces';
import type { RevealPolicy } from '../repair/reveal';
import { english } from '../i18n';
import type { Translate } from '../i18n';
import type {
  CaseStatus,
  ICasebookManager,
  IRevealer,
  IWorkshopManager
} from '../tokens';
import { playlist, timeBox } from '../workshop/playlist';
import type { CaseFetcher, IFetchState } from './caseFetcher';
import { CatalogueModel } from './catalogue';
import { PAGE } from './panelLogic';
import { renderServerProblem } from './serverProblems';

/** IStateDB key of the "Runnable here" choice, per casebook path. */
const RUNNABLE_KEY = 'jupyterlab-junobench:runnable-only';

/**
 * Keeps the case list in step with the casebook, the workshop, the learner's
 * progress, the reveal and the remembered "Runnable here" choice, fetches
 * cases and reads their READMEs.
 */
export class CasebookModel implements IDisposable {
  /**
   * Follow the casebook (and the workshop and progress, when given); nothing
   * is emitted before `start`.
   */
  constructor(options: CasebookModel.IOptions) {
    this._manager = options.manager;
    this.catalogue = options.catalogue ?? new CatalogueModel();
    this._fetcher = options.fetcher;
    this._contents = options.contents;
    this._statuses = options.statuses ?? null;
    this._workshops = options.workshops ?? null;
    this._state = options.state ?? null;
    this._now = options.now ?? Date.now;
    this._translate = options.translate ?? english;
    this._revealer = options.revealer ?? null;

    const statuses = this._statuses;
    if (statuses) {
      this.catalogue.setStatusOf(name => statuses.statusOf(name));
      statuses.changed.connect(this._onStatuses, this);
      statuses.backupChanged.connect(this._onBackup, this);
    }
    this._fetcher.progress.connect(this._onFetchProgress, this);
    this._revealer?.changed.connect(this.invalidate, this);
    const state = this._state;
    this._stateLoaded = state
      ? state
          .fetch(RUNNABLE_KEY)
          .then(value => {
            if (value && typeof value === 'object' && !Array.isArray(value)) {
              this._runnableChoices = value as Record<string, boolean>;
            }
          })
          .catch(() => undefined)
      : Promise.resolve();
    this.catalogue.changed.connect(this._onQuery, this);
  }

  /** The case list's model: casebook, query, visible cases and facets. */
  readonly catalogue: CatalogueModel;

  /** Emitted when anything the panel shows changes. */
  get stateChanged(): ISignal<this, void> {
    return this._stateChanged;
  }

  /** What the panel shows of the active workshop, or null. */
  get workshop(): CasebookModel.IWorkshopView | null {
    return this._workshop;
  }

  /** The casebook's loading state and error. */
  get headline(): CasebookModel.IHeadline {
    return this._headline;
  }

  /** The learner's progress over the cases listed, or null when none is kept. */
  get progress(): CasebookModel.Progress | null {
    return this._progress;
  }

  /** How the progress backup stands, or null when no progress is kept. */
  get backup(): CasebookModel.Backup | null {
    return this._statuses?.backupState ?? null;
  }

  /** Whether cases can be fetched into the casebook, or null when the question does not arise. */
  get fetchSource(): CasebookModel.IFetchSource | null {
    return this._fetchSource;
  }

  /** How many of the visible cases are rendered ("Show more" adds a page). */
  get limit(): number {
    return this._limit;
  }

  /** The case whose row was focused last, or null. */
  get current(): string | null {
    return this._current;
  }

  /** Bumped when every row must render again (the reveal changed). */
  get generation(): number {
    return this._generation;
  }

  /** Emitted with what the panel shows of the active workshop (null: none). */
  get workshopChanged(): ISignal<this, CasebookModel.IWorkshopView | null> {
    return this._workshopChanged;
  }

  /** Emitted with the casebook's loading state and error. */
  get headlineChanged(): ISignal<this, CasebookModel.IHeadline> {
    return this._headlineChanged;
  }

  /** Emitted with the learner's progress over the cases listed. */
  get progressChanged(): ISignal<this, CasebookModel.Progress> {
    return this._progressChanged;
  }

  /**
   * Emitted with what the server says of fetching cases into the casebook
   * (why not in words, translated), or null when the question does not arise
   * (the casebook is not a sparse copy, or the server has not answered yet).
   */
  get fetchSourceChanged(): ISignal<this, CasebookModel.IFetchSource | null> {
    return this._fetchSourceChanged;
  }

  /** Emitted with a case's name once it is fetched and the casebook reloaded. */
  get fetched(): ISignal<this, string> {
    return this._fetched;
  }

  /** Whether the model is disposed. */
  get isDisposed(): boolean {
    return this._isDisposed;
  }

  /**
   * Show the current state and follow the casebook and the workshop from now
   * on.
   */
  start(): void {
    if (this._started || this._isDisposed) {
      return;
    }
    this._started = true;
    this._manager.changed.connect(this._onCasebook, this);
    this._workshops?.changed.connect(this._sync, this);
    this._sync();
    this._checkSource();
    void this._stateLoaded.then(() => this._applyRunnable());
  }

  /**
   * Fetch a case missing here into the current casebook, and reload the
   * casebook when it arrived and is still the current one.
   */
  async fetchCase(name: string): Promise<void> {
    const path = this._manager.path;
    const result = await this._fetcher.fetch(path, name);
    if (result.state === 'done' && this._manager.path === path) {
      await this._manager.load(path);
      this._fetches.delete(name);
      this._stateChanged.emit();
      this._fetched.emit(name);
    }
  }

  /**
   * A case's description for its card: the README's description, never its
   * crash section; null without a case folder.
   */
  async describe(c: ICase): Promise<string | null> {
    if (!c.files.folder) {
      return null;
    }
    const file = await this._contents.get(
      PathExt.join(this._manager.path, c.files.folder, 'README.md'),
      { type: 'file', format: 'text', content: true }
    );
    return typeof file.content === 'string'
      ? readmeSummary(file.content)
      : null;
  }

  /** Open a case's card, or close it. */
  toggle(name: string): void {
    if (!this._expanded.delete(name)) {
      this._expanded.add(name);
    }
    this._stateChanged.emit();
  }

  /** A row took the focus: it is the one in the tab order from now on. */
  setCurrent(name: string): void {
    if (this._current !== name) {
      this._current = name;
      this._stateChanged.emit();
    }
  }

  /** Render a page more of the visible cases. */
  showMore(): void {
    this._limit += PAGE;
    this._stateChanged.emit();
  }

  /** Render every row again (e.g. after the reveal policy changed). */
  invalidate(): void {
    this._generation++;
    this._stateChanged.emit();
  }

  /** Read a case's README once, for its card (its row shows it when read). */
  requestDescription(c: ICase): void {
    if (this._descriptions.has(c.name)) {
      return;
    }
    this._descriptions.set(c.name, null);
    const described = (text: string) => {
      this._descriptions.set(c.name, text);
      this._stateChanged.emit();
    };
    void this.describe(c).then(
      text => described(text ?? ''),
      () => described('')
    );
  }

  /** What a case's row shows besides the case; each a value compared by identity. */
  rowState(c: ICase): CasebookModel.IRowState {
    const labels = this._revealer?.state(c.name);
    const known = this._descriptions.get(c.name);
    return {
      status: this.catalogue.statusOf(c.name),
      expanded: this._expanded.has(c.name),
      labelsOpen: labels?.canReveal ?? true,
      labelsWhy: labels && !labels.canReveal ? labels.why : '',
      // Being read (null in the map) shows as not read yet.
      description: c.files.readme ? (known ?? undefined) : null,
      fetchSource: this._fetchSource,
      fetch: this._fetches.get(c.name) ?? null
    };
  }

  /** Stop following the casebook, the workshop and the progress. */
  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._manager.changed.disconnect(this._onCasebook, this);
    this._workshops?.changed.disconnect(this._sync, this);
    this._statuses?.changed.disconnect(this._onStatuses, this);
    this._statuses?.backupChanged.disconnect(this._onBackup, this);
    this._fetcher.progress.disconnect(this._onFetchProgress, this);
    this._revealer?.changed.disconnect(this.invalidate, this);
    this.catalogue.changed.disconnect(this._onQuery, this);
    Signal.clearData(this);
  }

  /** The casebook changed: list it, ask about fetching, apply the choice. */
  private _onCasebook(): void {
    this._sync();
    this._checkSource();
    void this._stateLoaded.then(() => this._applyRunnable());
  }

  /** A status changed: new badges and progress. */
  private _onStatuses(): void {
    const statuses = this._statuses;
    if (!statuses) {
      return;
    }
    this.catalogue.setStatusOf(name => statuses.statusOf(name));
    this._emitProgress();
  }

  /** List the casebook (in a workshop, only its cases, in its order). */
  private _sync(): void {
    const manager = this._manager;
    const active = this._workshops?.active ?? null;
    const list =
      active && manager.casebook
        ? playlist(manager.casebook, active.workshop)
        : null;
    this.catalogue.casebook = list ? list.casebook : manager.casebook;
    this._workshop = active
      ? {
          title: active.workshop.title,
          description: active.workshop.description,
          revealPolicy: active.workshop.revealPolicy,
          endsAt:
            timeBox(
              active.startedAt,
              active.workshop.timeBoxMinutes,
              this._now()
            )?.endsAt ?? null,
          missing: list?.missing ?? []
        }
      : null;
    this._workshopChanged.emit(this._workshop);
    this._headline = { loading: manager.loading, error: manager.error };
    this._headlineChanged.emit(this._headline);
    this._stateChanged.emit();
    this._emitProgress();
  }

  /** The progress over the cases listed, when progress is kept. */
  private _emitProgress(): void {
    if (this._statuses) {
      this._progress = this._statuses.summary(
        this.catalogue.casebook?.cases.map(c => c.name) ?? []
      );
      this._progressChanged.emit(this._progress);
      this._stateChanged.emit();
    }
  }

  /** Ask once per casebook whether cases can be fetched into it. */
  private _checkSource(): void {
    const path = this._manager.path;
    if (!this._manager.casebook || path === this._sourceFor) {
      return;
    }
    this._sourceFor = path;
    this._setFetchSource(null);
    void this._fetcher.source(path).then(s => {
      if (this._manager.path === path && !this._isDisposed) {
        // Only a sparse copy can take fetched cases; for any other
        // casebook the question does not arise.
        this._setFetchSource(
          s.source !== null
            ? {
                allowed: s.allowed,
                fetchable: s.fetchable,
                source: s.source,
                reason: s.reason
                  ? renderServerProblem(s.reason, this._translate)
                  : null
              }
            : null
        );
      }
    });
  }

  /**
   * Apply the casebook's "Runnable here" choice once per casebook: the
   * remembered one, else on when most of its cases cannot run here.
   */
  private _applyRunnable(): void {
    const book = this._manager.casebook;
    if (!book || this._isDisposed || this._manager.path === this._runnableFor) {
      return;
    }
    this._runnableFor = this._manager.path;
    const stored = this._runnableChoices[this._manager.path];
    this._runnableShown =
      typeof stored === 'boolean' ? stored : mostlyIncomplete(book.cases);
    this.catalogue.setRunnableOnly(this._runnableShown);
  }

  /** The backup's state changed. */
  private _onBackup(): void {
    this._stateChanged.emit();
  }

  /** A fetch moved on. */
  private _onFetchProgress(
    _: unknown,
    { name, state }: { name: string; state: IFetchState }
  ): void {
    this._fetches.set(name, state);
    this._stateChanged.emit();
  }

  /** Whether cases can be fetched here changed. */
  private _setFetchSource(source: CasebookModel.IFetchSource | null): void {
    this._fetchSource = source;
    this._fetchSourceChanged.emit(source);
    this._stateChanged.emit();
  }

  /**
   * A new query, casebook or statuses: the list starts at its first page, and
   * the learner's own "Runnable here" choice is remembered for the casebook.
   */
  private _onQuery(): void {
    this._limit = PAGE;
    this._stateChanged.emit();
    const on = this.catalogue.query.runnableOnly ?? false;
    if (
      this._runnableFor !== null &&
      this._runnableFor === this._manager.path &&
      on !== this._runnableShown
    ) {
      this._runnableShown = on;
      this._runnableChoices = {
        ...this._runnableChoices,
        [this._runnableFor]: on
      };
      void this._state?.save(RUNNABLE_KEY, this._runnableChoices);
    }
  }

  private readonly _manager: ICasebookManager;
  private readonly _fetcher: CasebookModel.IFetcher;
  private readonly _contents: CasebookModel.Reader;
  private readonly _statuses: IProgressTracker | null;
  private readonly _workshops: IWorkshopManager | null;
  private readonly _state: IStateDB | null;
  private readonly _now: () => number;
  private readonly _translate: Translate;
  private readonly _stateLoaded: Promise<void>;
  private _started = false;
  private _isDisposed = false;
  /** The casebook whose fetch source was asked for. */
  private _sourceFor: string | null = null;
  /** The casebook whose "Runnable here" choice is applied. */
  private _runnableFor: string | null = null;
  /**
   * That casebook's current choice (remembered, else the default), so a
   * keystroke in the search does not recount the whole casebook.
   */
  private _runnableShown = false;
  private _runnableChoices: Record<string, boolean> = {};
  private readonly _revealer: CasebookModel.IRevealerPart | null;
  private _workshop: CasebookModel.IWorkshopView | null = null;
  private _headline: CasebookModel.IHeadline = { loading: false, error: null };
  private _progress: CasebookModel.Progress | null = null;
  private _fetchSource: CasebookModel.IFetchSource | null = null;
  private _fetches = new Map<string, IFetchState>();
  private _expanded = new Set<string>();
  private _descriptions = new Map<string, string | null>();
  private _current: string | null = null;
  private _limit = PAGE;
  private _generation = 0;
  private readonly _stateChanged = new Signal<this, void>(this);
  private readonly _workshopChanged = new Signal<
    this,
    CasebookModel.IWorkshopView | null
  >(this);
  private readonly _headlineChanged = new Signal<this, CasebookModel.IHeadline>(
    this
  );
  private readonly _progressChanged = new Signal<this, CasebookModel.Progress>(
    this
  );
  private readonly _fetchSourceChanged = new Signal<
    this,
    CasebookModel.IFetchSource | null
  >(this);
  private readonly _fetched = new Signal<this, string>(this);
}

/**
 * Options and types of CasebookModel.
 */
export namespace CasebookModel {
  /** The part of a case fetcher the panel uses. */
  export interface IFetcher extends Pick<CaseFetcher, 'fetch' | 'source'> {
    /** Emitted with how a fetch stands, as it moves on. */
    readonly progress: ISignal<unknown, { name: string; state: IFetchState }>;
  }

  /** The part of the revealer the list uses (whether a case's labels may show). */
  export interface IRevealerPart extends Pick<IRevealer, 'state'> {
    /** Emitted when the policy or the learner's progress changes. */
    readonly changed: ISignal<unknown, void>;
  }

  /** The part of the contents manager the panel uses (reading READMEs). */
  export type Reader = Pick<Contents.IManager, 'get'>;

  /** What the panel's model follows and uses. */
  export interface IOptions {
    /** The casebook. */
    manager: ICasebookManager;
    /** The case list's model (casebook, query, statuses); a new one by default. */
    catalogue?: CatalogueModel;
    /** Fetches missing cases through the server. */
    fetcher: IFetcher;
    /** Reads the cases' READMEs. */
    contents: Reader;
    /** The learner's progress, for badges and the progress summary. */
    statuses?: IProgressTracker | null;
    /** The workshop, whose playlist the panel lists. */
    workshops?: IWorkshopManager | null;
    /** The reveal, which keeps a case's labels hidden until it opens. */
    revealer?: IRevealerPart | null;
    /** Where the "Runnable here" choices are remembered. */
    state?: IStateDB | null;
    /** The clock, in ms since the epoch (default `Date.now`). */
    now?: () => number;
    /** Words what the server says (JupyterLab's `trans.__`; English by default). */
    translate?: Translate;
  }

  /** What the panel shows of fetching cases into a sparse copy. */
  export interface IFetchSource {
    /** Whether the server allows fetching at all. */
    allowed: boolean;
    /** Whether "Fetch this case" works for this casebook. */
    fetchable: boolean;
    /** The source the copy was fetched from. */
    source: string;
    /** Why not, in words (translated), or null. */
    reason: string | null;
  }

  /** What the panel shows of the active workshop. */
  export interface IWorkshopView {
    /** The workshop title. */
    title: string;
    /** The instructor's words for the learners, or null. */
    description: string | null;
    /** The reveal policy the workshop sets (the panel says it in words). */
    revealPolicy: RevealPolicy;
    /** When the time box ends (ms since the epoch), or null without one. */
    endsAt: number | null;
    /** Workshop cases the casebook does not have. */
    missing: readonly string[];
  }

  /** The casebook's loading state. */
  export interface IHeadline {
    /** Whether a load is in progress. */
    loading: boolean;
    /** Why no casebook is loaded. */
    error: string | null;
  }

  /** The learner's progress over the cases listed. */
  export type Progress = ReturnType<IProgressTracker['summary']>;

  /** How the progress backup file stands. */
  export type Backup = IProgressTracker['backupState'];

  /** What a case's row shows besides the case. */
  export interface IRowState {
    /** The learner's status of the case. */
    status: CaseStatus;
    /** Whether the case card is open. */
    expanded: boolean;
    /** Whether the labels may be shown (the reveal policy). */
    labelsOpen: boolean;
    /** Why the labels are hidden ('' when they are not). */
    labelsWhy: string;
    /** The README's description: undefined while read, '' without one, null without a README. */
    description: string | null | undefined;
    /** Whether cases can be fetched here, or null when the question does not arise. */
    fetchSource: IFetchSource | null;
    /** How fetching the case stands, or null. */
    fetch: IFetchState | null;
  }
}
