/**
 * In-memory parts the casebook model follows in its specs: a casebook
 * manager over casebooks held by path, and a fetcher whose answers the test
 * gives.
 */
import { PromiseDelegate } from '@lumino/coreutils';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import type { ICase, ICasebook } from '../../src/casebook/types';
import type {
  IFetchSourceState,
  IFetchState
} from '../../src/model/caseFetcher';
import type { ICasebookManager } from '../../src/tokens';

/** A casebook manager over casebooks held in memory, by path. */
export class MemoryManager implements ICasebookManager {
  constructor(readonly books: Record<string, ICasebook>) {}
  casebook: ICasebook | null = null;
  path = '';
  loading = false;
  error: string | null = null;
  loads: string[] = [];
  get changed(): ISignal<ICasebookManager, void> {
    return this._changed;
  }
  async load(path = ''): Promise<void> {
    this.loads.push(path);
    const found = this.books[path] ?? null;
    this.casebook = found;
    this.path = found ? path : '';
    this.error = found ? null : `no casebook at ${path}`;
    this._changed.emit();
  }
  find(name: string): ICase | null {
    return this.casebook?.cases.find(c => c.name === name) ?? null;
  }
  private _changed = new Signal<ICasebookManager, void>(this);
}

/**
 * A fetcher whose answers the test gives, one pending request at a time; it
 * reports a fetch as running, then its answer, as the real one does.
 */
export class ScriptedFetcher {
  readonly progress = new Signal<this, { name: string; state: IFetchState }>(
    this
  );
  sources: string[] = [];
  fetches: Array<[string, string]> = [];
  sourceAnswer = new PromiseDelegate<IFetchSourceState>();
  fetchAnswer = new PromiseDelegate<IFetchState>();
  source(path: string): Promise<IFetchSourceState> {
    this.sources.push(path);
    return this.sourceAnswer.promise;
  }
  async fetch(path: string, name: string): Promise<IFetchState> {
    this.fetches.push([path, name]);
    const report = (state: IFetchState) => {
      this.progress.emit({ name, state });
      return state;
    };
    report({ state: 'running', percent: null, detail: '', error: null });
    return report(await this.fetchAnswer.promise);
  }
}
