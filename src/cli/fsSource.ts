/**
 * A casebook source over the local file system, for the Node command line.
 */
import { promises as fs } from 'fs';
import * as path from 'path';

import { joinSafe } from '../casebook/paths';
import type { ICasebookSource, ISourceEntry } from '../casebook/types';

/**
 * Reads a casebook folder from disk; refuses anything that resolves outside it,
 * symbolic links included.
 */
export class FsCasebookSource implements ICasebookSource {
  /**
   * Create a source rooted at a local folder.
   */
  constructor(root: string) {
    this._root = path.resolve(root);
    this.rootName = path.basename(this._root);
  }

  /** The folder name of the casebook. */
  readonly rootName: string;

  /** The absolute root folder. */
  get root(): string {
    return this._root;
  }

  /** List a directory; null when it does not exist. */
  async list(rel: string): Promise<ISourceEntry[] | null> {
    const full = await this._resolve(rel, true);
    if (full === null) {
      return null;
    }
    let dirents;
    try {
      dirents = await fs.readdir(full, { withFileTypes: true });
    } catch (reason) {
      if ((reason as NodeJS.ErrnoException).code === 'ENOENT') {
        return null;
      }
      throw reason;
    }
    const entries: ISourceEntry[] = [];
    for (const d of dirents) {
      if (d.isDirectory()) {
        entries.push({ name: d.name, type: 'directory' });
      } else if (d.isFile()) {
        entries.push({ name: d.name, type: 'file' });
      } else if (d.isSymbolicLink()) {
        // Links are listed only when they stay inside the casebook.
        const inside = await this._resolve(
          rel ? `${rel}/${d.name}` : d.name,
          true
        );
        if (inside) {
          const stat = await fs.stat(inside);
          entries.push({
            name: d.name,
            type: stat.isDirectory() ? 'directory' : 'file'
          });
        }
      }
    }
    return entries;
  }

  /** Read a file's bytes. */
  async readBinary(rel: string): Promise<ArrayBuffer> {
    const full = await this._resolve(rel, false);
    if (full === null) {
      throw new Error(`${rel}: no such file in the casebook`);
    }
    const buffer = await fs.readFile(full);
    return buffer.buffer.slice(
      buffer.byteOffset,
      buffer.byteOffset + buffer.byteLength
    ) as ArrayBuffer;
  }

  /** Read a text file. */
  async readText(rel: string): Promise<string> {
    const full = await this._resolve(rel, false);
    if (full === null) {
      throw new Error(`${rel}: no such file in the casebook`);
    }
    return fs.readFile(full, 'utf-8');
  }

  /**
   * Resolve a casebook-relative path to a real path inside the root, or null
   * when it does not exist; throws when it would leave the casebook.
   */
  private async _resolve(
    rel: string,
    allowMissing: boolean
  ): Promise<string | null> {
    const joined = rel ? joinSafe('', rel) : '';
    const full = path.join(this._root, ...joined.split('/').filter(Boolean));
    let real: string;
    try {
      real = await fs.realpath(full);
    } catch (reason) {
      if (allowMissing || (reason as NodeJS.ErrnoException).code === 'ENOENT') {
        return null;
      }
      throw reason;
    }
    const rootReal = await fs.realpath(this._root);
    if (real !== rootReal && !real.startsWith(rootReal + path.sep)) {
      throw new Error(
        `${rel}: resolves outside the casebook (${real}); refused`
      );
    }
    return real;
  }

  private _root: string;
}
