/**
 * A test-only ICasebookSource over the Node file system.
 */

import { promises as fs } from 'fs';
import * as path from 'path';

import { joinSafe } from '../../src/casebook';
import type { ICasebookSource, ISourceEntry } from '../../src/casebook';

/**
 * Read-only access to a casebook folder on disk.
 */
export class FsCasebookSource implements ICasebookSource {
  /**
   * Create a source rooted at an absolute folder.
   */
  constructor(private readonly root: string) {
    this.rootName = path.basename(root);
  }

  readonly rootName: string;

  async list(rel: string): Promise<ISourceEntry[] | null> {
    try {
      const entries = await fs.readdir(this.resolve(rel), {
        withFileTypes: true
      });
      return entries.map(entry => ({
        name: entry.name,
        type: entry.isDirectory() ? 'directory' : 'file'
      }));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        return null;
      }
      throw error;
    }
  }

  async readBinary(rel: string): Promise<ArrayBuffer> {
    const bytes = await fs.readFile(this.resolve(rel));
    return bytes.buffer.slice(
      bytes.byteOffset,
      bytes.byteOffset + bytes.byteLength
    ) as ArrayBuffer;
  }

  async readText(rel: string): Promise<string> {
    return fs.readFile(this.resolve(rel), 'utf8');
  }

  private resolve(rel: string): string {
    return joinSafe(this.root, rel);
  }
}
