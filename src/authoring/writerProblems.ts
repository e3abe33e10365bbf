/**
 * What the one writer of cases (`jupyterlab_junobench.authoring`) refuses or
 * warns about, as the codes with parameters it answers (`AuthoringError` and
 * the warnings of a write), and the one renderer that words them: the UI
 * passes JupyterLab's translator, `junobench add`/`new` render them in
 * English. The writer's own `message` is English for logs only. Pure logic.
 */
import type { NameProblem } from '../casebook/paths';
import { renderNameProblem } from '../casebook/paths';
import { english, readCoded } from '../i18n';
import type { Translate } from '../i18n';

/** The path a refusal is about: a casebook, the notebook's folder or a case's data path. */
export type PathField = 'casebook' | 'notebook-folder' | 'data';

/** A path the writer refused, with what it is (`case` for a data path). */
export interface IPathAt {
  /** What the path is. */
  field: PathField;
  /** The path as given (null when it was not text). */
  path: string | null;
  /** The case whose data path it is. */
  case?: string;
}

/** What the writer refuses or warns about, as a code with parameters. */
export type WriterProblem =
  /** A path is empty or not text. */
  | ({ code: 'path-empty' } & IPathAt)
  /** A path contains a NUL character. */
  | ({ code: 'path-nul' } & IPathAt)
  /** A path contains a backslash. */
  | ({ code: 'path-backslash' } & IPathAt)
  /** A path is absolute. */
  | ({ code: 'path-absolute' } & IPathAt)
  /** A path has a `..` segment. */
  | ({ code: 'path-dot-dot' } & IPathAt)
  /** A path names no file (only `.` and `/`). */
  | ({ code: 'path-no-file' } & IPathAt)
  /** A path resolves (symbolic links followed) to `target`, outside `root`. */
  | { code: 'outside'; path: string; target: string; root: string }
  /** A new casebook's folder already holds a descriptor (`file`). */
  | { code: 'already-casebook'; folder: string; file: string }
  /** A new casebook's folder exists and is not a folder. */
  | { code: 'not-a-folder'; folder: string }
  /** A new casebook's folder holds files (the first few `entries`). */
  | { code: 'folder-not-empty'; folder: string; entries: string[] }
  /** The case spec is not a JSON object. */
  | { code: 'spec-not-object' }
  /** The case name (any JSON value) cannot be used. */
  | { code: 'bad-case-name'; name: unknown; problem: NameProblem }
  /** The folder has no descriptor (`file`): it is not a casebook. */
  | { code: 'not-a-casebook'; folder: string; file: string }
  /** The case exists: its descriptor row (`row` of `file`), or else its `folder`. */
  | {
      code: 'case-exists';
      case: string;
      casebook: string;
      row: number | null;
      file: string;
      folder: string;
    }
  /** The case has no folder in the casebook. */
  | { code: 'no-case-folder'; case: string; folder: string; casebook: string }
  /** The diagnoses workbook has no sheet with an `instance` column. */
  | { code: 'no-instance-sheet'; file: string }
  /** A workbook cannot be read; `detail` is openpyxl's own text. */
  | { code: 'not-xlsx'; file: string; detail: string }
  /** The descriptor has no sheet with an `nb_name` column. */
  | { code: 'no-name-sheet'; file: string }
  /** A text is longer than an xlsx cell holds. */
  | {
      code: 'cell-too-long';
      column: string;
      length: number;
      limit: number;
      file: string;
    }
  /** The spec has no reproduced notebook. */
  | { code: 'no-reproduced'; case: string }
  /** A notebook is not a JSON object. */
  | { code: 'not-a-notebook'; file: string }
  /** A notebook's nbformat (any JSON value) is not 4. */
  | { code: 'nbformat'; file: string; nbformat: unknown }
  /** A notebook's `cells` is not a list of cells. */
  | { code: 'cells'; file: string }
  /** The spec has no descriptor row. */
  | { code: 'no-row'; case: string }
  /** The recorded exception has no `ename` or `evalue`. */
  | { code: 'no-exception-field'; case: string; field: string }
  /** The traceback is not a list of strings. */
  | { code: 'traceback-type'; case: string }
  /** The datasets are not a list of objects. */
  | { code: 'datasets-type'; case: string }
  /** A label column is not text. */
  | { code: 'label-type'; case: string; column: string }
  /** The data paths are not a list. */
  | { code: 'data-type'; case: string }
  /** Data paths were given without the folder they are relative to. */
  | { code: 'data-without-root'; case: string }
  /** A data path would overwrite one of the case's own files. */
  | { code: 'data-reserved'; case: string; path: string }
  /** A data path resolves to `target`, outside the notebook's folder `root`. */
  | {
      code: 'data-outside';
      case: string;
      path: string;
      target: string;
      root: string;
    }
  /** A data file does not exist in the notebook's folder. */
  | { code: 'data-missing'; case: string; path: string; folder: string }
  /** A data path is not a regular file. */
  | { code: 'data-not-file'; case: string; path: string }
  /** The spec on the command line's stdin is not JSON. */
  | { code: 'stdin-not-json'; detail: string }
  /** The operating system refused a write; `detail` is its own text. */
  | { code: 'write-failed'; detail: string }
  /** A warning: the traceback was shortened (`lines` left out or cut) to fit a cell. */
  | {
      code: 'traceback-shortened';
      case: string;
      limit: number;
      lines: number;
      file: string;
    };

