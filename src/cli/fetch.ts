/**
 * `junobench fetch`: clone the JunoBench dataset (a Hugging Face dataset is a
 * git repository) into a folder, check that it is laid out like JunoBench and
 * say which cases have their notebooks and input data.
 */
import { spawn, spawnSync } from 'child_process';
import {
  existsSync,
  openSync,
  readSync,
  closeSync,
  readdirSync,
  rmSync,
  statSync
} from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { parseArgs } from 'util';

import type { ICase, ICasebook } from '../casebook/types';
import { loadLocalCasebook } from './verify';

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

/** What `--library`, `--root-cause`, … select, resolved against the descriptor. */
export interface ICaseSelectors {
  /** Case names given with `--cases`. */
  cases: string[];
  /** Libraries (`sklearn`, `NBspecific`, …; case-insensitive). */
  library: string[];
  /** Root-cause labels (case-insensitive). */
  rootCause: string[];
  /** Refined crash-type labels (case-insensitive). */
  crashType: string[];
  /** ML pipeline stages (case-insensitive). */
  pipelineStage: string[];
  /** Only notebook-specific cases. */
  notebookSpecific: boolean;
}

/** What a sparse fetch left, as `python -m jupyterlab_junobench fetch --json` reports it. */
export interface ISparseSummary {
  /** The copy. */
  dest: string;
  /** Its source. */
  source: string;
  /** The commit checked out. */
  commit: string;
  /** The casebook root inside the copy. */
  casebook: string;
  /** Case folders checked out. */
  cases: string[];
  /** Cases this run added. */
  added: string[];
  /** Case folders the source has. */
  available: string[];
  /** Whether an existing copy was continued. */
  resumed: boolean;
  /** Whether git-lfs was available. */
  lfs: boolean;
  /** Files left as Git LFS pointers. */
  lfs_pointers: string[];
  /** Git objects in the copy and their bytes. */
  objects: number;
  /** Bytes of the git objects. */
  object_bytes: number;
  /** Git LFS objects in the copy. */
  lfs_objects: number;
  /** Bytes of the Git LFS objects. */
  lfs_bytes: number;
  /** Bytes on disk of the whole copy. */
  disk_bytes: number;
  /** Seconds the fetch took. */
  seconds: number;
}

/** What a fetch brought. */
export interface IFetchSummary {
  /** The source cloned. */
  source: string;
  /** The folder cloned into. */
  dest: string;
  /** The casebook root inside it (dest or dest/JunoBench). */
  casebook: string;
  /** Whether git-lfs was available for the large files. */
  lfs: boolean;
  /** Files left as Git LFS pointers (casebook-relative), when git-lfs was missing. */
  lfsPointers: string[];
  /** Number of cases. */
  cases: number;
  /** Cases with a reproduced notebook. */
  withReproduced: number;
  /** Cases with a fixed notebook. */
  withFixed: number;
  /** Names of the cases with input data files. */
  withData: string[];
  /** Names of the cases without input data files. */
  withoutData: string[];
  /** Loader problems (errors and warnings), one line each. */
  problems: string[];
  /** Bytes on disk of the fetched folder (work tree and .git). */
  diskBytes: number;
}

/**
 * `junobench fetch <dest>`; resolves with the exit code.
 */
export async function fetchCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      source: { type: 'string' },
      timeout: { type: 'string', default: '1800' },
      json: { type: 'boolean', default: false },
      cases: { type: 'string', multiple: true },
      library: { type: 'string', multiple: true },
      'root-cause': { type: 'string', multiple: true },
      'crash-type': { type: 'string', multiple: true },
      stage: { type: 'string', multiple: true },
      'notebook-specific': { type: 'boolean', default: false },
      python: { type: 'string' }
    }
  });
  if (positionals.length !== 1) {
    throw new Error(`expected one destination folder\nUsage:\n${FETCH_USAGE}`);
  }
  const timeout = Number(values.timeout);
  if (!(timeout > 0)) {
    throw new Error(
      `--timeout must be a positive number of seconds, not "${values.timeout}"`
    );
  }
  const selectors: ICaseSelectors = {
    cases: (values.cases ?? [])
      .flatMap(v => v.split(','))
      .map(v => v.trim())
      .filter(Boolean),
    library: values.library ?? [],
    rootCause: values['root-cause'] ?? [],
    crashType: values['crash-type'] ?? [],
    pipelineStage: values.stage ?? [],
    notebookSpecific: values['notebook-specific'] ?? false
  };
  if (hasSelectors(selectors) || isSparseCopy(positionals[0])) {
    const result = await fetchSparse({
      dest: positionals[0],
      source: values.source,
      selectors,
      timeoutMs: timeout * 1000,
      python: values.python,
      log: values.json ? () => undefined : line => console.log(line)
    });
    if (values.json) {
      console.log(JSON.stringify(result, null, 2));
    } else {
      for (const line of describeSparse(result)) {
        console.log(line);
      }
    }
    return 0;
  }
  const summary = await fetchDataset({
    dest: positionals[0],
    source: values.source ?? DEFAULT_SOURCE,
    timeoutMs: timeout * 1000,
    log: values.json ? () => undefined : line => console.log(line)
  });
  if (values.json) {
    console.log(JSON.stringify(summary, null, 2));
  } else {
    for (const line of describeFetch(summary)) {
      console.log(line);
    }
  }
  return 0;
}

