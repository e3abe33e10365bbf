/**
 * What a running fetch is doing, as codes: every progress code of the fetcher
 * (`Progress` in jupyterlab_junobench/sparse.py) renders in English, word for
 * word the fetcher's own English (`describe_progress`), and goes through the
 * translation function the UI passes, so that no English leaks; the
 * fetcher's progress is read for its code.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';

import { english } from '../../src/i18n';
import type { Translate } from '../../src/i18n';
import { renderFetchJobProblem } from '../../src/model/fetchProblems';
import {
  FETCH_PROGRESS_CODES,
  readFetchProgress,
  renderFetchProgress
} from '../../src/model/fetchProgress';
import type { FetchProgress } from '../../src/model/fetchProgress';

const PYTHON = process.env.VIRTUAL_ENV
  ? path.join(process.env.VIRTUAL_ENV, 'bin', 'python')
  : 'python3';

/**
 * A pseudo-locale: every message id upper-cased (placeholders kept). The
 * table's data hold no lower-case letters, so a lower-case word in a rendered
 * sentence is English that did not go through the translation function.
 */
const shout: Translate = (msgid, ...args) =>
  english(msgid.toUpperCase(), ...args);

/** Lower-case words left in a sentence rendered with `shout`. */
const leaks = (sentence: string) => sentence.match(/[a-z]{2,}/g) ?? [];

/** Every code, and its English (`checkout` with and without cases). */
const PROGRESS: Array<[FetchProgress, string]> = [
  [
    { code: 'fetch-list', source: 'GIT@X:Y' },
    'fetching the file list of GIT@X:Y'
  ],
  [{ code: 'receiving-objects' }, 'receiving objects'],
  [{ code: 'resolving-deltas' }, 'resolving deltas'],
  [{ code: 'counting-objects' }, 'counting objects'],
  [{ code: 'downloading-lfs-objects' }, 'downloading large files (git-lfs)'],
  [{ code: 'updating-files' }, 'updating files'],
  [{ code: 'checkout', cases: [] }, 'checking out the descriptor files'],
  [
    { code: 'checkout', cases: ['P_1', 'Q_2'] },
    'checking out the descriptor files and 2 case folder(s): P_1, Q_2'
  ],
  [
    { code: 'lfs-files', done: 50, total: 120 },
    'downloading large files (git-lfs): 50/120'
  ],
  [
    { code: 'clone', url: 'FILE:///S', dest: '/D' },
    'cloning FILE:///S into /D'
  ],
  [{ code: 'done' }, 'done'],
  [
    { code: 'no-git-lfs' },
    'warning: git-lfs is not installed: the small files are cloned, but large files (spreadsheets, data) stay Git LFS pointer files. Install git-lfs, then run `git lfs pull` in the destination.'
  ],
  [
    {
      code: 'lfs-pull-failed',
      problem: { code: 'unfinished', step: 'GIT LFS PULL', seconds: 60 }
    },
    'warning: git lfs pull failed (GIT LFS PULL did not finish within 60 s.); large files may be Git LFS pointers.'
  ]
];

/** A row's progress as the fetcher sends it: `{code, ...params, message}`, a nested problem with its English too. */
function asSent(progress: FetchProgress): Record<string, unknown> {
  const sent: Record<string, unknown> = {
    ...progress,
    message: 'English for logs.'
  };
  if (progress.code === 'lfs-pull-failed') {
    sent.problem = { ...progress.problem, message: 'English for logs.' };
  }
  return sent;
}

describe('renderFetchProgress', () => {
  it.each(PROGRESS.map(([p, text]) => [p.code, p, text] as const))(
    '%s renders in English',
    (_code, progress, text) => {
      expect(renderFetchProgress(progress)).toBe(text);
      expect(renderFetchProgress(progress, english)).toBe(text);
    }
  );

  it.each(PROGRESS.map(([p]) => [p.code, p] as const))(
    '%s goes through the translation function',
    (_code, progress) => {
      const sentence = renderFetchProgress(progress, shout);
      expect(leaks(sentence)).toEqual([]);
      expect(sentence).not.toBe(renderFetchProgress(progress));
    }
  );

  it('has a row for every code', () => {
    expect([...new Set(PROGRESS.map(([p]) => p.code))].sort()).toEqual(
      [...FETCH_PROGRESS_CODES].sort()
    );
  });

  it("is word for word the Python fetcher's English", () => {
    const rows = PROGRESS.map(([p]) => {
      const { code, ...params } = p as Record<string, unknown>;
      if (p.code === 'lfs-pull-failed') {
        // The fetcher nests the failure as it sends it: with its English.
        params.problem = {
          ...p.problem,
          message: renderFetchJobProblem(p.problem)
        };
      }
      return { code, params };
    });
    const python = execFileSync(
      PYTHON,
      [
        '-c',
        [
          'import json, sys',
          'from jupyterlab_junobench.sparse import describe_progress',
          'rows = json.load(sys.stdin)',
          'print(json.dumps([describe_progress(r["code"], r["params"]) for r in rows]))'
        ].join('\n')
      ],
      { input: JSON.stringify(rows), encoding: 'utf8' }
    );
    expect(JSON.parse(python)).toEqual(PROGRESS.map(([, text]) => text));
  });
});

describe('readFetchProgress', () => {
  it.each(PROGRESS.map(([p]) => [p.code, p] as const))(
    'reads %s, leaving the English out',
    (_code, progress) => {
      expect(readFetchProgress(asSent(progress))).toEqual(progress);
    }
  );

  it.each<[string, unknown]>([
    ['nothing', null],
    ['text (an older server)', 'fetching the file list'],
    ['an unknown code', { code: 'later-code', message: 'Later.' }],
    ['a code inherited from Object', { code: 'toString' }],
    [
      'a warning whose failure has no code known here',
      { code: 'lfs-pull-failed', problem: { code: 'later-code' } }
    ],
    ['a warning without its failure', { code: 'lfs-pull-failed' }]
  ])('reads no code from %s', (_, value) => {
    expect(readFetchProgress(value)).toBeNull();
  });
});
