/**
 * What scoring reports, as codes with parameters: why a predictions or repairs
 * file cannot be read (an error: the file is not scored), and what was left
 * out or not understood while scoring one (a warning: named, never dropped in
 * silence). `renderScoreMessage` turns them into sentences, translated by `__`,
 * in English for the command line. Pure logic.
 */
import { english } from '../i18n';
import type { Translate } from '../i18n';

/** A dimension a tool predicts: the library, the crash type, the root cause, the pipeline stage. */
export type ScoreDimension = 'library' | 'crashType' | 'rootCause' | 'stage';

/** The dimensions, in the order they are reported. */
export const SCORE_DIMENSIONS: readonly ScoreDimension[] = [
  'library',
  'crashType',
  'rootCause',
  'stage'
];

/** Why a predictions or repairs file cannot be scored. */
export type ScoreError =
  | { code: 'empty-file'; file: string }
  | { code: 'binary-file'; file: string }
  | { code: 'json-document'; file: string }
  | { code: 'no-case-column'; file: string; columns: string[] }
  | { code: 'repeated-column'; file: string; column: string }
  | { code: 'unclosed-quote'; file: string; row: number }
  | {
      code: 'field-count';
      file: string;
      row: number;
      found: number;
      expected: number;
    }
  | { code: 'bad-json-line'; file: string; row: number; reason: string }
  | { code: 'not-an-object'; file: string; row: number }
  | { code: 'bad-repairs'; file: string; reason: string };

/** What was left out or not understood in a predictions or repairs file. */
export type ScoreWarning =
  | { code: 'unknown-columns'; file: string; columns: string[] }
  | { code: 'bad-value'; file: string; row: number; column: string }
  | { code: 'no-case'; file: string; row: number }
  | { code: 'unknown-case'; file: string; row: number; case: string }
  | {
      code: 'duplicate-case';
      file: string;
      row: number;
      case: string;
      first: number;
    }
  | {
      code: 'unknown-label';
      file: string;
      row: number;
      case: string;
      dimension: ScoreDimension;
      label: string;
    }
  | { code: 'bad-line'; file: string; row: number; case: string; value: string }
  | {
      code: 'unknown-cell';
      file: string;
      row: number;
      case: string;
      cell: string;
    }
  | { code: 'no-notebook'; file: string; cases: string[] }
  | { code: 'no-prediction'; file: string; cases: string[] }
  | {
      code: 'unknown-submission';
      file: string;
      submission: string;
      case: string | null;
    }
  | {
      code: 'duplicate-submission';
      file: string;
      submission: string;
      case: string;
      first: string;
    }
  | {
      code: 'not-graded';
      file: string;
      submission: string;
      case: string;
      error: string;
    };

/** A dimension's name in a sentence or a table. */
export function dimensionName(
  dimension: ScoreDimension,
  __: Translate = english
): string {
  switch (dimension) {
    case 'library':
      return __('library');
    case 'crashType':
      return __('crash type');
    case 'rootCause':
      return __('root cause');
    case 'stage':
      return __('pipeline stage');
  }
}

/** A scoring error or warning as a sentence: translated by `__`, English by default. */
export function renderScoreMessage(
  m: ScoreError | ScoreWarning,
  __: Translate = english
): string {
  switch (m.code) {
    case 'empty-file':
      return __(
        '%1: is empty, not a CSV or JSON lines file of predictions',
        m.file
      );
    case 'binary-file':
      return __(
        '%1: is not text (a CSV or JSON lines file was expected)',
        m.file
      );
    case 'json-document':
      return __(
        '%1: is one JSON document, not JSON lines (one object per line, each with a "case")',
        m.file
      );
    case 'no-case-column':
      return __(
        '%1: has no "case" column (found: %2); the columns are case, library, crash_type, root_cause, stage, cell, line',
        m.file,
        m.columns.length ? m.columns.join(', ') : __('none')
      );
    case 'repeated-column':
      return __('%1: the column "%2" appears twice', m.file, m.column);
    case 'unclosed-quote':
      return __('%1, row %2: a quoted field is never closed', m.file, m.row);
    case 'field-count':
      return __(
        '%1, row %2: %3 fields where the header has %4 (a comma inside a label needs quotes)',
        m.file,
        m.row,
        m.found,
        m.expected
      );
    case 'bad-json-line':
      return __('%1, line %2: is not JSON (%3)', m.file, m.row, m.reason);
    case 'not-an-object':
      return __(
        '%1, line %2: is not a JSON object with a "case"',
        m.file,
        m.row
      );
    case 'bad-repairs':
      return __(
        '%1: is not a report of `junobench check --submissions --json` (%2)',
        m.file,
        m.reason
      );
    case 'unknown-columns':
      return __('%1: columns not scored: %2', m.file, m.columns.join(', '));
    case 'bad-value':
      return __(
        '%1, row %2: the value of "%3" is not text or a number; read as empty',
        m.file,
        m.row,
        m.column
      );
    case 'no-case':
      return __(
        '%1, row %2: a prediction without a case; not scored',
        m.file,
        m.row
      );
    case 'unknown-case':
      return __(
        '%1, row %2: "%3" is not a case of the casebook; not scored',
        m.file,
        m.row,
        m.case
      );
    case 'duplicate-case':
      return __(
        '%1, row %2: a second prediction for %3; the first, row %4, counts',
        m.file,
        m.row,
        m.case,
        m.first
      );
    case 'unknown-label':
      return __(
        '%1, row %2 (%3): "%4" is not a %5 of the casebook; counted as wrong',
        m.file,
        m.row,
        m.case,
        m.label,
        dimensionName(m.dimension, __)
      );
    case 'bad-line':
      return __(
        '%1, row %2 (%3): line "%4" is not a line number (1, 2, ...); counted as wrong',
        m.file,
        m.row,
        m.case,
        m.value
      );
    case 'unknown-cell':
      return __(
        '%1, row %2 (%3): no cell "%4" in the reproduced notebook (a cell id, a 0-based index or [n] for an execution count); counted as wrong',
        m.file,
        m.row,
        m.case,
        m.cell
      );
    case 'no-notebook':
      return __(
        '%1: a cell or line for %2 case(s) without a reproduced notebook that crashes, not scored: %3',
        m.file,
        m.cases.length,
        m.cases.join(', ')
      );
    case 'no-prediction':
      return __(
        '%1: no prediction for %2 case(s), counted as wrong: %3',
        m.file,
        m.cases.length,
        m.cases.join(', ')
      );
    case 'unknown-submission':
      return __(
        '%1: %2 is not in a case folder of the casebook (%3); not counted',
        m.file,
        m.submission,
        m.case ?? __('no case folder')
      );
    case 'duplicate-submission':
      return __(
        '%1: a second submission for %2, %3; the first, %4, counts',
        m.file,
        m.case,
        m.submission,
        m.first
      );
    case 'not-graded':
      return __(
        '%1: %2 (%3) was not graded (%4); counted as not repaired',
        m.file,
        m.submission,
        m.case,
        m.error
      );
  }
}
