/**
 * The story of the current working copy, the model the case side panel
 * renders: which working copy is current, a signal whenever anything the
 * panel shows of it changes, which section holds a new result (a verdict, a
 * hint, why a run crashed, a run that starts; it opens and is announced),
 * which sections are open, and each copy's self-diagnosis. Renders nothing.
 */
import type { IDisposable } from '@lumino/disposable';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import type { ICellError } from '../kernel/runner';
import { diagnosisChoices } from '../repair/selfDiagnosis';
import type {
  ICasebookManager,
  IProgressTracker,
  IRevealer,
  IWorkingCopy
} from '../tokens';
import { DiagnosisModel } from './diagnosisModel';

/** The sections of the case side panel, in order. */
export const CASE_SECTIONS = [
  'verdict',
  'why',
  'order',
  'hints',
  'diagnose',
  'environment'
] as const;

/** One section of the case side panel. */
export type CaseSection = (typeof CASE_SECTIONS)[number];

/**
 * Follows the current working copy and says when its story changes.
 */
export class CaseStory implements IDisposable {
  /** Follow the learner's progress and the reveal too, when given. */
  constructor(options: CaseStory.IOptions = {}) {
    this._options = options;
    options.progress?.backupChanged.connect(this._onChange, this);
    options.revealer?.changed.connect(this._onChange, this);
  }

  /** Emitted when the current copy, anything shown of it or an open section changes. */
  get stateChanged(): ISignal<this, void> {
    return this._changed;
  }

  /** The section whose news was announced last for the current copy, or null. */
  get announcement(): CaseSection | null {
    return this._announcement;
  }

  /** The current copy's self-diagnosis, or null without one (no progress is kept). */
  get diagnosis(): DiagnosisModel | null {
    const copy = this._current;
    const progress = this._options.progress;
    if (!copy || !progress) {
      return null;
    }
    let model = this._diagnoses.get(copy);
    if (!model) {
      // One per working copy, so unsaved choices survive switching notebooks.
      const manager = this._options.manager;
      model = new DiagnosisModel({
        choices: () => diagnosisChoices(manager?.casebook?.cases ?? []),
        progress: () => progress.get(copy.caseName),
        save: answers => progress.recordPrediction(copy.caseName, answers)
      });
      model.stateChanged.connect(this._onChange, this);
      this._diagnoses.set(copy, model);
      copy.panel.disposed.connect(() => this._diagnoses.delete(copy));
    }
    return model;
  }

  /** Whether a section is open. */
  isExpanded(section: CaseSection): boolean {
    return this._expanded.has(section);
  }

  /** Open a section (and keep the others as they are). */
  expand(section: CaseSection): void {
    if (!this._expanded.has(section)) {
      this._expanded.add(section);
      this._changed.emit();
    }
  }

  /** Open a closed section, close an open one. */
  toggle(section: CaseSection): void {
    if (!this._expanded.delete(section)) {
      this._expanded.add(section);
    }
    this._changed.emit();
  }

  /** Emitted with the section that holds a new result of the current copy. */
  get news(): ISignal<this, CaseSection> {
    return this._news;
  }

  /** The current working copy, or null when the current widget is not one. */
  get current(): IWorkingCopy | null {
    return this._current;
  }
  set current(copy: IWorkingCopy | null) {
    if (copy === this._current) {
      return;
    }
    this._unfollow();
    this._current = copy;
    // An announcement belongs to the copy it was made for.
    this._announcement = null;
    if (copy) {
      copy.replay.stateChanged.connect(this._onReplay, this);
      copy.replay.driftChanged.connect(this._onChange, this);
      copy.check.stateChanged.connect(this._onCheck, this);
      copy.panel.disposed.connect(this._onDisposed, this);
      this._seen = CaseStory.keys(copy);
    }
    this._changed.emit();
  }

  /** Whether the story is disposed. */
  get isDisposed(): boolean {
    return this._disposed;
  }

  /** Stop following. */
  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    this._unfollow();
    this._options.progress?.backupChanged.disconnect(this._onChange, this);
    this._options.revealer?.changed.disconnect(this._onChange, this);
    this._current = null;
    Signal.clearData(this);
  }

  private _unfollow(): void {
    const copy = this._current;
    if (!copy) {
      return;
    }
    copy.replay.stateChanged.disconnect(this._onReplay, this);
    copy.replay.driftChanged.disconnect(this._onChange, this);
    copy.check.stateChanged.disconnect(this._onCheck, this);
    copy.panel.disposed.disconnect(this._onDisposed, this);
  }

  private _onDisposed(): void {
    this.current = null;
  }

  private _onChange(): void {
    this._changed.emit();
  }

  private _onReplay(): void {
    this._report();
  }

  private _onCheck(): void {
    this._report();
  }

  /**
   * Open the sections whose news is new since last time and announce the
   * last of them, emit the change, then the news.
   */
  private _report(): void {
    const copy = this._current;
    const keys = copy ? CaseStory.keys(copy) : {};
    const news = CASE_SECTIONS.filter(
      section => keys[section] && keys[section] !== this._seen[section]
    );
    this._seen = keys;
    for (const section of news) {
      this._expanded.add(section);
      this._announcement = section;
    }
    this._changed.emit();
    for (const section of news) {
      this._news.emit(section);
    }
  }

  private _options: CaseStory.IOptions;
  private _current: IWorkingCopy | null = null;
  // Only the verdict is open at first; new results open their own section.
  private _expanded = new Set<CaseSection>(['verdict']);
  private _announcement: CaseSection | null = null;
  private _diagnoses = new Map<IWorkingCopy, DiagnosisModel>();
  private _seen: Partial<Record<CaseSection, string>> = {};
  private _disposed = false;
  private _changed = new Signal<this, void>(this);
  private _news = new Signal<this, CaseSection>(this);
}

/**
 * A namespace for CaseStory statics.
 */
export namespace CaseStory {
  /** What the story follows besides the current copy. */
  export interface IOptions {
    /** The learner's progress, for the self-diagnosis (none without it). */
    progress?: IProgressTracker | null;
    /** The casebook, whose label sets the self-diagnosis offers. */
    manager?: ICasebookManager | null;
    /** The reveal, which freezes the self-diagnosis when it opens. */
    revealer?: Pick<IRevealer, 'changed'> | null;
  }

  /**
   * What identifies each section's latest result ('' for none): a new key
   * is news. A verdict by its findings, hints by their number, why it
   * crashed by the run that crashed, the order by the run that started.
   */
  export function keys(
    copy: IWorkingCopy
  ): Partial<Record<CaseSection, string>> {
    const r = copy.replay.state;
    const c = copy.check.state;
    return {
      verdict: c.verdict
        ? JSON.stringify([c.verdict.status, c.verdict.findings])
        : '',
      hints: c.hints.length ? String(c.hints.length) : '',
      why:
        r.phase === 'finished' && r.result?.status === 'crashed'
          ? `${r.kind}:${r.result.durationMs}:${r.message}`
          : '',
      order:
        r.phase === 'starting' || r.phase === 'running'
          ? `${r.kind}:running`
          : ''
    };
  }

  /** The exception the last run of a working copy crashed with, or null. */
  export function crashError(copy: IWorkingCopy | null): ICellError | null {
    const result = copy?.replay.state.result;
    return result?.status === 'crashed' ? result.error : null;
  }
}
