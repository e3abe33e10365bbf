/**
 * POSIX path helpers, and the one case-name rule: `nameProblem` returns a code
 * with parameters, `renderNameProblem` words every code (in English as the
 * rule did before codes existed, or through the translation function).
 */

import {
  isSafeName,
  joinSafe,
  nameProblem,
  renderNameProblem
} from '../../src/casebook';
import type { NameProblem } from '../../src/casebook';
import { english } from '../../src/i18n';
import type { Translate } from '../../src/i18n';

describe('isSafeName', () => {
  it.each([
    ['pandas_3', true],
    ['NBspecific_20', true],
    ['a-b.c', true],
    ['', false],
    ['.', false],
    ['..', false],
    ['a..b', false],
    ['a/b', false],
    ['a\\b', false],
    ['a b', false],
    ['a\0b', false],
    ['é', false],
    ['x'.repeat(256), false]
  ])('%j is safe: %p', (name, safe) => {
    expect(isSafeName(name)).toBe(safe);
  });
});

describe('nameProblem', () => {
  it.each<[string, NameProblem | null]>([
    ['pandas_3', null],
    ['', { code: 'empty' }],
    ['x'.repeat(256), { code: 'too-long', limit: 255 }],
    ['pandas\0_3', { code: 'nul' }],
    ['/etc/passwd', { code: 'absolute' }],
    ['C:\\Windows', { code: 'absolute' }],
    ['..\\..\\etc', { code: 'backslash' }],
    ['../../etc', { code: 'dot-dot-segment' }],
    ['..', { code: 'dot-dot-segment' }],
    ['pandas_3/..', { code: 'dot-dot-segment' }],
    ['benchmark/pandas_3', { code: 'slash' }],
    ['.', { code: 'dot' }],
    ['a..b', { code: 'dot-dot' }],
    ['.git', { code: 'hidden' }],
    ['my case', { code: 'character', char: ' ' }],
    ['pandas_3\n', { code: 'character', char: '\n' }],
    ['\u001b[31mred', { code: 'character', char: '\u001b' }]
  ])('%j: %j', (name, problem) => {
    expect(nameProblem(name)).toEqual(problem);
    expect(isSafeName(name)).toBe(problem === null);
  });
});

/**
 * A pseudo-locale: every message id upper-cased (placeholders kept). The
 * table's data hold no lower-case letters, so a lower-case word in a rendered
 * clause is English that did not go through the translation function.
 */
const shout: Translate = (msgid, ...args) =>
  english(msgid.toUpperCase(), ...args);

/** Every code, and its English (the rule's wording before codes, as a clause). */
const NAME_PROBLEMS: Array<[NameProblem, string]> = [
  [{ code: 'empty' }, 'it is empty'],
  [{ code: 'too-long', limit: 255 }, 'it is longer than 255 characters'],
  [{ code: 'nul' }, 'it contains a NUL byte'],
  [{ code: 'absolute' }, 'it is an absolute path'],
  [{ code: 'backslash' }, 'it contains a backslash'],
  [{ code: 'dot-dot-segment' }, 'it has a ".." segment'],
  [{ code: 'slash' }, 'it contains "/"'],
  [{ code: 'dot' }, 'it is "."'],
  [{ code: 'dot-dot' }, 'it contains ".."'],
  [{ code: 'hidden' }, 'it starts with "."'],
  [{ code: 'character', char: ' ' }, 'it contains the character " "']
];

/** The codes (a missing one fails to compile). */
const NAME_CODES: Record<NameProblem['code'], true> = {
  empty: true,
  'too-long': true,
  nul: true,
  absolute: true,
  backslash: true,
  'dot-dot-segment': true,
  slash: true,
  dot: true,
  'dot-dot': true,
  hidden: true,
  character: true
};

describe('renderNameProblem', () => {
  it.each(NAME_PROBLEMS.map(([p, text]) => [p.code, p, text] as const))(
    '%s renders in English',
    (_code, problem, text) => {
      expect(renderNameProblem(problem)).toBe(text);
      expect(renderNameProblem(problem, english)).toBe(text);
    }
  );

  it.each(NAME_PROBLEMS.map(([p]) => [p.code, p] as const))(
    '%s goes through the translation function',
    (_code, problem) => {
      const clause = renderNameProblem(problem, shout);
      expect(clause.match(/[a-z]{2,}/g) ?? []).toEqual([]);
      expect(clause).not.toBe(renderNameProblem(problem));
    }
  );

  it('has a row for every code', () => {
    expect([...new Set(NAME_PROBLEMS.map(([p]) => p.code))].sort()).toEqual(
      Object.keys(NAME_CODES).sort()
    );
  });
});

describe('joinSafe', () => {
  it.each([
    ['', ['a'], 'a'],
    ['', ['a/b', 'c'], 'a/b/c'],
    ['root', ['benchmark/pandas_3'], 'root/benchmark/pandas_3'],
    ['root/', ['a'], 'root/a'],
    ['/abs/root', ['a', 'b.csv'], '/abs/root/a/b.csv'],
    ['/', ['a'], '/a'],
    ['root', ['./a//b/'], 'root/a/b'],
    ['root', [''], 'root'],
    ['', [], ''],
    ['root', ['data file (1).csv'], 'root/data file (1).csv'],
    ['root', ['a..b'], 'root/a..b']
  ])('joins %j and %j', (root, parts, expected) => {
    expect(joinSafe(root, ...parts)).toBe(expected);
  });

  it.each([
    ['/etc/passwd', /absolute/],
    ['C:/x', /absolute/],
    ['a\\b', /backslash/],
    ['..', /\.\./],
    ['a/../../b', /\.\./],
    ['a/..', /\.\./],
    ['a\0b', /NUL/]
  ])('rejects %j', (part, message) => {
    expect(() => joinSafe('root', part)).toThrow(message);
  });
});
