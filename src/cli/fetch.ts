/**
 * `junobench fetch`: starts the one fetcher, `python -m jupyterlab_junobench
 * fetch --json-lines` (full clone or sparse copy), resolving selectors first.
 */
import { spawn } from 'child_process';
import { existsSync } from 'fs';
import * as path from 'path';
import { createInterface } from 'readline';
import { parseArgs } from 'util';

import type { ICase } from '../casebook/types';
import {
  describeErrorLine,
  describeFetch,
  describeProgressLine,
  describeSparse,
  summarise
} from './fetchText';
import type {
  ICaseSelectors,
  IFetcherLine,
  IFetcherSummary,
  IFetchSummary,
  ISparseResult
} from './fetchText';
import { loadLocalCasebook } from './verify';

export { describeFetch, describeSparse, summarise } from './fetchText';
export type {
  ICaseSelectors,
  IFetcherSummary,
  IFetchSummary,
  ISparseResult
} from './fetchText';

/** The record a sparse copy keeps in its `.git` folder (see jupyterlab_junobench/sparse.py). */
export const SPARSE_MARKER = 'junobench-fetch.json';

/** Where the dataset is published. */
export const DEFAULT_SOURCE =
  'https://huggingface.co/datasets/PELAB-LiU/JunoBench';

/** The usage lines of `fetch`. */
export const FETCH_USAGE = `  junobench fetch <dest> [--source URL_OR_PATH] [--timeout SECONDS] [--json]
                   [--cases a,b] [--library L]... [--notebook-specific]
                   [--root-cause C]... [--crash-type T]... [--stage S]... [--python PYTHON]
                   (default source: ${DEFAULT_SOURCE}; with --cases or a selector only the
                   descriptor files and the chosen case folders are fetched, and running it
                   again on the same <dest> adds cases or resumes an interrupted fetch)`;

/** What the fetch functions take. */
type FetchOptions = { dest: string; source?: string; python?: string } & {
  timeoutMs?: number;
  log?: (line: string) => void;
};

/** `junobench fetch <dest>`; resolves with the exit code. */
export async function fetchCommand(args: string[]): Promise<number> {
  const many = { type: 'string', multiple: true } as const;
  const { values: v, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...{ source: { type: 'string' }, python: { type: 'string' } },
      ...{ timeout: { type: 'string', default: '1800' } },
      ...{
        json: { type: 'boolean' },
        'notebook-specific': { type: 'boolean' }
      },
      ...{ cases: many, library: many, 'root-cause': many },
      ...{ 'crash-type': many, stage: many }
    }
  });
  const timeout = Number(v.timeout);
  if (positionals.length !== 1 || !(timeout > 0)) {
    throw new Error(
      positionals.length !== 1
        ? `expected one destination folder\nUsage:\n${FETCH_USAGE}`
        : `--timeout must be a positive number of seconds, not "${v.timeout}"`
    );
  }
  const selectors: ICaseSelectors = {
    cases: (v.cases ?? []).flatMap(c => c.split(',').map(n => n.trim())),
    ...{ library: v.library ?? [], rootCause: v['root-cause'] ?? [] },
    ...{ crashType: v['crash-type'] ?? [], pipelineStage: v.stage ?? [] },
    notebookSpecific: v['notebook-specific'] === true
  };
  selectors.cases = selectors.cases.filter(Boolean);
  const dest = positionals[0];
  const log = v.json ? undefined : (line: string) => console.log(line);
  const o = { dest, source: v.source, timeoutMs: timeout * 1000, log };
  const sparse = hasSelectors(selectors) || isSparseCopy(dest);
  const result = sparse
    ? await fetchSparse({ ...o, python: v.python, selectors })
    : await fetchDataset({ ...o, python: v.python });
  const text = sparse
    ? describeSparse(result as ISparseResult)
    : describeFetch(result);
  (v.json ? [JSON.stringify(result, null, 2)] : text).forEach(l =>
    console.log(l)
  );
  return 0;
}

/** Clone the whole dataset into `dest` (absent or empty) and summarise it; throws naming what is wrong. */
export async function fetchDataset(o: FetchOptions): Promise<IFetchSummary> {
  const args = [o.dest, '--source', o.source ?? DEFAULT_SOURCE];
  return summarise(await Private.run(o, args));
}

/** Whether any case was asked for (by name or by a selector). */
export function hasSelectors(s: ICaseSelectors): boolean {
  return s.cases.length > 0 || hasFacets(s);
}

/** Whether any selector reads the descriptor (everything but `--cases`). */
function hasFacets(s: ICaseSelectors): boolean {
  return (
    [s.library, s.rootCause, s.crashType, s.pipelineStage].some(
      l => l.length > 0
    ) || s.notebookSpecific
  );
}

/** Whether `dest` is a sparse copy (so a plain `fetch <dest>` resumes it). */
export function isSparseCopy(dest: string): boolean {
  return existsSync(path.join(path.resolve(dest), '.git', SPARSE_MARKER));
}

