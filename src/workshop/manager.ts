/**
 * The active workshop: opened from a workshop file, kept in the state DB so it
 * survives a reload, and left on request. No DOM; views subscribe to `changed`.
 */
import type { IStateDB } from '@jupyterlab/statedb';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import type { RevealPolicy } from '../repair/reveal';
import type { IActiveWorkshop, IWorkshopManager } from '../tokens';
import { parseWorkshop, WorkshopFormatError } from './workshop';

/**
 * Opens workshop files, remembers the active one in the state DB.
 */
export class WorkshopManager implements IWorkshopManager {
  /** Create a manager; it restores the saved workshop (see `ready`). */
  constructor(options: WorkshopManager.IOptions) {
    this._state = options.state;
    this._read = options.read;
    this._now = options.now ?? (() => new Date());
    this._key = options.key ?? WorkshopManager.STATE_KEY;
    this.ready = this._restore();
  }

  /** Resolves once the saved workshop (if any) is restored. */
  readonly ready: Promise<void>;

  /** The active workshop, or null. */
  get active(): IActiveWorkshop | null {
    return this._active;
  }

  /** The reveal policy the active workshop sets, or null without one. */
  get revealPolicy(): RevealPolicy | null {
    return this._active?.workshop.revealPolicy ?? null;
  }

  /** Emitted when a workshop is opened, restored or left. */
  get changed(): ISignal<IWorkshopManager, void> {
    return this._changed;
  }

  /**
   * Read, check and activate the workshop file at a server path; rejects with
   * a `WorkshopFormatError` naming the file when it cannot be read or is
   * invalid. Opening the active workshop again keeps its start time (and so
   * its countdown).
   */
  async open(path: string): Promise<IActiveWorkshop> {
    await this.ready;
    let text: string;
    try {
      text = await this._read(path);
    } catch (reason) {
      throw new WorkshopFormatError(path, null, {
        code: 'unreadable',
        detail: (reason as Error).message ?? String(reason)
      });
    }
    const workshop = await parseWorkshop(text, path);
    const previous = this._active;
    const same =
      previous !== null &&
      previous.path === path &&
      JSON.stringify(previous.workshop) === JSON.stringify(workshop);
    const active: IActiveWorkshop = {
      path,
      workshop,
      startedAt: same ? previous.startedAt : this._now().toISOString()
    };
    this._active = active;
    await this._state.save(this._key, {
      path: active.path,
      startedAt: active.startedAt,
      workshop: { ...workshop, cases: [...workshop.cases] }
    });
    this._changed.emit();
    return active;
  }

  /** Leave the active workshop (the panel shows the whole casebook again). */
  async leave(): Promise<void> {
    await this.ready;
    if (this._active === null) {
      return;
    }
    this._active = null;
    await this._state.remove(this._key);
    this._changed.emit();
  }

  private async _restore(): Promise<void> {
    let saved: unknown;
    try {
      saved = await this._state.fetch(this._key);
    } catch (reason) {
      console.warn('jupyterlab-junobench: cannot read the workshop', reason);
      return;
    }
    if (saved === undefined || saved === null) {
      return;
    }
    const record = saved as Record<string, unknown>;
    const path = typeof record.path === 'string' ? record.path : '';
    const startedAt =
      typeof record.startedAt === 'string' &&
      !Number.isNaN(Date.parse(record.startedAt))
        ? record.startedAt
        : null;
    try {
      // The saved copy is checked like a file: the state DB is not trusted.
      const workshop = await parseWorkshop(
        JSON.stringify(record.workshop ?? null),
        path || '(saved workshop)'
      );
      if (!path || startedAt === null) {
        throw new Error('no path or start time');
      }
      this._active = { path, workshop, startedAt };
      this._changed.emit();
    } catch (reason) {
      console.warn(
        'jupyterlab-junobench: the saved workshop is unreadable and was dropped',
        reason
      );
      await this._state.remove(this._key);
    }
  }

  private _state: IStateDB;
  private _read: (path: string) => Promise<string>;
  private _now: () => Date;
  private _key: string;
  private _active: IActiveWorkshop | null = null;
  private _changed = new Signal<IWorkshopManager, void>(this);
}

/**
 * A namespace for WorkshopManager statics.
 */
export namespace WorkshopManager {
  /** The state DB key of the active workshop. */
  export const STATE_KEY = 'jupyterlab-junobench:workshop';

  /** Options to create a manager. */
  export interface IOptions {
    /** Where the active workshop is kept. */
    state: IStateDB;
    /** Read a workshop file's text from a server path. */
    read: (path: string) => Promise<string>;
    /** The clock (tests pass a fixed one). */
    now?: () => Date;
    /** The state DB key (default `STATE_KEY`). */
    key?: string;
  }
}
