/**
 * What a repair check found, as codes with parameters, and the one renderer
 * that turns them into sentences: the UI passes JupyterLab's translator, the
 * command line renders the same codes in English. Cells are named as the
 * learner sees them: their position and their `[n]` prompt. Pure logic.
 */
import { english, renderCell } from '../i18n';
import type { ICellRef, Translate } from '../i18n';
import { renderAspect, renderValueSide } from './evidenceText';
import type { ValueSide } from './evidenceText';
import type { EffectNote } from './evidence';
import { typeLabel } from '../state/values';
import { renderRunStop } from '../kernel/stop';
import type { RunStop } from '../kernel/stop';
import type { InterpreterFinding } from './interpreter';

/** How a check ended. */
export type CheckStatus =
  | 'solved'
  | 'fails-fresh'
  | 'works-live-only'
  | 'hidden-crash'
  | 'different-effect'
  | 'not-run-live'
  | 'fails-live'
  | 'not-checked'
  | 'no-target'
  | 'unaligned'
  | 'no-reference'
  | 'off-limits'
  | 'changes-interpreter';

/** Why the reference fix's run gave no evidence to compare a repair with. */
export type ReferenceProblem =
  /** The fixed notebook has no cell aligned with the crashing one. */
  | { code: 'no-counterpart' }
  /** No kernel could be started for it; `reason` is the error's own text. */
  | { code: 'kernel-start'; reason: string }
  /** Its run ended before the target cell had run. */
  | { code: 'stopped'; stop: RunStop }
  /** The probe sent nothing back from its target cell. */
  | { code: 'no-report' }
  /** It was not run. */
  | { code: 'not-run' };

/** One thing a check found, with what a sentence about it needs. */
export type CheckFinding =
  | { code: 'no-target' }
  | { code: 'reference-unaligned'; cell: ICellRef }
  | { code: 'target-deleted'; cell: ICellRef }
  | { code: 'target-emptied'; cell: ICellRef }
  | { code: 'target-commented-out'; cell: ICellRef }
  | { code: 'line-commented-out'; cell: ICellRef; statement: string }
  | { code: 'line-removed'; cell: ICellRef; statement: string }
  | {
      code: 'swallowed';
      cell: ICellRef;
      line: number;
      ename: string;
      evalue: string;
      /** Where it was caught: the traced cell, a function of another cell, a thread. */
      where?: 'cell' | 'helper' | 'thread';
      /** The prompt of the cell whose function caught it (`helper`). */
      helperCount?: number | null;
    }
  | { code: 'not-executed'; cell: ICellRef; line: number; statement: string }
  | {
      code: 'not-python';
      cell: ICellRef;
      line: number;
      statement: string;
      magic: string;
    }
  | { code: 'in-string'; cell: ICellRef; line: number; statement: string }
  | { code: 'no-evidence'; cell: ICellRef }
  | {
      code: 'effect-differs';
      name: string;
      aspect: string;
      expected: string;
      actual: string;
      /** The sides as codes, translated when present (else the English words). */
      expectedSide?: ValueSide;
      actualSide?: ValueSide;
    }
  | {
      code: 'effect-missing';
      name: string;
      expected: string;
      expectedSide?: ValueSide;
    }
  | {
      code: 'same-effect';
      names: string;
      /** The reference's cell draws figures, and yours match them. */
      figures?: boolean;
    }
  | {
      code: 'effect-noted';
      name: string;
      note: Exclude<EffectNote, { code: 'intermediate-missing' }>;
    }
  | { code: 'intermediate-missing'; names: string }
  | { code: 'figure-differs'; expectedSide: ValueSide; actualSide: ValueSide }
  | {
      code: 'environment';
      /** Libraries the notebook imports, at other versions than the benchmark's. */
      libraries: Array<{ name: string; found: string | null; pinned: string }>;
      /** Python, when its minor version differs. */
      python: { found: string; pinned: string } | null;
    }
  | {
      code: 'live-swallowed';
      cell: ICellRef;
      ename: string;
      evalue: string;
    }
  | {
      code: 'live-effect-differs';
      name: string;
      aspect: string;
      expectedSide: ValueSide;
      actualSide: ValueSide;
    }
  | { code: 'live-effect-missing'; name: string }
  | {
      code: 'live-input-differs';
      name: string;
      aspect: string;
      expectedSide: ValueSide;
      actualSide: ValueSide;
    }
  | { code: 'live-input-missing'; name: string }
  | { code: 'live-unreplayed' }
  | { code: 'live-error-saved' }
  | { code: 'data-independent'; names: string[] }
  | { code: 'unwatched-fails'; stop: RunStop }
  | {
      code: 'final-differs';
      name: string;
      aspect: string;
      expectedSide: ValueSide;
      actualSide: ValueSide;
    }
  | {
      code: 'restructured';
      cell: ICellRef;
      /** The failing line that is gone, or null when the whole cell was emptied. */
      statement: string | null;
    }
  | { code: 'live-unfinished'; stop: RunStop }
  | {
      code: 'kernel-died';
      /** The run that lost its kernel: the fresh run, or the replay of the live kernel. */
      run: 'fresh' | 'live';
      /** The cell that was running. */
      cell: ICellRef;
    }
  | { code: 'reference-failed'; problem: ReferenceProblem }
  | {
      code: 'fresh-error';
      cell: ICellRef;
      line: number | null;
      ename: string;
      evalue: string;
      afterTarget: boolean;
    }
  | {
      code: 'fresh-unfinished';
      /** Why the run ended early. */
      stop: RunStop;
    }
  | { code: 'missing-module'; module: string }
  | { code: 'fresh-not-run' }
  | { code: 'fresh-clean'; count: number }
  | { code: 'live-only' }
  | { code: 'nb-live-error' }
  | { code: 'nb-live-not-run' }
  | { code: 'live'; result: 'ok' | 'error' | 'not-run' }
  /** The notebook opened or named the case's answer key (`file`: as it named it). */
  | { code: 'reads-answer-key'; file: string }
  /** The notebook rewrote, removed or renamed one of the case's input files. */
  | { code: 'rewrites-input'; file: string }
  /** The notebook wrote into the casebook itself (outside its copy). */
  | { code: 'writes-casebook'; file: string }
  /**
   * The notebook changed how Python or IPython runs code, and the reference fix
   * does not (`cell`: the cell that did it, when known).
   */
  | InterpreterFinding;

