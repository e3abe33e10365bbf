/**
 * What is wrong with a workshop file, as codes with parameters, and the one
 * renderer that turns them into sentences: the UI passes JupyterLab's
 * translator, logs and the command line render the same codes in English.
 * Pure: no Ajv here, so the UI can render a problem without loading it.
 */
import { english } from '../i18n';
import type { Translate } from '../i18n';
import { describeValue } from '../progress/types';
import { renderNameProblem } from '../casebook/paths';
import type { NameProblem } from '../casebook/paths';

/** The field a problem of the whole file names (not JSON, not an object). */
export const FILE_FIELD = '(file)';

/**
 * A value a problem quotes: nothing (missing), an array, an object, or the
 * JSON text of anything else (shortened).
 */
export type WorkshopValue =
  | { kind: 'nothing' }
  | { kind: 'array' }
  | { kind: 'object' }
  | { kind: 'json'; text: string };

/** What is wrong with a workshop file, as a code with its parameters. */
export type WorkshopProblem =
  /** The file could not be read; `detail` is the error's own text. */
  | { code: 'unreadable'; detail: string }
  /** The text is not JSON; `detail` is the parser's own text. */
  | { code: 'not-json'; detail: string }
  /** The JSON is not an object. */
  | { code: 'not-object'; got: WorkshopValue }
  /** A field the schema does not know; `fields` are those it does. */
  | { code: 'unknown-field'; fields: string[] }
  /** The title is missing, blank or not a string. */
  | { code: 'title'; got: WorkshopValue }
  /** The description is not a string. */
  | { code: 'description'; got: WorkshopValue }
  /** The cases are missing or not an array. */
  | { code: 'cases'; got: WorkshopValue }
  /** The cases are an empty array. */
  | { code: 'no-cases' }
  /** A case is not a string. */
  | { code: 'case-type'; got: WorkshopValue }
  /** A case name breaks the one case-name rule (`nameProblem`). */
  | { code: 'case-name'; name: string; problem: NameProblem }
  /** A case is listed twice; `first` is the index of its first listing. */
  | { code: 'case-repeated'; name: string; first: number }
  /** The reveal policy is missing or not one of `allowed`. */
  | { code: 'reveal-policy'; allowed: string[]; got: WorkshopValue }
  /** The time box is not a number of minutes above 0 and at most `maximum`. */
  | { code: 'time-box'; maximum: number; got: WorkshopValue }
  /** The casebook is not a string (or null). */
  | { code: 'casebook'; got: WorkshopValue }
  /** The casebook path has a `..` segment. */
  | { code: 'casebook-dot-dot'; got: WorkshopValue }
  /** The casebook path has a backslash or a NUL character. */
  | { code: 'casebook-characters'; got: WorkshopValue }
  /** Anything else the schema refuses: Ajv's keyword and parameters. */
  | {
      code: 'schema';
      keyword: string;
      params: Record<string, unknown>;
      got: WorkshopValue;
    };

/** A workshop file's problem with where it is: the file and the field (null: the file could not be read). */
export interface IWorkshopProblemAt {
  /** The workshop file (a server path or a file name). */
  file: string;
  /** The offending field, e.g. `cases[2]`, `FILE_FIELD`, or null when the file could not be read. */
  field: string | null;
  /** What is wrong. */
  problem: WorkshopProblem;
}

/** A value as a problem quotes it (`describeValue`'s wording). */
export function workshopValue(value: unknown): WorkshopValue {
  if (value === undefined) {
    return { kind: 'nothing' };
  }
  if (Array.isArray(value)) {
    return { kind: 'array' };
  }
  if (value !== null && typeof value === 'object') {
    return { kind: 'object' };
  }
  // Anything else is quoted as JSON, shortened as every value message is.
  return { kind: 'json', text: describeValue(value) };
}

/** A quoted value in words (translated when `__` is). */
export function renderWorkshopValue(
  value: WorkshopValue,
  __: Translate = english
): string {
  switch (value.kind) {
    case 'nothing':
      return __('nothing');
    case 'array':
      return __('an array');
    case 'object':
      return __('an object');
    case 'json':
      return value.text;
  }
}

/**
 * One sentence for a workshop problem (what follows the field in
 * `file: field: problem`), translated when `__` is.
 */
export function renderWorkshopProblem(
  problem: WorkshopProblem,
  __: Translate = english
): string {
  const got = (v: WorkshopValue) => renderWorkshopValue(v, __);
  switch (problem.code) {
    case 'unreadable':
      return __('cannot be read (%1)', problem.detail);
    case 'not-json':
      return __('not valid JSON (%1)', problem.detail);
    case 'not-object':
      return __('expected a JSON object, got %1', got(problem.got));
    case 'unknown-field':
      return __(
        'unknown field; a workshop has %1',
        problem.fields.join(__(', '))
      );
    case 'title':
      return __('expected a non-empty string, got %1', got(problem.got));
    case 'description':
      return __('expected a string, got %1', got(problem.got));
    case 'cases':
      return __('expected an array of case names, got %1', got(problem.got));
    case 'no-cases':
      return __('expected at least one case name, got an empty array');
    case 'case-type':
      return __('expected a case name, got %1', got(problem.got));
    case 'case-name':
      return __(
        'the case name %1 cannot be used: %2',
        JSON.stringify(problem.name),
        renderNameProblem(problem.problem, __)
      );
    case 'case-repeated':
      return __(
        '%1 is already listed as cases[%2]',
        JSON.stringify(problem.name),
        problem.first
      );
    case 'reveal-policy':
      return __(
        'expected one of %1, got %2',
        problem.allowed.join(__(', ')),
        got(problem.got)
      );
    case 'time-box':
      return __(
        'expected a number of minutes above 0 and at most %1, got %2',
        problem.maximum,
        got(problem.got)
      );
    case 'casebook':
      return __(
        'expected a folder path from the server root, got %1',
        got(problem.got)
      );
    case 'casebook-dot-dot':
      return __('a ".." segment is not allowed, got %1', got(problem.got));
    case 'casebook-characters':
      return __('expected a folder path with "/", got %1', got(problem.got));
    case 'schema':
      return __(
        'does not match the workshop schema (%1), got %2',
        problem.keyword,
        got(problem.got)
      );
  }
}

/**
 * A workshop problem with its file and field, e.g.
 * `intro.junobench-workshop.json: cases[2]: expected a case name, got 42`
 * (translated when `__` is).
 */
export function renderWorkshopError(
  at: IWorkshopProblemAt,
  __: Translate = english
): string {
  const problem = renderWorkshopProblem(at.problem, __);
  if (at.field === null) {
    return __('%1: %2', at.file, problem);
  }
  const field = at.field === FILE_FIELD ? __('(file)') : at.field;
  return __('%1: %2: %3', at.file, field, problem);
}
