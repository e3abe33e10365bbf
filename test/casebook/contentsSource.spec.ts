/**
 * ContentsCasebookSource over a fake contents manager.
 */

import type { Contents } from '@jupyterlab/services';

import { ContentsCasebookSource, loadCasebook } from '../../src/casebook';
import { caseFolder, descRow, descriptorXlsx } from './fixtures';

/** A server-side file or folder of the fake. */
type Node = { type: 'directory' } | { type: 'file'; bytes: Uint8Array };

/** An error shaped like ServerConnection.ResponseError. */
function responseError(status: number): Error {
  return Object.assign(new Error(`HTTP ${status}`), {
    response: { status }
  });
}

/** Encode bytes as base64 the way the server does. */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  bytes.forEach(b => (binary += String.fromCharCode(b)));
  return btoa(binary);
}

/**
 * The parts of Contents.IManager the source uses, over a map of server paths.
 */
class FakeContents {
  /**
   * Serve `files`; `sizes` overrides the size the server reports for a path.
   */
  constructor(
    files: Record<string, ArrayBuffer | string>,
    private readonly sizes: Record<string, number> = {}
  ) {
    this.nodes.set('', { type: 'directory' });
    for (const [path, content] of Object.entries(files)) {
      const bytes =
        typeof content === 'string'
          ? new TextEncoder().encode(content)
          : new Uint8Array(content);
      this.nodes.set(path, { type: 'file', bytes });
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) {
        this.nodes.set(parts.slice(0, i).join('/'), { type: 'directory' });
      }
    }
  }

  readonly calls: [string, Contents.IFetchOptions | undefined][] = [];

  async get(
    path: string,
    options?: Contents.IFetchOptions
  ): Promise<Partial<Contents.IModel>> {
    this.calls.push([path, options]);
    const node = this.nodes.get(path);
    if (!node) {
      throw responseError(404);
    }
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (node.type === 'directory') {
      const prefix = path === '' ? '' : `${path}/`;
      const content = [...this.nodes]
        .filter(
          ([child]) =>
            child.startsWith(prefix) &&
            child !== path &&
            !child.slice(prefix.length).includes('/')
        )
        .map(([child, n]) => ({
          name: child.slice(prefix.length),
          path: child,
          type:
            n.type === 'directory'
              ? 'directory'
              : child.endsWith('.ipynb')
                ? 'notebook'
                : 'file',
          size: this.sizeOf(child, n)
        }));
      return { name, path, type: 'directory', content, format: 'json' };
    }
    if (options?.format === 'base64') {
      // The classic server wraps base64 at 76 characters.
      const text = toBase64(node.bytes).replace(/(.{76})/g, '$1\n');
      return { name, path, type: 'file', content: text, format: 'base64' };
    }
    if (options?.format === 'text') {
      return {
        name,
        path,
        type: 'file',
        content: new TextDecoder().decode(node.bytes),
        format: 'text'
      };
    }
    return {
      name,
      path,
      type: 'file',
      content: null,
      format: null,
      size: this.sizeOf(path, node) ?? undefined
    };
  }

  /**
   * The size the server reports: null for folders, as Jupyter Server does.
   */
  private sizeOf(path: string, node: Node): number | null {
    return node.type === 'file'
      ? (this.sizes[path] ?? node.bytes.byteLength)
      : null;
  }

  private readonly nodes = new Map<string, Node>();
}

/** A source over a fake holding `files`. */
function sourceOver(
  files: Record<string, ArrayBuffer | string>,
  root = 'course/junobench',
  sizes: Record<string, number> = {}
): { source: ContentsCasebookSource; fake: FakeContents } {
  const fake = new FakeContents(files, sizes);
  const source = new ContentsCasebookSource({
    contents: fake as unknown as Contents.IManager,
    root
  });
  return { source, fake };
}

