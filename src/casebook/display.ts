/**
 * Presentation helpers for case labels. Pure.
 */
import type { ICase } from './types';

/**
 * The exception name as Python spells it: the descriptor stores it in lower
 * case (`nameerror`), the recorded traceback keeps the real spelling
 * (`NameError`); falls back to the descriptor's value.
 */
export function displayEname(c: Pick<ICase, 'ename' | 'traceback'>): string {
  const wanted = c.ename.trim().toLowerCase();
  if (!wanted) {
    return c.ename;
  }
  for (let i = c.traceback.length - 1; i >= 0; i--) {
    for (const line of c.traceback[i].split('\n')) {
      const match = /^\s*([A-Za-z_][\w.]*)\s*(?::|$)/.exec(line);
      if (match) {
        const name = match[1];
        const bare = name.slice(name.lastIndexOf('.') + 1);
        if (bare.toLowerCase() === wanted) {
          return bare;
        }
      }
    }
  }
  return c.ename;
}

/**
 * Casebook text made safe to print on a terminal: control characters (ANSI
 * escapes included) and bidirectional overrides become visible `\uXXXX`
 * escapes; tabs and newlines are kept.
 */
export function terminalSafe(text: string): string {
  // Descriptor and diagnosis text is untrusted: an escape sequence could
  // rewrite the terminal, an override could reorder what is shown.
  return text.replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, char =>
    char === '\t' || char === '\n'
      ? char
      : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
  );
}
