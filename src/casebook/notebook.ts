/**
 * Checking notebooks read from a casebook before anything uses them: a size
 * limit applied before parsing, and a structural check of nbformat 4.
 *
 * Pure; the casebook's notebooks are untrusted input, so every error names the
 * notebook and what is wrong with it.
 */

import { formatBytes } from '../i18n';
import type { INotebookJSON } from '../replay/types';
import type { ICasebookSource } from './types';

/** The largest notebook (in bytes) that is read by default: 50 MB. */
export const MAX_NOTEBOOK_BYTES = 50 * 1024 * 1024;

/**
 * Why a file of `size` bytes is too big, e.g. `is 100.0 MB, over the limit of
 * 50.0 MB`; null when it fits or the size is unknown.
 */
export function sizeProblem(
  size: number | null | undefined,
  maxBytes: number = MAX_NOTEBOOK_BYTES
): string | null {
  if (typeof size !== 'number' || !(size > maxBytes)) {
    return null;
  }
  return `is ${formatBytes(size)}, over the limit of ${formatBytes(maxBytes)}`;
}

/**
 * Throw an Error naming `path` when a notebook of `size` bytes is over the
 * limit; call it with the size the server or the file system reports (a
 * `content: false` contents request, a stat) before fetching the content.
 */
export function checkNotebookSize(
  size: number | null | undefined,
  path: string,
  maxBytes: number = MAX_NOTEBOOK_BYTES
): void {
  const problem = sizeProblem(size, maxBytes);
  if (problem !== null) {
    throw new Error(`${path}: ${problem}; it was not opened.`);
  }
}

/**
 * Check that a parsed JSON value is an nbformat 4 notebook in the parts this
 * extension reads (cells, their sources and outputs) and return it typed;
 * throws an Error naming `path` and the first thing that is wrong.
 */
export function validateNotebook(value: unknown, path: string): INotebookJSON {
  const fail = (what: string): never => {
    throw new Error(`${path}: is not an nbformat 4 notebook (${what}).`);
  };
  if (!Private.isObject(value)) {
    return fail(`the JSON is ${Private.kind(value)}, not an object`);
  }
  if (value.nbformat !== 4) {
    fail(
      `"nbformat" is ${Private.shown(value.nbformat)}; only version 4 is supported`
    );
  }
  Private.optional(value, 'nbformat_minor', fail, 'a whole number');
  Private.optional(value, 'metadata', fail, 'an object');
  if (value.cells === undefined) {
    fail('"cells" is missing');
  }
  if (!Array.isArray(value.cells)) {
    fail(`"cells" is ${Private.kind(value.cells)}, not a list`);
  }
  (value.cells as unknown[]).forEach((cell, index) =>
    Private.checkCell(cell, `cells[${index}]`, fail)
  );
  return value as unknown as INotebookJSON;
}

/**
 * Parse notebook text and validate it; throws an Error naming `path` when the
 * text is not JSON or not an nbformat 4 notebook.
 */
