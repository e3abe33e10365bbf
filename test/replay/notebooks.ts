/**
 * Builders for small hand-made notebooks used by the replay tests.
 */

import { readFileSync } from 'fs';
import * as path from 'path';

import type { INbCell, INbOutput, INotebookJSON } from '../../src/replay';

/** The bundled demo casebook's case folders. */
export const DEMO_BENCHMARK = path.resolve(
  __dirname,
  '../../demo/casebook/benchmark'
);

/** A demo case's reproduced or fixed notebook, read afresh. */
export function demoNotebook(
  name: string,
  kind: 'reproduced' | 'fixed'
): INotebookJSON {
  return JSON.parse(
    readFileSync(
      path.join(DEMO_BENCHMARK, name, `${name}_${kind}.ipynb`),
      'utf8'
    )
  ) as INotebookJSON;
}

/** A code cell with an execution count (or none) and outputs. */
export function code(
  source: string | string[],
  count: number | null = null,
  outputs: INbOutput[] = []
): INbCell {
  return { cell_type: 'code', source, execution_count: count, outputs };
}

/** A markdown cell. */
export function md(source: string): INbCell {
  return { cell_type: 'markdown', source };
}

/** An error output as IPython records it. */
export function error(
  ename: string,
  evalue: string,
  traceback: string[] = []
): INbOutput {
  return { output_type: 'error', ename, evalue, traceback };
}

/** A stream output. */
export function stream(text: string): INbOutput {
  return { output_type: 'stream', name: 'stdout', text };
}

/** A notebook from cells. */
export function notebook(...cells: INbCell[]): INotebookJSON {
  return { cells, metadata: {}, nbformat: 4, nbformat_minor: 5 };
}
