/**
 * The import graph of src/ has no cycles, type-only imports and re-exports
 * included: layers point one way, and a module can be understood (and moved)
 * without the ones that use it.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const SRC = path.resolve(__dirname, '../src');

/** Every TypeScript file under a folder. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

/** The src/ files a file imports or re-exports from (relative specifiers only). */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map(f => f.fileName)
    .filter(s => s.startsWith('.'))
    .map(s => {
      const base = path.resolve(path.dirname(file), s);
      return [`${base}.ts`, path.join(base, 'index.ts')].find(c =>
        fs.existsSync(c)
      );
    })
    .filter((p): p is string => p !== undefined);
}

/** The strongly connected components of more than one module (or a self-import): Tarjan. */
function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) {
        cycles.push(component.sort());
      }
    }
  };
  for (const v of graph.keys()) {
    if (!index.has(v)) {
      visit(v);
    }
  }
  return cycles;
}

describe('import cycles', () => {
  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']]
    ]);
    expect(importCycles(graph)).toEqual([['a', 'b', 'c']]);
    expect(importCycles(new Map([['a', ['a']]]))).toEqual([['a']]);
    expect(importCycles(new Map([['a', ['b']]]))).toEqual([]);
  });

  it('src/ has none, type-only imports included', () => {
    const files = sources(SRC);
    const graph = new Map(files.map(f => [f, importsOf(f)]));
    const cycles = importCycles(graph).map(c =>
      c.map(f => path.relative(SRC, f))
    );
    expect(cycles).toEqual([]);
  });
});
