/**
 * An in-memory ICasebookSource for tests: a map of path to content, folders implied.
 */

import type { ICasebookSource, ISourceEntry } from '../../src/casebook';

/**
 * A casebook held in memory; records every path it was asked for.
 */
export class MemoryCasebookSource implements ICasebookSource {
  /**
   * Create a source from `path -> content` (strings are stored as UTF-8);
   * `sizes` overrides the size reported for a path, so that a huge file can be
   * pretended without allocating it.
   */
  constructor(
    files: Record<string, ArrayBuffer | string>,
    readonly rootName = 'memory-casebook',
    private readonly sizes: Record<string, number> = {}
  ) {
    for (const [path, content] of Object.entries(files)) {
      const bytes =
        typeof content === 'string'
          ? (new TextEncoder().encode(content).buffer as ArrayBuffer)
          : content;
      this.files.set(path, bytes);
      // Index every folder on the way, so that listing is not a scan of all files.
      const parts = path.split('/');
      for (let i = 0; i < parts.length; i++) {
        const dir = parts.slice(0, i).join('/');
        const type = i === parts.length - 1 ? 'file' : 'directory';
        let children = this.dirs.get(dir);
        if (!children) {
          children = new Map();
          this.dirs.set(dir, children);
        }
        children.set(parts[i], type);
      }
    }
  }

  /** Every path passed to list/readBinary/readText/size, in order. */
  readonly requested: string[] = [];

  async list(path: string): Promise<ISourceEntry[] | null> {
    this.requested.push(path);
    const children = this.dirs.get(path);
    if (!children) {
      return null;
    }
    const prefix = path === '' ? '' : `${path}/`;
    return [...children].map(([name, type]) =>
      type === 'file'
        ? { name, type, size: this.sizeOf(`${prefix}${name}`) }
        : { name, type }
    );
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

  async size(path: string): Promise<number | null> {
    this.requested.push(path);
    return this.files.has(path) ? this.sizeOf(path) : null;
  }

  /**
   * The size reported for a file: the override, else its byte length.
   */
  private sizeOf(path: string): number {
    return this.sizes[path] ?? this.files.get(path)?.byteLength ?? 0;
  }

  private readonly files = new Map<string, ArrayBuffer>();
  private readonly dirs = new Map<string, Map<string, ISourceEntry['type']>>();
}
