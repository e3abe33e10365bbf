/**
 * Finds and loads the casebook through the Jupyter server: the configured
 * folder, an auto-detected JunoBench folder, or the bundled demo casebook.
 */
import { PathExt } from '@jupyterlab/coreutils';
import { URLExt } from '@jupyterlab/coreutils';
import type { Contents } from '@jupyterlab/services';
import { ServerConnection } from '@jupyterlab/services';
import type { ISignal } from '@lumino/signaling';
import { Signal } from '@lumino/signaling';

import { ContentsCasebookSource } from '../casebook/contentsSource';
import { DESCRIPTOR_FILE } from '../casebook/descriptor';
import { loadCasebook } from '../casebook/loader';
import type { ICase, ICasebook } from '../casebook/types';
import { english } from '../i18n';
import type { Translate } from '../i18n';
import type { ICasebookManager } from '../tokens';
import {
  readServerProblem,
  renderServerAnswer,
  renderServerProblem,
  serverMessage
} from './serverProblems';

/** The folder auto-detection looks for in the server root. */
export const AUTO_DETECT_FOLDER = 'JunoBench';

/**
 * The casebook manager over the Contents API.
 */
export class CasebookManager implements ICasebookManager {
  /**
   * Create a manager; nothing loads until `load` is called.
   */
  constructor(options: CasebookManager.IOptions) {
    this._contents = options.contents;
    this._serverSettings = options.serverSettings;
    this._trans = options.translate ?? english;
  }

  /** The loaded casebook. */
  get casebook(): ICasebook | null {
    return this._casebook;
  }

  /** Server path of the loaded casebook. */
  get path(): string {
    return this._path;
  }

  /** Whether a load is running. */
  get loading(): boolean {
    return this._loading;
  }

  /** Why nothing is loaded. */
  get error(): string | null {
    return this._error;
  }

  /** Emitted on every change. */
  get changed(): ISignal<ICasebookManager, void> {
    return this._changed;
  }

  /** The configured casebook path ('' = auto-detect, then the demo). */
  get configuredPath(): string {
    return this._configured;
  }
  set configuredPath(value: string) {
    this._configured = value.trim().replace(/^\/+|\/+$/g, '');
  }

  /** Whether to look for a JunoBench casebook in the server root. */
  autoDetect = true;

  /** Load a casebook; without a path, the configured one. */
  async load(path?: string): Promise<void> {
    const ticket = ++this._ticket;
    this._loading = true;
    this._error = null;
    this._changed.emit();
    try {
      const where =
        path !== undefined && path !== '' ? path : await this.resolveDefault();
      const source = new ContentsCasebookSource({
        contents: this._contents,
        root: where,
        fetchTree: root => this.fetchTree(root)
      });
      const book = await loadCasebook(source);
      if (ticket !== this._ticket) {
        return;
      }
      this._casebook = book;
      this._path = where;
    } catch (reason) {
      if (ticket !== this._ticket) {
        return;
      }
      this._casebook = null;
      this._path = '';
      this._error = (reason as Error).message ?? String(reason);
    } finally {
      if (ticket === this._ticket) {
        this._loading = false;
        this._changed.emit();
      }
    }
  }

  /** Find a case by name. */
  find(name: string): ICase | null {
    return this._casebook?.cases.find(c => c.name === name) ?? null;
  }

  /**
   * The path to load when none is given: the setting, else an auto-detected
   * casebook, else the bundled demo that the server extension provides.
   */
  async resolveDefault(): Promise<string> {
    if (this._configured) {
      return this._configured;
    }
    if (this.autoDetect) {
      const found = await this.detect();
      if (found !== null) {
        return found;
      }
    }
    return this.demoPath();
  }

  /**
   * A `JunoBench/` folder with a descriptor, or a descriptor in the root.
   */
  async detect(): Promise<string | null> {
    for (const candidate of [AUTO_DETECT_FOLDER, '']) {
      const file = PathExt.join(candidate, DESCRIPTOR_FILE);
      try {
        await this._contents.get(file, { content: false });
        return candidate;
      } catch {
        // not there
      }
    }
    return null;
  }

  /**
   * The casebook's folders listed in one request by the server extension
   * (`GET /junobench/tree`); rejects when the server does not offer it.
   */
  async fetchTree(root: string): Promise<unknown> {
    const url =
      URLExt.join(this._serverSettings.baseUrl, 'junobench', 'tree') +
      URLExt.objectToQueryString({ path: root });
    const response = await ServerConnection.makeRequest(
      url,
      {},
      this._serverSettings
    );
    if (!response.ok) {
      const body: unknown = await response.json().catch(() => null);
      throw new Error(
        renderServerAnswer(body, this._trans) ??
          this._trans('HTTP %1', response.status)
      );
    }
    return response.json();
  }

  /**
   * Ask the server extension for the bundled demo casebook's path.
   */
  async demoPath(): Promise<string> {
    const url = URLExt.join(
      this._serverSettings.baseUrl,
      'junobench',
      'demo-casebook'
    );
    let response: Response;
    try {
      // Copying the demo writes to the server root: a POST, never a GET.
      response = await ServerConnection.makeRequest(
        url,
        { method: 'POST' },
        this._serverSettings
      );
    } catch (reason) {
      throw new Error(
        this._trans(
          'The bundled demo casebook is unavailable: the server could not be reached (%1).',
          (reason as Error).message
        )
      );
    }
    let body: { path?: unknown } | null = null;
    try {
      body = await response.json();
    } catch {
      // handled below
    }
    if (!response.ok || typeof body?.path !== 'string') {
      // The server's code; a 404 without one means no server extension.
      const problem = readServerProblem(body);
      const why = problem
        ? renderServerProblem(problem, this._trans)
        : response.status === 404
          ? this._trans(
              'the jupyterlab_junobench server extension is not enabled'
            )
          : (serverMessage(body) ?? this._trans('HTTP %1', response.status));
      throw new Error(
        this._trans(
          'The bundled demo casebook is unavailable: %1. Set a casebook path in the settings.',
          // The sentence goes on after it: one full stop.
          why.replace(/\.$/, '')
        )
      );
    }
    return body.path;
  }

  private _trans: Translate;
  private _contents: Contents.IManager;
  private _serverSettings: ServerConnection.ISettings;
  private _casebook: ICasebook | null = null;
  private _path = '';
  private _configured = '';
  private _loading = false;
  private _error: string | null = null;
  private _ticket = 0;
  private _changed = new Signal<ICasebookManager, void>(this);
}

/**
 * A namespace for CasebookManager statics.
 */
export namespace CasebookManager {
  /** Options to create a manager. */
  export interface IOptions {
    /** Contents manager to read the casebook through. */
    contents: Contents.IManager;
    /** Server settings, for the demo casebook endpoint. */
    serverSettings: ServerConnection.ISettings;
    /** Words the manager's own errors (English by default). */
    translate?: Translate;
  }
}
