/**
 * Why a fetch failed, as codes: every code of `FetchError`
 * (jupyterlab_junobench/sparse.py, fetch.py) renders in English (the
 * fetcher's own wording) and goes through the translation function the UI
 * passes, so that no English leaks; a failed job's error is read for its code.
 */
import { english } from '../../src/i18n';
import type { Translate } from '../../src/i18n';
import {
  readFetchJobProblem,
  renderFetchJobProblem,
  FETCH_JOB_PROBLEM_CODES
} from '../../src/model/fetchProblems';
import type { FetchJobProblem } from '../../src/model/fetchProblems';

/**
 * A pseudo-locale: every message id upper-cased (placeholders kept). The
 * table's data hold no lower-case letters, so a lower-case word in a rendered
 * sentence is English that did not go through the translation function.
 */
const shout: Translate = (msgid, ...args) =>
  english(msgid.toUpperCase(), ...args);

/** Lower-case words left in a sentence rendered with `shout`. */
const leaks = (sentence: string) => sentence.match(/[a-z]{2,}/g) ?? [];

/** Every code, and its English. */
const PROBLEMS: Array<[FetchJobProblem, string]> = [
  [
    {
      code: 'bad-case-name',
      name: '../X',
      problem: { code: 'dot-dot-segment' }
    },
    `"../X" is not a case name: it has a ".." segment (a case name is one folder name of letters, digits, '_', '.' and '-').`
  ],
  [
    { code: 'not-junobench', source: 'GIT@X:Y' },
    'GIT@X:Y is not a JunoBench layout: no benchmark_desc.xlsx at its root or under JunoBench/.'
  ],
  [
    { code: 'not-junobench', source: 'GIT@X:Y', removed: '/C' },
    'GIT@X:Y is not a JunoBench layout: no benchmark_desc.xlsx at its root or under JunoBench/. The fetched files were removed from /C.'
  ],
  [
    {
      code: 'no-cases-folder',
      source: 'GIT@X:Y',
      casebook: '/C/J',
      removed: '/C'
    },
    'GIT@X:Y is not a JunoBench layout: /C/J has benchmark_desc.xlsx but no benchmark/ folder of cases. The fetched files were removed from /C.'
  ],
  [
    { code: 'descriptor-pointer', file: '/C/B.XLSX', dest: '/C' },
    '/C/B.XLSX is a Git LFS pointer, not the spreadsheet: install git-lfs and run `git lfs pull` in /C, or fetch again with git-lfs installed.'
  ],
  [
    {
      code: 'unknown-case',
      source: 'GIT@X:Y',
      cases: ['P_9', 'P_8'],
      available: 10,
      folder: 'J/B/'
    },
    'GIT@X:Y has no case folder P_9, P_8 (it has 10 case folders under J/B/).'
  ],
  [
    { code: 'source-missing', source: '/N' },
    'the source /N does not exist (not a URL, and no such local folder).'
  ],
  [
    { code: 'other-source', dest: '/C', recorded: 'A', source: 'B' },
    '/C is a copy of A, not of B: fetch into another folder, or leave out the source to add cases to this copy.'
  ],
  [
    { code: 'no-source', dest: '/C', marker: '.GIT/M.JSON' },
    '/C is not a copy made by junobench fetch (no .GIT/M.JSON): give the source to fetch from.'
  ],
  [
    { code: 'busy', dest: '/C', lock: '/C/L' },
    'another fetch is running in /C (lock /C/L); wait for it to finish.'
  ],
  [
    { code: 'dest-not-folder', dest: '/C' },
    '/C exists and is not a folder: choose another destination.'
  ],
  [
    { code: 'dest-not-empty', dest: '/C' },
    '/C exists and is not empty (and is not a copy made by junobench fetch): choose a new folder (or empty this one) to fetch into.'
  ],
  [
    { code: 'no-git' },
    'git is not installed (or not on PATH): fetching the dataset uses git; install git (e.g. apt-get install git) and try again.'
  ],
  [
    {
      code: 'git-failed',
      command: 'GIT LS-TREE',
      folder: '/C',
      detail: 'FATAL: BAD OBJECT'
    },
    'GIT LS-TREE failed in /C: FATAL: BAD OBJECT'
  ],
  [
    { code: 'timeout', step: 'FETCH', seconds: 1800 },
    'FETCH got no answer within 1800 s; the source may be unreachable (there may be no network here).'
  ],
  [
    { code: 'unfinished', step: 'CHECKOUT', seconds: 1800 },
    'CHECKOUT did not finish within 1800 s.'
  ],
  [
    { code: 'source-unreachable', step: 'FETCH', detail: 'EXIT CODE 128' },
    'FETCH failed (EXIT CODE 128). The source may be unreachable or not a git repository (there may be no network here; check the URL, or give a local copy as the source).'
  ],
  [
    { code: 'interrupted', dest: '/C' },
    'interrupted; run the same command again to resume in /C.'
  ],
  [
    { code: 'unexpected', detail: 'KEYERROR: 7' },
    'the server failed unexpectedly: KEYERROR: 7'
  ]
];

describe('renderFetchJobProblem', () => {
  it.each(PROBLEMS.map(([p, text]) => [p.code, p, text] as const))(
    '%s renders in English',
    (_code, problem, text) => {
      expect(renderFetchJobProblem(problem)).toBe(text);
      expect(renderFetchJobProblem(problem, english)).toBe(text);
    }
  );

  it.each(PROBLEMS.map(([p]) => [p.code, p] as const))(
    '%s goes through the translation function',
    (_code, problem) => {
      const sentence = renderFetchJobProblem(problem, shout);
      expect(leaks(sentence)).toEqual([]);
      expect(sentence).not.toBe(renderFetchJobProblem(problem));
    }
  );

  it('has a row for every code', () => {
    expect([...new Set(PROBLEMS.map(([p]) => p.code))].sort()).toEqual(
      [...FETCH_JOB_PROBLEM_CODES].sort()
    );
  });
});

describe('readFetchJobProblem', () => {
  it.each(PROBLEMS.map(([p]) => [p.code, p] as const))(
    'reads %s, leaving the English out',
    (_code, problem) => {
      expect(
        readFetchJobProblem({ ...problem, message: 'English for logs.' })
      ).toEqual(problem);
    }
  );

  it.each<[string, unknown]>([
    ['nothing', null],
    ['text (an older server)', 'git failed'],
    ['an unknown code', { code: 'later-code', message: 'Later.' }],
    ['a code inherited from Object', { code: 'valueOf' }]
  ])('reads no code from %s', (_, value) => {
    expect(readFetchJobProblem(value)).toBeNull();
  });
});
