/**
 * A minimal .xlsx writer for tests: inline strings, numbers and booleans, no styles.
 */

import { strToU8, zipSync } from 'fflate';

/** A cell value the writer can store. */
export type TestCell = string | number | boolean | null;

/** A sheet to write. */
export interface ITestSheet {
  /** Sheet name. */
  name: string;
  /** Rows of cells; row i is spreadsheet row i + 1. */
  rows: TestCell[][];
}

/** How to write a workbook. */
export interface IXlsxOptions {
  /**
   * Store the parts uncompressed. Needed for big workbooks under Jest: the
   * reader inflates parts over 512 KB in a Web Worker, which jsdom lacks
   * (browsers have it, and Node's build uses worker_threads).
   */
  store?: boolean;
}

/**
 * Build the bytes of an .xlsx workbook holding the given sheets.
 */
export function makeXlsx(
  sheets: ITestSheet[],
  options: IXlsxOptions = {}
): ArrayBuffer {
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      xml(
        `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
          `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
          `<Default Extension="xml" ContentType="application/xml"/>` +
          `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
          sheets
            .map(
              (_, i) =>
                `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`
            )
            .join('') +
          `</Types>`
      )
    ),
    '_rels/.rels': strToU8(
      xml(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>` +
          `</Relationships>`
      )
    ),
    'xl/workbook.xml': strToU8(
      xml(
        `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>` +
          sheets
            .map(
              (sheet, i) =>
                `<sheet name="${escape(sheet.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`
            )
            .join('') +
          `</sheets></workbook>`
      )
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      xml(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          sheets
            .map(
              (_, i) =>
                `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`
            )
            .join('') +
          `</Relationships>`
      )
    )
  };
  sheets.forEach((sheet, i) => {
    files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(sheetXml(sheet.rows));
  });
  const zipped = zipSync(files, { level: options.store ? 0 : 6 });
  return zipped.buffer.slice(
    zipped.byteOffset,
    zipped.byteOffset + zipped.byteLength
  ) as ArrayBuffer;
}

/**
 * The XML of one worksheet.
 */
function sheetXml(rows: TestCell[][]): string {
  const body = rows
    .map((row, r) => {
      const cells = row
        .map((value, c) => cellXml(`${column(c)}${r + 1}`, value))
        .join('');
      return `<row r="${r + 1}">${cells}</row>`;
    })
    .join('');
  return xml(
    `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`
  );
}

/**
 * The XML of one cell ('' for an empty one).
 */
function cellXml(ref: string, value: TestCell): string {
  if (value === null) {
    return '';
  }
  if (typeof value === 'number') {
    return `<c r="${ref}"><v>${value}</v></c>`;
  }
  if (typeof value === 'boolean') {
    return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
  }
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escape(value)}</t></is></c>`;
}

/**
 * Spreadsheet column letters of a 0-based index.
 */
function column(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

/**
 * Prefix the XML declaration.
 */
function xml(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`;
}

/**
 * Escape text for XML.
 */
function escape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
