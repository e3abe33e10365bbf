/**
 * The Python list literal parser and traceback cells (ANSI stripping: test/replay/ansi.spec.ts).
 */

import { parsePythonStringList, parseTracebackCell } from '../../src/casebook';

describe('parsePythonStringList', () => {
  it.each<[string, string, string[]]>([
    ['an empty list', '[]', []],
    ['single quotes', "['a', 'b']", ['a', 'b']],
    ['double quotes', '["a", "b"]', ['a', 'b']],
    ['mixed quotes', `['it', "it's"]`, ['it', "it's"]],
    ['a trailing comma', "['a',]", ['a']],
    ['space and newlines around', "  [ 'a' ,\n 'b' ]  ", ['a', 'b']],
    ['\\n \\t \\r', "['a\\nb\\tc\\rd']", ['a\nb\tc\rd']],
    ['escaped quotes', `['it\\'s', "say \\"hi\\""]`, ["it's", 'say "hi"']],
    ['escaped backslashes', "['C:\\\\path\\\\x']", ['C:\\path\\x']],
    ['\\x1b', "['\\x1b[0;31mE\\x1b[0m']", ['\u001b[0;31mE\u001b[0m']],
    ['\\u001b', "['\\u001b[1m']", ['\u001b[1m']],
    ['\\U escapes', "['\\U0001F600']", ['\u{1F600}']],
    ['octal escapes', "['\\101\\0']", ['A\0']],
    ['literal unicode', "['判断 Оценка •']", ['判断 Оценка •']],
    ['unknown escapes kept', "['\\d+ \\N{DASH}']", ['\\d+ \\N{DASH}']],
    ['line continuation', "['a\\\nb']", ['ab']],
    ['adjacent literals', "['a' \"b\", 'c']", ['ab', 'c']],
    ['a raw string', "[r'\\d\\n']", ['\\d\\n']],
    ['a u prefix', "[u'x']", ['x']],
    ['triple quotes', "['''a'b''']", ["a'b"]]
  ])('parses %s', (_, text, items) => {
    expect(parsePythonStringList(text)).toEqual({ ok: true, items });
  });

  it.each<[string, string, boolean]>([
    ['not a list', "'a'", false],
    ['a number item', '[1, 2]', false],
    ['None', '[None]', false],
    ['a missing comma', "['a' x]", false],
    ['text after the list', "['a'] x", false],
    ['a bad \\x escape', "['\\xZZ']", false],
    ['a cut string', "['a', 'b", true],
    ['a missing bracket', "['a', 'b'", true],
    ['a cut escape', "['a\\", true]
  ])('rejects %s', (_, text, truncated) => {
    const result = parsePythonStringList(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.truncated).toBe(truncated);
      expect(result.error).toMatch(/offset \d+|end of the text/);
    }
  });

  it('keeps what came before a cut', () => {
    expect(parsePythonStringList("['a', 'b\\nc")).toMatchObject({
      ok: false,
      truncated: true,
      items: ['a', 'b\nc']
    });
  });
});

describe('parseTracebackCell', () => {
  it.each<[string, string, string[], RegExp | undefined]>([
    ['an empty cell', '', [], undefined],
    [
      'a list with ANSI codes',
      "['\\x1b[0;31mValueError\\x1b[0m: bad', '\\u001b[1mx\\u001b[0m']",
      ['ValueError: bad', 'x'],
      undefined
    ],
    [
      'plain text with CRLF',
      'Traceback\r\n  line\r\nValueError: bad\r\n',
      ['Traceback', '  line', 'ValueError: bad'],
      undefined
    ],
    [
      'a cut list',
      "['first', 'second\\n', 'thi",
      ['first', 'second\n', 'thi'],
      /cut short/
    ],
    [
      'a malformed list',
      "['a' + 'b']\nKeyError: 'x'",
      ["['a' + 'b']", "KeyError: 'x'"],
      /not a parsable Python list literal/
    ]
  ])('reads %s', (_, cell, lines, warning) => {
    const result = parseTracebackCell(cell);
    expect(result.lines).toEqual(lines);
    if (warning) {
      expect(result.warning).toMatch(warning);
    } else {
      expect(result.warning).toBeUndefined();
    }
  });
});
