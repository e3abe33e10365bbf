import * as fs from 'fs';
import * as path from 'path';

import { lineDiff, notebookDiff } from '../../src/repair/diff';
import { canGiveUp, canReveal, toRevealPolicy } from '../../src/repair/reveal';
import type { RevealPolicy } from '../../src/repair/reveal';
import type { INotebookJSON } from '../../src/replay/types';

describe('canReveal', () => {
  it.each<[RevealPolicy, number, boolean, boolean]>([
    ['after-attempt', 0, false, false],
    ['after-attempt', 1, false, true],
    ['after-attempt', 2, true, true],
    ['after-pass', 3, false, false],
    ['after-pass', 1, true, true],
    ['always', 0, false, true],
    ['never', 5, true, false]
  ])(
    '%s with %i attempts, solved %s: %s',
    (policy, attempts, solved, expected) => {
      expect(canReveal(policy, { attempts, solved })).toBe(expected);
    }
  );

  it.each<[RevealPolicy, boolean]>([
    ['after-attempt', true],
    ['after-pass', false],
    ['always', false],
    ['never', false]
  ])('give up under %s: %s', (policy, expected) => {
    expect(canGiveUp(policy)).toBe(expected);
  });

  it.each([
    ['after-pass', 'after-pass'],
    ['nonsense', 'after-attempt'],
    [undefined, 'after-attempt']
  ])('reads %s as %s', (value, expected) => {
    expect(toRevealPolicy(value)).toBe(expected);
  });
});

describe('lineDiff', () => {
  it.each([
    [['a', 'b'], ['a', 'b'], ' a| b'],
    [['a', 'b'], ['a', 'c'], ' a|-b|+c'],
    [[], ['x'], '+x'],
    [['x'], [], '-x'],
    [['a', 'b', 'c'], ['a', 'c', 'd'], ' a|-b| c|+d']
  ])('%j → %j', (a, b, expected) => {
    expect(
      lineDiff(a, b)
        .map(l => `${l.op}${l.text}`)
        .join('|')
    ).toBe(expected);
  });
});

describe('notebookDiff', () => {
  it('aligns by cell id and reports moved order and counts', () => {
    const reproduced: INotebookJSON = {
      cells: [
        {
          cell_type: 'code',
          id: 'a',
          source: 'import numpy as np',
          execution_count: 1
        },
        {
          cell_type: 'code',
          id: 'b',
          source: '# [reexecute]\nx = x[1:]',
          execution_count: 3
        },
        { cell_type: 'code', id: 'c', source: 'f(x)', execution_count: 4 }
      ],
      nbformat: 4
    };
    const fixed: INotebookJSON = {
      cells: [
        {
          cell_type: 'code',
          id: 'a',
          source: 'import numpy as np',
          execution_count: 1
        },
        {
          cell_type: 'code',
          id: 'n',
          source: 'x = load()',
          execution_count: 2
        },
        { cell_type: 'code', id: 'b', source: 'x = x[1:]', execution_count: 3 },
        {
          cell_type: 'code',
          id: 'c',
          source: 'f(x, axis=0)',
          execution_count: 4
        }
      ],
      nbformat: 4
    };
    const diff = notebookDiff(reproduced, fixed);
    expect(diff.map(d => d.kind)).toEqual(['same', 'added', 'same', 'changed']);
    expect(diff[3].lines).toEqual([
      { op: '-', text: 'f(x)' },
      { op: '+', text: 'f(x, axis=0)' }
    ]);
    expect(diff[1]).toMatchObject({ before: null, after: 2, countAfter: 2 });
  });

  it('diffs every demo case against its reference fix', () => {
    const root = path.resolve(__dirname, '../../demo/casebook/benchmark');
    for (const name of fs.readdirSync(root)) {
      const read = (kind: string) =>
        JSON.parse(
          fs.readFileSync(
            path.join(root, name, `${name}_${kind}.ipynb`),
            'utf-8'
          )
        ) as INotebookJSON;
      const diff = notebookDiff(read('reproduced'), read('fixed'));
      // A reference fix changes something, and never loses a cell silently.
      expect(
        diff.some(d => d.kind !== 'same' || d.countBefore !== d.countAfter)
      ).toBe(true);
      expect(diff.filter(d => d.before !== null)).toHaveLength(
        read('reproduced').cells.length
      );
    }
  });
});
