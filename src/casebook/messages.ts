/**
 * What loading a casebook reports, as codes with parameters: the markers of an
 * incomplete case and the problems of the casebook's files. `renderCaseMarker`
 * and `renderCasebookMessage` turn them into sentences, translated by the UI's
 * `trans.__`, in English for the command line and the `message`/`problems`
 * strings the loader keeps. Details that come from elsewhere (an operating
 * system's error) stay as they came; why a name is unsafe is a code too
 * (`renderNameProblem`). Pure logic.
 */
import { english, formatBytes } from '../i18n';
import type { Translate } from '../i18n';
import { renderNameProblem } from './paths';
import type { CaseMarker, CasebookMessage, ICasebookProblem } from './types';

/**
 * A casebook problem with its English message.
 */
export function casebookProblem(
  why: CasebookMessage,
  severity: ICasebookProblem['severity'],
  where: { file: string; case?: string }
): ICasebookProblem {
  return {
    file: where.file,
    ...(where.case === undefined ? {} : { case: where.case }),
    message: renderCasebookMessage(why),
    why,
    severity
  };
}

/**
 * A case marker as a phrase: translated by `__`, English by default.
 */
export function renderCaseMarker(
  m: CaseMarker,
  __: Translate = english
): string {
  switch (m.code) {
    case 'folder-not-found':
      return __('case folder not found');
    case 'not-in-descriptor':
      return __('not in the descriptor');
    case 'no-reproduced':
      return __('missing reproduced notebook');
    case 'no-fixed':
      return __('missing fixed notebook');
    case 'no-readme':
      return __('missing README.md');
    case 'no-data':
      return __('no data files');
    case 'draft':
      return __('draft: not verified (see %1)', m.file);
    case 'unlisted':
      return __('could not list %1: %2', m.path, m.reason);
    case 'refused':
      return __('%1 was refused: %2', m.path, m.reason);
    case 'too-big':
      return __(
        '%1 is %2, over the limit of %3; it will not be opened',
        m.path,
        formatBytes(m.size, __),
        formatBytes(m.max, __)
      );
    case 'too-many-files':
      return __('more than %1 data files; only the first %1 are listed', m.max);
    case 'too-deep':
      return __('folders deeper than %1 levels were not listed', m.max);
  }
}

/**
 * A casebook problem as a sentence: translated by `__`, English by default.
 */
export function renderCasebookMessage(
  m: CasebookMessage,
  __: Translate = english
): string {
  switch (m.code) {
    case 'root-not-found':
      return __('The casebook folder %1 was not found.', m.root);
    case 'no-descriptor':
      return __(
        'No %1 in %2; only the case folders found are listed.',
        m.file,
        m.root
      );
    case 'stray-diagnoses':
      return m.more > 0
        ? __(
            '%1 has diagnoses for case(s) that are not in the casebook: %2 and %3 more.',
            m.file,
            m.names.join(', '),
            m.more
          )
        : __(
            '%1 has diagnoses for case(s) that are not in the casebook: %2.',
            m.file,
            m.names.join(', ')
          );
    case 'unsafe-folder':
      return __(
        'The folder %1 has an unsafe name and was skipped.',
        JSON.stringify(m.path)
      );
    case 'unsafe-entry':
      return __(
        'The entry %1 in %2 has an unsafe name and was skipped.',
        JSON.stringify(m.name),
        m.dir
      );
    case 'refused':
      return __('%1 was refused: %2.', m.path, m.reason);
    case 'file-too-big':
      return __(
        '%1 is %2, over the limit of %3; it was not read.',
        m.file,
        formatBytes(m.size, __),
        formatBytes(m.max, __)
      );
    case 'unlisted':
      return __('Could not list %1: %2.', m.path, m.reason);
    case 'unreadable':
      return __('Could not read %1: %2.', m.path, m.reason);
    case 'not-xlsx':
      return __('%1 is not a readable .xlsx file: %2', m.file, m.reason);
    case 'no-header':
      return __(
        '%1 has no header row (expected columns %2).',
        m.file,
        m.columns.join(', ')
      );
    case 'missing-columns':
      return __(
        '%1 (sheet "%2") is missing the required column(s) %3; no case was read from it.',
        m.file,
        m.sheet,
        m.columns.join(', ')
      );
    case 'unknown-columns':
      return __(
        '%1 has unknown column(s) %2; they were ignored.',
        m.file,
        m.columns.join(', ')
      );
    case 'repeated-columns':
      return __(
        '%1 repeats the column(s) %2; the first of each was used.',
        m.file,
        m.columns.join(', ')
      );
    case 'row-without-name':
      return __(
        '%1 row %2 has no nb_name; the row was skipped.',
        m.file,
        m.row
      );
    case 'unsafe-case-name':
      return __(
        '%1 row %2: case name %3 is unsafe: %4 (only letters, digits, "_", "." and "-" are allowed, and no ".."); the row was skipped.',
        m.file,
        m.row,
        JSON.stringify(m.name),
        renderNameProblem(m.why, __)
      );
    case 'repeated-case':
      return __(
        '%1 row %2: case name "%3" repeats row %4; row %2 was skipped.',
        m.file,
        m.row,
        m.name,
        m.first
      );
    case 'traceback-warning':
      return __('%1 row %2 (%3): %4.', m.file, m.row, m.name, m.warning);
    case 'no-instance-sheet':
      return __(
        '%1 has no sheet with an "instance" column; no diagnosis was read.',
        m.file
      );
    case 'no-diagnosis-column':
      return __(
        '%1 (sheet "%2") has no "diagnosis" column; no diagnosis was read.',
        m.file,
        m.sheet
      );
    case 'unusable-instance':
      return __(
        '%1 row %2: instance %3 is not a usable case name: %4; the row was ignored.',
        m.file,
        m.row,
        JSON.stringify(m.instance),
        renderNameProblem(m.why, __)
      );
    case 'second-diagnosis':
      return __(
        '%1 row %2: a second diagnosis for "%3" (first at row %4) was ignored.',
        m.file,
        m.row,
        m.name,
        m.first
      );
  }
}