/** The names `--cases` gives plus every case matching all facet selectors; throws naming a label no case has. */
export function selectCases(
  cases: readonly ICase[],
  s: ICaseSelectors
): string[] {
  const chosen = new Set(s.cases);
  const facets: [string, string[], (c: ICase) => string][] = [
    ['--library', s.library, c => c.library],
    ['--root-cause', s.rootCause, c => c.rootCause],
    ['--crash-type', s.crashType, c => c.crashType],
    ['--stage', s.pipelineStage, c => c.pipelineStage]
  ];
  const key = (label: string) => label.trim().toLowerCase();
  const wanted = facets
    .filter(([, labels]) => labels.length > 0)
    .map(([flag, labels, value]) => {
      const known = new Map(cases.map(c => [key(value(c)), value(c)]));
      const unknown = labels.find(l => !known.has(key(l)));
      if (unknown !== undefined) {
        const there = [...new Set(known.values())].filter(Boolean).sort();
        throw new Error(
          `no case has ${flag} "${unknown}"; the descriptor's values are: ${there.join(', ')}`
        );
      }
      return { value, labels: new Set(labels.map(key)) };
    });
  if (hasFacets(s)) {
    cases
      .filter(c => !s.notebookSpecific || c.notebookSpecific)
      .filter(c => wanted.every(f => f.labels.has(key(f.value(c)))))
      .forEach(c => chosen.add(c.name));
  }
  return [...chosen].sort();
}

/** Fetch the descriptor files and only the chosen case folders; an existing copy gets the new cases, an interrupted one is resumed. */
export async function fetchSparse(
  o: FetchOptions & { selectors: ICaseSelectors }
): Promise<ISparseResult> {
  const s = o.selectors;
  const from = isSparseCopy(o.dest) ? o.source : (o.source ?? DEFAULT_SOURCE);
  const source = from === undefined ? [] : ['--source', from];
  let selected = [...new Set(s.cases)].sort();
  let notInSource: string[] = [];
  if (hasFacets(s)) {
    // The descriptor first (its files only), to resolve the selectors.
    const first = await Private.run(o, [o.dest, '--sparse', ...source]);
    const book = await loadLocalCasebook(first.casebook);
    const available = new Set(first.available);
    const chosen = selectCases(book.cases, s);
    notInSource = chosen.filter(n => !available.has(n) && !s.cases.includes(n));
    selected = chosen.filter(n => !notInSource.includes(n));
    if (selected.length === 0) {
      throw new Error(
        `no case of the descriptor matches the selectors${notInSource.length ? ` and has a folder in ${first.source} (matching, without a folder: ${notInSource.join(', ')})` : ''}.`
      );
    }
    o.log?.(`${selected.length} case(s) chosen: ${selected.join(', ')}`);
  }
  const cases = selected.length ? ['--cases', selected.join(',')] : [];
  const sparse = await Private.run(o, [
    o.dest,
    '--sparse',
    ...cases,
    ...source
  ]);
  return { ...(await summarise(sparse)), selected, notInSource, sparse };
}

/**
 * The Python with the jupyterlab_junobench package: `explicit` (--python), $JUNOBENCH_PYTHON, the activated venv's, else python3.
 */
export function packagePython(explicit?: string): string {
  const venv = `${process.env.VIRTUAL_ENV}/bin/python`;
  const found = process.env.VIRTUAL_ENV && existsSync(venv) ? venv : null;
  return explicit ?? process.env.JUNOBENCH_PYTHON ?? found ?? 'python3';
}

namespace Private {
  /** The Python that runs the fetcher. */
  function python(o: FetchOptions): string {
    return packagePython(o.python);
  }

  /** Run the fetcher with `args`; resolve with its summary, reject with its error. */
  export function run(
    o: FetchOptions,
    args: string[]
  ): Promise<IFetcherSummary> {
    const seconds = String((o.timeoutMs ?? 1800000) / 1000);
    const argv = `-m jupyterlab_junobench fetch --json-lines --timeout ${seconds}`;
    const child = spawn(python(o), [...argv.split(' '), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.env
    });
    let [err, shown, end] = ['', '', undefined as IFetcherLine | undefined];
    child.stderr.on('data', c => (err = (err + String(c)).slice(-2000)));
    createInterface({ input: child.stdout }).on('line', text => {
      const line = JSON.parse(text) as IFetcherLine;
      end = ['summary', 'error'].includes(line.event) ? line : end;
      const said = describeProgressLine(line);
      if (said && said !== shown) {
        o.log?.((shown = said));
      }
    });
    const hint = `it needs the jupyterlab_junobench Python package: activate the .venv made by scripts/setup.sh, or pass --python`;
    return new Promise((resolve, reject) => {
      const fail = (m: string) => reject(new Error(m));
      child.on('error', e =>
        fail(`cannot run ${python(o)} (${e.message}); ${hint}.`)
      );
      child.on('close', code => {
        if (end?.event === 'summary') {
          resolve(end as unknown as IFetcherSummary);
        } else if (end) {
          fail(describeErrorLine(end));
        } else {
          fail(
            `the fetcher stopped (exit code ${code}) without a result; ${hint} (${err.trim().split('\n').slice(-2).join(' ')})`
          );
        }
      });
    });
  }
}
