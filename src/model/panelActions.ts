/**
 * What the JunoBench side panel shows and does besides the case list itself:
 * the workshop's playlist, the headline and progress, whether cases can be
 * fetched into the casebook, fetching one, the "Runnable here" choice
 * remembered per casebook, and a case's description. No DOM; the panel
 * plugin forwards the signals to the panel.
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
import type { ICasebookManager, IWorkshopManager } from '../tokens';
import { playlist, timeBox } from '../workshop/playlist';
import type { CaseFetcher } from './caseFetcher';
import type { CatalogueModel } from './catalogue';
import { renderServerProblem } from './serverProblems';

/** IStateDB key of the "Runnable here" choice, per casebook path. */
const RUNNABLE_KEY = 'jupyterlab-junobench:runnable-only';

/**
 * Keeps the case list in step with the casebook, the workshop, the learner's
 * progress and the remembered "Runnable here" choice, and fetches cases.
 */
export class PanelActions implements IDisposable {
  /**
   * Follow the casebook (and the workshop and progress, when given); nothing
   * is emitted before `start`.
   */
  constructor(options: PanelActions.IOptions) {
    this._manager = options.manager;
    this._catalogue = options.catalogue;
    this._fetcher = options.fetcher;
    this._contents = options.contents;
    this._statuses = options.statuses ?? null;
    this._workshops = options.workshops ?? null;
    this._state = options.state ?? null;
    this._now = options.now ?? Date.now;
    this._translate = options.translate ?? english;

    const statuses = this._statuses;
    if (statuses) {
      this._catalogue.setStatusOf(name => statuses.statusOf(name));
      statuses.changed.connect(this._onStatuses, this);
    }
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
    this._catalogue.changed.connect(this._onQuery, this);
  }

  /** Emitted with what the panel shows of the active workshop (null: none). */
  get workshopChanged(): ISignal<this, PanelActions.IWorkshopView | null> {
    return this._workshopChanged;
  }

  /** Emitted with the casebook's loading state and error. */
  get headlineChanged(): ISignal<this, PanelActions.IHeadline> {
    return this._headlineChanged;
  }

  /** Emitted with the learner's progress over the cases listed. */
  get progressChanged(): ISignal<this, PanelActions.Progress> {
    return this._progressChanged;
  }

  /**
   * Emitted with what the server says of fetching cases into the casebook
   * (why not in words, translated), or null when the question does not arise
   * (the casebook is not a sparse copy, or the server has not answered yet).
   */
  get fetchSourceChanged(): ISignal<this, PanelActions.IFetchSource | null> {
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

  /** Stop following the casebook, the workshop and the progress. */
  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._manager.changed.disconnect(this._onCasebook, this);
    this._workshops?.changed.disconnect(this._sync, this);
    this._statuses?.changed.disconnect(this._onStatuses, this);
    this._catalogue.changed.disconnect(this._onQuery, this);
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
    this._catalogue.setStatusOf(name => statuses.statusOf(name));
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
    this._catalogue.casebook = list ? list.casebook : manager.casebook;
    this._workshopChanged.emit(
      active
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
        : null
    );
    this._headlineChanged.emit({
      loading: manager.loading,
      error: manager.error
    });
    this._emitProgress();
  }

  /** The progress over the cases listed, when progress is kept. */
  private _emitProgress(): void {
    if (this._statuses) {
      this._progressChanged.emit(
        this._statuses.summary(
          this._catalogue.casebook?.cases.map(c => c.name) ?? []
        )
      );
    }
  }

  /** Ask once per casebook whether cases can be fetched into it. */
  private _checkSource(): void {
    const path = this._manager.path;
    if (!this._manager.casebook || path === this._sourceFor) {
      return;
    }
    this._sourceFor = path;
    this._fetchSourceChanged.emit(null);
    void this._fetcher.source(path).then(s => {
      if (this._manager.path === path && !this._isDisposed) {
        // Only a sparse copy can take fetched cases; for any other
        // casebook the question does not arise.
        this._fetchSourceChanged.emit(
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
    this._catalogue.setRunnableOnly(this._runnableShown);
  }

  /** Remember the learner's own "Runnable here" choice for the casebook. */
  private _onQuery(): void {
    const on = this._catalogue.query.runnableOnly ?? false;
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
  private readonly _catalogue: CatalogueModel;
  private readonly _fetcher: PanelActions.Fetcher;
  private readonly _contents: PanelActions.Reader;
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
  private readonly _workshopChanged = new Signal<
    this,
    PanelActions.IWorkshopView | null
  >(this);
  private readonly _headlineChanged = new Signal<this, PanelActions.IHeadline>(
    this
  );
  private readonly _progressChanged = new Signal<this, PanelActions.Progress>(
    this
  );
  private readonly _fetchSourceChanged = new Signal<
    this,
    PanelActions.IFetchSource | null
  >(this);
  private readonly _fetched = new Signal<this, string>(this);
}

/**
 * Options and types of PanelActions.
 */
export namespace PanelActions {
  /** The part of a case fetcher the panel uses. */
  export type Fetcher = Pick<CaseFetcher, 'fetch' | 'source'>;

  /** The part of the contents manager the panel uses (reading READMEs). */
  export type Reader = Pick<Contents.IManager, 'get'>;

  /** What the panel's model follows and uses. */
  export interface IOptions {
    /** The casebook. */
    manager: ICasebookManager;
    /** The case list's model (casebook, query, statuses). */
    catalogue: CatalogueModel;
    /** Fetches missing cases through the server. */
    fetcher: Fetcher;
    /** Reads the cases' READMEs. */
    contents: Reader;
    /** The learner's progress, for badges and the progress summary. */
    statuses?: IProgressTracker | null;
    /** The workshop, whose playlist the panel lists. */
    workshops?: IWorkshopManager | null;
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
}
