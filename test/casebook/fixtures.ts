/**
 * Small descriptor and diagnoses workbooks, and case records, for tests.
 */

import { libraryOf } from '../../src/casebook';
import type { ICase, ICasebookProblem } from '../../src/casebook';
import { renderCasebookMessage } from '../../src/casebook/messages';

import { makeXlsx } from './xlsx';
import type { IXlsxOptions, TestCell } from './xlsx';

/** The real descriptor's header row. */
export const HEADER = [
  'nb_name',
  'eid',
  'ename',
  'evalue',
  'traceback',
  'label_root_cause',
  'label_refined_exp_type',
  'label_ML_pipeline',
  'label_if_ML_bug',
  'DatasetTitle_1',
  'DatasetTitle_2',
  'DatasetLicenseName_1',
  'DatasetLicenseName_2',
  'DatasetUrl_1',
  'DatasetUrl_2',
  'NotebookUrl'
];

/**
 * A descriptor row in HEADER order, with overrides by column name.
 */
export function descRow(
  name: TestCell,
  overrides: Record<string, TestCell> = {}
): TestCell[] {
  const values: Record<string, TestCell> = {
    nb_name: name,
    eid: `eid-${String(name)}`,
    ename: 'valueerror',
    evalue: `bad value in ${String(name)}`,
    traceback: `['---', "ValueError: bad value in ${String(name)}"]`,
    label_root_cause: 'API misuse',
    label_refined_exp_type: 'invalid argument',
    label_ML_pipeline: 'training',
    label_if_ML_bug: 'ML bug',
    DatasetTitle_1: 'Some data',
    DatasetTitle_2: null,
    DatasetLicenseName_1: 'CC0',
    DatasetLicenseName_2: null,
    DatasetUrl_1: 'https://example.invalid/data',
    DatasetUrl_2: null,
    NotebookUrl: 'https://example.invalid/nb',
    ...overrides
  };
  return HEADER.map(column => values[column] ?? null);
}

/**
 * A descriptor workbook with the given rows under a header.
 */
export function descriptorXlsx(
  rows: TestCell[][],
  header: string[] = HEADER,
  sheet = 'Sheet1',
  options: IXlsxOptions = {}
): ArrayBuffer {
  return makeXlsx([{ name: sheet, rows: [header, ...rows] }], options);
}

/**
 * A diagnoses workbook in the real layout.
 */
export function diagnosesXlsx(
  rows: [string, string | null][],
  sheet = 'Ground_truth',
  options: IXlsxOptions = {}
): ArrayBuffer {
  return makeXlsx(
    [
      {
        name: sheet,
        rows: [
          ['library', 'instance', 'detection', 'diagnosis', 'runinfo_help'],
          ...rows.map(([instance, diagnosis]): TestCell[] => [
            instance.replace(/_\d+.*$/, ''),
            instance,
            diagnosis !== null,
            diagnosis,
            'None'
          ])
        ]
      },
      { name: 'Config', rows: [['Jose_validation'], ['Agree']] }
    ],
    options
  );
}

/**
 * The files of a complete case folder under `benchmark/`.
 */
export function caseFolder(name: string): Record<string, string> {
  const base = `benchmark/${name}`;
  return {
    [`${base}/${name}_reproduced.ipynb`]: '{}',
    [`${base}/${name}_fixed.ipynb`]: '{}',
    [`${base}/README.md`]: `# ${name}`,
    [`${base}/data/train.csv`]: 'a,b\n1,2\n'
  };
}

/**
 * The files of a case record whose folder has both notebooks and its README
 * (the reference fix unless `fixed` is false), with these data files.
 */
export function presentFiles(
  name: string,
  fixed = true,
  data: string[] = []
): ICase['files'] {
  return {
    folder: `benchmark/${name}`,
    original: true,
    reproduced: true,
    fixed,
    readme: true,
    data
  };
}

/**
 * A case record as the loader makes it, for tests of pure logic: the name
 * gives the library, every label is empty and no file exists, unless
 * `fields` says otherwise; `notebookSpecific` follows the library and root
 * cause as the loader's does.
 */
export function caseRecord(name: string, fields: Partial<ICase> = {}): ICase {
  const library = fields.library ?? libraryOf(name);
  const rootCause = fields.rootCause ?? '';
  return {
    name,
    eid: '',
    ename: '',
    evalue: '',
    traceback: [],
    crashType: '',
    pipelineStage: '',
    mlBug: '',
    datasets: [],
    notebookUrl: '',
    row: 0,
    diagnosis: null,
    files: {
      folder: null,
      original: false,
      reproduced: false,
      fixed: false,
      readme: false,
      data: []
    },
    problems: [],
    markers: [],
    ...fields,
    library,
    rootCause,
    notebookSpecific:
      fields.notebookSpecific ??
      (library === 'NBspecific' || rootCause === 'NB specific')
  };
}

/**
 * Loader problems as the tests spell them (file, case, English message,
 * severity), after checking that each problem's code renders, in English, to
 * exactly its message.
 */
export function spelled(
  problems: readonly ICasebookProblem[]
): Array<Omit<ICasebookProblem, 'why'>> {
  return problems.map(({ why, ...rest }) => {
    expect(renderCasebookMessage(why)).toBe(rest.message);
    return rest;
  });
}
