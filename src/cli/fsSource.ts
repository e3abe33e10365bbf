/**
 * A casebook source over the local file system, for the Node command line.
 */
import type { Dirent, Stats } from 'fs';
import { constants, promises as fs } from 'fs';
import * as path from 'path';

import { MAX_NOTEBOOK_BYTES, sizeProblem } from '../casebook/notebook';
import { joinSafe } from '../casebook/paths';
import type { ICasebookSource, ISourceEntry } from '../casebook/types';

/**
 * Reads a casebook folder from disk; refuses anything that resolves outside it,
 * symbolic links included, anything that is not a regular file or folder, and
 * files over a size limit.
 */
export class FsCasebookSource implements ICasebookSource {
  /**
   * Create a source rooted at a local folder.
   */
  constructor(root: string, options: FsCasebookSource.IOptions = {}) {
    this._root = path.resolve(root);
    this._maxBytes = options.maxBytes ?? MAX_NOTEBOOK_BYTES;
    this.rootName = path.basename(this._root);
  }

  /** The folder name of the casebook. */
  readonly rootName: string;

  /** The absolute root folder. */
  get root(): string {
    return this._root;
  }

  /**
   * List a directory; null when it does not exist or is not a directory. Links
   * that lead outside the casebook are listed with `refused` set; dangling
   * links, sockets, FIFOs and devices are left out.
   */
  async list(rel: string): Promise<ISourceEntry[] | null> {
    const full = await this._resolve(rel, true);
    if (full === null) {
      return null;
    }
    let dirents: Dirent[];
    try {
      dirents = await fs.readdir(full, { withFileTypes: true });
    } catch (reason) {
      const code = (reason as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        return null;
      }
      throw reason;
    }
    const entries = await Promise.all(dirents.map(d => this._entry(full, d)));
    return entries.filter((entry): entry is ISourceEntry => entry !== null);
  }

  /** Read a file's bytes; rejects for files over the size limit. */
  async readBinary(rel: string): Promise<ArrayBuffer> {
    const buffer = await this._read(rel);
    return buffer.buffer.slice(
      buffer.byteOffset,
      buffer.byteOffset + buffer.byteLength
    ) as ArrayBuffer;
  }

  /** Read a text file; rejects for files over the size limit. */
  async readText(rel: string): Promise<string> {
    return (await this._read(rel)).toString('utf-8');
  }

  /** The size in bytes of a file of the casebook; null when it is missing. */
  async size(rel: string): Promise<number | null> {
    const full = await this._resolve(rel, true);
    if (full === null) {
      return null;
    }
    return (await fs.stat(full)).size;
  }

  /**
   * The entry for one directory item, or null when it is not listed.
   */
  private async _entry(dir: string, d: Dirent): Promise<ISourceEntry | null> {
    const full = path.join(dir, d.name);
    try {
      if (d.isDirectory()) {
        return { name: d.name, type: 'directory' };
      }
      if (d.isFile()) {
        // A size costs a stat; only the files the loader reads need one (data
        // folders may hold thousands of files).
        return Private.SIZED.test(d.name)
          ? { name: d.name, type: 'file', size: (await fs.lstat(full)).size }
          : { name: d.name, type: 'file' };
      }
      if (!d.isSymbolicLink()) {
        return null;
      }
      const target = await fs.realpath(full);
      const stat = await fs.stat(target);
      const type = stat.isDirectory() ? 'directory' : 'file';
      if (!(await this._inside(target))) {
        return {
          name: d.name,
          type,
          refused: `it is a symbolic link to ${target}, outside the casebook folder ${this._root}`
        };
      }
      if (stat.isDirectory()) {
        return { name: d.name, type };
      }
      return stat.isFile() ? { name: d.name, type, size: stat.size } : null;
    } catch {
      // Dangling or looping links and entries gone since readdir are not listed.
      return null;
    }
  }

  /**
   * Read a regular file of the casebook within the size limit; rejects with an
   * Error naming `rel` otherwise.
   */
  private async _read(rel: string): Promise<Buffer> {
    const full = await this._resolve(rel, false);
    if (full === null) {
      throw new Error(`${rel}: no such file in the casebook`);
    }
    // Checked before opening: opening a FIFO would block (and O_NONBLOCK keeps
    // one swapped in meanwhile from blocking; it does nothing to regular files).
    this._checkFile(rel, await fs.stat(full));
    const handle = await fs.open(
      full,
      constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)
    );
    try {
      // Checked again on what was opened, in case the path changed meanwhile.
      this._checkFile(rel, await handle.stat());
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /**
   * Throw unless the stat is of a regular file within the size limit.
   */
  private _checkFile(rel: string, stat: Stats): void {
    if (!stat.isFile()) {
      throw new Error(`${rel}: is not a regular file; refused`);
    }
    const tooBig = sizeProblem(stat.size, this._maxBytes);
    if (tooBig !== null) {
      throw new Error(`${rel}: ${tooBig}; it was not read`);
    }
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
    if (!(await this._inside(real))) {
      throw new Error(
        `${rel}: resolves to ${real}, outside the casebook folder ${this._root}; refused`
      );
    }
    return real;
  }

  /**
   * Whether a real path is the casebook root or below it.
   */
  private async _inside(real: string): Promise<boolean> {
    // The root itself may be reached through a link; compare real paths.
    this._rootReal ??= await fs.realpath(this._root);
    const root = this._rootReal;
    const prefix = root.endsWith(path.sep) ? root : root + path.sep;
    return real === root || real.startsWith(prefix);
  }

  private readonly _root: string;
  private readonly _maxBytes: number;
  private _rootReal: string | null = null;
}

/**
 * Options of FsCasebookSource.
 */
export namespace FsCasebookSource {
  /**
   * How to build a FsCasebookSource.
   */
  export interface IOptions {
    /**
     * The largest file read, in bytes (MAX_NOTEBOOK_BYTES by default); the
     * loader's `maxFileBytes` is checked first, this is the hard limit.
     */
    maxBytes?: number;
  }
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * Files whose size a listing reports: notebooks and workbooks.
   */
  export const SIZED = /\.(ipynb|xlsx)$/i;
}