export { cellName, english } from '../i18n';
export type { ICellRef, Translate } from '../i18n';

/**
 * The verdict line of a status (`noted`: a pass with differences noted).
 */
export function renderStatus(
  status: CheckStatus,
  __: Translate = english,
  noted = false
): string {
  switch (status) {
    case 'solved':
      return noted
        ? __(
            'Solved, with differences noted: your repair runs from a fresh kernel and computes what the reference fix computes; what it does differently is listed below.'
          )
        : __(
            'Solved: your repair runs from a fresh kernel and does what the reference fix does.'
          );
    case 'hidden-crash':
      return __('Not solved: the repair hides the crash instead of fixing it.');
    case 'different-effect':
      return __(
        'Not solved: the repaired cell runs but computes something else than the reference fix.'
      );
    case 'fails-fresh':
      return __('Not solved: the notebook still fails from a fresh kernel.');
    case 'works-live-only':
      return __(
        'Not solved: the fix works in your live kernel but not from a fresh kernel.'
      );
    case 'fails-live':
      return __(
        'Not solved yet: the target cell still fails in your live kernel.'
      );
    case 'not-run-live':
      return __(
        'Not solved yet: run the target cell again in your live kernel.'
      );
    case 'not-checked':
      return __('Not checked: the check could not gather its evidence.');
    case 'no-target':
      return __('Not checked: the case has no crashing cell to check.');
    case 'unaligned':
      return __(
        'Not checked: the case’s reference fix has no cell matching the crashing cell.'
      );
    case 'no-reference':
      return __(
        'Not checked: the reference fix does not run here, so there is nothing to compare with.'
      );
    case 'off-limits':
      return __(
        'Not solved: the notebook reaches for the case’s answer key or changes its input files.'
      );
    case 'changes-interpreter':
      return __(
        'Not solved: the repair changes how the notebook runs instead of fixing its code.'
      );
  }
}

