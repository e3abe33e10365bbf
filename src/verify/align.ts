/**
 * Aligning the crashing cell of a reproduced notebook with its counterpart in
 * the fixed notebook. Pure logic.
 */
import { alignNotebooks, dice } from '../repair/align';
import type { INotebookJSON } from '../replay/types';

/**
 * The index (among all cells) of the fixed notebook's cell that corresponds to
 * the reproduced notebook's cell `cellIndex`: its counterpart under
 * `alignNotebooks` (the repair check's alignment), else, for verify's best
 * guess, the code cell whose source is most alike, preferring the same
 * position among code cells on ties; null when the fixed notebook has no code.
 */
export function alignCell(
  reproduced: INotebookJSON,
  cellIndex: number,
  fixed: INotebookJSON
): number | null {
  const cell = reproduced.cells[cellIndex];
  if (!cell) {
    return null;
  }
  const aligned = alignNotebooks(reproduced, fixed).forward(cellIndex);
  if (aligned !== null) {
    return aligned;
  }
  if (cell.id) {
    const same = fixed.cells.findIndex(
      c => c.id === cell.id && c.cell_type === 'code'
    );
    if (same >= 0) {
      return same;
    }
  }
  const codePos = reproduced.cells
    .slice(0, cellIndex)
    .filter(c => c.cell_type === 'code').length;
  const wanted = Private.lines(cell.source);
  let best: { index: number; score: number; distance: number } | null = null;
  let pos = 0;
  fixed.cells.forEach((c, index) => {
    if (c.cell_type !== 'code') {
      return;
    }
    const score = dice(wanted, Private.lines(c.source));
    const distance = Math.abs(pos - codePos);
    if (
      !best ||
      score > best.score ||
      (score === best.score && distance < best.distance)
    ) {
      best = { index, score, distance };
    }
    pos++;
  });
  return best ? (best as { index: number }).index : null;
}

namespace Private {
  /**
   * Non-empty, trimmed lines of a cell source.
   */
  export function lines(source: string | string[]): string[] {
    const text = Array.isArray(source) ? source.join('') : source;
    return text
      .split('\n')
      .map(l => l.trim())
      .filter(l => l.length > 0);
  }
}
