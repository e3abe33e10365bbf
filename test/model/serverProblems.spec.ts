/**
 * What the server extension refuses, as codes: every code of
 * jupyterlab_junobench/handlers.py renders in English and goes through the
 * translation function the UI passes, so that no English leaks; an answer is
 * read for its code (its English `message` is only a fallback for a code this
 * version does not know).
 */
import { english } from '../../src/i18n';
import type { Translate } from '../../src/i18n';
import {
  readServerProblem,
  renderServerAnswer,
  renderServerProblem,
  SERVER_PROBLEM_CODES
} from '../../src/model/serverProblems';
import type { ServerProblem } from '../../src/model/serverProblems';

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
const PROBLEMS: Array<[ServerProblem, string]> = [
  [
    { code: 'no-local-root' },
    "This server's contents are not on a local disk."
  ],
  [
    { code: 'no-demo' },
    'No demo casebook is bundled with jupyterlab_junobench.'
  ],
  [
    { code: 'demo-folder-taken', folder: 'DEMO' },
    '"DEMO" already exists in the server root and is not a JunoBench casebook; it was left untouched. Rename or move it, or set c.JunobenchExtension.demo_folder to another name.'
  ],
  [
    { code: 'demo-folder-appeared', folder: 'DEMO' },
    '"DEMO" appeared while the demo was being copied.'
  ],
  [
    { code: 'demo-copy-failed', detail: 'ENOSPC' },
    'Could not copy the demo casebook into the server root: ENOSPC'
  ],
  [
    { code: 'path-outside-root', path: '../X' },
    'Refusing the casebook path "../X": it leaves the server root.'
  ],
  [
    { code: 'path-hidden', path: 'B/.G' },
    'Refusing the casebook path "B/.G": hidden folders are not listed.'
  ],
  [
    { code: 'no-folder', path: 'NOPE' },
    'No casebook folder "NOPE" under the server root.'
  ],
  [
    { code: 'body-not-json', detail: 'EXPECTING VALUE' },
    'The request body is not JSON: EXPECTING VALUE'
  ],
  [{ code: 'body-not-object' }, 'The request body must be a JSON object.'],
  [
    { code: 'not-a-server-path', field: 'casebook' },
    'The casebook path must be a server path (text).'
  ],
  [
    { code: 'casebook-is-root' },
    'A new casebook needs a folder of its own, not the server root.'
  ],
  [
    {
      code: 'authoring',
      problem: { code: 'no-row', case: 'P_1' }
    },
    'case P_1: the spec has no descriptor row'
  ],
  [
    { code: 'fetch-off' },
    'Fetching cases is turned off on this server (c.JunobenchExtension.allow_fetch).'
  ],
  [
    { code: 'fetch-request' },
    'Expected {"path": <casebook path>, "case": <case name>}.'
  ],
  [
    { code: 'bad-case-name', name: '.GIT', problem: { code: 'hidden' } },
    '".GIT" is not a case name: it starts with ".".'
  ],
  [
    { code: 'not-fetched-copy', path: 'B' },
    'The casebook "B" was not made by `junobench fetch --cases`, so the panel cannot fetch its missing cases; fetch them with `junobench fetch <folder> --cases ...`.'
  ],
  [
    { code: 'fetch-running', case: 'P_1' },
    'A fetch of P_1 is still running in this casebook; wait for it.'
  ],
  [{ code: 'no-fetch-job', id: '0A' }, 'No fetch 0A on this server.']
];

describe('renderServerProblem', () => {
  it.each(PROBLEMS.map(([p, text]) => [p.code, p, text] as const))(
    '%s renders in English',
    (_code, problem, text) => {
      expect(renderServerProblem(problem)).toBe(text);
      expect(renderServerProblem(problem, english)).toBe(text);
    }
  );

  it.each(PROBLEMS.map(([p]) => [p.code, p] as const))(
    '%s goes through the translation function',
    (_code, problem) => {
      const sentence = renderServerProblem(problem, shout);
      expect(leaks(sentence)).toEqual([]);
      expect(sentence).not.toBe(renderServerProblem(problem));
    }
  );

  it('has a row for every code', () => {
    expect([...new Set(PROBLEMS.map(([p]) => p.code))].sort()).toEqual(
      [...SERVER_PROBLEM_CODES].sort()
    );
  });
});

describe('readServerProblem', () => {
  it.each(PROBLEMS.map(([p]) => [p.code, p] as const))(
    'reads %s from an answer, leaving its English and HTTP reason out',
    (_code, problem) => {
      expect(
        readServerProblem({
          ...problem,
          message: 'English for logs.',
          reason: 'Bad Request'
        })
      ).toEqual(problem);
    }
  );

  it.each<[string, unknown]>([
    ['nothing', null],
    ['text', 'Not Found'],
    ['an answer without a code', { message: 'Not Found' }],
    ['an unknown code', { code: 'later-code', message: 'Later.' }],
    [
      "a writer's unknown code",
      { code: 'authoring', problem: { code: 'later-code' }, message: 'Later.' }
    ],
    ['a code that is not text', { code: 7 }],
    ['a code inherited from Object', { code: 'toString' }]
  ])('reads no code from %s', (_, value) => {
    expect(readServerProblem(value)).toBeNull();
  });
});

describe('renderServerAnswer', () => {
  it('words the code, not the English the server sent for logs', () => {
    expect(
      renderServerAnswer(
        { code: 'fetch-off', message: 'Something else.' },
        shout
      )
    ).toBe(
      'FETCHING CASES IS TURNED OFF ON THIS SERVER (C.JUNOBENCHEXTENSION.ALLOW_FETCH).'
    );
  });

  it("falls back on the server's English for a code it does not know, else null", () => {
    expect(
      renderServerAnswer({ code: 'later-code', message: 'Later.' }, shout)
    ).toBe('Later.');
    expect(renderServerAnswer({}, shout)).toBeNull();
    expect(renderServerAnswer(null, shout)).toBeNull();
  });
});
