/**
 * parseDescriptor on generated workbooks.
 */

import { strToU8, zipSync } from 'fflate';

import { parseDescriptor } from '../../src/casebook';
import { descRow, descriptorXlsx, HEADER } from './fixtures';
import { makeXlsx } from './xlsx';

describe('parseDescriptor', () => {
  it('reads a well-formed descriptor', async () => {
    const { rows, problems } = await parseDescriptor(
      descriptorXlsx([descRow('pandas_1'), descRow('torch_2')])
    );
    expect(problems).toEqual([]);
    expect(rows.map(row => [row.name, row.row])).toEqual([
      ['pandas_1', 2],
      ['torch_2', 3]
    ]);
    expect(rows[0]).toEqual({
      name: 'pandas_1',
      eid: 'eid-pandas_1',
      ename: 'valueerror',
      evalue: 'bad value in pandas_1',
      traceback: ['---', 'ValueError: bad value in pandas_1'],
      rootCause: 'API misuse',
      crashType: 'invalid argument',
      pipelineStage: 'training',
      mlBug: 'ML bug',
      datasets: [
        {
          title: 'Some data',
          license: 'CC0',
          url: 'https://example.invalid/data'
        }
      ],
      notebookUrl: 'https://example.invalid/nb',
      row: 2
    });
  });

  it('turns numbers, booleans and empty cells into strings', async () => {
    const { rows } = await parseDescriptor(
      descriptorXlsx([
        descRow('numpy_1', {
          eid: 42,
          evalue: true,
          ename: null,
          traceback: null
        })
      ])
    );
    expect(rows[0]).toMatchObject({
      eid: '42',
      evalue: 'true',
      ename: '',
      traceback: []
    });
  });

  it('finds the sheet whose first row has nb_name', async () => {
    const bytes = makeXlsx([
      { name: 'Notes', rows: [['about'], ['nothing']] },
      { name: 'Cases', rows: [HEADER, descRow('sklearn_1')] }
    ]);
    const { rows, problems } = await parseDescriptor(bytes);
    expect(problems).toEqual([]);
    expect(rows.map(row => row.name)).toEqual(['sklearn_1']);
  });

  it('reads a third dataset credit', async () => {
    const header = [...HEADER, 'DatasetTitle_3', 'DatasetUrl_3'];
    const { rows, problems } = await parseDescriptor(
      descriptorXlsx(
        [[...descRow('pandas_1'), 'Third', 'https://x.invalid']],
        header
      )
    );
    expect(problems).toEqual([]);
    expect(rows[0].datasets[1]).toEqual({
      title: 'Third',
      license: '',
      url: 'https://x.invalid'
    });
  });

  it.each<[string, ArrayBuffer, string[], RegExp[]]>([
    [
      'bytes that are not a zip',
      new TextEncoder().encode('nb_name,ename\npandas_1,x\n')
        .buffer as ArrayBuffer,
      [],
      [/^desc\.xlsx is not a readable \.xlsx file: .+/]
    ],
    [
      'an empty buffer',
      new ArrayBuffer(0),
      [],
      [/^desc\.xlsx is not a readable \.xlsx file: .+/]
    ],
    [
      'a zip that is not a workbook',
      zipSync({ 'notes.txt': strToU8('hello') }).buffer as ArrayBuffer,
      [],
      [/^desc\.xlsx is not a readable \.xlsx file: .+/]
    ],
    [
      'a legacy .xls file',
      new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0])
        .buffer as ArrayBuffer,
      [],
      [/^desc\.xlsx is not a readable \.xlsx file: .*\.xls/]
    ],
    [
      'a workbook with an empty sheet',
      makeXlsx([{ name: 'Sheet1', rows: [] }]),
      [],
      [/desc\.xlsx has no header row/]
    ],
    [
      'missing required columns',
      descriptorXlsx([['pandas_1', 'x']], ['nb_name', 'traceback']),
      [],
      [/desc\.xlsx .*missing the required column\(s\) ename, evalue/]
    ],
    [
      'no nb_name column',
      descriptorXlsx([['x', 'y']], ['ename', 'evalue']),
      [],
      [/desc\.xlsx .*missing the required column\(s\) nb_name/]
    ],
    [
      'an unknown extra column',
      descriptorXlsx(
        [[...descRow('pandas_1'), 'extra']],
        [...HEADER, 'comment']
      ),
      ['pandas_1'],
      [/desc\.xlsx has unknown column\(s\) comment/]
    ],
    [
      'a repeated column',
      descriptorXlsx([[...descRow('pandas_1'), 'dup']], [...HEADER, 'ename']),
      ['pandas_1'],
      [/desc\.xlsx repeats the column\(s\) ename/]
    ],
    [
      'a duplicate name',
      descriptorXlsx([
        descRow('pandas_1'),
        descRow('torch_1'),
        descRow('pandas_1')
      ]),
      ['pandas_1', 'torch_1'],
      [/desc\.xlsx row 4: case name "pandas_1" repeats row 2/]
    ],
    [
      'an unsafe name with a slash',
      descriptorXlsx([descRow('../etc/passwd'), descRow('torch_1')]),
      ['torch_1'],
      [/desc\.xlsx row 2: case name "..\/etc\/passwd" is unsafe/]
    ],
    [
      'an unsafe name with a backslash',
      descriptorXlsx([descRow('a\\b'), descRow('torch_1')]),
      ['torch_1'],
      [/desc\.xlsx row 2: case name "a\\\\b" is unsafe/]
    ],
    [
      'a row without a name',
      descriptorXlsx([descRow(null), descRow('torch_1')]),
      ['torch_1'],
      [/desc\.xlsx row 2 has no nb_name/]
    ],
    [
      'an entirely empty row',
      descriptorXlsx([HEADER.map(() => null), descRow('torch_1')]),
      ['torch_1'],
      []
    ],
    [
      'an unparsable traceback',
      descriptorXlsx([
        descRow('pandas_1', { traceback: "['a', 2]" }),
        descRow('torch_1')
      ]),
      ['pandas_1', 'torch_1'],
      [
        /desc\.xlsx row 2 \(pandas_1\): the traceback is not a parsable Python list literal/
      ]
    ]
  ])('copes with %s', async (_, bytes, names, messages) => {
    const { rows, problems } = await parseDescriptor(bytes, 'desc.xlsx');
    expect(rows.map(row => row.name)).toEqual(names);
    expect(problems.map(problem => problem.message)).toEqual(
      messages.map(message => expect.stringMatching(message))
    );
    for (const problem of problems) {
      expect(problem.file).toBe('desc.xlsx');
    }
  });

  it('names the case of a rejected row', async () => {
    const { problems } = await parseDescriptor(
      descriptorXlsx([descRow('pandas_1'), descRow('pandas_1')])
    );
    expect(problems).toEqual([
      expect.objectContaining({
        case: 'pandas_1',
        severity: 'error',
        file: 'benchmark_desc.xlsx'
      })
    ]);
  });

  it('falls back to lines for an unparsable traceback', async () => {
    const { rows, problems } = await parseDescriptor(
      descriptorXlsx([
        descRow('pandas_1', { traceback: "['x' 'y' z]\nValueError: v" })
      ])
    );
    expect(rows[0].traceback).toEqual(["['x' 'y' z]", 'ValueError: v']);
    expect(problems[0].severity).toBe('warning');
  });
});