/**
 * What the reader already sees beside the reasons, so that a reason refers
 * to it instead of repeating it (each fact once in a view).
 */
export interface IFindingContext {
  /** The crash already shown (the last replay's exception), or null. */
  shownError?: { ename: string; evalue: string } | null;
  /** Whether the environment's differences are shown beside the reasons. */
  environmentShown?: boolean;
}

/**
 * One finding as a sentence; with a context, a reason refers to what is
 * already shown ("the same error as the replay") instead of repeating it.
 */
export function renderFinding(
  f: CheckFinding,
  __: Translate = english,
  context: IFindingContext = {}
): string {
  const shown = context.shownError;
  const same = (ename: string, evalue: string): boolean =>
    !!shown && shown.ename === ename && shown.evalue === evalue;
  switch (f.code) {
    case 'no-target':
      return __(
        'The reproduced notebook holds no error output, so there is no crashing cell to check.'
      );
    case 'reference-unaligned':
      return __(
        'No cell of the reference fix matches the crashing %1 of the reproduced notebook, so the check cannot tell what the repair must do; tell the casebook’s author.',
        renderCell(f.cell, __)
      );
    case 'target-deleted':
      return __(
        'The crashing cell (%1 in the reproduced notebook) was deleted or rewritten beyond recognition, but the reference fix keeps it: that hides the crash instead of fixing it.',
        renderCell(f.cell, __)
      );
    case 'target-emptied':
      return __(
        'The crashing %1 was emptied, but the reference fix keeps its code: an empty cell cannot crash, and cannot do its job either.',
        renderCell(f.cell, __)
      );
    case 'target-commented-out':
      return __(
        'The crashing %1 was commented out, but the reference fix keeps its code: that hides the crash instead of fixing it.',
        renderCell(f.cell, __)
      );
    case 'line-commented-out':
      return __(
        'In %1 the failing line `%2` was commented out, but the reference fix keeps it (repaired): that hides the crash.',
        renderCell(f.cell, __),
        f.statement
      );
    case 'line-removed':
      return __(
        'In %1 the failing line `%2` was removed, but the reference fix keeps it (repaired): that hides the crash.',
        renderCell(f.cell, __),
        f.statement
      );
    case 'swallowed':
      if (same(f.ename, f.evalue)) {
        return f.where === 'thread'
          ? __(
              'While %1 ran, the same error as the replay was raised in another thread and lost there (the reference fix raises no such error): the crash is hidden, not fixed.',
              renderCell(f.cell, __)
            )
          : f.where === 'helper'
            ? __(
                'While %1 ran, the same error as the replay was raised and swallowed by a function defined in %2 (the reference fix raises no such error): the crash is hidden, not fixed.',
                renderCell(f.cell, __),
                f.helperCount === null || f.helperCount === undefined
                  ? __('another cell')
                  : __('cell [%1]', f.helperCount)
              )
            : __(
                'In %1, line %2 raised the same error as the replay, and the cell swallowed it (the reference fix raises no such error there): the crash is hidden, not fixed.',
                renderCell(f.cell, __),
                f.line
              );
      }
      return f.where === 'thread'
        ? __(
            'While %1 ran, %2: %3 was raised in another thread and lost there (the reference fix raises no such error): the crash is hidden, not fixed.',
            renderCell(f.cell, __),
            f.ename,
            f.evalue
          )
        : f.where === 'helper'
          ? __(
              'While %1 ran, %2: %3 was raised and swallowed by a function defined in %4 (the reference fix raises no such error): the crash is hidden, not fixed.',
              renderCell(f.cell, __),
              f.ename,
              f.evalue,
              f.helperCount === null || f.helperCount === undefined
                ? __('another cell')
                : __('cell [%1]', f.helperCount)
            )
          : __(
              'In %1, line %2 raised %3: %4, and the cell swallowed it (the reference fix raises no such error there): the crash is hidden, not fixed.',
              renderCell(f.cell, __),
              f.line,
              f.ename,
              f.evalue
            );
    case 'not-executed':
      return __(
        'In %1 the repaired statement on line %2 (`%3`) never ran from a fresh kernel: code that does not run cannot fix the crash.',
        renderCell(f.cell, __),
        f.line,
        f.statement
      );
    case 'not-python':
      return __(
        'In %1 the repaired statement on line %2 (`%3`) never ran as Python: the cell magic %4 hands the cell’s text to something else.',
        renderCell(f.cell, __),
        f.line,
        f.statement,
        f.magic
      );
    case 'in-string':
      return __(
        'In %1 the failing statement on line %2 (`%3`) was turned into a string literal: it no longer runs.',
        renderCell(f.cell, __),
        f.line,
        f.statement
      );
    case 'no-evidence':
      return __(
        'The check could not trace %1 in the fresh kernel (is it an IPython kernel?), so it cannot tell whether the repair runs.',
        renderCell(f.cell, __)
      );
    case 'effect-differs':
      return __(
        'After the target cell, `%1` differs from the reference fix’s (%2): the reference has %3, yours has %4.',
        f.name,
        renderAspect(f.aspect, __),
        f.expectedSide ? renderValueSide(f.expectedSide, __) : f.expected,
        f.actualSide ? renderValueSide(f.actualSide, __) : f.actual
      );
    case 'effect-missing':
      return __(
        'After the target cell, `%1` is not defined, but the reference fix defines it (%2).',
        f.name,
        f.expectedSide ? renderValueSide(f.expectedSide, __) : f.expected
      );
    case 'same-effect':
      return f.names
        ? __(
            'After the target cell, what the reference fix sets matches yours: %1 (element by element where the reference is deterministic, else by type, shape and columns).',
            f.names
          )
        : f.figures
          ? __(
              'The reference fix’s target cell sets no variable, and the figures it draws match yours (their data, whichever plotting call drew them).'
            )
          : __(
              'The reference fix’s target cell sets no variable to compare yours with.'
            );
    case 'effect-noted':
      return renderNote(f.name, f.note, __);
    case 'intermediate-missing':
      return __(
        'You did not keep %1, which the reference fix’s cell only uses on the way to its results: fine.',
        f.names
      );
    case 'figure-differs':
      return __(
        'The figure the target cell draws differs from the reference fix’s: the reference has %1, yours has %2.',
        renderValueSide(f.expectedSide, __),
        renderValueSide(f.actualSide, __)
      );
    case 'environment':
      if (context.environmentShown) {
        return __(
          'This kernel is not the benchmark’s environment (see Environment): a repair may behave differently there.'
        );
      }
      return __(
        'This kernel is not the benchmark’s environment: %1. A repair may behave differently there.',
        [
          ...f.libraries.map(l =>
            l.found === null
              ? __('%1 not installed (benchmark %2)', l.name, l.pinned)
              : __('%1 %2 (benchmark %3)', l.name, l.found, l.pinned)
          ),
          ...(f.python
            ? [__('Python %1 (benchmark %2)', f.python.found, f.python.pinned)]
            : [])
        ].join(', ')
      );
    case 'live-swallowed':
      if (same(f.ename, f.evalue)) {
        return __(
          'In your live kernel (replayed as it ran), %1 caught the same error as the replay when it ran again.',
          renderCell(f.cell, __)
        );
      }
      return __(
        'In your live kernel (replayed as it ran), %1 caught %2: %3 when it ran again.',
        renderCell(f.cell, __),
        f.ename,
        f.evalue
      );
    case 'live-effect-differs':
      return __(
        'In your live kernel (replayed as it ran), `%1` differs after the target cell (%2): the reference has %3, yours has %4.',
        f.name,
        renderAspect(f.aspect, __),
        renderValueSide(f.expectedSide, __),
        renderValueSide(f.actualSide, __)
      );
    case 'live-effect-missing':
      return __(
        'In your live kernel (replayed as it ran), `%1` is not defined after the target cell: the state the crash left behind is still there.',
        f.name
      );
    case 'live-input-differs':
      return __(
        'In your live kernel (replayed as it ran), `%1` is not what a fresh run of your notebook gives the target cell (%2): a fresh run has %3, the live kernel %4. The state the crash left behind is still there.',
        f.name,
        renderAspect(f.aspect, __),
        renderValueSide(f.expectedSide, __),
        renderValueSide(f.actualSide, __)
      );
    case 'live-input-missing':
      return __(
        'In your live kernel (replayed as it ran), `%1` is not defined when the target cell runs, though a fresh run of your notebook defines it: the state the crash left behind is still there.',
        f.name
      );
    case 'live-unreplayed':
      return __(
        'Your live kernel’s history, as the notebook saved it, does not lead to the clean run of the target it shows (a cell edited after it ran?): the check goes by the saved output there.'
      );
    case 'data-independent':
      return __(
        'Your %1 does not depend on the data: run on other data of the same form (the case’s tables shuffled and jittered), the reference’s changes and yours stays the same. A result typed in, or read from somewhere other than the case’s data, is not computed.',
        f.names.map(n => `\`${n}\``).join(', ')
      );
    case 'unwatched-fails':
      return __(
        'Run once more from a fresh kernel with nothing of the check in it (no probe, no tracing), your notebook does not get to its end: %1 A repair must not depend on being checked.',
        renderRunStop(f.stop, __)
      );
    case 'final-differs':
      return __(
        'At the end of the notebook (or just before a cell deletes it), `%1` no longer holds the reference’s value (%2: the reference has %3, yours has %4): a later cell overwrites the result with another one.',
        f.name,
        renderAspect(f.aspect, __),
        renderValueSide(f.expectedSide, __),
        renderValueSide(f.actualSide, __)
      );
    case 'live-error-saved':
      return __(
        'The target cell’s saved output is still the error of its last run in your live kernel, whatever its prompt says: restore a working state there and run it again.'
      );
    case 'restructured':
      return f.statement === null
        ? __(
            'The crashing %1 no longer holds code, but after it the reference fix’s results are all there and the same: you computed them another way.',
            renderCell(f.cell, __)
          )
        : __(
            'In %1 the failing line `%2` is no longer there, but after the cell the reference fix’s results are all there and the same: you computed them another way.',
            renderCell(f.cell, __),
            f.statement
          );
    case 'kernel-died':
      return f.run === 'fresh'
        ? __(
            'From a fresh kernel, the kernel died while %1 ran: its process ended (an exit such as `os._exit`, a signal, or a lack of memory), so the notebook cannot run to its end.',
            renderCell(f.cell, __)
          )
        : __(
            'Replaying your live kernel’s history, the kernel died while %1 ran: its process ended (an exit such as `os._exit`, a signal, or a lack of memory).',
            renderCell(f.cell, __)
          );
    case 'live-unfinished':
      return __(
        'Your live kernel’s history could not be replayed up to the target cell: %1',
        renderRunStop(f.stop, __)
      );
    case 'reference-failed':
      return __(
        'The reference fix did not run here: %1',
        renderReferenceProblem(f.problem, __)
      );
    case 'fresh-error':
      if (same(f.ename, f.evalue)) {
        return f.line === null
          ? __(
              'From a fresh kernel, %1%2 raised the same error as the replay.',
              renderCell(f.cell, __),
              f.afterTarget ? __(' (after the target)') : ''
            )
          : __(
              'From a fresh kernel, %1%2, line %3 raised the same error as the replay.',
              renderCell(f.cell, __),
              f.afterTarget ? __(' (after the target)') : '',
              f.line
            );
      }
      return f.line === null
        ? __(
            'From a fresh kernel, %1%2 raised %3: %4',
            renderCell(f.cell, __),
            f.afterTarget ? __(' (after the target)') : '',
            f.ename,
            f.evalue
          )
        : __(
            'From a fresh kernel, %1%2, line %3 raised %4: %5',
            renderCell(f.cell, __),
            f.afterTarget ? __(' (after the target)') : '',
            f.line,
            f.ename,
            f.evalue
          );
    case 'fresh-unfinished':
      return __(
        'The fresh-kernel run did not finish: %1',
        renderRunStop(f.stop, __)
      );
    case 'missing-module':
      return __(
        'The fresh kernel cannot import %1: the environment lacks a library the notebook needs, so this says nothing about your repair. Install it, or check with the case’s kernel.',
        f.module
      );
    case 'fresh-not-run':
      return __('The fresh-kernel run has not happened yet.');
    case 'fresh-clean':
      return __(
        'A fresh kernel ran all %1 cells in play top to bottom without error.',
        f.count
      );
    case 'live-only':
      return __(
        'It depends on state that a restart loses: the target cell last ran cleanly in your live kernel.'
      );
    case 'nb-live-error':
      return __(
        'This crash comes from the order cells ran in, which a fresh top-to-bottom run cures by itself: the live kernel must work too, and its latest run of the target still failed.'
      );
    case 'nb-live-not-run':
      return __(
        'This crash comes from the order cells ran in: restore a working state in your live kernel and run the target cell again.'
      );
    case 'live':
      return f.result === 'ok'
        ? __('In your live kernel the target cell last ran without error.')
        : f.result === 'error'
          ? __('In your live kernel the target cell last raised an error.')
          : __(
              'The target cell has not run in your live kernel since the notebook was saved.'
            );
    case 'reads-answer-key':
      return __(
        'The notebook reaches for the case’s answer key (`%1`): a repair must compute its results from the case’s data, not take them from the reference fix or the diagnoses. The check runs it in a copy of the case folder that holds neither.',
        f.file
      );
    case 'rewrites-input':
      return __(
        'The notebook rewrites the case’s input file `%1`: a repair must leave its inputs as they are (write new files instead). The check runs it on a read-only copy of them.',
        f.file
      );
    case 'writes-casebook':
      return __(
        'The notebook writes into the casebook itself (`%1`), outside the copy the check runs it in: a repair must leave the casebook as it is.',
        f.file
      );
    case 'interpreter-changed':
      return renderInterpreterChange(f, __);
    case 'interpreter-unknown':
      return __(
        'The check’s kernel could not say whether the notebook changed how Python runs code, so the repair cannot be judged.'
      );
  }
}