export function parseNotebook(text: string, path: string): INotebookJSON {
  // Editors on Windows may write a byte order mark, which JSON.parse refuses.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') {
    throw new Error(`${path}: is empty, not a notebook.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new Error(`${path}: is not valid JSON (${Private.reason(error)}).`);
  }
  return validateNotebook(value, path);
}

/**
 * Read a notebook through a casebook source: the size is checked first when the
 * source can tell it, then the text is parsed and validated. Rejects with an
 * Error naming `path` and what is wrong.
 */
export async function readNotebook(
  source: ICasebookSource,
  path: string,
  options: readNotebook.IOptions = {}
): Promise<INotebookJSON> {
  const maxBytes = options.maxBytes ?? MAX_NOTEBOOK_BYTES;
  let text: string;
  try {
    if (source.size) {
      checkNotebookSize(await source.size(path), path, maxBytes);
    }
    text = await source.readText(path);
  } catch (error) {
    const message = Private.reason(error);
    throw new Error(
      message.startsWith(`${path}:`)
        ? message
        : `${path}: cannot be read (${message}).`
    );
  }
  // A source that cannot tell the size ahead still must not hand a huge text
  // to JSON.parse; each UTF-16 unit is at least one byte of the file.
  checkNotebookSize(text.length, path, maxBytes);
  return parseNotebook(text, path);
}

/**
 * Options of readNotebook.
 */
export namespace readNotebook {
  /**
   * How to read a notebook.
   */
  export interface IOptions {
    /** The largest notebook read, in bytes; MAX_NOTEBOOK_BYTES by default. */
    maxBytes?: number;
  }
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * A failure reporter: throws with the given description.
   */
  export type Fail = (what: string) => never;

  /**
   * The cell types nbformat 4 knows.
   */
  const CELL_TYPES = ['code', 'markdown', 'raw'];

  /**
   * Check one cell and its outputs.
   */
  export function checkCell(cell: unknown, at: string, fail: Fail): void {
    if (!isObject(cell)) {
      return fail(`${at} is ${kind(cell)}, not an object`);
    }
    if (cell.cell_type === undefined) {
      fail(`${at} has no "cell_type"`);
    }
    if (!CELL_TYPES.includes(cell.cell_type as string)) {
      fail(
        `${at} has the cell_type ${shown(cell.cell_type)}; nbformat 4 knows "code", "markdown" and "raw"`
      );
    }
    if (cell.source === undefined) {
      fail(`${at} has no "source"`);
    }
    checkText(cell.source, `${at}.source`, fail);
    optional(cell, 'id', fail, 'a string', at);
    optional(cell, 'metadata', fail, 'an object', at);
    if (cell.cell_type !== 'code') {
      return;
    }
    optional(cell, 'execution_count', fail, 'a whole number or null', at);
    if (cell.outputs === undefined) {
      return;
    }
    if (!Array.isArray(cell.outputs)) {
      fail(`${at}.outputs is ${kind(cell.outputs)}, not a list`);
    }
    (cell.outputs as unknown[]).forEach((output, index) =>
      checkOutput(output, `${at}.outputs[${index}]`, fail)
    );
  }

  /**
   * Check one output in the fields the replay and the check read.
   */
  function checkOutput(output: unknown, at: string, fail: Fail): void {
    if (!isObject(output)) {
      return fail(`${at} is ${kind(output)}, not an object`);
    }
    if (typeof output.output_type !== 'string') {
      fail(`${at} has no "output_type" string`);
    }
    switch (output.output_type) {
      case 'error':
        for (const key of ['ename', 'evalue']) {
          if (typeof output[key] !== 'string') {
            fail(`${at}.${key} is ${kind(output[key])}, not a string`);
          }
        }
        if (!Array.isArray(output.traceback)) {
          fail(`${at}.traceback is ${kind(output.traceback)}, not a list`);
        }
        (output.traceback as unknown[]).forEach((line, index) => {
          if (typeof line !== 'string') {
            fail(`${at}.traceback[${index}] is ${kind(line)}, not a string`);
          }
        });
        break;
      case 'stream':
        checkText(output.text, `${at}.text`, fail);
        break;
      case 'execute_result':
      case 'display_data':
        optional(output, 'data', fail, 'an object', at);
        break;
      default:
        // Other output types are kept as they are and never read.
        break;
    }
  }

  /**
   * Check a multiline string: a string or a list of strings.
   */
  function checkText(value: unknown, at: string, fail: Fail): void {
    if (typeof value === 'string') {
      return;
    }
    if (!Array.isArray(value)) {
      fail(`${at} is ${kind(value)}, not a string or a list of strings`);
    }
    (value as unknown[]).forEach((line, index) => {
      if (typeof line !== 'string') {
        fail(`${at}[${index}] is ${kind(line)}, not a string`);
      }
    });
  }

  /**
   * Check an optional field, when present, against the expected kind of value.
   */
  export function optional(
    owner: Record<string, unknown>,
    key: string,
    fail: Fail,
    expected: Expected,
    at = ''
  ): void {
    const value = owner[key];
    if (value === undefined) {
      return;
    }
    const valid = {
      'a string': typeof value === 'string',
      'an object': isObject(value),
      'a whole number': Number.isInteger(value),
      'a whole number or null': value === null || Number.isInteger(value)
    }[expected];
    if (!valid) {
      const where = at ? `${at}.${key}` : `"${key}"`;
      fail(`${where} is ${kind(value)}, not ${expected}`);
    }
  }

  /**
   * The kinds of value an optional field may be expected to hold.
   */
  type Expected =
    'a string' | 'an object' | 'a whole number' | 'a whole number or null';

  /**
   * Whether a value is a JSON object (not null, not a list).
   */
  export function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }

  /**
   * What kind of JSON value this is, for messages (`a number`, `null`, ...).
   */
  export function kind(value: unknown): string {
    if (value === undefined) {
      return 'missing';
    }
    if (value === null) {
      return 'null';
    }
    if (Array.isArray(value)) {
      return 'a list';
    }
    const type = typeof value;
    return type === 'object' ? 'an object' : `a ${type}`;
  }

  /**
   * A short JSON rendering of a value for messages.
   */
  export function shown(value: unknown): string {
    if (value === undefined) {
      return 'missing';
    }
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 40 ? `${text.slice(0, 39)}…` : text;
  }

  /**
   * A short reason out of a rejection.
   */
  export function reason(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
  }
}
