import * as fs from 'fs';
import * as path from 'path';

import {
  displayEname,
  readmeSummary,
  terminalSafe
} from '../../src/casebook/display';

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

describe('readmeSummary', () => {
  const DEMO = path.resolve(__dirname, '../../demo/casebook/benchmark');
  const SHARED = path.resolve(__dirname, '../../../shared/junobench/benchmark');

  it('takes the Notebook section of a demo README', () => {
    const text = readmeSummary(
      fs.readFileSync(path.join(DEMO, 'numpy_1', 'README.md'), 'utf8')
    );
    expect(text).toMatch(
      /^Nearest-centroid classifier written with NumPy only/
    );
    expect(text).toContain('data/flowers.csv');
  });

  it.each(fs.readdirSync(DEMO))(
    '%s: the summary gives nothing of the crash away',
    name => {
      const readme = fs.readFileSync(
        path.join(DEMO, name, 'README.md'),
        'utf8'
      );
      const text = readmeSummary(readme);
      expect(text.length).toBeGreaterThan(20);
      const crash = /## Crash\s*\n([\s\S]*?)(\n## |$)/.exec(readme)?.[1] ?? '';
      expect(crash.length).toBeGreaterThan(0);
      for (const sentence of crash
        .split(/[.;:]\s/)
        .filter(s => s.length > 25)) {
        expect(text).not.toContain(sentence.trim());
      }
      expect(text).not.toMatch(/Recorded exception|root cause|Labels:/i);
    }
  );

  (fs.existsSync(path.join(SHARED, 'sklearn_3')) ? it : it.skip)(
    'takes the first prose of a real README without a Notebook section',
    () => {
      const text = readmeSummary(
        fs.readFileSync(path.join(SHARED, 'sklearn_3', 'README.md'), 'utf8')
      );
      expect(text).toMatch(
        /^Due to licensing restrictions on the original dataset/
      );
    }
  );

  it.each([
    [
      'links become their text',
      'Intro [the data](https://x.org) here.',
      'Intro the data here.'
    ],
    [
      'emphasis and code marks go',
      'A **bold** and `code` and *it*.',
      'A bold and code and it.'
    ],
    [
      'a README about the crash only gives nothing',
      '# Crash\n\nIt fails with KeyError.',
      ''
    ],
    [
      'key-value and list lines are skipped',
      '**Title:** x\n- a list\n\nProse here.',
      'Prose here.'
    ],
    [
      'HTML comments are skipped',
      '<!-- secret: KeyError -->\nVisible.',
      'Visible.'
    ]
  ])('%s', (_name, markdown, expected) => {
    expect(readmeSummary(markdown)).toBe(expected);
  });

  it('caps the length', () => {
    const text = readmeSummary('word '.repeat(400), 100);
    expect(text.length).toBe(100);
    expect(text.endsWith('…')).toBe(true);
  });
});
