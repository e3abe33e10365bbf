/**
 * Safety rules for casebook-relative paths: which names are safe, and a join
 * that never leaves its root (plain joins, dirnames and relative paths come
 * from `PathExt` in @jupyterlab/coreutils, or `path.posix` in the CLI).
 *
 * Casebook paths always use `/`; '' is the casebook root. Nothing here touches
 * a file system, so the same rules hold in the browser and in Node.
 */

/**
 * Whether a case name is safe to use as a folder or file name: only letters,
 * digits, `_`, `.` and `-`, no `..` and no leading `.`.
 */
export function isSafeName(name: string): boolean {
  return nameProblem(name) === null;
}

/**
 * Why a case name is not safe to use as a folder or file name, in a few words
 * (`contains a NUL byte`, `is an absolute path`, ...); null when it is safe.
 */
export function nameProblem(name: string): string | null {
  if (name.length === 0) {
    return 'is empty';
  }
  if (name.length > Private.MAX_NAME_LENGTH) {
    return `is longer than ${Private.MAX_NAME_LENGTH} characters`;
  }
  if (name.includes('\0')) {
    return 'contains a NUL byte';
  }
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) {
    return 'is an absolute path';
  }
  if (name.includes('\\')) {
    return 'contains a backslash';
  }
  if (name.split('/').includes('..')) {
    return 'has a ".." segment';
  }
  if (name.includes('/')) {
    return 'contains "/"';
  }
  if (name === '.') {
    return 'is "."';
  }
  if (name.includes('..')) {
    return 'contains ".."';
  }
  if (name.startsWith('.')) {
    // The loader skips hidden folders: such a case could never be found.
    return 'starts with "."';
  }
  const bad = [...name].find(char => !Private.SAFE_CHAR.test(char));
  if (bad !== undefined) {
    return `contains the character ${JSON.stringify(bad)}`;
  }
  return null;
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
