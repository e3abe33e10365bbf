import { stripAnsi } from '../../src/replay';

describe('stripAnsi', () => {
  it.each([
    ['plain text', 'ValueError: bad', 'ValueError: bad'],
    ['IPython colour codes', '\u001b[0;31mNameError\u001b[0m', 'NameError'],
    ['256-colour codes', 'y \u001b[38;5;241m=\u001b[39m f(x)', 'y = f(x)'],
    [
      'background and bold combined',
      '\u001b[43mmodel\u001b[49m\u001b[38;5;241;43m.\u001b[39;49m',
      'model.'
    ],
    [
      'IPython 8 cell header',
      'Cell \u001b[0;32mIn[3], line 2\u001b[0m',
      'Cell In[3], line 2'
    ],
    [
      'OSC 8 hyperlink',
      '\u001b]8;;file:///tmp/x.py\u0007x.py\u001b]8;;\u0007',
      'x.py'
    ],
    ['empty string', '', ''],
    ['newlines kept', '\u001b[0;32m----> 2\u001b[0m y\n', '----> 2 y\n'],
    ['a C1 CSI byte', '\u009b31mred', 'red'],
    ['a two-byte escape', '\u001bMup', 'up'],
    ['an OSC cut short', 'a\u001b]8;;http://x', 'a'],
    [
      'an OSC ended by BEL',
      '\u001b]8;;http://x\u0007link\u001b]8;;\u0007',
      'link'
    ]
  ])('%s', (_name, input, expected) => {
    expect(stripAnsi(input)).toBe(expected);
  });
});