/**
 * Clone `source` into `dest` (which must not exist or be empty), validate the
 * JunoBench layout and summarise it; throws a sentence naming what is wrong.
 */
export async function fetchDataset(options: {
  dest: string;
  source?: string;
  timeoutMs?: number;
  log?: (line: string) => void;
}): Promise<IFetchSummary> {
  const log = options.log ?? (() => undefined);
  const source = options.source ?? DEFAULT_SOURCE;
  const dest = path.resolve(options.dest);
  Private.requireGit();
  const existed = Private.checkDest(dest);
  const url = Private.cloneUrl(source);
  const lfs = Private.hasGitLfs();
  if (!lfs) {
    log(
      'warning: git-lfs is not installed: the small files are cloned, but large files (spreadsheets, data) stay Git LFS pointer files. Install git-lfs, then run `git lfs pull` in the destination.'
    );
  }
  log(`Cloning ${url} into ${dest} …`);
  try {
    await Private.clone(url, dest, lfs, options.timeoutMs ?? 1800000);
  } catch (reason) {
    Private.cleanUp(dest, existed);
    throw reason;
  }
  if (lfs) {
    // git-lfs may be installed without its filters configured (no `git lfs
    // install`): fetch the large files explicitly; pointers are reported below.
    const pulled = spawnSync('git', ['-C', dest, 'lfs', 'pull'], {
      encoding: 'utf8',
      env: process.env,
      timeout: options.timeoutMs ?? 1800000
    });
    if (pulled.status !== 0) {
      log(
        `warning: git lfs pull failed in ${dest} (${(pulled.stderr || String(pulled.error ?? '')).trim()}); large files may be Git LFS pointers.`
      );
    }
  }
  try {
    return await summarise(dest, source, lfs);
  } catch (reason) {
    const pointer = /Git LFS pointer/.test((reason as Error).message);
    if (pointer) {
      // The clone is good; only its large files are missing.
      throw reason;
    }
    Private.cleanUp(dest, existed);
    throw new Error(
      `${(reason as Error).message} The fetched files were removed from ${dest}.`
    );
  }
}

/** What `fetchSparse` resolves with: the copy's summary and what was chosen. */
export interface ISparseResult extends IFetchSummary {
  /** The cases the selectors and `--cases` chose (all of them fetched). */
  selected: string[];
  /** Chosen by the descriptor but without a folder in the source. */
  notInSource: string[];
  /** The sparse fetch's own report. */
  sparse: ISparseSummary;
}

/**
 * Whether any case was asked for (by name or by a selector).
 */
export function hasSelectors(s: ICaseSelectors): boolean {
  return (
    s.cases.length > 0 ||
    s.library.length > 0 ||
    s.rootCause.length > 0 ||
    s.crashType.length > 0 ||
    s.pipelineStage.length > 0 ||
    s.notebookSpecific
  );
}

/**
 * Whether `dest` is a copy made by a sparse fetch (so a plain `fetch <dest>`
 * resumes it instead of refusing a non-empty folder).
 */
export function isSparseCopy(dest: string): boolean {
  return existsSync(path.join(path.resolve(dest), '.git', SPARSE_MARKER));
}

/**
 * Resolve selectors against the descriptor's cases: names from `--cases` as
 * given, plus every case matching all the facet selectors; throws naming a
 * label that no case has (with the labels there are).
 */
