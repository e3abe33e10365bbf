/**
 * Recorded tracebacks: a small parser for the Python list literal the descriptor
 * stores them as, with ANSI escapes removed (`stripAnsi` from src/replay).
 *
 * The literal is parsed, never evaluated.
 */
import { stripAnsi } from '../replay/ansi';

/** The outcome of parsing a Python list of string literals. */
export type PythonListParse =
  | {
      /** The text is a complete list of string literals. */
      ok: true;
      /** The decoded strings. */
      items: string[];
    }
  | {
      /** The text is not a complete list of string literals. */
      ok: false;
      /** What is wrong and where (0-based character offset). */
      error: string;
      /** True when the text ends before the list is closed. */
      truncated: boolean;
      /** The strings decoded before the error (including a cut last string). */
      items: string[];
    };

/** A traceback cell turned into lines, with a note when it was malformed. */
export interface ITracebackParse {
  /** The traceback lines (list items or text lines) with ANSI codes removed. */
  lines: string[];
  /** Why the cell was not read as a complete list literal, when it was not. */
  warning?: string;
}

/**
 * Parse a Python list literal of strings (`['a', "b\n", u'\x1b[0m']`), decoding
 * escapes like Python does; never throws.
 */
export function parsePythonStringList(text: string): PythonListParse {
  return new Private.ListParser(text).parse();
}

/**
 * Turn a descriptor `traceback` cell into lines: a list literal gives its items,
 * plain text gives its lines; a malformed or cut literal gives what could be
 * recovered and a warning.
 */
