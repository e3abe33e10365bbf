/**
 * `runnability`: whether a case can be replayed here and what its folder
 * lacks, on hand-made cases and on the real descriptor with its few folders.
 */
import * as fs from 'fs';
import * as path from 'path';

import { mostlyIncomplete, runnability } from '../../src/casebook';
import type { ICase } from '../../src/casebook';
import { loadLocalCasebook } from '../../src/cli/verify';

import { caseRecord } from './fixtures';

const SHARED = path.resolve(__dirname, '../../../shared/junobench');
const DEMO = path.resolve(__dirname, '../../demo/casebook');

const DATASET = [{ title: 'Titanic', license: 'CC0', url: 'https://x' }];

function files(parts: Partial<ICase['files']>): ICase['files'] {
  return {
    folder: 'benchmark/c_1',
    original: true,
    reproduced: true,
    fixed: true,
    readme: true,
    data: ['benchmark/c_1/data.csv'],
    ...parts
  };
}

describe('runnability', () => {
  it.each<[string, Partial<ICase>, boolean, string[]]>([
    ['a complete case', { files: files({}), datasets: DATASET }, true, []],
    [
      'no folder at all',
      {
        files: files({
          folder: null,
          reproduced: false,
          fixed: false,
          data: []
        }),
        datasets: DATASET
      },
      false,
      ['folder']
    ],
    [
      'no reproduced notebook',
      { files: files({ reproduced: false }), datasets: DATASET },
      false,
      ['reproduced']
    ],
    [
      'a credited dataset without data files',
      { files: files({ data: [] }), datasets: DATASET },
      false,
      ['data']
    ],
    [
      'no dataset credited and no data files',
      { files: files({ data: [] }), datasets: [] },
      true,
      []
    ],
    [
      'no reference fix (still replays)',
      { files: files({ fixed: false }), datasets: DATASET },
      true,
      ['fixed']
    ],
    [
      'neither notebook nor data',
      {
        files: files({ reproduced: false, fixed: false, data: [] }),
        datasets: DATASET
      },
      false,
      ['reproduced', 'data', 'fixed']
    ]
  ])('%s', (_name, fields, runnable, missing) => {
    expect(runnability(caseRecord('c_1', fields))).toEqual({
      runnable,
      missing
    });
  });

  it('says most of a casebook is incomplete only past half', () => {
    const ok = caseRecord('a_1', { files: files({}), datasets: DATASET });
    const bad = caseRecord('a_2', { datasets: DATASET });
    expect(mostlyIncomplete([ok, bad])).toBe(false);
    expect(mostlyIncomplete([ok, bad, bad])).toBe(true);
    expect(mostlyIncomplete([])).toBe(false);
  });

  it('finds every demo case runnable', async () => {
    const book = await loadLocalCasebook(DEMO);
    expect(book.cases.length).toBeGreaterThan(0);
    expect(book.cases.filter(c => !runnability(c).runnable)).toEqual([]);
    expect(mostlyIncomplete(book.cases)).toBe(false);
  });

  (fs.existsSync(SHARED) ? it : it.skip)(
    'finds the real descriptor mostly incomplete here, with sklearn_3 runnable',
    async () => {
      const book = await loadLocalCasebook(SHARED);
      expect(mostlyIncomplete(book.cases)).toBe(true);
      const runnable = book.cases.filter(c => runnability(c).runnable);
      expect(runnable.map(c => c.name)).toEqual(['sklearn_3']);
    }
  );
});
