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

import type { ICasebook } from '../casebook/types';
import { loadLocalCasebook } from './verify';

/** Where the dataset is published. */
export const DEFAULT_SOURCE =
  'https://huggingface.co/datasets/PELAB-LiU/JunoBench';

/** The usage lines of `fetch`. */
export const FETCH_USAGE = `  junobench fetch <dest> [--source URL_OR_PATH] [--timeout SECONDS] [--json]
                   (default source: ${DEFAULT_SOURCE})`;

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
}

/**
 * `junobench fetch <dest>`; resolves with the exit code.
 */
export async function fetchCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      source: { type: 'string', default: DEFAULT_SOURCE },
      timeout: { type: 'string', default: '1800' },
      json: { type: 'boolean', default: false }
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
  const summary = await fetchDataset({
    dest: positionals[0],
    source: values.source,
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
    )
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
  lines.push(`Verify it with: junobench verify ${s.casebook}`);
  return lines;
}

namespace Private {
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
