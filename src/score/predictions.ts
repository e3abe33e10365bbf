/**
 * Reading a tool's predictions: a CSV file (comma, tab or semicolon separated,
 * RFC 4180 quotes) with a header row, or JSON lines (one object per line), with
 * the fields `case, library, crash_type, root_cause, stage, cell, line`, any of
 * them but `case` empty or absent. The format is told by the content, not the
 * file name. Pure logic.
 */
import type { ScoreError, ScoreWarning } from './messages';

/** The fields of a prediction, as read (trimmed; null when empty or absent). */
export interface IPredictionRow {
  /** The row it came from: the CSV row (the header is row 1) or the JSON line, 1-based. */
  row: number;
  /** The case name as written. */
  case: string | null;
  /** The predicted library (`pandas`, `torch`...). */
  library: string | null;
  /** The predicted crash type (`label_refined_exp_type`). */
  crashType: string | null;
  /** The predicted root cause (`label_root_cause`). */
  rootCause: string | null;
  /** The predicted pipeline stage (`label_ML_pipeline`). */
  stage: string | null;
  /** The crashing cell: a cell id, a 0-based index among all cells, or `[n]` for an execution count. */
  cell: string | null;
  /** The 1-based crashing line in that cell, as written. */
  line: string | null;
}

/** The result of reading a predictions file. */
export type PredictionsParse =
  | { ok: true; rows: IPredictionRow[]; warnings: ScoreWarning[] }
  | { ok: false; error: ScoreError };

/** The fields of a prediction, keyed as `fieldKey` reads a column name. */
export const PREDICTION_FIELDS: Readonly<
  Record<string, Exclude<keyof IPredictionRow, 'row'>>
> = {
  case: 'case',
  library: 'library',
  crashtype: 'crashType',
  rootcause: 'rootCause',
  stage: 'stage',
  cell: 'cell',
  line: 'line'
};

/**
 * A column name or JSON key as matched: lower case without spaces, `_` or
 * `-`, so that `crash_type`, `Crash type` and `crashType` are one field.
 */
export function fieldKey(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

/**
 * Read the text of a predictions file named `file` (named in every message):
 * JSON lines when the first non-blank line starts with `{`, CSV otherwise;
 * never throws.
 */
export function parsePredictions(text: string, file: string): PredictionsParse {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') {
    return { ok: false, error: { code: 'empty-file', file } };
  }
  if (Private.BINARY.test(body)) {
    return { ok: false, error: { code: 'binary-file', file } };
  }
  const first = body.trimStart()[0];
  if (first === '[') {
    return { ok: false, error: { code: 'json-document', file } };
  }
  return first === '{'
    ? Private.parseJSONLines(body, file)
    : Private.parseCSV(body, file);
}

/**
 * Non-exported helpers.
 */
namespace Private {
  /**
   * Characters no CSV or JSON lines file holds (NUL and other C0 controls but
   * tab, line feed and carriage return): the mark of a binary file.
   */
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  export const BINARY = /[\u0000-\u0008\u000e-\u001f]/;

  /**
   * An empty prediction of a row.
   */
  function emptyRow(row: number): IPredictionRow {
    return {
      row,
      case: null,
      library: null,
      crashType: null,
      rootCause: null,
      stage: null,
      cell: null,
      line: null
    };
  }

  /**
   * A field value as kept: trimmed, null when empty.
   */
  function value(text: string): string | null {
    const trimmed = text.trim();
    return trimmed === '' ? null : trimmed;
  }

