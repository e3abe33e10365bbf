/**
 * Why a fetch failed, as the codes with parameters the fetcher answers
 * (`FetchError` in jupyterlab_junobench/sparse.py: a failed job's `error` of
 * `GET /junobench/fetch-jobs/<id>`, the error line of `python -m
 * jupyterlab_junobench fetch --json-lines`), and the one renderer that words
 * them: translated in the panel, English in `junobench fetch`. The fetcher's
 * `message` is English for logs; it is shown only for a code this version
 * does not know. Pure logic.
 */
import type { NameProblem } from '../casebook/paths';
import { renderNameProblem } from '../casebook/paths';
import { english, readCoded } from '../i18n';
import type { Translate } from '../i18n';

/** Why a fetch failed, as a code with parameters. */
export type FetchJobProblem =
  /** A requested name cannot be a case name. */
  | { code: 'bad-case-name'; name: string; problem: NameProblem }
  /**
   * The source has no descriptor: it is not a JunoBench layout (a full clone
   * names the folder it `removed` the fetched files from).
   */
  | { code: 'not-junobench'; source: string; removed?: string }
  /** A full clone's descriptor has no `benchmark/` folder beside it; the fetched files were `removed`. */
  | {
      code: 'no-cases-folder';
      source: string;
      casebook: string;
      removed: string;
    }
  /** A full clone's descriptor `file` is a Git LFS pointer (git-lfs missing); the clone in `dest` is kept. */
  | { code: 'descriptor-pointer'; file: string; dest: string }
  /** The source has no folder for these cases (it has `available` under `folder`). */
  | {
      code: 'unknown-case';
      source: string;
      cases: string[];
      available: number;
      folder: string;
    }
  /** The source named does not exist (not a URL, and no such folder). */
  | { code: 'source-missing'; source: string }
  /** The copy was made from another source than the one named. */
  | { code: 'other-source'; dest: string; recorded: string; source: string }
  /** The folder is not a copy made by `junobench fetch`, and no source was named. */
  | { code: 'no-source'; dest: string; marker: string }
  /** Another fetch holds the copy's lock. */
  | { code: 'busy'; dest: string; lock: string }
  /** The destination exists and is not a folder. */
  | { code: 'dest-not-folder'; dest: string }
  /** The destination is a folder with files, and not a copy. */
  | { code: 'dest-not-empty'; dest: string }
  /** git is not installed. */
  | { code: 'no-git' }
  /** A git command failed; `detail` is git's own last lines. */
  | { code: 'git-failed'; command: string; folder: string; detail: string }
  /** A git step got no answer in time (`step`: the git command, e.g. `git fetch <url>`; not translated). */
  | { code: 'timeout'; step: string; seconds: number }
  /** A git step (its command) did not finish in time. */
  | { code: 'unfinished'; step: string; seconds: number }
  /** A git step (its command) that talks to the source failed; `detail` is git's own words. */
  | { code: 'source-unreachable'; step: string; detail: string }
  /** The fetch was interrupted (Ctrl-C); the same command resumes it in `dest`. */
  | { code: 'interrupted'; dest: string }
  /** Anything else went wrong on the server; `detail` is the error's own text. */
  | { code: 'unexpected'; detail: string };

/** Every code (a missing one fails to compile). */
const CODES: Record<FetchJobProblem['code'], true> = {
  'bad-case-name': true,
  'not-junobench': true,
  'no-cases-folder': true,
  'descriptor-pointer': true,
  'unknown-case': true,
  'source-missing': true,
  'other-source': true,
  'no-source': true,
  busy: true,
  'dest-not-folder': true,
  'dest-not-empty': true,
  'no-git': true,
  'git-failed': true,
  timeout: true,
  unfinished: true,
  'source-unreachable': true,
  interrupted: true,
  unexpected: true
};

/** Every code of the family, for the table specs that must cover them. */
export const FETCH_JOB_PROBLEM_CODES = Object.keys(CODES) as ReadonlyArray<
  FetchJobProblem['code']
>;

