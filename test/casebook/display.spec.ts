import { displayEname, terminalSafe } from '../../src/casebook/display';

describe('displayEname', () => {
  it.each([
    ['nameerror', ["NameError: name 'x' is not defined"], 'NameError'],
    [
      'notfittederror',
      [
        'Traceback ...',
        'sklearn.exceptions.NotFittedError: This StandardScaler instance is not fitted yet.'
      ],
      'NotFittedError'
    ],
    [
      'keyerror',
      [
        'KeyError                                  Traceback (most recent call last)\nCell In[3], line 1',
        "KeyError: 'units'"
      ],
      'KeyError'
    ],
    ['valueerror', [], 'valueerror'],
    ['typeerror', ['ValueError: something else'], 'typeerror']
  ])('%s from %j is %s', (ename, traceback, expected) => {
    expect(displayEname({ ename, traceback })).toBe(expected);
  });
});

describe('terminalSafe', () => {
  it.each([
    ['plain text', 'ValueError: bad', 'ValueError: bad'],
    ['tabs and newlines', 'a\tb\nc', 'a\tb\nc'],
    ['an ANSI colour', '\u001b[31mred\u001b[0m', '\\u001b[31mred\\u001b[0m'],
    ['a title change', '\u001b]0;pwned\u0007', '\\u001b]0;pwned\\u0007'],
    ['a carriage return', 'ok\rFAIL', 'ok\\u000dFAIL'],
    ['a NUL', 'a\u0000b', 'a\\u0000b'],
    ['a C1 control', 'a\u009bb', 'a\\u009bb'],
    ['a bidi override', 'abc\u202edcba', 'abc\\u202edcba'],
    ['markup', '<script>alert(1)</script>', '<script>alert(1)</script>']
  ])('escapes %s', (_, text, expected) => {
    expect(terminalSafe(text)).toBe(expected);
  });
});
