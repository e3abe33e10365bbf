/**
 * Parsing of the written diagnoses, `diagnoses.xlsx`.
 */

import { nameProblem } from './paths';
import { casebookProblem } from './messages';
import type { ICasebookProblem } from './types';
import { headerIndex, readWorkbook } from './workbook';

/** The diagnoses file's default name, beside the descriptor. */
export const DIAGNOSES_FILE = 'diagnoses.xlsx';

/** The parsed diagnoses: the text per case name, and what was wrong. */
export interface IDiagnosesParse {
  /** Diagnosis text keyed by case name (`pandas_3`). */
  byCase: Map<string, string>;
  /** Problems met. */
  problems: ICasebookProblem[];
}

/**
 * Parse `diagnoses.xlsx` bytes: sheet `Ground_truth` (or the first sheet with an
 * `instance` column), one diagnosis per `<case>_reproduced` row; `_fixed` rows
 * and empty diagnoses are ignored; never throws.
 */
export async function parseDiagnoses(
  bytes: ArrayBuffer,
  file: string = DIAGNOSES_FILE
): Promise<IDiagnosesParse> {
  const byCase = new Map<string, string>();
  const problems: ICasebookProblem[] = [];
  const read = await readWorkbook(bytes, file);
  if (!read.ok) {
    return { byCase, problems: [read.problem] };
  }
  const hasInstance = (rows: string[][]): boolean =>
    (rows[0] ?? []).some(title => title.trim().toLowerCase() === 'instance');
  const sheet =
    read.sheets.find(
      candidate =>
        candidate.name.trim().toLowerCase() === 'ground_truth' &&
        hasInstance(candidate.rows)
    ) ?? read.sheets.find(candidate => hasInstance(candidate.rows));
  if (!sheet) {
    problems.push(
      casebookProblem({ code: 'no-instance-sheet', file }, 'error', { file })
    );
    return { byCase, problems };
  }
  const { columns } = headerIndex(sheet.rows[0]);
  const instanceAt = columns.get('instance') as number;
  const diagnosisAt = columns.get('diagnosis');
  if (diagnosisAt === undefined) {
    problems.push(
      casebookProblem(
        { code: 'no-diagnosis-column', file, sheet: sheet.name },
        'error',
        { file }
      )
    );
    return { byCase, problems };
  }
  const firstRow = new Map<string, number>();
  for (let index = 1; index < sheet.rows.length; index++) {
    const cells = sheet.rows[index];
    const instance = cells[instanceAt] ?? '';
    const diagnosis = cells[diagnosisAt] ?? '';
    const name = Private.caseOf(instance);
    if (name === null || diagnosis === '') {
      continue;
    }
    const unsafe = nameProblem(name);
    if (unsafe !== null) {
      // No case can have this name (the descriptor refuses it), so the
      // diagnosis could never be shown; say so instead of keeping it.
      problems.push(
        casebookProblem(
          {
            code: 'unusable-instance',
            file,
            row: index + 1,
            instance,
            why: unsafe
          },
          'warning',
          { file, case: name }
        )
      );
      continue;
    }
    const first = firstRow.get(name);
    if (first !== undefined) {
      problems.push(
        casebookProblem(
          {
            code: 'second-diagnosis',
            file,
            row: index + 1,
            name,
            first
          },
          'warning',
          { file, case: name }
        )
      );
      continue;
    }
    firstRow.set(name, index + 1);
    byCase.set(name, diagnosis);
  }
  return { byCase, problems };
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * The case an `instance` names: `pandas_3_reproduced` and `pandas_3` give
   * `pandas_3`; `_fixed` rows and empty cells give null.
   */
  export function caseOf(instance: string): string | null {
    const text = instance.trim();
    if (text === '' || /_fixed$/i.test(text)) {
      return null;
    }
    return text.replace(/_reproduced$/i, '');
  }
}