  /**
   * Parse JSON lines: each non-blank line one object.
   */
  export function parseJSONLines(body: string, file: string): PredictionsParse {
    const rows: IPredictionRow[] = [];
    const warnings: ScoreWarning[] = [];
    const unknown = new Set<string>();
    const lines = body.split(/\r\n|\n|\r/);
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index];
      if (line.trim() === '') {
        continue;
      }
      const row = index + 1;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch (reason) {
        return {
          ok: false,
          error: {
            code: 'bad-json-line',
            file,
            row,
            reason: (reason as Error).message
          }
        };
      }
      if (
        typeof parsed !== 'object' ||
        parsed === null ||
        Array.isArray(parsed)
      ) {
        return { ok: false, error: { code: 'not-an-object', file, row } };
      }
      const prediction = emptyRow(row);
      for (const [key, raw] of Object.entries(parsed)) {
        const field = PREDICTION_FIELDS[fieldKey(key)];
        if (field === undefined) {
          unknown.add(key);
          continue;
        }
        if (typeof raw === 'string') {
          prediction[field] = value(raw);
        } else if (typeof raw === 'number' && Number.isFinite(raw)) {
          prediction[field] = String(raw);
        } else if (raw !== null) {
          warnings.push({ code: 'bad-value', file, row, column: key });
        }
      }
      rows.push(prediction);
    }
    if (unknown.size > 0) {
      warnings.unshift({
        code: 'unknown-columns',
        file,
        columns: [...unknown]
      });
    }
    return { ok: true, rows, warnings };
  }

  /**
   * Parse CSV with a header row naming the fields.
   */
  export function parseCSV(body: string, file: string): PredictionsParse {
    const separator = separatorOf(body);
    const records = splitRecords(body, separator);
    if (!Array.isArray(records)) {
      return {
        ok: false,
        error: { code: 'unclosed-quote', file, row: records.row }
      };
    }
    // Blank lines above the header are not rows of the file's table.
    const start = records.findIndex(r => r.fields.some(f => f.trim() !== ''));
    const [header, ...data] = records.slice(start);
    const titles = header.fields.map(title => title.trim());
    const fields: (Exclude<keyof IPredictionRow, 'row'> | null)[] = [];
    const unknown: string[] = [];
    const seen = new Set<string>();
    for (const title of titles) {
      const field = PREDICTION_FIELDS[fieldKey(title)] ?? null;
      if (field !== null && seen.has(field)) {
        return {
          ok: false,
          error: { code: 'repeated-column', file, column: title }
        };
      }
      if (field === null && title !== '') {
        unknown.push(title);
      }
      if (field !== null) {
        seen.add(field);
      }
      fields.push(field);
    }
    if (!seen.has('case')) {
      return {
        ok: false,
        error: {
          code: 'no-case-column',
          file,
          columns: titles.filter(Boolean).slice(0, 12)
        }
      };
    }
    const warnings: ScoreWarning[] = unknown.length
      ? [{ code: 'unknown-columns', file, columns: unknown }]
      : [];
    const rows: IPredictionRow[] = [];
    for (const record of data) {
      if (record.fields.every(field => field.trim() === '')) {
        continue;
      }
      if (record.fields.length !== fields.length) {
        return {
          ok: false,
          error: {
            code: 'field-count',
            file,
            row: record.row,
            found: record.fields.length,
            expected: fields.length
          }
        };
      }
      const prediction = emptyRow(record.row);
      record.fields.forEach((text, at) => {
        const field = fields[at];
        if (field !== null) {
          prediction[field] = value(text);
        }
      });
      rows.push(prediction);
    }
    return { ok: true, rows, warnings };
  }

  /**
   * One CSV record: its fields and the row it starts on (1-based).
   */
  interface IRecord {
    fields: string[];
    row: number;
  }

  /**
   * The separator: the first of comma, tab and semicolon found in the header line.
   */
  function separatorOf(body: string): string {
    const header = body.split(/\r\n|\n|\r/, 1)[0];
    return [',', '\t', ';'].find(s => header.includes(s)) ?? ',';
  }

  /**
   * Split CSV text into records (quoted fields may hold separators, quotes
   * doubled and line breaks); the row of an unclosed quote instead.
   */
  function splitRecords(
    body: string,
    separator: string
  ): IRecord[] | { row: number } {
    const records: IRecord[] = [];
    let fields: string[] = [];
    let field = '';
    let row = 1;
    let recordRow = 1;
    let quoted = false;
    let quoteRow = 1;
    for (let i = 0; i < body.length; i++) {
      const ch = body[i];
      if (quoted) {
        if (ch === '"' && body[i + 1] === '"') {
          field += '"';
          i++;
        } else if (ch === '"') {
          quoted = false;
        } else {
          if (ch === '\n' || (ch === '\r' && body[i + 1] !== '\n')) {
            row++;
          }
          field += ch;
        }
      } else if (ch === '"' && field.trim() === '') {
        quoted = true;
        quoteRow = row;
        field = '';
      } else if (ch === separator) {
        fields.push(field);
        field = '';
      } else if (ch === '\n' || ch === '\r') {
        if (ch === '\r' && body[i + 1] === '\n') {
          i++;
        }
        fields.push(field);
        records.push({ fields, row: recordRow });
        fields = [];
        field = '';
        row++;
        recordRow = row;
      } else {
        field += ch;
      }
    }
    if (quoted) {
      return { row: quoteRow };
    }
    if (field !== '' || fields.length > 0) {
      fields.push(field);
      records.push({ fields, row: recordRow });
    }
    return records;
  }
}