/**
 * A change to the interpreter as a sentence: what was changed, where, and why
 * it is not a repair.
 */
function renderInterpreterChange(
  f: Extract<CheckFinding, { code: 'interpreter-changed' }>,
  __: Translate
): string {
  const where = f.madeIn ? renderCell(f.madeIn, __) : __('a cell');
  switch (f.kind) {
    case 'input-transformer':
      return __(
        'An input transformer `%1` registered in %2 rewrites the code of every cell before it runs; the reference fix registers none: the code that runs is not the code you wrote.',
        f.name,
        where
      );
    case 'ast-transformer':
      return __(
        'An AST transformer `%1` registered in %2 rewrites the code of every cell before it runs; the reference fix registers none: the code that runs is not the code you wrote.',
        f.name,
        where
      );
    case 'exception-handler':
      return __(
        'A custom exception handler for %1 installed in %2 changes what happens when a cell raises; the reference fix installs none.',
        f.name,
        where
      );
    case 'hook':
      return __(
        '`%1` was replaced in %2: it changes how Python reports errors or results; the reference fix leaves it alone.',
        f.name,
        where
      );
    case 'trace':
      return __(
        'A trace or profile function was set in %2 (`%1`): it can change how every line runs; the reference fix sets none.',
        f.name,
        where
      );
    case 'event-callback':
      return __(
        'An IPython event callback (%1) registered in %2 runs around every cell and can change its outcome; the reference fix registers none.',
        f.name,
        where
      );
    case 'shell':
      return __(
        '`%1` was replaced in %2: it changes how IPython runs cells; the reference fix leaves it alone.',
        f.name,
        where
      );
    case 'monkeypatch':
      return __(
        '`%1` was replaced in %2 by a function of the notebook: the library’s own code no longer runs there; the reference fix leaves it alone.',
        f.name,
        where
      );
    case 'thread':
      return __(
        'A thread (`%1`) was started in %2: what runs in another thread escapes the cell that started it; the reference fix starts none.',
        f.name,
        where
      );
  }
}