export function selectCases(
  cases: readonly ICase[],
  s: ICaseSelectors
): string[] {
  const chosen = new Set(s.cases);
  const facets: [keyof ICaseSelectors, string[], (c: ICase) => string][] = [
    ['library', s.library, c => c.library],
    ['rootCause', s.rootCause, c => c.rootCause],
    ['crashType', s.crashType, c => c.crashType],
    ['pipelineStage', s.pipelineStage, c => c.pipelineStage]
  ];
  const byFacet = facets.filter(([, wanted]) => wanted.length > 0);
  if (byFacet.length === 0 && !s.notebookSpecific) {
    return [...chosen].sort();
  }
  const wantedSets = byFacet.map(([key, wanted, value]) => {
    const known = new Map(
      cases.map(c => [value(c).trim().toLowerCase(), value(c)])
    );
    for (const w of wanted) {
      if (!known.has(w.trim().toLowerCase())) {
        const flag = Private.FLAGS[key as string];
        throw new Error(
          `no case has ${flag} "${w}"; the descriptor's values are: ${[...new Set(known.values())].filter(Boolean).sort().join(', ')}`
        );
      }
    }
    return {
      value,
      wanted: new Set(wanted.map(w => w.trim().toLowerCase()))
    };
  });
  for (const c of cases) {
    if (s.notebookSpecific && !c.notebookSpecific) {
      continue;
    }
    if (wantedSets.every(f => f.wanted.has(f.value(c).trim().toLowerCase()))) {
      chosen.add(c.name);
    }
  }
  return [...chosen].sort();
}

/**
 * Fetch the descriptor files and only the chosen case folders (a git partial
 * clone with a sparse checkout, by `python -m jupyterlab_junobench fetch`,
 * the same code as the server's "Fetch this case"); an existing copy gets the
 * new cases, an interrupted one is resumed.
 */
export async function fetchSparse(options: {
  dest: string;
  source?: string;
  selectors: ICaseSelectors;
  timeoutMs?: number;
  python?: string;
  log?: (line: string) => void;
}): Promise<ISparseResult> {
  const log = options.log ?? (() => undefined);
  const dest = path.resolve(options.dest);
  const existing = isSparseCopy(dest);
  const source = existing ? options.source : (options.source ?? DEFAULT_SOURCE);
  const python =
    options.python ?? process.env.JUNOBENCH_PYTHON ?? Private.defaultPython();
  const timeout = String((options.timeoutMs ?? 1800000) / 1000);
  const s = options.selectors;
  const byFacet =
    s.library.length > 0 ||
    s.rootCause.length > 0 ||
    s.crashType.length > 0 ||
    s.pipelineStage.length > 0 ||
    s.notebookSpecific;
  let selected = [...new Set(s.cases)].sort();
  let notInSource: string[] = [];
  if (byFacet) {
    // The descriptor first (its files only), to resolve the selectors.
    const first = await Private.runSparse(python, dest, source, [], timeout);
    const book = await loadLocalCasebook(first.casebook);
    selected = selectCases(book.cases, s);
    const available = new Set(first.available);
    notInSource = selected.filter(
      n => !available.has(n) && !s.cases.includes(n)
    );
    selected = selected.filter(n => !notInSource.includes(n));
    if (selected.length === 0) {
      throw new Error(
        `no case of the descriptor matches the selectors${notInSource.length ? ` and has a folder in ${first.source} (matching, without a folder: ${notInSource.join(', ')})` : ''}.`
      );
    }
    log(`${selected.length} case(s) chosen: ${selected.join(', ')}`);
  }
  const sparse = await Private.runSparse(
    python,
    dest,
    byFacet ? undefined : existing ? options.source : source,
    selected,
    timeout
  );
  const summary = await summarise(dest, sparse.source, sparse.lfs);
  return { ...summary, selected, notInSource, sparse };
}

/**
 * The sparse fetch's summary for people.
 */
