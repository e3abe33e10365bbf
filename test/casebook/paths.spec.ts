/**
 * POSIX path helpers.
 */

import { isSafeName, joinSafe, nameProblem } from '../../src/casebook';

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
  it.each([
    ['pandas_3', null],
    ['', 'is empty'],
    ['x'.repeat(256), 'is longer than 255 characters'],
    ['pandas\0_3', 'contains a NUL byte'],
    ['/etc/passwd', 'is an absolute path'],
    ['C:\\Windows', 'is an absolute path'],
    ['..\\..\\etc', 'contains a backslash'],
    ['../../etc', 'has a ".." segment'],
    ['..', 'has a ".." segment'],
    ['pandas_3/..', 'has a ".." segment'],
    ['benchmark/pandas_3', 'contains "/"'],
    ['.', 'is "."'],
    ['a..b', 'contains ".."'],
    ['my case', 'contains the character " "'],
    ['pandas_3\n', 'contains the character "\\n"'],
    ['\u001b[31mred', 'contains the character "\\u001b"']
  ])('%j: %p', (name, problem) => {
    expect(nameProblem(name)).toBe(problem);
    expect(isSafeName(name)).toBe(problem === null);
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
