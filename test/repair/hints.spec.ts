import * as fs from 'fs';
import * as path from 'path';

import { loadLocalCasebook } from '../../src/cli/verify';
import type { ICase } from '../../src/casebook/types';
import { hintLadder, nextHint } from '../../src/repair/hints';
import type { IHint } from '../../src/repair/hints';
import type { INotebookJSON } from '../../src/replay/types';

import { caseRecord } from '../casebook/fixtures';

const DEMO = path.resolve(__dirname, '../../demo/casebook');

function notebook(name: string, kind: 'reproduced' | 'fixed'): INotebookJSON {
  const file = path.join(DEMO, 'benchmark', name, `${name}_${kind}.ipynb`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as INotebookJSON;
}

describe('hintLadder on the demo casebook', () => {
  let cases: Map<string, ICase>;

  beforeAll(async () => {
    const book = await loadLocalCasebook(DEMO);
    cases = new Map(book.cases.map(c => [c.name, c]));
  });

  function ladder(name: string): IHint[] {
    return hintLadder(
      cases.get(name)!,
      notebook(name, 'reproduced'),
      notebook(name, 'fixed')
    );
  }

  // Cell positions checked by reading the notebooks: NBspecific_2's cell 5 is
  // the `[reexecute]` crash cell; NBspecific_3's cell 5 is a `[reexecute]`
  // cell above the crash in cell 8; NBspecific_1's cell 9 defines `scaler`
  // and never ran before the crash in cell 7; numpy_1's fix changes cell 5.
  // The fixes of pandas_2 and numpy_2 (no cell ids) change their last cell,
  // 7 and 6.
  it.each([
    ['NBspecific_2', 5, 'Look at cell 5 [5]: it ran twice in a row.'],
    ['NBspecific_3', 5, 'Look at cell 5 [5]: it ran twice in a row.'],
    ['NBspecific_1', 9, 'Look at cell 9 [ ]: it had not run before the crash.'],
    ['numpy_1', 5, 'Look at cell 5 [3].'],
    ['pandas_2', 7, 'Look at cell 7 [5].'],
    ['numpy_2', 6, 'Look at cell 6 [4].']
  ])('%s: step 3 points at cell %i', (name, cell, text) => {
    const step3 = ladder(name)[2];
    expect(step3.step).toBe(3);
    expect(step3.cell).toBe(cell);
    expect(step3.text).toBe(text);
  });

  // sklearn_2's fix changes its last cell, 8, and its fixed notebook shares no
  // cell id with the reproduced one: the diff must align by content then (it
  // once aligned by id whenever both notebooks had ids, and pointed at cell 2).
  it('sklearn_2: step 3 points at cell 8 (ids not shared)', () => {
    const step3 = ladder('sklearn_2')[2];
    expect(step3.step).toBe(3);
    expect(step3.cell).toBe(8);
    expect(step3.text).toBe('Look at cell 8 [6].');
  });

  it('NBspecific_3 points at the re-run cell, not the crash cell', () => {
    expect(ladder('NBspecific_3')[2].cell).not.toBe(8);
  });

  it('gives numpy_1 the four hints in order', () => {
    expect(ladder('numpy_1').map(h => [h.step, h.text, h.cell])).toEqual([
      [
        1,
        'The crash happens during data preparation, in code using NumPy.',
        null
      ],
      [2, "The crash type is 'unsupported broadcast'.", null],
      [3, 'Look at cell 5 [3].', 5],
      [4, 'The root cause is an implementation error.', null]
    ]);
  });

  it('words a notebook-specific case without a library', () => {
    const hints = ladder('NBspecific_2');
    expect(hints[0].text).toBe(
      'The crash happens during data preparation; it is notebook-specific, not tied to one library.'
    );
    expect(hints[3].text).toBe('The root cause is notebook-specific.');
  });

  it('falls back to the crash cell without a fixed notebook', () => {
    const c = cases.get('numpy_1')!;
    const step3 = hintLadder(c, notebook('numpy_1', 'reproduced'), null)[2];
    expect(step3).toMatchObject({ cell: 5, text: 'Look at cell 5 [3].' });
  });

  it('passes messages and arguments through the translator', () => {
    const seen: string[] = [];
    const trans = {
      __: (msg: string, ...args: unknown[]) => {
        seen.push(msg);
        return `T(${msg}|${args.join(',')})`;
      }
    };
    const c = cases.get('numpy_1')!;
    const hints = hintLadder(
      c,
      notebook('numpy_1', 'reproduced'),
      notebook('numpy_1', 'fixed'),
      trans
    );
    expect(hints[2].text).toBe('T(Look at %1.|T(cell %1 [%2]|5,3))');
    expect(seen).toContain('Crash type');
  });
});

describe('hintLadder with empty labels', () => {
  const base: ICase = caseRecord('numpy_9', {
    row: 2,
    files: {
      folder: null,
      original: false,
      reproduced: true,
      fixed: false,
      readme: false,
      data: []
    }
  });
  const empty: INotebookJSON = { cells: [], nbformat: 4 };

  it.each<[number, string]>([
    [1, 'The pipeline stage is not labelled; the code uses NumPy.'],
    [2, 'The crash type is not labelled.'],
    [3, 'No crashing cell was recorded in this notebook.'],
    [4, 'The root cause is not labelled.']
  ])('step %i: %s', (step, text) => {
    const hint = hintLadder(base, empty, null)[step - 1];
    expect(hint.step).toBe(step);
    expect(hint.text).toBe(text);
    expect(hint.cell).toBeNull();
  });

  it.each<[string, string]>([
    ['API misuse', 'The root cause is an API misuse.'],
    ['Data confusion', 'The root cause is a data confusion.'],
    ['NB specific', 'The root cause is notebook-specific.']
  ])('root cause %s reads: %s', (rootCause, text) => {
    expect(hintLadder({ ...base, rootCause }, empty, null)[3].text).toBe(text);
  });
});

describe('nextHint', () => {
  const ladder: IHint[] = ([1, 2, 3, 4] as const).map(step => ({
    step,
    title: `t${step}`,
    text: `h${step}`,
    cell: null
  }));

  it.each<[number[], number | null]>([
    [[], 1],
    [[1], 2],
    [[1, 2], 3],
    [[2], 1],
    [[1, 3], 2],
    [[1, 2, 3], 4],
    [[4, 3, 2, 1], null],
    [[9], 1]
  ])('after %j comes %s', (used, expected) => {
    expect(nextHint(ladder, used)?.step ?? null).toBe(expected);
  });

  it('returns null for an empty ladder', () => {
    expect(nextHint([], [])).toBeNull();
  });
});
