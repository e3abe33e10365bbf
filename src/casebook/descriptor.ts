/**
 * Parsing of the benchmark descriptor, `benchmark_desc.xlsx`.
 */

import { nameProblem } from './paths';
import { parseTracebackCell } from './traceback';
import { casebookProblem } from './messages';
import type { ICasebookProblem, IDataset, IDescriptorRow } from './types';
import { headerIndex, readWorkbook } from './workbook';
import type { ITextSheet } from './workbook';

/** The descriptor's default file name, at the casebook root. */
export const DESCRIPTOR_FILE = 'benchmark_desc.xlsx';

/** Columns a descriptor cannot do without. */
export const REQUIRED_DESCRIPTOR_COLUMNS: readonly string[] = [
  'nb_name',
  'ename',
  'evalue'
];

/** Every column the descriptor format knows (dataset columns may go past `_2`). */
export const KNOWN_DESCRIPTOR_COLUMNS: readonly string[] = [
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

/** The parsed descriptor: its accepted rows and what was wrong. */
export interface IDescriptorParse {
  /** Accepted rows, in sheet order. */
  rows: IDescriptorRow[];
  /** Problems met; rejected rows are named here. */
  problems: ICasebookProblem[];
}

/**
 * Parse `benchmark_desc.xlsx` bytes into descriptor rows; never throws, and a
 * bad row never stops the others.
 */
export async function parseDescriptor(
  bytes: ArrayBuffer,
  file: string = DESCRIPTOR_FILE
): Promise<IDescriptorParse> {
  const read = await readWorkbook(bytes, file);
  if (!read.ok) {
    return { rows: [], problems: [read.problem] };
  }
  const sheet =
    read.sheets.find(candidate =>
      (candidate.rows[Private.headerRow(candidate)] ?? []).some(
        title => title.trim().toLowerCase() === 'nb_name'
      )
    ) ?? read.sheets[0];
  if (!sheet || Private.headerRow(sheet) >= sheet.rows.length) {
    return {
      rows: [],
      problems: [
        casebookProblem(
          {
            code: 'no-header',
            file,
            columns: [...REQUIRED_DESCRIPTOR_COLUMNS]
          },
          'error',
          { file }
        )
      ]
    };
  }
  return Private.parseSheet(sheet, file);
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * Known columns keyed by lower-case name.
   */
  const KNOWN = new Set(
    KNOWN_DESCRIPTOR_COLUMNS.map(column => column.toLowerCase())
  );

  /**
   * Dataset credit columns with any index.
   */
  const DATASET_COLUMN = /^dataset(title|licensename|url)_(\d+)$/;

  /**
   * The index of the header: the first row with any non-empty cell.
   */
  export function headerRow(sheet: ITextSheet): number {
    const index = sheet.rows.findIndex(row => row.some(cell => cell !== ''));
    return index < 0 ? sheet.rows.length : index;
  }

  /**
   * Parse the descriptor sheet once it has been chosen.
   */
  export function parseSheet(
    sheet: ITextSheet,
    file: string
  ): IDescriptorParse {
    const problems: ICasebookProblem[] = [];
    const headerAt = headerRow(sheet);
    const header = sheet.rows[headerAt];
    const { columns, duplicates } = headerIndex(header);
    const missing = REQUIRED_DESCRIPTOR_COLUMNS.filter(
      column => !columns.has(column)
    );
    if (missing.length > 0) {
      return {
        rows: [],
        problems: [
          casebookProblem(
            {
              code: 'missing-columns',
              file,
              sheet: sheet.name,
              columns: missing
            },
            'error',
            { file }
          )
        ]
      };
    }
    const unknown = header
      .map(title => title.trim())
      .filter(
        title =>
          title !== '' &&
          !KNOWN.has(title.toLowerCase()) &&
          !DATASET_COLUMN.test(title.toLowerCase())
      );
    if (unknown.length > 0) {
      problems.push(
        casebookProblem(
          { code: 'unknown-columns', file, columns: unknown },
          'warning',
          { file }
        )
      );
    }
    if (duplicates.length > 0) {
      problems.push(
        casebookProblem(
          { code: 'repeated-columns', file, columns: duplicates },
          'warning',
          { file }
        )
      );
    }

    const datasetIndices = [...columns.keys()]
      .map(key => DATASET_COLUMN.exec(key))
      .filter((match): match is RegExpExecArray => match !== null)
      .map(match => Number(match[2]));
    const datasetNumbers = [...new Set(datasetIndices)].sort((a, b) => a - b);

    const rows: IDescriptorRow[] = [];
    const seen = new Map<string, number>();
    for (let index = headerAt + 1; index < sheet.rows.length; index++) {
      const cells = sheet.rows[index];
      const rowNumber = index + 1;
      const get = (column: string): string => {
        const at = columns.get(column.toLowerCase());
        return at === undefined ? '' : (cells[at] ?? '');
      };
      const name = get('nb_name');
      if (name === '') {
        if (cells.some(cell => cell !== '')) {
          problems.push(
            casebookProblem(
              { code: 'row-without-name', file, row: rowNumber },
              'error',
              { file }
            )
          );
        }
        continue;
      }
      const unsafe = nameProblem(name);
      if (unsafe !== null) {
        // The name would become a folder path: refuse the row rather than
        // guess what was meant.
        problems.push(
          casebookProblem(
            {
              code: 'unsafe-case-name',
              file,
              row: rowNumber,
              name,
              why: unsafe
            },
            'error',
            { file, case: name }
          )
        );
        continue;
      }
      const firstRow = seen.get(name);
      if (firstRow !== undefined) {
        problems.push(
          casebookProblem(
            {
              code: 'repeated-case',
              file,
              row: rowNumber,
              name,
              first: firstRow
            },
            'error',
            { file, case: name }
          )
        );
        continue;
      }
      seen.set(name, rowNumber);

      const traceback = parseTracebackCell(get('traceback'));
      if (traceback.warning) {
        problems.push(
          casebookProblem(
            {
              code: 'traceback-warning',
              file,
              row: rowNumber,
              name,
              warning: traceback.warning
            },
            'warning',
            { file, case: name }
          )
        );
      }
      rows.push({
        name,
        eid: get('eid'),
        ename: get('ename'),
        evalue: get('evalue'),
        traceback: traceback.lines,
        rootCause: get('label_root_cause'),
        crashType: get('label_refined_exp_type'),
        pipelineStage: get('label_ML_pipeline'),
        mlBug: get('label_if_ML_bug'),
        datasets: datasets(get, datasetNumbers),
        notebookUrl: get('NotebookUrl'),
        row: rowNumber
      });
    }
    return { rows, problems };
  }

  /**
   * The dataset credits of a row, for each index with any non-empty field.
   */
  function datasets(
    get: (column: string) => string,
    numbers: number[]
  ): IDataset[] {
    const out: IDataset[] = [];
    for (const n of numbers) {
      const dataset = {
        title: get(`DatasetTitle_${n}`),
        license: get(`DatasetLicenseName_${n}`),
        url: get(`DatasetUrl_${n}`)
      };
      if (dataset.title || dataset.license || dataset.url) {
        out.push(dataset);
      }
    }
    return out;
  }
}
