/**
 * What the JunoBench server extension refuses, as the codes with parameters
 * it answers (`{"code", ...params, "message"}`, jupyterlab_junobench/handlers.py),
 * and the one renderer that words them, translated when the UI passes its
 * translator. The server's `message` is English for logs and `curl`; the UI
 * shows it only for a code this version does not know. Pure logic.
 */
import type { NameProblem } from '../casebook/paths';
import { renderNameProblem } from '../casebook/paths';
import {
  readWriterProblem,
  renderPathField,
  renderWriterProblem
} from '../authoring/writerProblems';
import type { PathField, WriterProblem } from '../authoring/writerProblems';
import { english, readCoded } from '../i18n';
import type { Translate } from '../i18n';

/** What the server extension refuses, or why it cannot fetch, as a code with parameters. */
export type ServerProblem =
  /** The server's contents are not on a local disk. */
  | { code: 'no-local-root' }
  /** No demo casebook is bundled with the server extension. */
  | { code: 'no-demo' }
  /** The demo folder's name is taken by something that is not a casebook. */
  | { code: 'demo-folder-taken'; folder: string }
  /** The demo folder appeared while the demo was being copied. */
  | { code: 'demo-folder-appeared'; folder: string }
  /** The demo could not be copied; `detail` is the system's own text. */
  | { code: 'demo-copy-failed'; detail: string }
  /** A casebook path leaves the server root (`..`, or a link out of it). */
  | { code: 'path-outside-root'; path: string }
  /** A casebook path goes through a hidden folder. */
  | { code: 'path-hidden'; path: string }
  /** No folder at a casebook path. */
  | { code: 'no-folder'; path: string }
  /** The request body is not JSON; `detail` is the parser's own text. */
  | { code: 'body-not-json'; detail: string }
  /** The request body is not a JSON object. */
  | { code: 'body-not-object' }
  /** A path of the request is not text. */
  | { code: 'not-a-server-path'; field: PathField }
  /** A new casebook was asked for at the server root itself. */
  | { code: 'casebook-is-root' }
  /** The case writer refused (its own code in `problem`). */
  | { code: 'authoring'; problem: WriterProblem }
  /** Fetching cases is turned off on this server. */
  | { code: 'fetch-off' }
  /** A fetch request without a casebook path and a case name. */
  | { code: 'fetch-request' }
  /** A fetch of a name that cannot be a case name. */
  | { code: 'bad-case-name'; name: string; problem: NameProblem }
  /** The casebook is not a copy made by `junobench fetch --cases`. */
  | { code: 'not-fetched-copy'; path: string }
  /** A fetch is already running in this casebook. */
  | { code: 'fetch-running'; case: string }
  /** The server knows no fetch job of this id. */
  | { code: 'no-fetch-job'; id: string };

/** Every code of the server (a missing one fails to compile). */
const CODES: Record<ServerProblem['code'], true> = {
  'no-local-root': true,
  'no-demo': true,
  'demo-folder-taken': true,
  'demo-folder-appeared': true,
  'demo-copy-failed': true,
  'path-outside-root': true,
  'path-hidden': true,
  'no-folder': true,
  'body-not-json': true,
  'body-not-object': true,
  'not-a-server-path': true,
  'casebook-is-root': true,
  authoring: true,
  'fetch-off': true,
  'fetch-request': true,
  'bad-case-name': true,
  'not-fetched-copy': true,
  'fetch-running': true,
  'no-fetch-job': true
};

/** Every code of the family, for the table specs that must cover them. */
export const SERVER_PROBLEM_CODES = Object.keys(CODES) as ReadonlyArray<
  ServerProblem['code']
>;

/**
 * The server's code with its parameters as it answered it (its English
 * `message` and HTTP `reason` left out), or null when the value carries no
 * code this version knows (the server's parameters are trusted as they come,
 * except a writer's code, which must be known too).
 */
export function readServerProblem(value: unknown): ServerProblem | null {
  const problem = readCoded<ServerProblem>(value, CODES, ['reason']);
  if (problem?.code === 'authoring') {
    const writer = readWriterProblem(problem.problem);
    return writer ? { code: 'authoring', problem: writer } : null;
  }
  return problem;
}

/**
 * The English a server's answer carries for logs (`message`), for a code this
 * version does not know; null when it has none.
 */
export function serverMessage(value: unknown): string | null {
  const message =
    value !== null && typeof value === 'object'
      ? (value as { message?: unknown }).message
      : undefined;
  return typeof message === 'string' && message !== '' ? message : null;
}

/**
 * One sentence for what the server refused (translated when `__` is).
 */
export function renderServerProblem(
  problem: ServerProblem,
  __: Translate = english
): string {
  switch (problem.code) {
    case 'no-local-root':
      return __("This server's contents are not on a local disk.");
    case 'no-demo':
      return __('No demo casebook is bundled with jupyterlab_junobench.');
    case 'demo-folder-taken':
      return __(
        '%1 already exists in the server root and is not a JunoBench casebook; it was left untouched. Rename or move it, or set c.JunobenchExtension.demo_folder to another name.',
        JSON.stringify(problem.folder)
      );
    case 'demo-folder-appeared':
      return __(
        '%1 appeared while the demo was being copied.',
        JSON.stringify(problem.folder)
      );
    case 'demo-copy-failed':
      return __(
        'Could not copy the demo casebook into the server root: %1',
        problem.detail
      );
    case 'path-outside-root':
      return __(
        'Refusing the casebook path %1: it leaves the server root.',
        JSON.stringify(problem.path)
      );
    case 'path-hidden':
      return __(
        'Refusing the casebook path %1: hidden folders are not listed.',
        JSON.stringify(problem.path)
      );
    case 'no-folder':
      return __(
        'No casebook folder %1 under the server root.',
        JSON.stringify(problem.path)
      );
    case 'body-not-json':
      return __('The request body is not JSON: %1', problem.detail);
    case 'body-not-object':
      return __('The request body must be a JSON object.');
    case 'not-a-server-path':
      return __(
        'The %1 must be a server path (text).',
        renderPathField(problem.field, undefined, __)
      );
    case 'casebook-is-root':
      return __(
        'A new casebook needs a folder of its own, not the server root.'
      );
    case 'authoring':
      return renderWriterProblem(problem.problem, __);
    case 'fetch-off':
      return __(
        'Fetching cases is turned off on this server (c.JunobenchExtension.allow_fetch).'
      );
    case 'fetch-request':
      return __('Expected {"path": <casebook path>, "case": <case name>}.');
    case 'bad-case-name':
      return __(
        '%1 is not a case name: %2.',
        JSON.stringify(problem.name),
        renderNameProblem(problem.problem, __)
      );
    case 'not-fetched-copy':
      return __(
        'The casebook %1 was not made by `junobench fetch --cases`, so the panel cannot fetch its missing cases; fetch them with `junobench fetch <folder> --cases ...`.',
        JSON.stringify(problem.path)
      );
    case 'fetch-running':
      return __(
        'A fetch of %1 is still running in this casebook; wait for it.',
        problem.case
      );
    case 'no-fetch-job':
      return __('No fetch %1 on this server.', problem.id);
  }
}

/**
 * A server's answer as one sentence: its code rendered, else its own
 * English `message`, else null.
 */
export function renderServerAnswer(
  value: unknown,
  __: Translate = english
): string | null {
  const problem = readServerProblem(value);
  return problem ? renderServerProblem(problem, __) : serverMessage(value);
}
