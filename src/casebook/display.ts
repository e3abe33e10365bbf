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

/** Headings of README sections that may give the crash away. */
const REVEALING = /crash|diagnos|fix|label|cause|solution|answer|reveal|error/i;
/** Headings of README sections that describe the case. */
const DESCRIBING = /notebook|about|description|task|overview/i;

/**
 * A short plain-text description of a case from its README, for the case
 * card: the "Notebook" (or "About", "Description") section when there is
 * one, else the first prose paragraph; sections about the crash, its fix or
 * its labels are never used, so the card gives nothing away before the
 * reveal. Markdown links become their text; emphasis and code marks are
 * dropped; at most `max` characters.
 */
export function readmeSummary(markdown: string, max = 600): string {
  const sections: { heading: string; lines: string[] }[] = [
    { heading: '', lines: [] }
  ];
  for (const line of markdown.replace(/<!--[\s\S]*?-->/g, '').split(/\r?\n/)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      sections.push({ heading: heading[1].trim(), lines: [] });
    } else {
      sections[sections.length - 1].lines.push(line);
    }
  }
  const safe = sections.filter(s => !REVEALING.test(s.heading));
  const ordered = [
    ...safe.filter(s => DESCRIBING.test(s.heading)),
    ...safe.filter(s => !DESCRIBING.test(s.heading))
  ];
  for (const section of ordered) {
    const paragraphs: string[] = [];
    let current: string[] = [];
    const flush = () => {
      if (current.length) {
        paragraphs.push(current.join(' '));
        current = [];
      }
    };
    for (const raw of section.lines) {
      const line = raw.trim();
      // Prose only: not key-value lines, lists, tables, quotes or code.
      if (!line || /^(\*\*|[-*+] |\||>|```|\d+\. )/.test(line)) {
        flush();
        continue;
      }
      current.push(line);
    }
    flush();
    const prose = paragraphs.filter(p => !REVEALING.test(p.slice(0, 12)));
    if (prose.length) {
      const text = prose
        .slice(0, 2)
        .join('\n\n')
        .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/(\*\*|__|\*|_|`)(\S[^]*?\S|\S)\1/g, '$2')
        .replace(/ {2,}/g, ' ')
        .trim();
      return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
    }
  }
  return '';
}
