/**
 * The workshop file's problems as codes: the validator returns a code with
 * parameters for every way a file can be wrong, the one renderer words each
 * in English exactly as the validator did before codes existed, and goes
 * through the translation function the UI passes, so that no English leaks.
 */
import { StateDB } from '@jupyterlab/statedb';

import { nameProblem } from '../../src/casebook/paths';
import { english } from '../../src/i18n';
import type { Translate } from '../../src/i18n';
import { WorkshopManager } from '../../src/workshop/manager';
import {
  FILE_FIELD,
  renderWorkshopError,
  renderWorkshopProblem
} from '../../src/workshop/problems';
import type {
  IWorkshopProblemAt,
  WorkshopProblem
} from '../../src/workshop/problems';
import { checkWorkshop } from '../../src/workshop/schema';
import {
  parseWorkshop,
  WorkshopFormatError
} from '../../src/workshop/workshop';

/**
 * A pseudo-locale: every message id upper-cased (placeholders kept). The
 * table's data hold no lower-case letters, so a lower-case word in a rendered
 * sentence is English that did not go through the translation function.
 */
const shout: Translate = (msgid, ...args) =>
  english(msgid.toUpperCase(), ...args);

/** Lower-case words left in a sentence rendered with `shout`. */
const leaks = (sentence: string) => sentence.match(/[a-z]{2,}/g) ?? [];

const N = { kind: 'nothing' } as const;
const J = (text: string) => ({ kind: 'json', text }) as const;

/** Every code, and its English (the wording of the validator before codes). */
const PROBLEMS: Array<[WorkshopProblem, string]> = [
  [{ code: 'unreadable', detail: 'ENOENT' }, 'cannot be read (ENOENT)'],
  [
    { code: 'not-json', detail: 'UNEXPECTED END' },
    'not valid JSON (UNEXPECTED END)'
  ],
  [
    { code: 'not-object', got: { kind: 'array' } },
    'expected a JSON object, got an array'
  ],
  [
    { code: 'unknown-field', fields: ['TITLE', 'CASES'] },
    'unknown field; a workshop has TITLE, CASES'
  ],
  [{ code: 'title', got: N }, 'expected a non-empty string, got nothing'],
  [
    { code: 'description', got: { kind: 'object' } },
    'expected a string, got an object'
  ],
  [
    { code: 'cases', got: J('"A_1"') },
    'expected an array of case names, got "A_1"'
  ],
  [{ code: 'no-cases' }, 'expected at least one case name, got an empty array'],
  [{ code: 'case-type', got: J('42') }, 'expected a case name, got 42'],
  [
    { code: 'case-name', name: '.A', problem: { code: 'hidden' } },
    'the case name ".A" cannot be used: it starts with "."'
  ],
  [
    { code: 'case-repeated', name: 'A', first: 0 },
    '"A" is already listed as cases[0]'
  ],
  [
    { code: 'reveal-policy', allowed: ['ALWAYS', 'NEVER'], got: J('"X"') },
    'expected one of ALWAYS, NEVER, got "X"'
  ],
  [
    { code: 'time-box', maximum: 1440, got: J('0') },
    'expected a number of minutes above 0 and at most 1440, got 0'
  ],
  [
    { code: 'casebook', got: J('7') },
    'expected a folder path from the server root, got 7'
  ],
  [
    { code: 'casebook-dot-dot', got: J('"A/../.."') },
    'a ".." segment is not allowed, got "A/../.."'
  ],
  [
    { code: 'casebook-characters', got: J('"A\\\\B"') },
    'expected a folder path with "/", got "A\\\\B"'
  ],
  [
    {
      code: 'schema',
      keyword: 'TYPE',
      params: { type: 'string' },
      got: J('5')
    },
    'does not match the workshop schema (TYPE), got 5'
  ]
];

/** The codes (a missing one fails to compile). */
const CODES: Record<WorkshopProblem['code'], true> = {
  unreadable: true,
  'not-json': true,
  'not-object': true,
  'unknown-field': true,
  title: true,
  description: true,
  cases: true,
  'no-cases': true,
  'case-type': true,
  'case-name': true,
  'case-repeated': true,
  'reveal-policy': true,
  'time-box': true,
  casebook: true,
  'casebook-dot-dot': true,
  'casebook-characters': true,
  schema: true
};

describe('renderWorkshopProblem', () => {
  it.each(PROBLEMS.map(([p, text]) => [p.code, p, text] as const))(
    '%s renders in English as before',
    (_code, problem, text) => {
      expect(renderWorkshopProblem(problem)).toBe(text);
      expect(renderWorkshopProblem(problem, english)).toBe(text);
    }
  );

  it.each(PROBLEMS.map(([p]) => [p.code, p] as const))(
    '%s goes through the translation function',
    (_code, problem) => {
      const sentence = renderWorkshopProblem(problem, shout);
      expect(leaks(sentence)).toEqual([]);
      expect(sentence).not.toBe(renderWorkshopProblem(problem));
    }
  );

  it('has a row for every code', () => {
    expect([...new Set(PROBLEMS.map(([p]) => p.code))].sort()).toEqual(
      Object.keys(CODES).sort()
    );
  });
});