/** Every code of the writer (a missing one fails to compile). */
const CODES: Record<WriterProblem['code'], true> = {
  'path-empty': true,
  'path-nul': true,
  'path-backslash': true,
  'path-absolute': true,
  'path-dot-dot': true,
  'path-no-file': true,
  outside: true,
  'already-casebook': true,
  'not-a-folder': true,
  'folder-not-empty': true,
  'spec-not-object': true,
  'bad-case-name': true,
  'not-a-casebook': true,
  'case-exists': true,
  'no-case-folder': true,
  'no-instance-sheet': true,
  'not-xlsx': true,
  'no-name-sheet': true,
  'cell-too-long': true,
  'no-reproduced': true,
  'not-a-notebook': true,
  nbformat: true,
  cells: true,
  'no-row': true,
  'no-exception-field': true,
  'traceback-type': true,
  'datasets-type': true,
  'label-type': true,
  'data-type': true,
  'data-without-root': true,
  'data-reserved': true,
  'data-outside': true,
  'data-missing': true,
  'data-not-file': true,
  'stdin-not-json': true,
  'write-failed': true,
  'traceback-shortened': true
};

/** Every code of the family, for the table specs that must cover them. */
export const WRITER_PROBLEM_CODES = Object.keys(CODES) as ReadonlyArray<
  WriterProblem['code']
>;

/**
 * A writer's code with its parameters as it answered it (its English
 * `message` left out), or null when the value carries no code this version
 * knows (the writer's parameters are trusted as they come).
 */
export function readWriterProblem(value: unknown): WriterProblem | null {
  return readCoded<WriterProblem>(value, CODES);
}

/** What a refused path is, as the start of a sentence (translated when `__` is). */
export function renderPathField(
  field: PathField,
  caseName: string | undefined,
  __: Translate = english
): string {
  switch (field) {
    case 'casebook':
      return __('casebook path');
    case 'notebook-folder':
      return __('notebook folder');
    case 'data':
      return __('case %1: data path', caseName ?? '');
  }
}

/**
 * One sentence for what the writer refused or warns about, translated when
 * `__` is (English: the writer's own wording).
 */
