/**
 * An in-memory ICasebookSource for tests: a map of path to content, folders implied.
 */

import type { ICasebookSource, ISourceEntry } from '../../src/casebook';

/**
 * A casebook held in memory; records every path it was asked for.
 */
export class MemoryCasebookSource implements ICasebookSource {
  /**
   * Create a source from `path -> content` (strings are stored as UTF-8).
   */
  constructor(
    files: Record<string, ArrayBuffer | string>,
    readonly rootName = 'memory-casebook'
  ) {
    for (const [path, content] of Object.entries(files)) {
      this.files.set(
        path,
        typeof content === 'string'
          ? (new TextEncoder().encode(content).buffer as ArrayBuffer)
          : content
      );
    }
  }

  /** Every path passed to list/readBinary/readText, in order. */
  readonly requested: string[] = [];

  async list(path: string): Promise<ISourceEntry[] | null> {
    this.requested.push(path);
    const prefix = path === '' ? '' : `${path}/`;
    const entries = new Map<string, ISourceEntry['type']>();
    for (const file of this.files.keys()) {
      if (!file.startsWith(prefix)) {
        continue;
      }
      const rest = file.slice(prefix.length).split('/');
      entries.set(rest[0], rest.length > 1 ? 'directory' : 'file');
    }
    if (entries.size === 0) {
      return null;
    }
    return [...entries].map(([name, type]) => ({ name, type }));
  }

  async readBinary(path: string): Promise<ArrayBuffer> {
    this.requested.push(path);
    const content = this.files.get(path);
    if (!content) {
      throw new Error(`No such file: ${path}`);
    }
    return content;
  }

  async readText(path: string): Promise<string> {
    return new TextDecoder().decode(await this.readBinary(path));
  }

  private readonly files = new Map<string, ArrayBuffer>();
}