export function describeSparse(r: ISparseResult): string[] {
  const s = r.sparse;
  const lines = [
    `${s.resumed ? 'Updated' : 'Fetched'} ${s.source} into ${s.dest} (commit ${s.commit.slice(0, 12)})`,
    `casebook: ${r.casebook}`,
    `case folders here: ${s.cases.length} of the ${s.available.length} in the source${s.added.length ? `; added: ${s.added.join(', ')}` : ''}`
  ];
  if (r.notInSource.length) {
    lines.push(
      `chosen but without a folder in the source: ${r.notInSource.join(', ')}`
    );
  }
  if (r.withoutData.length) {
    const here = new Set(s.cases);
    const missing = r.withoutData.filter(n => here.has(n));
    if (missing.length) {
      lines.push(`without data files: ${missing.join(', ')}`);
    }
  }
  if (s.lfs_pointers.length) {
    lines.push(
      `${s.lfs_pointers.length} file(s) are Git LFS pointers, not their content (${s.lfs ? 'git-lfs could not fetch them' : 'git-lfs is not installed'}); install git-lfs and run the same command again.`
    );
  }
  lines.push(
    `transferred into the copy: ${s.objects} git objects (${Private.bytes(s.object_bytes)}), ${s.lfs_objects} large files (${Private.bytes(s.lfs_bytes)})`,
    `disk used: ${Private.bytes(s.disk_bytes)} in ${s.seconds.toFixed(1)} s`,
    `Add cases with: junobench fetch ${s.dest} --cases <name,...>`,
    `Verify it with: junobench verify ${r.casebook}`
  );
  return lines;
}

/**
 * Validate a fetched tree and summarise its cases.
 */
export async function summarise(
  dest: string,
  source: string,
  lfs: boolean
): Promise<IFetchSummary> {
  const casebook = Private.casebookRoot(dest);
  if (!casebook) {
    throw new Error(
      `${source} is not a JunoBench layout: no benchmark_desc.xlsx at the root of the clone or under JunoBench/.`
    );
  }
  const pointers = Private.lfsPointers(casebook);
  if (pointers.includes('benchmark_desc.xlsx')) {
    throw new Error(
      `${path.join(casebook, 'benchmark_desc.xlsx')} is a Git LFS pointer, not the spreadsheet: install git-lfs and run \`git lfs pull\` in ${dest}, or fetch again with git-lfs installed.`
    );
  }
  if (!Private.isDir(path.join(casebook, 'benchmark'))) {
    throw new Error(
      `${source} is not a JunoBench layout: ${casebook} has benchmark_desc.xlsx but no benchmark/ folder of cases.`
    );
  }
  const book: ICasebook = await loadLocalCasebook(casebook);
  const pointerSet = new Set(pointers);
  const withData: string[] = [];
  const withoutData: string[] = [];
  for (const c of book.cases) {
    const real = c.files.data.filter(f => !pointerSet.has(f));
    (real.length ? withData : withoutData).push(c.name);
  }
  return {
    source,
    dest,
    casebook,
    lfs,
    lfsPointers: pointers,
    cases: book.cases.length,
    withReproduced: book.cases.filter(c => c.files.reproduced).length,
    withFixed: book.cases.filter(c => c.files.fixed).length,
    withData,
    withoutData,
    problems: book.problems.map(
      p =>
        `${p.severity}: ${p.file}${p.case ? ` (${p.case})` : ''}: ${p.message}`
    ),
    diskBytes: Private.diskBytes(dest)
  };
}

/**
 * The summary for people.
 */
export function describeFetch(s: IFetchSummary): string[] {
  const lines = [
    `Fetched ${s.source} into ${s.dest}`,
    `casebook: ${s.casebook}`,
    `${s.cases} case(s): ${s.withReproduced} with a reproduced notebook, ${s.withFixed} with a fixed notebook, ${s.withData.length} with input data files`
  ];
  if (s.withData.length) {
    lines.push(`with data: ${s.withData.join(', ')}`);
  }
  if (s.withoutData.length) {
    lines.push(`without data: ${s.withoutData.join(', ')}`);
  }
  if (s.lfsPointers.length) {
    lines.push(
      `${s.lfsPointers.length} file(s) are Git LFS pointers, not their content (git-lfs ${s.lfs ? 'did not fetch them' : 'is not installed'}); run \`git lfs pull\` in ${s.dest}.`
    );
  }
  for (const p of s.problems) {
    lines.push(p);
  }
  lines.push(`disk used: ${Private.bytes(s.diskBytes)}`);
  lines.push(`Verify it with: junobench verify ${s.casebook}`);
  return lines;
}

namespace Private {
  /** The command-line flag of each selector, for messages. */
  export const FLAGS: Record<string, string> = {
    library: '--library',
    rootCause: '--root-cause',
    crashType: '--crash-type',
    pipelineStage: '--stage'
  };

