/**
 * parseDiagnoses on generated workbooks.
 */

import { parseDiagnoses } from '../../src/casebook';
import { diagnosesXlsx } from './fixtures';
import { makeXlsx } from './xlsx';

describe('parseDiagnoses', () => {
  it('keys reproduced rows by case and ignores fixed and empty ones', async () => {
    const { byCase, problems } = await parseDiagnoses(
      diagnosesXlsx([
        ['pandas_3_fixed', 'not this one'],
        ['pandas_3_reproduced', 'Crash in merge.'],
        ['torch_1_reproduced', null],
        ['numpy_2', 'Plain name.']
      ])
    );
    expect(problems).toEqual([]);
    expect([...byCase]).toEqual([
      ['pandas_3', 'Crash in merge.'],
      ['numpy_2', 'Plain name.']
    ]);
  });

  it.each<[string, ArrayBuffer, RegExp, number]>([
    [
      'corrupt bytes',
      new Uint8Array([80, 75, 3, 4, 0, 0]).buffer as ArrayBuffer,
      /^diag\.xlsx is not a readable \.xlsx file: /,
      0
    ],
    [
      'no instance column',
      makeXlsx([
        {
          name: 'Ground_truth',
          rows: [
            ['case', 'diagnosis'],
            ['a_1', 'x']
          ]
        }
      ]),
      /^diag\.xlsx has no sheet with an "instance" column/,
      0
    ],
    [
      'no diagnosis column',
      makeXlsx([
        {
          name: 'Other',
          rows: [
            ['instance', 'note'],
            ['a_1_reproduced', 'x']
          ]
        }
      ]),
      /^diag\.xlsx \(sheet "Other"\) has no "diagnosis" column/,
      0
    ],
    [
      'a second diagnosis for a case',
      diagnosesXlsx([
        ['a_1_reproduced', 'first'],
        ['a_1_reproduced', 'second']
      ]),
      /^diag\.xlsx row 3: a second diagnosis for "a_1" \(first at row 2\)/,
      1
    ]
  ])('copes with %s', async (_, bytes, message, size) => {
    const { byCase, problems } = await parseDiagnoses(bytes, 'diag.xlsx');
    expect(problems).toEqual([
      expect.objectContaining({
        file: 'diag.xlsx',
        message: expect.stringMatching(message)
      })
    ]);
    expect(byCase.size).toBe(size);
  });

  it('uses the first sheet with an instance column when there is no Ground_truth', async () => {
    const { byCase } = await parseDiagnoses(
      makeXlsx([
        { name: 'Intro', rows: [['hello']] },
        {
          name: 'Data',
          rows: [
            ['instance', 'diagnosis'],
            ['x_1_reproduced', 'why']
          ]
        }
      ])
    );
    expect(byCase.get('x_1')).toBe('why');
  });
});
