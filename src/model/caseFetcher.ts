/**
 * "Fetch this case": asks the server extension to fetch a missing case folder
 * into a casebook made by `junobench fetch --cases`, and follows the fetch.
 * No DOM; the panel renders what `progress` reports: what a running fetch is
 * doing comes worded already (the job's progress code through
 * `renderFetchProgress`, with the `translate` it was given), a failure as a
 * code to word with `renderFetchFailure`; why a casebook cannot take fetched
 * cases is the server's code (`renderServerProblem`).
 */
import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';
import type { IDisposable } from '@lumino/disposable';
import { Poll } from '@lumino/polling';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import { english } from '../i18n';
import type { Translate } from '../i18n';
import { readFetchJobProblem, renderFetchJobProblem } from './fetchProblems';
import type { FetchJobProblem } from './fetchProblems';
import { readFetchProgress, renderFetchProgress } from './fetchProgress';
import {
  readServerProblem,
  renderServerProblem,
  serverMessage
} from './serverProblems';
import type { ServerProblem } from './serverProblems';

/** Why asking the server failed, or a fetch failed, as a code with parameters. */
export type FetchFailure =
  /** The request did not reach the server; `detail` is the error's own text. */
  | { code: 'unreachable'; detail: string }
  /**
   * The server refused the request: its status, its code with parameters
   * (null when it sent none this version knows) and its English, if any.
   */
  | {
      code: 'server';
      status: number;
      problem: ServerProblem | null;
      message: string | null;
    }
  /**
   * The server's fetch job failed: the fetcher's code with parameters (null
   * when it sent none this version knows) and its English, if any.
   */
  | { code: 'job'; problem: FetchJobProblem | null; message: string | null }
  /** The fetcher stopped following the fetch (disposed); the job goes on. */
  | { code: 'stopped' };

/** What the server says of fetching into a casebook. */
export interface IFetchSourceState {
  /** Whether the server allows fetching at all (`allow_fetch`). */
  allowed: boolean;
  /** Whether "Fetch this case" works for this casebook. */
  fetchable: boolean;
  /** The source the casebook was fetched from, when it is a sparse copy. */
  source: string | null;
  /** Why not, as the server's code (`fetch-off`, `not-fetched-copy`), or null. */
  reason: ServerProblem | null;
  /** Why the server could not be asked, or null when it answered. */
  failure: FetchFailure | null;
}

/** How one fetch stands. */
export interface IFetchState {
  /** Running, done or failed. */
  state: 'running' | 'done' | 'failed';
  /** Percentage of the current phase, when known. */
  percent: number | null;
  /**
   * What is happening, in the `translate` of the fetcher ('' when the server
   * says nothing this version knows).
   */
  detail: string;
  /** Why it failed (render it with `renderFetchFailure`). */
  error: FetchFailure | null;
}

/**
 * Starts and follows case fetches through `/junobench/fetch-case`.
 */
export class CaseFetcher implements IDisposable {
  /** Build a fetcher for a server. */
  constructor(options: CaseFetcher.IOptions) {
    this._serverSettings = options.serverSettings;
    this._pollMs = options.pollMs ?? 300;
    this._translate = options.translate ?? english;
  }

  /** Whether the fetcher is disposed. */
  get isDisposed(): boolean {
    return this._isDisposed;
  }