/**
 * A difference that keeps the result, as a sentence.
 */
export function renderNote(
  name: string,
  note: EffectNote,
  __: Translate = english
): string {
  switch (note.code) {
    case 'intermediate-differs':
      return __(
        '`%1`, which the reference fix’s cell only uses on the way to its results, differs (%2: the reference has %3, yours has %4); your results are the same: fine.',
        name,
        renderAspect(note.aspect, __),
        renderValueSide(note.expectedSide, __),
        renderValueSide(note.actualSide, __)
      );
    case 'other-type':
      return __(
        '`%1` is a %2 where the reference fix has a %3, with the same values.',
        name,
        typeLabel(note.actual),
        typeLabel(note.expected)
      );
    case 'squeezed':
      return __(
        '`%1` has shape (%2) where the reference fix has (%3): the same values, with other size-1 dimensions.',
        name,
        note.actual.join(', '),
        note.expected.join(', ')
      );
    case 'columns-dropped': {
      const shown = note.columns.slice(0, 8).map(c => `\`${c}\``);
      const cols =
        note.columns.length > 8
          ? __('%1 and %2 more', shown.join(', '), note.columns.length - 8)
          : shown.join(', ');
      if (note.columns.length > 1) {
        return note.later
          ? __(
              '%1 are no longer in `%2`: you took them out where the reference fix does so later; the other columns are the same.',
              cols,
              name
            )
          : __(
              '%1 are no longer in `%2` (the reference fix keeps them); the other columns are the same.',
              cols,
              name
            );
      }
      return note.later
        ? __(
            '%1 is no longer in `%2`: you took it out where the reference fix does so later; the other columns are the same.',
            cols,
            name
          )
        : __(
            '%1 is no longer in `%2` (the reference fix keeps it); the other columns are the same.',
            cols,
            name
          );
    }
    case 'column-order':
      return __('`%1` has the same columns in another order.', name);
    case 'columns-extra': {
      const shown = note.columns.slice(0, 8).map(c => `\`${c}\``);
      const cols =
        note.columns.length > 8
          ? __('%1 and %2 more', shown.join(', '), note.columns.length - 8)
          : shown.join(', ');
      return note.columns.length > 1
        ? __(
            '`%1` has the extra columns %2; the reference fix’s columns are all there and the same.',
            name,
            cols
          )
        : __(
            '`%1` has the extra column %2; the reference fix’s columns are all there and the same.',
            name,
            cols
          );
    }
    case 'row-order':
      return __('`%1` holds the same labelled rows in another order.', name);
    case 'index-as-column':
      return __(
        '`%1` holds the reference fix’s index labels in its column `%2` (or the other way round): the same data.',
        name,
        note.column
      );
    case 'rounding':
      return __(
        '%1 value(s) of `%2` differ from the reference fix’s by one rounding step (%3): an equivalent computation in another order.',
        note.count,
        name,
        note.grain
      );
    case 'intermediate-missing':
      return __(
        'You did not keep `%1`, which the reference fix’s cell only uses on the way to its results: fine.',
        name
      );
  }
}

/**
 * Why the reference fix gave no evidence, as a clause: translated by `__`,
 * English by default.
 */
export function renderReferenceProblem(
  p: ReferenceProblem,
  __: Translate = english
): string {
  switch (p.code) {
    case 'no-counterpart':
      return __('the reference fix has no counterpart of the crashing cell');
    case 'kernel-start':
      return __('could not start a kernel (%1)', p.reason);
    case 'stopped':
      // Its kernel's death is said as a clause (the run stop's sentence starts a sentence).
      return p.stop.code === 'kernel' && p.stop.fate === 'died'
        ? __('its kernel died while %1 ran', renderCell(p.stop.cell, __))
        : renderRunStop(p.stop, __);
    case 'no-report':
      return __('the probe could not report on the reference target cell');
    case 'not-run':
      return __('no reference run');
  }
}