describe('ContentsCasebookSource', () => {
  it('lists folders with types and maps 404 to null', async () => {
    const { source } = sourceOver({
      'course/junobench/benchmark/pandas_1/pandas_1_reproduced.ipynb': '{}',
      'course/junobench/benchmark/pandas_1/data/a.csv': ''
    });
    expect(source.rootName).toBe('junobench');
    expect(await source.list('benchmark/pandas_1')).toEqual([
      { name: 'pandas_1_reproduced.ipynb', type: 'file', size: 2 },
      { name: 'data', type: 'directory' }
    ]);
    expect(await source.list('benchmark/missing')).toBeNull();
    expect(await source.list('benchmark/pandas_1/data/a.csv')).toBeNull();
  });

  it('rethrows errors other than 404', async () => {
    const source = new ContentsCasebookSource({
      contents: {
        get: () => Promise.reject(responseError(500))
      } as unknown as Contents.IManager,
      root: ''
    });
    await expect(source.list('')).rejects.toThrow('HTTP 500');
  });

  it.each([
    ['ascii', new TextEncoder().encode('hello')],
    ['all byte values', Uint8Array.from({ length: 256 }, (_, i) => i)],
    ['long data', Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 256)],
    ['nothing', new Uint8Array(0)]
  ])('reads %s as binary', async (_, bytes) => {
    const { source, fake } = sourceOver({
      'course/junobench/f.bin': bytes.buffer as ArrayBuffer
    });
    const read = await source.readBinary('f.bin');
    expect(Array.from(new Uint8Array(read))).toEqual(Array.from(bytes));
    expect(fake.calls).toEqual([
      [
        'course/junobench/f.bin',
        { content: true, format: 'base64', type: 'file' }
      ]
    ]);
  });

  it('reads text', async () => {
    const { source, fake } = sourceOver({
      'course/junobench/README.md': '# Case\n'
    });
    expect(await source.readText('README.md')).toBe('# Case\n');
    expect(fake.calls[0][1]).toEqual({
      content: true,
      format: 'text',
      type: 'file'
    });
  });

  it.each(['../secret', '/etc/passwd', 'a\\b', 'a/../../b'])(
    'refuses the unsafe path %j without asking the server',
    async path => {
      const { source, fake } = sourceOver({});
      await expect(source.readBinary(path)).rejects.toThrow(/Unsafe path/);
      await expect(source.list(path)).rejects.toThrow(/Unsafe path/);
      expect(fake.calls).toEqual([]);
    }
  );

  it('works at the server root', async () => {
    const { source } = sourceOver({ 'a.txt': 'x' }, '');
    expect(source.rootName).toBe('/');
    expect(await source.list('')).toEqual([
      { name: 'a.txt', type: 'file', size: 1 }
    ]);
    expect(await source.readText('a.txt')).toBe('x');
  });

  it('loads a casebook', async () => {
    const files: Record<string, ArrayBuffer | string> = {
      'course/junobench/benchmark_desc.xlsx': descriptorXlsx([
        descRow('pandas_1'),
        descRow('torch_2')
      ])
    };
    for (const [path, content] of Object.entries(caseFolder('pandas_1'))) {
      files[`course/junobench/${path}`] = content;
    }
    const { source } = sourceOver(files);
    const casebook = await loadCasebook(source);
    expect(casebook.name).toBe('junobench');
    expect(casebook.problems).toEqual([]);
    expect(casebook.cases.map(c => [c.name, c.problems])).toEqual([
      ['pandas_1', []],
      ['torch_2', ['case folder not found']]
    ]);
  });

  it('tells a size from a request without content', async () => {
    const { source, fake } = sourceOver(
      { 'course/junobench/big.ipynb': '{}' },
      'course/junobench',
      { 'course/junobench/big.ipynb': 100 * 1024 * 1024 }
    );
    expect(await source.size('big.ipynb')).toBe(100 * 1024 * 1024);
    expect(fake.calls).toEqual([
      ['course/junobench/big.ipynb', { content: false }]
    ]);
    await expect(source.size('../outside.ipynb')).rejects.toThrow(
      /Unsafe path/
    );
  });

  it('lets the loader refuse a 100 MB notebook from the listing alone', async () => {
    const files: Record<string, ArrayBuffer | string> = {
      'course/junobench/benchmark_desc.xlsx': descriptorXlsx([
        descRow('pandas_1')
      ])
    };
    for (const [path, content] of Object.entries(caseFolder('pandas_1'))) {
      files[`course/junobench/${path}`] = content;
    }
    const big = 'course/junobench/benchmark/pandas_1/pandas_1_reproduced.ipynb';
    const { source, fake } = sourceOver(files, 'course/junobench', {
      [big]: 100 * 1024 * 1024
    });
    const casebook = await loadCasebook(source);
    expect(casebook.cases[0].files.reproduced).toBe(false);
    expect(casebook.cases[0].problems).toEqual([
      'benchmark/pandas_1/pandas_1_reproduced.ipynb is 100.0 MB, over the limit of 50.0 MB; it will not be opened'
    ]);
    expect(fake.calls.map(([path]) => path)).not.toContain(big);
  });
});