describe('renderWorkshopError', () => {
  const problem: WorkshopProblem = { code: 'case-type', got: J('42') };

  it.each<[string, IWorkshopProblemAt, string]>([
    [
      'a field',
      { file: 'W.JSON', field: 'cases[2]', problem },
      'W.JSON: cases[2]: expected a case name, got 42'
    ],
    [
      'the whole file',
      { file: 'W.JSON', field: FILE_FIELD, problem },
      'W.JSON: (file): expected a case name, got 42'
    ],
    [
      'a file that could not be read (no field)',
      {
        file: 'W.JSON',
        field: null,
        problem: { code: 'unreadable', detail: 'ENOENT' }
      },
      'W.JSON: cannot be read (ENOENT)'
    ]
  ])('names the file and %s', (_, at, text) => {
    expect(renderWorkshopError(at)).toBe(text);
    const shouted = renderWorkshopError(
      { ...at, field: at.field === null ? null : at.field.toUpperCase() },
      shout
    );
    expect(leaks(shouted)).toEqual([]);
  });

  it('translates the name of the whole file', () => {
    expect(
      renderWorkshopError({ file: 'W.JSON', field: FILE_FIELD, problem }, shout)
    ).toBe('W.JSON: (FILE): EXPECTED A CASE NAME, GOT 42');
  });
});

const base = {
  title: 'Week 1',
  cases: ['NBspecific_1', 'numpy_1', 'pandas_1'],
  revealPolicy: 'after-pass'
};
const POLICIES = ['after-attempt', 'after-pass', 'always', 'never'];

/** Workshops the schema refuses, and the field and code it returns. */
const CHECKS: Array<[string, unknown, string, WorkshopProblem]> = [
  [
    'an array',
    [base],
    FILE_FIELD,
    { code: 'not-object', got: { kind: 'array' } }
  ],
  [
    'a misspelt field',
    { ...base, timebox: 30 },
    'timebox',
    {
      code: 'unknown-field',
      fields: [
        'title',
        'description',
        'cases',
        'revealPolicy',
        'timeBoxMinutes',
        'casebook'
      ]
    }
  ],
  [
    'no title',
    { cases: base.cases, revealPolicy: 'never' },
    'title',
    { code: 'title', got: N }
  ],
  [
    'a blank title',
    { ...base, title: ' ' },
    'title',
    {
      code: 'title',
      got: J('" "')
    }
  ],
  [
    'a description that is a number',
    { ...base, description: 5 },
    'description',
    { code: 'description', got: J('5') }
  ],
  [
    'cases not an array',
    { ...base, cases: 'numpy_1' },
    'cases',
    { code: 'cases', got: J('"numpy_1"') }
  ],
  ['no cases', { ...base, cases: [] }, 'cases', { code: 'no-cases' }],
  [
    'a case that is a number',
    { ...base, cases: ['a', 'b', 42] },
    'cases[2]',
    { code: 'case-type', got: J('42') }
  ],
  [
    'an empty case name',
    { ...base, cases: [''] },
    'cases[0]',
    { code: 'case-name', name: '', problem: { code: 'empty' } }
  ],
  [
    'a case name too long',
    { ...base, cases: ['a'.repeat(256)] },
    'cases[0]',
    {
      code: 'case-name',
      name: 'a'.repeat(256),
      problem: { code: 'too-long', limit: 255 }
    }
  ],
  [
    'the case name "."',
    { ...base, cases: ['.'] },
    'cases[0]',
    { code: 'case-name', name: '.', problem: { code: 'dot' } }
  ],
  [
    'a hidden case name (the loader skips hidden folders)',
    { ...base, cases: ['.hidden'] },
    'cases[0]',
    { code: 'case-name', name: '.hidden', problem: { code: 'hidden' } }
  ],
  [
    'a case name with ".." inside',
    { ...base, cases: ['a..b'] },
    'cases[0]',
    { code: 'case-name', name: 'a..b', problem: { code: 'dot-dot' } }
  ],
  [
    'a case name leaving the casebook',
    { ...base, cases: ['../etc'] },
    'cases[0]',
    {
      code: 'case-name',
      name: '../etc',
      problem: { code: 'dot-dot-segment' }
    }
  ],
  [
    'a case name with a slash',
    { ...base, cases: ['a/b'] },
    'cases[0]',
    { code: 'case-name', name: 'a/b', problem: { code: 'slash' } }
  ],
  [
    'a case name with a space',
    { ...base, cases: ['a b'] },
    'cases[0]',
    {
      code: 'case-name',
      name: 'a b',
      problem: { code: 'character', char: ' ' }
    }
  ],
  [
    'a repeated case',
    { ...base, cases: ['a', 'b', 'a'] },
    'cases[2]',
    { code: 'case-repeated', name: 'a', first: 0 }
  ],
  [
    'an unknown policy',
    { ...base, revealPolicy: 'sometimes' },
    'revealPolicy',
    { code: 'reveal-policy', allowed: POLICIES, got: J('"sometimes"') }
  ],
  [
    'no policy',
    { title: 'x', cases: ['a'] },
    'revealPolicy',
    { code: 'reveal-policy', allowed: POLICIES, got: N }
  ],
  [
    'a zero time box',
    { ...base, timeBoxMinutes: 0 },
    'timeBoxMinutes',
    { code: 'time-box', maximum: 1440, got: J('0') }
  ],
  [
    'a time box as text',
    { ...base, timeBoxMinutes: '45' },
    'timeBoxMinutes',
    { code: 'time-box', maximum: 1440, got: J('"45"') }
  ],
  [
    'a casebook that is a number',
    { ...base, casebook: 7 },
    'casebook',
    { code: 'casebook', got: J('7') }
  ],
  [
    'a casebook escaping the root',
    { ...base, casebook: 'a/../..' },
    'casebook',
    { code: 'casebook-dot-dot', got: J('"a/../.."') }
  ],
  [
    'a casebook with a backslash',
    { ...base, casebook: 'a\\b' },
    'casebook',
    { code: 'casebook-characters', got: J('"a\\\\b"') }
  ],
  [
    'a $schema that is a number',
    { ...base, $schema: 5 },
    '$schema',
    {
      code: 'schema',
      keyword: 'type',
      params: { type: 'string' },
      got: J('5')
    }
  ]
];