  /**
   * Stop following every fetch (each resolves as failed; the server's job
   * goes on) and refuse new ones.
   */
  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    for (const poll of this._polls) {
      poll.dispose();
    }
    this._polls.clear();
    Signal.clearData(this);
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
      return Private.unavailable(Private.unreachable(reason));
    }
    const body = await Private.json(response);
    if (!response.ok) {
      return Private.unavailable(Private.refused(response, body));
    }
    return {
      allowed: body.allowed === true,
      fetchable: body.fetchable === true,
      source: typeof body.source === 'string' ? body.source : null,
      reason: readServerProblem(body.reason),
      failure: null
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
    const failed = (error: FetchFailure) =>
      emit({ state: 'failed', percent: null, detail: '', error });
    if (this._isDisposed) {
      return failed(Private.STOPPED);
    }
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
      return failed(Private.unreachable(reason));
    }
    const started = await Private.json(response);
    if (response.status !== 202 || typeof started.id !== 'string') {
      return failed(Private.refused(response, started));
    }
    if (this._isDisposed) {
      return failed(Private.STOPPED);
    }
    const jobUrl = URLExt.join(base, 'junobench', 'fetch-jobs', started.id);
    return new Promise<IFetchState>(resolve => {
      // Asks how the job stands every `pollMs`, one request at a time, until
      // the job ends or the fetcher is disposed.
      const poll: Poll = new Poll({
        auto: false,
        factory: async () => {
          const state = await this._ask(jobUrl);
          if (poll.isDisposed) {
            return;
          }
          emit(state);
          if (state.state !== 'running') {
            resolve(state);
            poll.dispose();
          }
        },
        frequency: { interval: this._pollMs, backoff: false },
        name: 'jupyterlab-junobench:CaseFetcher#job',
        // A fetch goes on in a hidden tab, so following it does too.
        standby: 'never'
      });
      poll.disposed.connect(() => {
        this._polls.delete(poll);
        resolve({
          state: 'failed',
          percent: null,
          detail: '',
          error: Private.STOPPED
        });
      });
      this._polls.add(poll);
      // The job has only just started: the first question waits one interval.
      void poll.schedule({ interval: this._pollMs, phase: 'started' });
    });
  }

  /** How a job stands, from one request; a failed request is a failed state. */
  private async _ask(jobUrl: string): Promise<IFetchState> {
    const failed = (error: FetchFailure): IFetchState => ({
      state: 'failed',
      percent: null,
      detail: '',
      error
    });
    try {
      const polled = await ServerConnection.makeRequest(
        jobUrl,
        {},
        this._serverSettings
      );
      const job = await Private.json(polled);
      if (!polled.ok) {
        return failed(Private.refused(polled, job));
      }
      return Private.state(job, this._translate);
    } catch (reason) {
      return failed(Private.unreachable(reason));
    }
  }

  private _serverSettings: ServerConnection.ISettings;
  private _pollMs: number;
  private _translate: Translate;
  private _polls = new Set<Poll>();
  private _isDisposed = false;
  private _progress = new Signal<this, { name: string; state: IFetchState }>(
    this
  );
}

/**
 * Why a fetch failed, or the server could not be asked, in one phrase
 * (translated when `__` is: the server's codes through `renderServerProblem`
 * and `renderFetchJobProblem`; only an answer without a code known here
 * passes the server's own English through).
 */
export function renderFetchFailure(
  failure: FetchFailure,
  __: Translate = english
): string {
  switch (failure.code) {
    case 'unreachable':
      return __('the server could not be reached (%1)', failure.detail);
    case 'server':
      return failure.problem
        ? renderServerProblem(failure.problem, __)
        : (failure.message ?? __('HTTP %1', failure.status));
    case 'job':
      return failure.problem
        ? renderFetchJobProblem(failure.problem, __)
        : (failure.message ?? __('the server gave no reason'));
    case 'stopped':
      return __('stopped following the fetch (it goes on on the server)');
  }
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
    /** Words a running fetch's progress code (the UI's `trans.__`; default English). */
    translate?: Translate;
  }
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /** Why a fetch the fetcher stopped following ends. */
  export const STOPPED: FetchFailure = { code: 'stopped' };

  /** Not fetchable, because the server could not be asked. */
  export function unavailable(failure: FetchFailure): IFetchSourceState {
    return {
      allowed: false,
      fetchable: false,
      source: null,
      reason: null,
      failure
    };
  }

  /** A request that did not reach the server. */
  export function unreachable(reason: unknown): FetchFailure {
    return {
      code: 'unreachable',
      detail: (reason as Error)?.message ?? String(reason)
    };
  }

  /** A request the server refused, with its code and its English when it sent them. */
  export function refused(
    response: Response,
    body: Record<string, unknown>
  ): FetchFailure {
    return {
      code: 'server',
      status: response.status,
      problem: readServerProblem(body),
      message: serverMessage(body)
    };
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

  /** A failed job's error (`{"code", ...params, "message"}`; text from an older server). */
  function failedJob(error: unknown): FetchFailure {
    return {
      code: 'job',
      problem: readFetchJobProblem(error),
      message: typeof error === 'string' ? error : serverMessage(error)
    };
  }

  /** A job as the server reports it, as a fetch state, its progress worded by `__`. */
  export function state(
    job: Record<string, unknown>,
    __: Translate
  ): IFetchState {
    const s = job.state;
    const progress = readFetchProgress(job.progress);
    return {
      state: s === 'done' || s === 'failed' ? s : 'running',
      percent: typeof job.percent === 'number' ? job.percent : null,
      detail: progress ? renderFetchProgress(progress, __) : '',
      error: s === 'failed' ? failedJob(job.error) : null
    };
  }
}