/**
 * What the fetcher sends, `{"code", ...params, "message"}` (a failure here, a
 * progress in ./fetchProgress.ts), as one of `codes` with its parameters (its
 * English `message` left out), or null when it carries no code of `codes`.
 */
export function readFetcherCode<T extends { code: string }>(
  value: unknown,
  codes: Record<T['code'], true>
): T | null {
  return readCoded(value, codes);
}

/**
 * A failed job's code with its parameters (its English `message` left out),
 * or null when it carries no code this version knows.
 */
export function readFetchJobProblem(value: unknown): FetchJobProblem | null {
  return readFetcherCode<FetchJobProblem>(value, CODES);
}

/**
 * One sentence for why a fetch failed (translated when `__` is).
 */
export function renderFetchJobProblem(
  problem: FetchJobProblem,
  __: Translate = english
): string {
  switch (problem.code) {
    case 'bad-case-name':
      return __(
        "%1 is not a case name: %2 (a case name is one folder name of letters, digits, '_', '.' and '-').",
        JSON.stringify(problem.name),
        renderNameProblem(problem.problem, __)
      );
    case 'not-junobench':
      return problem.removed === undefined
        ? __(
            '%1 is not a JunoBench layout: no benchmark_desc.xlsx at its root or under JunoBench/.',
            problem.source
          )
        : __(
            '%1 is not a JunoBench layout: no benchmark_desc.xlsx at its root or under JunoBench/. The fetched files were removed from %2.',
            problem.source,
            problem.removed
          );
    case 'no-cases-folder':
      return __(
        '%1 is not a JunoBench layout: %2 has benchmark_desc.xlsx but no benchmark/ folder of cases. The fetched files were removed from %3.',
        problem.source,
        problem.casebook,
        problem.removed
      );
    case 'descriptor-pointer':
      return __(
        '%1 is a Git LFS pointer, not the spreadsheet: install git-lfs and run `git lfs pull` in %2, or fetch again with git-lfs installed.',
        problem.file,
        problem.dest
      );
    case 'unknown-case':
      return __(
        '%1 has no case folder %2 (it has %3 case folders under %4).',
        problem.source,
        problem.cases.join(', '),
        problem.available,
        problem.folder
      );
    case 'source-missing':
      return __(
        'the source %1 does not exist (not a URL, and no such local folder).',
        problem.source
      );
    case 'other-source':
      return __(
        '%1 is a copy of %2, not of %3: fetch into another folder, or leave out the source to add cases to this copy.',
        problem.dest,
        problem.recorded,
        problem.source
      );
    case 'no-source':
      return __(
        '%1 is not a copy made by junobench fetch (no %2): give the source to fetch from.',
        problem.dest,
        problem.marker
      );
    case 'busy':
      return __(
        'another fetch is running in %1 (lock %2); wait for it to finish.',
        problem.dest,
        problem.lock
      );
    case 'dest-not-folder':
      return __(
        '%1 exists and is not a folder: choose another destination.',
        problem.dest
      );
    case 'dest-not-empty':
      return __(
        '%1 exists and is not empty (and is not a copy made by junobench fetch): choose a new folder (or empty this one) to fetch into.',
        problem.dest
      );
    case 'no-git':
      return __(
        'git is not installed (or not on PATH): fetching the dataset uses git; install git (e.g. apt-get install git) and try again.'
      );
    case 'git-failed':
      return __(
        '%1 failed in %2: %3',
        problem.command,
        problem.folder,
        problem.detail
      );
    case 'timeout':
      return __(
        '%1 got no answer within %2 s; the source may be unreachable (there may be no network here).',
        problem.step,
        problem.seconds
      );
    case 'unfinished':
      return __(
        '%1 did not finish within %2 s.',
        problem.step,
        problem.seconds
      );
    case 'source-unreachable':
      return __(
        '%1 failed (%2). The source may be unreachable or not a git repository (there may be no network here; check the URL, or give a local copy as the source).',
        problem.step,
        problem.detail
      );
    case 'interrupted':
      return __(
        'interrupted; run the same command again to resume in %1.',
        problem.dest
      );
    case 'unexpected':
      return __('the server failed unexpectedly: %1', problem.detail);
  }
}
