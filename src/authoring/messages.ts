/**
 * Sentences for the authoring codes, through a translate function (English by
 * default, `trans.__` in JupyterLab). Pure logic.
 */

import { renderNameProblem } from '../casebook/paths';
import { cellName, english } from '../i18n';
import type { Translate } from '../i18n';
import type { RecordNote, RecordProblem } from './record';
import type { CaseNameProblem } from './spec';

/**
 * One sentence for a note about the recorded order.
 */
export function describeNote(
  note: RecordNote,
  __: Translate = english
): string {
  const name = (cellIndex: number, count: number) =>
    cellName(cellIndex, count, __);
  switch (note.code) {
    case 'history-unmatched':
      return __(
        'Input %1 ran code that is in no cell now (edited or deleted since): %2. The replay cannot run it.',
        note.count,
        JSON.stringify(Private.short(note.source))
      );
    case 'edited-after-run':
      return __(
        '%1 was edited after it ran as input %2: the replay runs the new text.',
        name(note.cellIndex, note.count),
        note.count
      );
    case 'runs-merged':
      return __(
        '%1 ran %2 times (inputs %3), not twice in a row: the replay runs it twice at its last place.',
        name(note.cellIndex, note.counts[note.counts.length - 1]),
        note.counts.length,
        note.counts.join(', ')
      );
    case 'after-crash':
      return __(
        'Inputs %1 ran after the crash and are left out.',
        note.counts.join(', ')
      );
    case 'earlier-error':
      return __(
        '%1 raised %2 in its last run too: the replay will stop there, before the crash.',
        name(note.cellIndex, note.count),
        note.ename
      );
  }
}

/**
 * One sentence saying why no case could be recorded.
 */
export function describeRecordProblem(
  problem: RecordProblem,
  __: Translate = english
): string {
  switch (problem.code) {
    case 'no-crash':
      return __(
        'No cell has an error output: run the notebook until it crashes, then save it as a case.'
      );
    case 'empty-history':
      return __(
        'The kernel has run nothing in this session: the recorded order comes from its input history, so run the notebook until it crashes in this kernel.'
      );
    case 'crash-not-in-history':
      return __(
        '%1 shows the crash, but the kernel did not run it in this session (was it restarted?): run the notebook again until it crashes.',
        cellName(problem.cellIndex, problem.count, __)
      );
  }
}

/**
 * One sentence saying why a case name cannot be used.
 */
export function describeNameProblem(
  name: string,
  problem: CaseNameProblem,
  __: Translate = english
): string {
  switch (problem.code) {
    case 'unsafe':
      return __(
        'The case name %1 cannot be used: %2. Use only letters, digits, "_", "." and "-", and no "..".',
        JSON.stringify(name),
        renderNameProblem(problem.problem, __)
      );
    case 'exists':
      return __(
        'The casebook already has a case %1 (row %2 of benchmark_desc.xlsx): choose another name or update it.',
        name,
        problem.row
      );
  }
}

namespace Private {
  /**
   * The first line of a source, shortened.
   */
  export function short(text: string): string {
    const first = text.split('\n')[0];
    return first.length > 60 ? `${first.slice(0, 59)}…` : first;
  }
}
