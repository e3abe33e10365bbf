/**
 * A casebook source over the Jupyter Contents API.
 */

import { PathExt } from '@jupyterlab/coreutils';
import type { Contents } from '@jupyterlab/services';

import { joinSafe } from './paths';
import type { ICasebookSource, ISourceEntry } from './types';

/**
 * Read-only casebook access through a `Contents.IManager`, confined to one root
 * folder of the server.
 */
export class ContentsCasebookSource implements ICasebookSource {
  /**
   * Create a source over `contents`, rooted at `root` (a server path).
   */
  constructor(options: ContentsCasebookSource.IOptions) {
    this._contents = options.contents;
    this._root = options.root;
    this._fetchTree = options.fetchTree ?? null;
    this.rootName = options.rootName ?? (PathExt.basename(options.root) || '/');
  }

  /** A display name for the casebook root. */
  readonly rootName: string;

  /** The server path the source is confined to. */
  get root(): string {
    return this._root;
  }

  /**
   * List a casebook-relative folder; null when it does not exist (404) or is
   * not a folder.
   */
  async list(path: string): Promise<ISourceEntry[] | null> {
    const listed = (await this._tree())?.folders[path];
    if (listed) {
      return listed.map(entry => ({ ...entry }));
    }
    let model: Contents.IModel;
    try {
      model = await this._contents.get(this.resolve(path), { content: true });
    } catch (error) {
      if (Private.isNotFound(error)) {
        return null;
      }
      throw error;
    }
    if (model.type !== 'directory' || !Array.isArray(model.content)) {
      return null;
    }
    return (model.content as Contents.IModel[]).map(child => {
      const entry: ISourceEntry = {
        name: child.name,
        type: child.type === 'directory' ? 'directory' : 'file'
      };
      // Jupyter Server lists file sizes; the loader checks them before reading.
      if (entry.type === 'file' && Private.isSize(child.size)) {
        entry.size = child.size;
      }
      return entry;
    });
  }

  /**
   * The size in bytes of a casebook-relative file, from a request without its
   * content; null when the server does not say.
   */
  async size(path: string): Promise<number | null> {
    const model = await this._contents.get(this.resolve(path), {
      content: false
    });
    return Private.isSize(model.size) ? model.size : null;
  }

  /**
   * Read a casebook-relative file's bytes (fetched as base64).
   */
  async readBinary(path: string): Promise<ArrayBuffer> {
    const model = await this._contents.get(this.resolve(path), {
      content: true,
      format: 'base64',
      type: 'file'
    });
    if (typeof model.content !== 'string') {
      throw new Error(`${path} has no base64 content.`);
    }
    return Private.decodeBase64(model.content);
  }

  /**
   * Read a casebook-relative text file.
   */
  async readText(path: string): Promise<string> {
    const model = await this._contents.get(this.resolve(path), {
      content: true,
      format: 'text',
      type: 'file'
    });
    if (typeof model.content !== 'string') {
      throw new Error(`${path} has no text content.`);
    }
    return model.content;
  }

  /**
   * The server path of a casebook-relative path; throws for unsafe paths.
   */
  resolve(path: string): string {
    return joinSafe(this._root, path);
  }

  /**
   * The whole casebook listed in one request, when the server offers it
   * (fetched once; null when it does not, and the Contents API is used).
   */
  private _tree(): Promise<ContentsCasebookSource.ITree | null> {
    if (!this._treeRequest) {
      const fetchTree = this._fetchTree;
      this._treeRequest = fetchTree
        ? fetchTree(this._root).then(
            tree => Private.checkTree(tree),
            () => null
          )
        : Promise.resolve(null);
    }
    return this._treeRequest;
  }

  private readonly _contents: Contents.IManager;
  private readonly _root: string;
  private readonly _fetchTree: ((root: string) => Promise<unknown>) | null;
  private _treeRequest: Promise<ContentsCasebookSource.ITree | null> | null =
    null;
}

/**
 * Options of ContentsCasebookSource.
 */
export namespace ContentsCasebookSource {
  /**
   * How to build a ContentsCasebookSource.
   */
  export interface IOptions {
    /** The contents manager to read through. */
    contents: Contents.IManager;
    /** Server path of the casebook folder ('' for the server root). */
    root: string;
    /** Display name; the root's base name by default. */
    rootName?: string;
    /**
     * Fetch the casebook's listing several levels deep in one request (the
     * server extension's `GET /junobench/tree`); folders it lists are not
     * asked of the Contents API again. Optional; any failure falls back.
     */
    fetchTree?: (root: string) => Promise<unknown>;
  }

  /** A casebook listed several levels deep: entries per casebook-relative folder. */
  export interface ITree {
    /** The listed folders ('' is the root) and their entries. */
    folders: Record<string, ISourceEntry[]>;
  }
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * The listing of a tree answer, keeping only well-formed entries; null when
   * the answer has another shape.
   */
  export function checkTree(
    value: unknown
  ): ContentsCasebookSource.ITree | null {
    const folders = (value as { folders?: unknown } | null)?.folders;
    if (typeof folders !== 'object' || folders === null) {
      return null;
    }
    const result: Record<string, ISourceEntry[]> = Object.create(null);
    for (const [path, entries] of Object.entries(folders)) {
      if (!Array.isArray(entries)) {
        continue;
      }
      const kept: ISourceEntry[] = [];
      for (const raw of entries) {
        const item = raw as { name?: unknown; type?: unknown; size?: unknown };
        if (
          typeof item?.name !== 'string' ||
          (item.type !== 'file' && item.type !== 'directory')
        ) {
          continue;
        }
        const entry: ISourceEntry = { name: item.name, type: item.type };
        if (entry.type === 'file' && isSize(item.size)) {
          entry.size = item.size;
        }
        kept.push(entry);
      }
      result[path] = kept;
    }
    return { folders: result };
  }

  /**
   * Whether a contents error is a 404 (ServerConnection.ResponseError or alike).
   */
  export function isNotFound(error: unknown): boolean {
    if (typeof error !== 'object' || error === null) {
      return false;
    }
    const response = (error as { response?: { status?: unknown } }).response;
    return response?.status === 404;
  }

  /**
   * Whether a model's size field holds a usable byte count.
   */
  export function isSize(size: unknown): size is number {
    return typeof size === 'number' && Number.isFinite(size) && size >= 0;
  }

  /**
   * Decode base64 (whitespace tolerated) to bytes without Node's Buffer.
   */
  export function decodeBase64(text: string): ArrayBuffer {
    const binary = atob(text.replace(/\s+/g, ''));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) {
      bytes[i] = binary.charCodeAt(i);
    }
    return bytes.buffer;
  }
}
