/**
 * Shared reading of `.xlsx` workbooks for the casebook parsers (not re-exported).
 */

import readXlsxFile from 'read-excel-file/universal';

import { casebookProblem } from './messages';
import type { ICasebookProblem } from './types';

/** One sheet of a workbook: its name and its cells as text ('' for empty). */
export interface ITextSheet {
  /** Sheet name. */
  name: string;
  /** Rows of cell texts; row i is spreadsheet row i + 1. */
  rows: string[][];
}

/** The outcome of reading a workbook: its sheets, or why it could not be read. */
export type WorkbookRead =
  { ok: true; sheets: ITextSheet[] } | { ok: false; problem: ICasebookProblem };

/**
 * Read every sheet of an `.xlsx` file as text; never throws, a corrupt file
 * gives a problem naming the file.
 */
export async function readWorkbook(
  bytes: ArrayBuffer,
  file: string
): Promise<WorkbookRead> {
  try {
    const sheets = await readXlsxFile(Private.ownArrayBuffer(bytes));
    return {
      ok: true,
      sheets: sheets.map(sheet => ({
        name: sheet.sheet,
        rows: sheet.data.map(row => row.map(cellText))
      }))
    };
  } catch (error) {
    return {
      ok: false,
      problem: casebookProblem(
        { code: 'not-xlsx', file, reason: Private.reason(error) },
        'error',
        { file }
      )
    };
  }
}

/**
 * A cell value as trimmed text: strings with their line ends as XML reads
 * them (CRLF and CR become LF, as an XML parser must normalise them, so a file
 * rewritten by another tool reads the same), numbers and booleans printed,
 * dates in ISO form, empty cells as ''.
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) {
    return '';
  }
  if (typeof value === 'string') {
    return value.replace(/\r\n?/g, '\n').trim();
  }
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  }
  if (
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    typeof value === 'bigint'
  ) {
    return String(value);
  }
  return String(value).trim();
}

/**
 * Map header names (trimmed, case-insensitive) to column indices; the first of
 * duplicate headers wins and later ones are reported.
 */
export function headerIndex(header: string[]): {
  columns: Map<string, number>;
  duplicates: string[];
} {
  const columns = new Map<string, number>();
  const duplicates: string[] = [];
  header.forEach((title, index) => {
    const key = title.trim().toLowerCase();
    if (key === '') {
      return;
    }
    if (columns.has(key)) {
      duplicates.push(title.trim());
    } else {
      columns.set(key, index);
    }
  });
  return { columns, duplicates };
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * Copy the bytes into an ArrayBuffer of this realm: the reader checks
   * `instanceof ArrayBuffer`, which fails for buffers made in another realm
   * (an iframe, a Node `Buffer` seen from a test sandbox).
   */
  export function ownArrayBuffer(bytes: ArrayBuffer): ArrayBuffer {
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(new Uint8Array(bytes));
    return copy.buffer;
  }

  /**
   * A short reason out of whatever the reader threw.
   */
  export function reason(error: unknown): string {
    if (error instanceof Error) {
      const code = (error as Error & { code?: unknown }).code;
      const message = error.message || error.name;
      return typeof code === 'string' && !message.includes(code)
        ? `${message} (${code})`
        : message;
    }
    return String(error);
  }
}