describe('ContentsCasebookSource with a one-request tree', () => {
  /** The demo-like casebook of the "loads a casebook" test, as a fake server. */
  function files(): Record<string, ArrayBuffer | string> {
    const result: Record<string, ArrayBuffer | string> = {
      'course/junobench/benchmark_desc.xlsx': descriptorXlsx([
        descRow('pandas_1'),
        descRow('numpy_1')
      ])
    };
    for (const name of ['pandas_1', 'numpy_1']) {
      for (const [path, content] of Object.entries(caseFolder(name))) {
        result[`course/junobench/${path}`] = content;
      }
    }
    return result;
  }

  /** The tree the server extension would answer, built from the fake's own listings. */
  async function treeOf(
    fake: FakeContents,
    root: string
  ): Promise<{ folders: Record<string, unknown[]> }> {
    const folders: Record<string, unknown[]> = {};
    const walk = async (rel: string) => {
      const model = await fake.get(rel ? `${root}/${rel}` : root, {});
      const content = model.content as Contents.IModel[];
      folders[rel] = content.map(c =>
        c.type === 'directory'
          ? { name: c.name, type: 'directory' }
          : { name: c.name, type: 'file', size: c.size }
      );
      for (const c of content) {
        if (c.type === 'directory') {
          await walk(rel ? `${rel}/${c.name}` : c.name);
        }
      }
    };
    await walk('');
    return { folders };
  }

  it('loads the same casebook without listing folders one by one', async () => {
    const plain = sourceOver(files());
    const expected = await loadCasebook(plain.source);
    const plainListings = plain.fake.calls.filter(
      ([, o]) => o?.content && !o.format
    ).length;

    const fake = new FakeContents(files());
    const tree = await treeOf(fake, 'course/junobench');
    fake.calls.length = 0;
    const requested: string[] = [];
    const source = new ContentsCasebookSource({
      contents: fake as unknown as Contents.IManager,
      root: 'course/junobench',
      fetchTree: async root => {
        requested.push(root);
        return tree;
      }
    });
    const book = await loadCasebook(source);
    expect(book.cases).toEqual(expected.cases);
    expect(book.problems).toEqual(expected.problems);
    expect(requested).toEqual(['course/junobench']);
    const listings = fake.calls.filter(([, o]) => o?.content && !o.format);
    expect(plainListings).toBeGreaterThan(2);
    expect(listings).toEqual([]);
  });

  it.each([
    ['a server without the endpoint', () => Promise.reject(new Error('404'))],
    ['an answer of another shape', () => Promise.resolve({ folders: 3 })]
  ])('falls back to the Contents API for %s', async (_label, fetchTree) => {
    const fake = new FakeContents(files());
    const source = new ContentsCasebookSource({
      contents: fake as unknown as Contents.IManager,
      root: 'course/junobench',
      fetchTree
    });
    const book = await loadCasebook(source);
    expect(book.cases.map(c => [c.name, c.problems])).toEqual([
      ['pandas_1', []],
      ['numpy_1', []]
    ]);
  });

  it('keeps only well-formed entries of the tree', async () => {
    const source = new ContentsCasebookSource({
      contents: new FakeContents({}) as unknown as Contents.IManager,
      root: '',
      fetchTree: async () => ({
        folders: {
          '': [
            { name: 'ok.csv', type: 'file', size: 3 },
            { name: 'dir', type: 'directory' },
            { name: 7, type: 'file' },
            { name: 'odd', type: 'symlink' },
            null
          ]
        }
      })
    });
    expect(await source.list('')).toEqual([
      { name: 'ok.csv', type: 'file', size: 3 },
      { name: 'dir', type: 'directory' }
    ]);
  });
});
