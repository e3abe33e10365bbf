/**
 * The one translation layer of the extension: the core returns codes with
 * parameters, and renders them through a `Translate` function; the UI passes
 * JupyterLab's `trans.__` (loaded for `TRANSLATION_DOMAIN`), the command line
 * passes `english`. Cells are named everywhere as the learner sees them: their
 * position and their `[n]` prompt. Pure logic.
 */

/** The gettext domain of every string of the extension (`translator.load(TRANSLATION_DOMAIN)`). */
export const TRANSLATION_DOMAIN = 'jupyterlab_junobench';

/** The translation call the renderers use (JupyterLab's `trans.__`). */
export type Translate = (msgid: string, ...args: unknown[]) => string;

/** English: `%1`, `%2`… replaced by the arguments, as JupyterLab's `nullTranslator` does. */
export const english: Translate = (msgid, ...args) =>
  msgid.replace(/%(\d+)/g, (m, n: string) =>
    args[Number(n) - 1] === undefined ? m : String(args[Number(n) - 1])
  );

/**
 * A cell as the learner sees it: its position among all cells and its prompt,
 * e.g. `cell 7 [6]`, or `cell 7 [ ]` for a cell that has not run.
 */
export function cellName(
  cellIndex: number,
  count: number | null,
  __: Translate = english
): string {
  return count === null
    ? __('cell %1 [ ]', cellIndex + 1)
    : __('cell %1 [%2]', cellIndex + 1, count);
}

/**
 * A cell in a message: what its name needs (`renderCell` says it; the command line's JSON adds
 * the English name, `withCellNames`).
 */
export interface ICellRef {
  /** Index of the cell among all cells (0-based). */
  cellIndex: number;
  /** Its `[n]` prompt, or null when it has not run. */
  executionCount: number | null;
}

/**
 * The reference to a cell that messages carry.
 */
export function cellRef(cellIndex: number, count: number | null): ICellRef {
  return { cellIndex, executionCount: count };
}

/**
 * A coded message as a server or a subprocess sends it, `{"code", ...params, "message"}`: one of
 * `codes` with its parameters, its English `message` (and any `drop`ped field) left out, or null
 * when it carries no code of `codes`.
 */
export function readCoded<T extends { code: string }>(
  value: unknown,
  codes: Record<T['code'], true>,
  drop: readonly string[] = []
): T | null {
  if (value === null || typeof value !== 'object') {
    return null;
  }
  const coded: Record<string, unknown> = { ...value };
  for (const key of ['message', ...drop]) {
    delete coded[key];
  }
  return typeof coded.code === 'string' &&
    Object.prototype.hasOwnProperty.call(codes, coded.code)
    ? (coded as T)
    : null;
}

/**
 * A `JSON.stringify` replacer for the command line's JSON: each cell reference (an object of
 * just `cellIndex` and `executionCount`) also gets its English name, e.g. `cell 7 [6]`, for
 * readers of the JSON.
 */
export function cellNamesInJSON(key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return value;
  }
  const ref = value as Record<string, unknown>;
  const keys = Object.keys(ref);
  const count = ref.executionCount;
  if (
    keys.length === 2 &&
    typeof ref.cellIndex === 'number' &&
    (typeof count === 'number' || count === null)
  ) {
    return { ...ref, name: cellName(ref.cellIndex, count) };
  }
  return value;
}

/**
 * A cell reference rendered for people (translated when `__` is).
 */
export function renderCell(ref: ICellRef, __: Translate = english): string {
  return cellName(ref.cellIndex, ref.executionCount, __);
}

/**
 * Several cells as one list, e.g. `cell 2 [1], cell 4 [3]`.
 */
export function renderCells(
  refs: readonly ICellRef[],
  __: Translate = english
): string {
  return refs.map(r => renderCell(r, __)).join(__(', '));
}

/**
 * What happened to a kernel that went away while running a cell (named as
 * the learner sees it): translated by `__`, English by default.
 */
export function renderFate(
  fate: 'died' | 'restarted' | 'shut-down' | 'lost' | 'unresponsive',
  name: string,
  __: Translate = english
): string {
  switch (fate) {
    case 'died':
      return __('The kernel died while running %1; its state is lost.', name);
    case 'restarted':
      return __(
        'The kernel was restarted while running %1; its state is lost.',
        name
      );
    case 'shut-down':
      return __('The kernel was shut down while running %1.', name);
    case 'lost':
      return __(
        'The connection to the kernel was lost while running %1.',
        name
      );
    case 'unresponsive':
      return __(
        'The kernel did not respond to the interrupt and may still be running %1; the run gave up on it. Restart the kernel before running more code.',
        name
      );
  }
}

/**
 * A byte count for messages: bytes, KB or MB (of 1024), its unit translated
 * by `__`.
 */
export function formatBytes(bytes: number, __: Translate = english): string {
  if (bytes < 1024) {
    return __('%1 bytes', bytes);
  }
  if (bytes < 1024 * 1024) {
    return __('%1 KB', (bytes / 1024).toFixed(1));
  }
  if (bytes < 1024 * 1024 * 1024) {
    return __('%1 MB', (bytes / (1024 * 1024)).toFixed(1));
  }
  return __('%1 GB', (bytes / (1024 * 1024 * 1024)).toFixed(1));
}
