/**
 * What a running fetch is doing, as the codes with parameters the fetcher
 * reports (`Progress` in jupyterlab_junobench/sparse.py: a fetch job's
 * `progress` in `GET /junobench/fetch-jobs/<id>`, the progress and warning
 * lines of `python -m jupyterlab_junobench fetch --json-lines`), and the one
 * renderer that words them: translated in the panel, English in
 * `junobench fetch`. The fetcher's `message` is English for logs. Pure logic.
 */
import { english } from '../i18n';
import type { Translate } from '../i18n';
import {
  readFetchJobProblem,
  readFetcherCode,
  renderFetchJobProblem
} from './fetchProblems';
import type { FetchJobProblem } from './fetchProblems';

/** What a fetch is doing, or warns of, as a code with parameters. */
export type FetchProgress =
  /** Fetching the newest commit's folder listing (no file contents) from `source`. */
  | { code: 'fetch-list'; source: string }
  /** git's own steps, each with its percentage beside it. */
  | { code: 'receiving-objects' }
  | { code: 'resolving-deltas' }
  | { code: 'counting-objects' }
  | { code: 'downloading-lfs-objects' }
  | { code: 'updating-files' }
  /** Checking out the descriptor files and these case folders. */
  | { code: 'checkout'; cases: string[] }
  /** Downloading the large files (git-lfs) of the chosen folders: `done` of `total`. */
  | { code: 'lfs-files'; done: number; total: number }
  /** Cloning the whole dataset from `url` into `dest`. */
  | { code: 'clone'; url: string; dest: string }
  /** The fetch is over. */
  | { code: 'done' }
  /** A warning: git-lfs is missing, so large files stay pointers. */
  | { code: 'no-git-lfs' }
  /** A warning: `git lfs pull` failed, for this reason. */
  | { code: 'lfs-pull-failed'; problem: FetchJobProblem };

/** Every code (a missing one fails to compile). */
const CODES: Record<FetchProgress['code'], true> = {
  'fetch-list': true,
  'receiving-objects': true,
  'resolving-deltas': true,
  'counting-objects': true,
  'downloading-lfs-objects': true,
  'updating-files': true,
  checkout: true,
  'lfs-files': true,
  clone: true,
  done: true,
  'no-git-lfs': true,
  'lfs-pull-failed': true
};

/** Every code, in no particular order. */
export const FETCH_PROGRESS_CODES = Object.keys(
  CODES
) as readonly FetchProgress['code'][];

/**
 * The fetcher's progress (`{"code", ...params, "message"}`) as a code with
 * its parameters (its English `message` left out), or null when it carries no
 * code this version knows.
 */
export function readFetchProgress(value: unknown): FetchProgress | null {
  const progress = readFetcherCode<FetchProgress>(value, CODES);
  if (progress?.code !== 'lfs-pull-failed') {
    return progress;
  }
  const problem = readFetchJobProblem(progress.problem);
  return problem ? { code: 'lfs-pull-failed', problem } : null;
}

/**
 * What a fetch is doing in one phrase (translated when `__` is); the
 * percentage, when there is one, is shown beside it.
 */
export function renderFetchProgress(
  progress: FetchProgress,
  __: Translate = english
): string {
  switch (progress.code) {
    case 'fetch-list':
      return __('fetching the file list of %1', progress.source);
    case 'receiving-objects':
      return __('receiving objects');
    case 'resolving-deltas':
      return __('resolving deltas');
    case 'counting-objects':
      return __('counting objects');
    case 'downloading-lfs-objects':
      return __('downloading large files (git-lfs)');
    case 'updating-files':
      return __('updating files');
    case 'checkout':
      return progress.cases.length === 0
        ? __('checking out the descriptor files')
        : __(
            'checking out the descriptor files and %1 case folder(s): %2',
            progress.cases.length,
            progress.cases.join(', ')
          );
    case 'lfs-files':
      return __(
        'downloading large files (git-lfs): %1/%2',
        progress.done,
        progress.total
      );
    case 'clone':
      return __('cloning %1 into %2', progress.url, progress.dest);
    case 'done':
      return __('done');
    case 'no-git-lfs':
      return __(
        'warning: git-lfs is not installed: the small files are cloned, but large files (spreadsheets, data) stay Git LFS pointer files. Install git-lfs, then run `git lfs pull` in the destination.'
      );
    case 'lfs-pull-failed':
      return __(
        'warning: git lfs pull failed (%1); large files may be Git LFS pointers.',
        renderFetchJobProblem(progress.problem, __)
      );
  }
}
