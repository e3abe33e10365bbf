/**
 * "Fetch this case": asks the server extension to fetch a missing case folder
 * into a casebook made by `junobench fetch --cases`, and follows the fetch.
 * No DOM; the panel renders what `progress` reports.
 */
import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

/** What the server says of fetching into a casebook. */
export interface IFetchSourceState {
  /** Whether the server allows fetching at all (`allow_fetch`). */
  allowed: boolean;
  /** Whether "Fetch this case" works for this casebook. */
  fetchable: boolean;
  /** The source the casebook was fetched from, when it is a sparse copy. */
  source: string | null;
  /** Why not, as a sentence, or null. */
  reason: string | null;
}

/** How one fetch stands. */
export interface IFetchState {
  /** Running, done or failed. */
  state: 'running' | 'done' | 'failed';
  /** Percentage of the current phase, when known. */
  percent: number | null;
  /** What is happening, in words. */
  detail: string;
  /** Why it failed. */
  error: string | null;
}

/**
 * Starts and follows case fetches through `/junobench/fetch-case`.
 */
export class CaseFetcher {
  /** Build a fetcher for a server. */
  constructor(options: CaseFetcher.IOptions) {
    this._serverSettings = options.serverSettings;
    this._pollMs = options.pollMs ?? 300;
  }

  /** Emitted with a case name and its fetch state on every change. */
  get progress(): ISignal<this, { name: string; state: IFetchState }> {
    return this._progress;
  }

  /**
   * Whether cases can be fetched into the casebook at a server path; a
   * server without the endpoint reads as "not fetchable" with the reason.
   */
  async source(path: string): Promise<IFetchSourceState> {
    const url =
      URLExt.join(this._serverSettings.baseUrl, 'junobench', 'fetch-source') +
      URLExt.objectToQueryString({ path });
    let response: Response;
    try {
      response = await ServerConnection.makeRequest(
        url,
        {},
        this._serverSettings
      );
    } catch (reason) {
      return Private.unavailable(
        `the server could not be reached (${(reason as Error).message})`
      );
    }
    const body = await Private.json(response);
    if (!response.ok) {
      return Private.unavailable(
        typeof body.message === 'string'
          ? body.message
          : `HTTP ${response.status}`
      );
    }
    return {
      allowed: body.allowed === true,
      fetchable: body.fetchable === true,
      source: typeof body.source === 'string' ? body.source : null,
      reason: typeof body.reason === 'string' ? body.reason : null
    };
  }

  /**
   * Fetch one case into the casebook at a server path; resolves with the
   * final state (never rejects: a failure is a state with its reason).
   */
  async fetch(path: string, name: string): Promise<IFetchState> {
    const emit = (state: IFetchState): IFetchState => {
      this._progress.emit({ name, state });
      return state;
    };
    const failed = (error: string) =>
      emit({ state: 'failed', percent: null, detail: '', error });
    emit({ state: 'running', percent: null, detail: '', error: null });
    const base = this._serverSettings.baseUrl;
    let response: Response;
    try {
      response = await ServerConnection.makeRequest(
        URLExt.join(base, 'junobench', 'fetch-case'),
        { method: 'POST', body: JSON.stringify({ path, case: name }) },
        this._serverSettings
      );
    } catch (reason) {
      return failed(
        `the server could not be reached (${(reason as Error).message})`
      );
    }
    const started = await Private.json(response);
    if (response.status !== 202 || typeof started.id !== 'string') {
      return failed(
        typeof started.message === 'string'
          ? started.message
          : `HTTP ${response.status}`
      );
    }
    const jobUrl = URLExt.join(base, 'junobench', 'fetch-jobs', started.id);
    for (;;) {
      await new Promise(resolve => setTimeout(resolve, this._pollMs));
      let job: Record<string, unknown>;
      try {
        const polled = await ServerConnection.makeRequest(
          jobUrl,
          {},
          this._serverSettings
        );
        job = await Private.json(polled);
        if (!polled.ok) {
          return failed(
            typeof job.message === 'string'
              ? job.message
              : `HTTP ${polled.status}`
          );
        }
      } catch (reason) {
        return failed(
          `the server could not be reached (${(reason as Error).message})`
        );
      }
      const state = Private.state(job);
      emit(state);
      if (state.state !== 'running') {
        return state;
      }
    }
  }

  private _serverSettings: ServerConnection.ISettings;
  private _pollMs: number;
  private _progress = new Signal<this, { name: string; state: IFetchState }>(
    this
  );
}

/**
 * A namespace for CaseFetcher statics.
 */
export namespace CaseFetcher {
  /** Options to build a fetcher. */
  export interface IOptions {
    /** The Jupyter server's settings. */
    serverSettings: ServerConnection.ISettings;
    /** How often to ask how a fetch stands, in ms (default 300). */
    pollMs?: number;
  }
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /** Not fetchable, with the reason. */
  export function unavailable(reason: string): IFetchSourceState {
    return { allowed: false, fetchable: false, source: null, reason };
  }

  /** A response body as an object ({} when it is not JSON). */
  export async function json(
    response: Response
  ): Promise<Record<string, unknown>> {
    try {
      const body = await response.json();
      return body && typeof body === 'object' ? body : {};
    } catch {
      return {};
    }
  }

  /** A job as the server reports it, as a fetch state. */
  export function state(job: Record<string, unknown>): IFetchState {
    const s = job.state;
    return {
      state: s === 'done' || s === 'failed' ? s : 'running',
      percent: typeof job.percent === 'number' ? job.percent : null,
      detail: typeof job.detail === 'string' ? job.detail : '',
      error: typeof job.error === 'string' ? job.error : null
    };
  }
}