  /**
   * The Python that runs the sparse fetch: the activated virtual environment's,
   * else `python3`.
   */
  export function defaultPython(): string {
    const venv = process.env.VIRTUAL_ENV;
    if (venv) {
      const candidate = path.join(venv, 'bin', 'python');
      if (existsSync(candidate)) {
        return candidate;
      }
    }
    return 'python3';
  }

  /**
   * Run `python -m jupyterlab_junobench fetch` with the terminal as its
   * stderr (so its progress bar draws there); resolves with its JSON summary.
   */
  export function runSparse(
    python: string,
    dest: string,
    source: string | undefined,
    cases: string[],
    timeout: string
  ): Promise<ISparseSummary> {
    const args = [
      '-m',
      'jupyterlab_junobench',
      'fetch',
      dest,
      '--json',
      '--timeout',
      timeout
    ];
    if (source !== undefined) {
      args.push('--source', source);
    }
    if (cases.length) {
      args.push('--cases', cases.join(','));
    }
    return new Promise((resolve, reject) => {
      const child = spawn(python, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: process.env
      });
      let out = '';
      let err = '';
      child.stdout.on('data', chunk => (out += String(chunk)));
      child.stderr.on('data', chunk => {
        const text = String(chunk);
        err = (err + text).slice(-8000);
        // Progress goes on to the person watching; the error line becomes
        // this command's own message.
        const shown = text.replace(/^junobench fetch: .*\n?/gm, '');
        if (shown) {
          process.stderr.write(shown);
        }
      });
      child.on('error', error =>
        reject(
          new Error(
            `cannot run ${python} for the sparse fetch (${error.message}); it needs the jupyterlab_junobench Python package: activate the .venv made by scripts/setup.sh, or pass --python.`
          )
        )
      );
      child.on('exit', code => {
        if (code === 0) {
          try {
            resolve(JSON.parse(out) as ISparseSummary);
          } catch {
            reject(new Error(`the sparse fetch printed no summary: ${out}`));
          }
          return;
        }
        if (/No module named jupyterlab_junobench/.test(err)) {
          reject(
            new Error(
              `${python} cannot import jupyterlab_junobench, which does the sparse fetch: activate the .venv made by scripts/setup.sh, or pass --python with a Python that has it.`
            )
          );
          return;
        }
        const said = err
          .split('\n')
          .filter(l => l.startsWith('junobench fetch: '))
          .map(l => l.slice('junobench fetch: '.length))
          .join(' ');
        reject(
          new Error(
            said ||
              (code === 130
                ? `interrupted; run the same command again to resume in ${dest}.`
                : `the sparse fetch failed (exit code ${code}): ${err.trim().split('\n').slice(-3).join(' ')}`)
          )
        );
      });
    });
  }

  /**
   * Bytes of the files under a folder, `.git` included (symbolic links not followed).
   */
  export function diskBytes(root: string): number {
    let total = 0;
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          walk(full);
        } else if (entry.isFile()) {
          total += statSync(full).size;
        }
      }
    };
    walk(root);
    return total;
  }

  /**
   * A size for people.
   */
  export function bytes(n: number): string {
    if (n < 1000) {
      return `${n} B`;
    }
    const units = ['kB', 'MB', 'GB'];
    let size = n / 1000;
    let unit = 0;
    while (size >= 1000 && unit < units.length - 1) {
      size /= 1000;
      unit++;
    }
    return `${size.toFixed(1)} ${units[unit]}`;
  }

  /** The first bytes of a Git LFS pointer file. */
  const LFS_POINTER = 'version https://git-lfs.github.com/spec/';

  /**
   * Throw unless git runs.
   */
  export function requireGit(): void {
    const r = spawnSync('git', ['--version'], {
      encoding: 'utf8',
      env: process.env
    });
    if (r.error || r.status !== 0) {
      throw new Error(
        'git is not installed (or not on PATH): fetching the dataset clones its git repository; install git (e.g. apt-get install git) and try again.'
      );
    }
  }

  /**
   * Whether git-lfs is installed.
   */
  export function hasGitLfs(): boolean {
    const r = spawnSync('git', ['lfs', 'version'], {
      encoding: 'utf8',
      env: process.env
    });
    return !r.error && r.status === 0;
  }

  /**
   * Throw when the destination is a file or a non-empty folder; returns
   * whether it existed (as an empty folder).
   */
  export function checkDest(dest: string): boolean {
    if (!existsSync(dest)) {
      return false;
    }
    if (!isDir(dest)) {
      throw new Error(
        `${dest} exists and is not a folder: choose another destination.`
      );
    }
    if (readdirSync(dest).length > 0) {
      throw new Error(
        `${dest} exists and is not empty: choose a new folder (or empty this one) to fetch into.`
      );
    }
    return true;
  }

  /**
   * The URL git clones: URLs as given, local paths as file:// URLs (so that
   * `--depth 1` applies); a local path that does not exist is an error.
   */
  export function cloneUrl(source: string): string {
    if (
      /^[a-z][a-z0-9+.-]*:\/\//i.test(source) ||
      /^[^/]+@[^/]+:/.test(source)
    ) {
      return source;
    }
    const local = path.resolve(source);
    if (!existsSync(local)) {
      throw new Error(
        `the source ${source} does not exist (not a URL, and no such local folder).`
      );
    }
    return pathToFileURL(local).href;
  }

  /**
   * `git clone --depth 1`; rejects with git's reason and a hint.
   */
  export function clone(
    url: string,
    dest: string,
    lfs: boolean,
    timeoutMs: number
  ): Promise<void> {
    const config = lfs
      ? []
      : // Without git-lfs, keep pointer files instead of failing on a
        // filter that a global configuration may require.
        [
          '-c',
          'filter.lfs.smudge=',
          '-c',
          'filter.lfs.process=',
          '-c',
          'filter.lfs.required=false'
        ];
    const args = [...config, 'clone', '--depth', '1', '--quiet', url, dest];
    return new Promise((resolve, reject) => {
      const child = spawn('git', args, {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: {
          ...process.env,
          GIT_TERMINAL_PROMPT: '0',
          ...(lfs ? {} : { GIT_LFS_SKIP_SMUDGE: '1' })
        }
      });
      let stderr = '';
      child.stderr?.on('data', chunk => {
        stderr = (stderr + String(chunk)).slice(-4000);
      });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new Error(
            `cannot fetch ${url}: no answer within ${timeoutMs / 1000} s; the source may be unreachable (there may be no network here).`
          )
        );
      }, timeoutMs);
      child.on('error', error => {
        clearTimeout(timer);
        reject(new Error(`cannot run git: ${error.message}`));
      });
      child.on('exit', code => {
        clearTimeout(timer);
        if (code === 0) {
          resolve();
          return;
        }
        const said = stderr
          .trim()
          .split('\n')
          .filter(Boolean)
          .slice(-3)
          .join(' ');
        reject(
          new Error(
            `cannot fetch ${url}: git clone failed (${said || `exit code ${code}`}). The source may be unreachable or not a git repository (there may be no network here; check the URL, or pass --source with a local copy).`
          )
        );
      });
    });
  }

  /**
   * Remove what a failed fetch left, keeping a destination that existed empty.
   */
  export function cleanUp(dest: string, existed: boolean): void {
    if (!existsSync(dest)) {
      return;
    }
    if (existed) {
      for (const entry of readdirSync(dest)) {
        rmSync(path.join(dest, entry), { recursive: true, force: true });
      }
    } else {
      rmSync(dest, { recursive: true, force: true });
    }
  }

  /**
   * The casebook root inside a clone: the clone itself or its JunoBench/ folder.
   */
  export function casebookRoot(dest: string): string | null {
    for (const root of [dest, path.join(dest, 'JunoBench')]) {
      if (existsSync(path.join(root, 'benchmark_desc.xlsx'))) {
        return root;
      }
    }
    return null;
  }

  /**
   * Whether a path is a folder.
   */
  export function isDir(p: string): boolean {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  }

  /**
   * Casebook-relative POSIX paths of the files that are Git LFS pointers.
   */
  export function lfsPointers(root: string): string[] {
    const found: string[] = [];
    const walk = (dir: string, rel: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.name === '.git') {
          continue;
        }
        const full = path.join(dir, entry.name);
        const relPath = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          walk(full, relPath);
        } else if (entry.isFile() && isPointer(full)) {
          found.push(relPath);
        }
      }
    };
    walk(root, '');
    return found.sort();
  }

  /**
   * Whether a file starts like a Git LFS pointer (they are under 1 KB).
   */
  function isPointer(file: string): boolean {
    if (statSync(file).size > 1024) {
      return false;
    }
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(LFS_POINTER.length);
      const n = readSync(fd, buffer, 0, buffer.length, 0);
      return buffer.toString('utf8', 0, n) === LFS_POINTER;
    } finally {
      closeSync(fd);
    }
  }
}