describe('checkWorkshop', () => {
  it.each(CHECKS)('returns a code for %s', (_, doc, field, problem) => {
    expect(checkWorkshop(doc)).toEqual({ field, problem });
  });

  it('returns every code but those of reading the text', () => {
    expect([...new Set(CHECKS.map(([, , , p]) => p.code))].sort()).toEqual(
      Object.keys(CODES)
        .filter(c => c !== 'unreadable' && c !== 'not-json')
        .sort()
    );
  });

  it('accepts a valid workshop', () => {
    expect(checkWorkshop(base)).toBeNull();
  });

  it('accepts exactly the case names the one case-name rule accepts', () => {
    // Names from the JunoBench layout and ones that try every part of the rule, then random
    // strings over an alphabet that mixes allowed and refused characters.
    const names = [
      'numpy_1',
      'NBspecific_12',
      'a.b',
      'a-b_c.d',
      'x.',
      '.x',
      '.',
      '..',
      'a..b',
      'a/b',
      '../a',
      'a\\b',
      '/abs',
      'C:x',
      'a b',
      'é',
      'a\u0000b',
      '',
      'a'.repeat(255),
      'a'.repeat(256)
    ];
    const alphabet = 'aZ09_.-/ \\:é';
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 2000; i++) {
      const length = Math.floor(random() * 6);
      names.push(
        Array.from(
          { length },
          () => alphabet[Math.floor(random() * alphabet.length)]
        ).join('')
      );
    }
    const disagree = names.filter(
      name =>
        (checkWorkshop({ ...base, cases: [name] }) === null) !==
        (nameProblem(name) === null)
    );
    expect(disagree).toEqual([]);
  });
});

describe('WorkshopFormatError', () => {
  it('carries the file, the field and the code; its message is the English', async () => {
    const error = await parseWorkshop(
      JSON.stringify({ ...base, cases: ['a', 'b', 42] }),
      'w.junobench-workshop.json'
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkshopFormatError);
    const { file, field, problem, message } = error as WorkshopFormatError;
    expect({ file, field, problem }).toEqual({
      file: 'w.junobench-workshop.json',
      field: 'cases[2]',
      problem: { code: 'case-type', got: J('42') }
    });
    expect(message).toBe(
      renderWorkshopError(error as WorkshopFormatError, english)
    );
    expect((error as WorkshopFormatError).render()).toBe(message);
    expect(leaks((error as WorkshopFormatError).render(shout))).toEqual([
      'junobench',
      'workshop',
      'json',
      'cases'
    ]);
  });

  it('gives text that is not JSON the not-json code, with the parser’s words', async () => {
    const error = (await parseWorkshop('{"title": ', 'w.json').catch(
      (e: unknown) => e
    )) as WorkshopFormatError;
    expect(error.field).toBe(FILE_FIELD);
    expect(error.problem).toEqual({
      code: 'not-json',
      detail: expect.any(String)
    });
  });

  it('gives a file the manager cannot read the unreadable code, without a field', async () => {
    const manager = new WorkshopManager({
      state: new StateDB(),
      read: () => Promise.reject(new Error('No such file'))
    });
    const error = (await manager
      .open('w/none.junobench-workshop.json')
      .catch((e: unknown) => e)) as WorkshopFormatError;
    expect(error).toBeInstanceOf(WorkshopFormatError);
    expect(error.field).toBeNull();
    expect(error.problem).toEqual({
      code: 'unreadable',
      detail: 'No such file'
    });
    expect(error.message).toBe(
      'w/none.junobench-workshop.json: cannot be read (No such file)'
    );
  });
});
