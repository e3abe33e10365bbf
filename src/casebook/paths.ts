/**
 * Safety rules for casebook-relative paths: which names are safe, and a join
 * that never leaves its root (plain joins, dirnames and relative paths come
 * from `PathExt` in @jupyterlab/coreutils, or `path.posix` in the CLI).
 *
 * Casebook paths always use `/`; '' is the casebook root. Nothing here touches
 * a file system, so the same rules hold in the browser and in Node.
 */
import { english } from '../i18n';
import type { Translate } from '../i18n';

/**
 * Why a case name cannot be used as a folder or file name, as a code with
 * parameters (the codes of `name_problem` in jupyterlab_junobench/names.py).
 */
export type NameProblem =
  /** The name is empty. */
  | { code: 'empty' }
  /** The name is longer than `limit` characters. */
  | { code: 'too-long'; limit: number }
  /** The name contains a NUL character. */
  | { code: 'nul' }
  /** The name is an absolute path (`/…` or `C:…`). */
  | { code: 'absolute' }
  /** The name contains `\`. */
  | { code: 'backslash' }
  /** The name has a `..` segment. */
  | { code: 'dot-dot-segment' }
  /** The name contains `/`. */
  | { code: 'slash' }
  /** The name is `.`. */
  | { code: 'dot' }
  /** The name contains `..`. */
  | { code: 'dot-dot' }
  /** The name starts with `.` (the loader skips hidden folders). */
  | { code: 'hidden' }
  /** The name contains `char`, which is not a letter, digit, `_`, `.` or `-`. */
  | { code: 'character'; char: string };

/**
 * Whether a case name is safe to use as a folder or file name: only letters,
 * digits, `_`, `.` and `-`, no `..` and no leading `.`.
 */
export function isSafeName(name: string): boolean {
  return nameProblem(name) === null;
}

/**
 * Why a case name is not safe to use as a folder or file name, as a code
 * (render it with `renderNameProblem`); null when it is safe.
 */
export function nameProblem(name: string): NameProblem | null {
  if (name.length === 0) {
    return { code: 'empty' };
  }
  if (name.length > Private.MAX_NAME_LENGTH) {
    return { code: 'too-long', limit: Private.MAX_NAME_LENGTH };
  }
  if (name.includes('\0')) {
    return { code: 'nul' };
  }
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) {
    return { code: 'absolute' };
  }
  if (name.includes('\\')) {
    return { code: 'backslash' };
  }
  if (name.split('/').includes('..')) {
    return { code: 'dot-dot-segment' };
  }
  if (name.includes('/')) {
    return { code: 'slash' };
  }
  if (name === '.') {
    return { code: 'dot' };
  }
  if (name.includes('..')) {
    return { code: 'dot-dot' };
  }
  if (name.startsWith('.')) {
    // The loader skips hidden folders: such a case could never be found.
    return { code: 'hidden' };
  }
  const bad = [...name].find(char => !Private.SAFE_CHAR.test(char));
  if (bad !== undefined) {
    return { code: 'character', char: bad };
  }
  return null;
}

/**
 * Why a case name cannot be used, as a clause about it (`it is empty`), for
 * a sentence that names the case; translated when `__` is.
 */
export function renderNameProblem(
  problem: NameProblem,
  __: Translate = english
): string {
  switch (problem.code) {
    case 'empty':
      return __('it is empty');
    case 'too-long':
      return __('it is longer than %1 characters', problem.limit);
    case 'nul':
      return __('it contains a NUL byte');
    case 'absolute':
      return __('it is an absolute path');
    case 'backslash':
      return __('it contains a backslash');
    case 'dot-dot-segment':
      return __('it has a ".." segment');
    case 'slash':
      return __('it contains "/"');
    case 'dot':
      return __('it is "."');
    case 'dot-dot':
      return __('it contains ".."');
    case 'hidden':
      return __('it starts with "."');
    case 'character':
      return __('it contains the character %1', JSON.stringify(problem.char));
  }
}

/**
 * Join relative parts onto a trusted root, throwing an Error for any part that is
 * absolute, contains `\`, a NUL or a `..` segment, or would leave the root.
 */
export function joinSafe(root: string, ...parts: string[]): string {
  const segments: string[] = [];
  for (const part of parts) {
    Private.checkPart(part);
    for (const segment of part.split('/')) {
      if (segment === '' || segment === '.') {
        continue;
      }
      segments.push(segment);
    }
  }
  const base = Private.trimTrailingSlashes(root);
  if (segments.length === 0) {
    return root === '' ? '' : base || '/';
  }
  const tail = segments.join('/');
  if (base === '') {
    return root.startsWith('/') ? `/${tail}` : tail;
  }
  const joined = `${base}/${tail}`;
  // Defence in depth: the checks above already exclude `..`, but the result must
  // provably stay below the root whatever the root looks like.
  if (!joined.startsWith(`${base}/`)) {
    throw new Error(`Path "${parts.join('/')}" escapes the root "${root}".`);
  }
  return joined;
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * A character allowed in a case name.
   */
  export const SAFE_CHAR = /^[A-Za-z0-9_.-]$/;

  /**
   * The longest case name (a common file name limit).
   */
  export const MAX_NAME_LENGTH = 255;

  /**
   * Throw when a relative part is not safe to append to a root.
   */
  export function checkPart(part: string): void {
    if (part.includes('\0')) {
      throw new Error(`Unsafe path "${printable(part)}": contains a NUL byte.`);
    }
    if (part.includes('\\')) {
      throw new Error(`Unsafe path "${part}": contains a backslash.`);
    }
    if (part.startsWith('/') || /^[A-Za-z]:/.test(part)) {
      throw new Error(`Unsafe path "${part}": absolute paths are not allowed.`);
    }
    if (part.split('/').includes('..')) {
      throw new Error(
        `Unsafe path "${part}": ".." would leave the casebook folder.`
      );
    }
  }

  /**
   * Remove trailing slashes, keeping a lone '/' as ''.
   */
  export function trimTrailingSlashes(path: string): string {
    let end = path.length;
    while (end > 0 && path[end - 1] === '/') {
      end--;
    }
    return path.slice(0, end);
  }

  /**
   * Show control characters visibly in an error message.
   */
  function printable(text: string): string {
    return text.replace(/\0/g, '\\0');
  }
}
