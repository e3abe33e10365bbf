/**
 * POSIX path helpers.
 */

import {
  basename,
  dirname,
  isSafeName,
  joinSafe,
  nameProblem,
  normalize,
  relative
} from '../../src/casebook';

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

describe('normalize', () => {
  it.each([
    ['a/./b//c/', 'a/b/c'],
    ['a/../b', 'b'],
    ['../a', '../a'],
    ['/../a', '/a'],
    ['', ''],
    ['/', '/']
  ])('%j -> %j', (path, expected) => {
    expect(normalize(path)).toBe(expected);
  });
});

describe('dirname and basename', () => {
  it.each([
    ['a/b/c.ipynb', 'a/b', 'c.ipynb'],
    ['a', '', 'a'],
    ['a/b/', 'a', 'b'],
    ['/a', '/', 'a'],
    ['/', '/', ''],
    ['', '', '']
  ])('%j', (path, dir, base) => {
    expect(dirname(path)).toBe(dir);
    expect(basename(path)).toBe(base);
  });
});

describe('relative', () => {
  it.each([
    ['work/pandas_3', 'benchmark/pandas_3', '../../benchmark/pandas_3'],
    ['work/pandas_3', 'work/pandas_3/data', 'data'],
    ['work', 'work', ''],
    ['', 'benchmark/x/data/a.csv', 'benchmark/x/data/a.csv'],
    ['a/b/c', 'a', '../..'],
    ['/home/u/work', '/home/u/cases/x', '../cases/x'],
    ['a/./b/', 'a/c', '../c']
  ])('from %j to %j is %j', (from, to, expected) => {
    expect(relative(from, to)).toBe(expected);
  });

  it.each([
    ['/a', 'b'],
    ['a', '/b'],
    ['../x', 'y']
  ])('refuses from %j to %j', (from, to) => {
    expect(() => relative(from, to)).toThrow();
  });
});
