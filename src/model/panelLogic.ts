/**
 * The case panel's decisions that need no DOM and no React: how many rows a
 * page holds, where the keyboard goes in the case list, which row is in the
 * tab order, how many filters are active. The views render what these say.
 */
import type { ICaseQuery } from '../casebook/filter';

/** How many cases are rendered before "Show more" (and how many it adds). */
export const PAGE = 200;

/** Where a key pressed in the case list moves: a row's index, the search box, or nowhere. */
export type ListMove = number | 'search' | null;

/**
 * Where a key moves the focus in a list of `count` rows when the row at
 * `index` has it (-1: no row has it, e.g. the search box).
 *
 * Down stops at the last row, Up from the first row goes back to the search,
 * Home and End go to the ends; any other key does not move.
 */
export function listMove(key: string, index: number, count: number): ListMove {
  if (count === 0) {
    return key === 'ArrowUp' ? 'search' : null;
  }
  switch (key) {
    case 'ArrowDown':
      return Math.min(count - 1, index + 1);
    case 'ArrowUp':
      return index <= 0 ? 'search' : index - 1;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * The row in the tab order (roving tab index): the current one while it is
 * listed, else the first; null for an empty list.
 */
export function tabbableRow(
  names: readonly string[],
  current: string | null
): string | null {
  if (current !== null && names.includes(current)) {
    return current;
  }
  return names[0] ?? null;
}

/**
 * How many filters a query has on (each ticked facet value and
 * "Notebook-specific only"); the text and "Runnable here" are not filters of
 * the Filters box.
 */
export function activeFilterCount(query: Readonly<ICaseQuery>): number {
  return (
    query.library.length +
    query.crashType.length +
    query.rootCause.length +
    query.pipelineStage.length +
    (query.status?.length ?? 0) +
    (query.notebookSpecificOnly ? 1 : 0)
  );
}