export function renderWriterProblem(
  problem: WriterProblem,
  __: Translate = english
): string {
  const json = (value: unknown) => JSON.stringify(value ?? null);
  const at = (p: IPathAt) =>
    [renderPathField(p.field, p.case, __), json(p.path)] as const;
  switch (problem.code) {
    case 'path-empty':
      return __('%1 %2 is empty', ...at(problem));
    case 'path-nul':
      return __('%1 %2 contains a NUL byte', ...at(problem));
    case 'path-backslash':
      return __('%1 %2 contains a backslash', ...at(problem));
    case 'path-absolute':
      return __(
        "%1 %2 is an absolute path; give it relative to the notebook's folder",
        ...at(problem)
      );
    case 'path-dot-dot':
      return __(
        '%1 %2 has a ".." segment: it would leave its folder',
        ...at(problem)
      );
    case 'path-no-file':
      return __('%1 %2 names no file', ...at(problem));
    case 'outside':
      return __(
        '%1 resolves to %2, outside %3; nothing was written',
        problem.path,
        problem.target,
        problem.root
      );
    case 'already-casebook':
      return __(
        '%1 already holds %2: it is a casebook already',
        problem.folder,
        problem.file
      );
    case 'not-a-folder':
      return __('%1 exists and is not a folder', problem.folder);
    case 'folder-not-empty':
      return __(
        '%1 is not empty (%2); a new casebook starts in an empty or new folder',
        problem.folder,
        problem.entries.join(', ')
      );
    case 'spec-not-object':
      return __('the case spec must be a JSON object');
    case 'bad-case-name':
      return __(
        'case name %1 cannot be used: %2 (only letters, digits, "_", "." and "-" are allowed, and no "..")',
        json(problem.name),
        renderNameProblem(problem.problem, __)
      );
    case 'not-a-casebook':
      return __(
        '%1 has no %2: it is not a casebook (create one with "New JunoBench Casebook…" or `junobench new`)',
        problem.folder,
        problem.file
      );
    case 'case-exists':
      return problem.row === null
        ? __(
            'case %1 already exists in %2 (the folder %3); choose another name or update it (--update)',
            problem.case,
            problem.casebook,
            problem.folder
          )
        : __(
            'case %1 already exists in %2 (row %3 of %4); choose another name or update it (--update)',
            problem.case,
            problem.casebook,
            problem.row,
            problem.file
          );
    case 'no-case-folder':
      return __(
        'case %1 has no folder %2 in %3',
        problem.case,
        problem.folder,
        problem.casebook
      );
    case 'no-instance-sheet':
      return __(
        '%1 has no sheet with an "instance" column; it was left as it is',
        problem.file
      );
    case 'not-xlsx':
      return __(
        '%1 is not a readable .xlsx file (%2); it was left as it is',
        problem.file,
        problem.detail
      );
    case 'no-name-sheet':
      return __(
        '%1 has no sheet with an nb_name column; it was left as it is',
        problem.file
      );
    case 'cell-too-long':
      return __(
        'the %1 of this case is %2 characters long; an xlsx cell holds at most %3, so nothing was written (%4 is left as it is)',
        problem.column,
        problem.length,
        problem.limit,
        problem.file
      );
    case 'no-reproduced':
      return __('case %1: the spec has no reproduced notebook', problem.case);
    case 'not-a-notebook':
      return __('%1: not a notebook (a JSON object)', problem.file);
    case 'nbformat':
      return __(
        '%1: nbformat %2 is not 4',
        problem.file,
        json(problem.nbformat)
      );
    case 'cells':
      return __('%1: "cells" is not a list of cells', problem.file);
    case 'no-row':
      return __('case %1: the spec has no descriptor row', problem.case);
    case 'no-exception-field':
      return __(
        'case %1: the recorded exception has no %2',
        problem.case,
        problem.field
      );
    case 'traceback-type':
      return __(
        'case %1: the traceback must be a list of strings',
        problem.case
      );
    case 'datasets-type':
      return __(
        'case %1: datasets must be a list of {title, license, url}',
        problem.case
      );
    case 'label-type':
      return __('case %1: %2 must be text', problem.case, problem.column);
    case 'data-type':
      return __('case %1: data must be a list of paths', problem.case);
    case 'data-without-root':
      return __(
        'case %1: data files were given without the folder they are relative to',
        problem.case
      );
    case 'data-reserved':
      return __(
        "case %1: data path %2 would overwrite the case's own %2",
        problem.case,
        problem.path
      );
    case 'data-outside':
      return __(
        'case %1: data path %2 resolves to %3, outside %4',
        problem.case,
        problem.path,
        problem.target,
        problem.root
      );
    case 'data-missing':
      return __(
        'case %1: data file %2 does not exist in %3',
        problem.case,
        problem.path,
        problem.folder
      );
    case 'data-not-file':
      return __(
        'case %1: data path %2 is not a regular file',
        problem.case,
        problem.path
      );
    case 'stdin-not-json':
      return __('the spec on stdin is not JSON: %1', problem.detail);
    case 'write-failed':
      return __('could not write: %1', problem.detail);
    case 'traceback-shortened':
      return __(
        'the traceback of %1 is longer than an xlsx cell holds (%2 characters); %3 line(s) were left out or cut in %4',
        problem.case,
        problem.limit,
        problem.lines,
        problem.file
      );
  }
}