export function parseTracebackCell(cell: string): ITracebackParse {
  const text = cell.trim();
  if (text === '') {
    return { lines: [] };
  }
  if (!text.startsWith('[')) {
    // Some cells hold the traceback as the printed text rather than a list.
    return { lines: Private.splitLines(stripAnsi(text)) };
  }
  const parsed = parsePythonStringList(text);
  if (parsed.ok) {
    return { lines: parsed.items.map(stripAnsi) };
  }
  if (parsed.truncated && parsed.items.length > 0) {
    return {
      lines: parsed.items.map(stripAnsi),
      warning: `the traceback list literal is cut short (${parsed.error}); kept the ${parsed.items.length} item(s) before the cut`
    };
  }
  return {
    lines: Private.splitLines(stripAnsi(text)),
    warning: `the traceback is not a parsable Python list literal (${parsed.error}); split into lines instead`
  };
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * Split text into lines on any newline convention, dropping trailing empty lines.
   */
  export function splitLines(text: string): string[] {
    const lines = text.split(/\r\n|\r|\n/);
    while (lines.length > 0 && lines[lines.length - 1].trim() === '') {
      lines.pop();
    }
    return lines;
  }

  /**
   * Thrown inside the parser to stop at the first error.
   */
  class ParseError extends Error {
    constructor(
      message: string,
      readonly truncated: boolean
    ) {
      super(message);
    }
  }

  /**
   * A recursive-descent parser for `[ string (, string)* ,? ]` where each
   * string is one or more adjacent Python string literals.
   */
  export class ListParser {
    constructor(private readonly text: string) {}

    /**
     * Parse the whole text.
     */
    parse(): PythonListParse {
      try {
        this.skipSpace();
        this.expect('[');
        this.skipSpace();
        if (this.peek() === ']') {
          this.pos++;
        } else {
          for (;;) {
            this.items.push(this.item());
            this.skipSpace();
            const next = this.peek();
            if (next === ',') {
              this.pos++;
              this.skipSpace();
              if (this.peek() === ']') {
                this.pos++;
                break;
              }
              continue;
            }
            if (next === ']') {
              this.pos++;
              break;
            }
            this.fail(
              next === undefined
                ? 'expected "," or "]"'
                : `expected "," or "]" but found ${JSON.stringify(next)}`
            );
          }
        }
        this.skipSpace();
        if (this.pos < this.text.length) {
          this.fail('unexpected text after the closing "]"');
        }
        return { ok: true, items: this.items };
      } catch (error) {
        if (error instanceof ParseError) {
          const items = [...this.items];
          if (this.partial !== null) {
            items.push(this.partial);
          }
          return {
            ok: false,
            error: error.message,
            truncated: error.truncated,
            items
          };
        }
        throw error;
      }
    }

    /**
     * One list item: adjacent string literals, concatenated as Python does.
     */
    private item(): string {
      let value = this.literal();
      for (;;) {
        const save = this.pos;
        this.skipSpace();
        if (this.startsLiteral()) {
          value += this.literal();
        } else {
          this.pos = save;
          return value;
        }
      }
    }

    /**
     * Whether a string literal (with an optional prefix) starts here.
     */
    private startsLiteral(): boolean {
      const rest = this.text.slice(this.pos, this.pos + 3);
      return /^(?:[rRuUbB]|[bB][rR]|[rR][bB])?['"]/.test(rest);
    }

    /**
     * One string literal with an optional r/u/b prefix, single or triple quoted.
     */
    private literal(): string {
      const prefix = /^(?:[bB][rR]|[rR][bB]|[rRuUbB])?/.exec(
        this.text.slice(this.pos, this.pos + 2)
      );
      const flags = prefix ? prefix[0].toLowerCase() : '';
      this.pos += flags.length;
      const raw = flags.includes('r');
      const bytes = flags.includes('b');
      const quote = this.peek();
      if (quote !== "'" && quote !== '"') {
        this.fail(
          quote === undefined
            ? 'expected a string'
            : `expected a string but found ${JSON.stringify(quote)}`
        );
      }
      const triple = this.text.startsWith(quote.repeat(3), this.pos);
      const delimiter = triple ? quote.repeat(3) : quote;
      this.pos += delimiter.length;
      let value = '';
      this.partial = value;
      for (;;) {
        if (this.pos >= this.text.length) {
          this.partial = value;
          this.fail('the text ends inside a string', true);
        }
        if (this.text.startsWith(delimiter, this.pos)) {
          this.pos += delimiter.length;
          this.partial = null;
          return value;
        }
        const ch = this.text[this.pos];
        if (ch === '\\') {
          value += raw ? this.rawEscape() : this.escape(bytes);
        } else {
          value += ch;
          this.pos++;
        }
        this.partial = value;
      }
    }

    /**
     * A backslash in a raw string: kept, and it protects the next character.
     */
    private rawEscape(): string {
      const pair = this.text.slice(this.pos, this.pos + 2);
      this.pos += pair.length;
      return pair;
    }

    /**
     * Decode one escape sequence starting at the backslash.
     */
    private escape(bytes: boolean): string {
      const start = this.pos;
      this.pos++;
      const ch = this.peek();
      if (ch === undefined) {
        this.fail('the text ends inside an escape sequence', true);
      }
      this.pos++;
      const simple = SIMPLE_ESCAPES[ch];
      if (simple !== undefined) {
        return simple;
      }
      if (ch === '\r') {
        // A line continuation; swallow a following \n of a CRLF too.
        if (this.peek() === '\n') {
          this.pos++;
        }
        return '';
      }
      if (ch >= '0' && ch <= '7') {
        let digits = ch;
        while (digits.length < 3 && /[0-7]/.test(this.peek() ?? '')) {
          digits += this.text[this.pos++];
        }
        return String.fromCharCode(parseInt(digits, 8));
      }
      if (ch === 'x') {
        return this.hexEscape(2, start);
      }
      if (!bytes && ch === 'u') {
        return this.hexEscape(4, start);
      }
      if (!bytes && ch === 'U') {
        return this.hexEscape(8, start);
      }
      // Unknown escapes (and \N{...}, whose names we cannot resolve) stay as written.
      return `\\${ch}`;
    }

    /**
     * Decode `\xhh`, `\uhhhh` or `\Uhhhhhhhh`.
     */
    private hexEscape(length: number, start: number): string {
      const digits = this.text.slice(this.pos, this.pos + length);
      if (digits.length < length) {
        this.fail('the text ends inside an escape sequence', true);
      }
      if (!/^[0-9a-fA-F]+$/.test(digits)) {
        this.fail(
          `invalid escape ${JSON.stringify(this.text.slice(start, this.pos + length))} at offset ${start}`
        );
      }
      const code = parseInt(digits, 16);
      if (code > 0x10ffff) {
        this.fail(`invalid code point in escape at offset ${start}`);
      }
      this.pos += length;
      return String.fromCodePoint(code);
    }

    /**
     * Skip whitespace between tokens.
     */
    private skipSpace(): void {
      while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) {
        this.pos++;
      }
    }

    /**
     * Consume an expected character.
     */
    private expect(ch: string): void {
      if (this.peek() !== ch) {
        this.fail(`expected ${JSON.stringify(ch)}`);
      }
      this.pos++;
    }

    /**
     * The current character, if any.
     */
    private peek(): string | undefined {
      return this.pos < this.text.length ? this.text[this.pos] : undefined;
    }

    /**
     * Stop parsing with a message that says where.
     */
    private fail(message: string, truncated = false): never {
      const atEnd = this.pos >= this.text.length;
      throw new ParseError(
        atEnd
          ? `${message} at the end of the text`
          : `${message} at offset ${this.pos}`,
        truncated || atEnd
      );
    }

    private pos = 0;
    private items: string[] = [];
    private partial: string | null = null;
  }

  /**
   * Python's single-character escapes (the backslash-newline continuation included).
   */
  const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
    '\n': '',
    '\\': '\\',
    "'": "'",
    '"': '"',
    a: '\x07',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v'
  };
}
