/**
 * The translation layer: every code of the core renders in English exactly as
 * the command line printed it before codes existed (no silent wording
 * change), names cells by position and prompt, and goes through the
 * translation function the UI passes, so that no English leaks past it.
 */
import * as fs from 'fs';
import * as path from 'path';

import type { CaseMarker, CasebookMessage } from '../src/casebook/types';
import {
  renderCaseMarker,
  renderCasebookMessage
} from '../src/casebook/messages';
import { nullTranslator } from '@jupyterlab/translation';

import { formatBytes } from '../src/i18n';
import {
  cellName,
  cellNamesInJSON,
  cellRef,
  english,
  renderCell,
  TRANSLATION_DOMAIN
} from '../src/i18n';
import type { Translate } from '../src/i18n';
import type { RunStop } from '../src/kernel/stop';
import { renderRunStop } from '../src/kernel/stop';
import type {
  CheckFinding,
  CheckStatus,
  ReferenceProblem
} from '../src/repair/findings';
import {
  renderFinding,
  renderReferenceProblem,
  renderStatus
} from '../src/repair/findings';
import { hintLadder } from '../src/repair/hints';
import { truncationNote } from '../src/replay/outputs';
import type { INotebookJSON } from '../src/replay/types';
import type { ExplanationLine } from '../src/state/timeline';
import { renderExplanationLine } from '../src/state/timeline';
import type { VerdictReason } from '../src/verify/verdict';
import { renderVerdictReason } from '../src/verify/verdict';

import { caseRecord } from './casebook/fixtures';

/**
 * A pseudo-locale: every message id upper-cased (placeholders kept). Test data
 * hold no lower-case letters, so a lower-case word in a rendered sentence is
 * English that did not go through the translation function.
 */
const shout: Translate = (msgid, ...args) =>
  english(msgid.toUpperCase(), ...args);

/** Every TypeScript file under a folder. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

/** Lower-case words left in a sentence rendered with `shout`. */
const leaks = (sentence: string) => sentence.match(/[a-z]{2,}/g) ?? [];

const C6 = cellRef(6, 4);
const C1 = cellRef(0, null);
const X = { type: 'DATAFRAME', shape: [10, 2], columns: ['ID', 'A'] };
const Y = { type: 'DATAFRAME', shape: [10, 1], columns: ['A'] };

/** Findings and the English the check printed for them. */
const FINDINGS: Array<[CheckFinding, string]> = [
  [
    {
      code: 'interpreter-changed',
      kind: 'input-transformer',
      name: '_FIX',
      madeIn: C6
    },
    'An input transformer `_FIX` registered in cell 7 [4] rewrites the code of every cell before it runs; the reference fix registers none: the code that runs is not the code you wrote.'
  ],
  [
    {
      code: 'interpreter-changed',
      kind: 'thread',
      name: 'WORK',
      madeIn: null
    },
    'A thread (`WORK`) was started in a cell: what runs in another thread escapes the cell that started it; the reference fix starts none.'
  ],
  [
    { code: 'interpreter-unknown' },
    'The check’s kernel could not say whether the notebook changed how Python runs code, so the repair cannot be judged.'
  ],
  [
    {
      code: 'live-input-differs',
      name: 'M',
      aspect: 'fitted',
      expectedSide: { code: 'attribute', key: 'features', value: 4 },
      actualSide: { code: 'attribute', key: 'features', value: 3 }
    },
    'In your live kernel (replayed as it ran), `M` is not what a fresh run of your notebook gives the target cell (fitted): a fresh run has input features 4, the live kernel input features 3. The state the crash left behind is still there.'
  ],
  [
    { code: 'live-input-missing', name: 'M' },
    'In your live kernel (replayed as it ran), `M` is not defined when the target cell runs, though a fresh run of your notebook defines it: the state the crash left behind is still there.'
  ],
  [
    { code: 'data-independent', names: ['GRADE', "P['BMI']"] },
    "Your `GRADE`, `P['BMI']` does not depend on the data: run on other data of the same form (the case’s tables shuffled and jittered), the reference’s changes and yours stays the same. A result typed in, or read from somewhere other than the case’s data, is not computed."
  ],
  [
    {
      code: 'unwatched-fails',
      stop: { code: 'timeout', cell: C6, seconds: 60 }
    },
    'Run once more from a fresh kernel with nothing of the check in it (no probe, no tracing), your notebook does not get to its end: Cell 7 [4] ran longer than 60 s and was interrupted. A repair must not depend on being checked.'
  ],
  [
    { code: 'live-error-saved' },
    'The target cell’s saved output is still the error of its last run in your live kernel, whatever its prompt says: restore a working state there and run it again.'
  ],
  [
    {
      code: 'final-differs',
      name: 'Z',
      aspect: 'shape',
      expectedSide: { code: 'shape', shape: [150, 4] },
      actualSide: { code: 'shape', shape: [150, 1] }
    },
    'At the end of the notebook (or just before a cell deletes it), `Z` no longer holds the reference’s value (shape: the reference has shape (150, 4), yours has shape (150, 1)): a later cell overwrites the result with another one.'
  ],
  [
    { code: 'live-unreplayed' },
    'Your live kernel’s history, as the notebook saved it, does not lead to the clean run of the target it shows (a cell edited after it ran?): the check goes by the saved output there.'
  ],
  [
    { code: 'restructured', cell: C6, statement: 'X = 1' },
    'In cell 7 [4] the failing line `X = 1` is no longer there, but after the cell the reference fix’s results are all there and the same: you computed them another way.'
  ],
  [
    { code: 'restructured', cell: C6, statement: null },
    'The crashing cell 7 [4] no longer holds code, but after it the reference fix’s results are all there and the same: you computed them another way.'
  ],
  [
    {
      code: 'not-python',
      cell: C6,
      line: 2,
      statement: 'X = 1',
      magic: '%%SCRIPT'
    },
    'In cell 7 [4] the repaired statement on line 2 (`X = 1`) never ran as Python: the cell magic %%SCRIPT hands the cell’s text to something else.'
  ],
  [
    {
      code: 'swallowed',
      cell: C6,
      line: 3,
      ename: 'E',
      evalue: 'V',
      where: 'helper',
      helperCount: 2
    },
    'While cell 7 [4] ran, E: V was raised and swallowed by a function defined in cell [2] (the reference fix raises no such error): the crash is hidden, not fixed.'
  ],
  [
    {
      code: 'swallowed',
      cell: C6,
      line: 3,
      ename: 'E',
      evalue: 'V',
      where: 'thread'
    },
    'While cell 7 [4] ran, E: V was raised in another thread and lost there (the reference fix raises no such error): the crash is hidden, not fixed.'
  ],
  [
    {
      code: 'effect-noted',
      name: 'DF',
      note: {
        code: 'other-type',
        expected: 'NUMPY.NDARRAY',
        actual: 'LIST'
      }
    },
    '`DF` is a LIST where the reference fix has a NUMPY.NDARRAY, with the same values.'
  ],
  [
    {
      code: 'effect-noted',
      name: 'W',
      note: {
        code: 'intermediate-differs',
        aspect: 'type',
        expectedSide: { code: 'length', len: 5 },
        actualSide: { code: 'not-there' }
      }
    },
    '`W`, which the reference fix’s cell only uses on the way to its results, differs (type: the reference has length 5, yours has not there); your results are the same: fine.'
  ],
  [
    {
      code: 'effect-noted',
      name: 'DF',
      note: { code: 'squeezed', expected: [3], actual: [1, 3] }
    },
    '`DF` has shape (1, 3) where the reference fix has (3): the same values, with other size-1 dimensions.'
  ],
  [
    {
      code: 'effect-noted',
      name: 'DF',
      note: { code: 'columns-dropped', columns: ['C'], later: true }
    },
    '`C` is no longer in `DF`: you took it out where the reference fix does so later; the other columns are the same.'
  ],
  [
    {
      code: 'effect-noted',
      name: 'DF',
      note: { code: 'columns-dropped', columns: ['C', 'D'], later: false }
    },
    '`C`, `D` are no longer in `DF` (the reference fix keeps them); the other columns are the same.'
  ],
  [
    { code: 'effect-noted', name: 'DF', note: { code: 'column-order' } },
    '`DF` has the same columns in another order.'
  ],
  [
    {
      code: 'effect-noted',
      name: 'DF',
      note: { code: 'rounding', count: 2, grain: 0.1 }
    },
    '2 value(s) of `DF` differ from the reference fix’s by one rounding step (0.1): an equivalent computation in another order.'
  ],
  [
    { code: 'intermediate-missing', names: '`MU`' },
    'You did not keep `MU`, which the reference fix’s cell only uses on the way to its results: fine.'
  ],
  [
    {
      code: 'figure-differs',
      expectedSide: { code: 'figures', count: 1 },
      actualSide: { code: 'figures', count: 0 }
    },
    'The figure the target cell draws differs from the reference fix’s: the reference has 1 figure(s), yours has 0 figure(s).'
  ],
  [
    {
      code: 'environment',
      libraries: [
        { name: 'NUMPY', found: '2.0', pinned: '1.26.4' },
        { name: 'TORCH', found: null, pinned: '2.3.1' }
      ],
      python: { found: '3.11.7', pinned: '3.10' }
    },
    'This kernel is not the benchmark’s environment: NUMPY 2.0 (benchmark 1.26.4), TORCH not installed (benchmark 2.3.1), Python 3.11.7 (benchmark 3.10). A repair may behave differently there.'
  ],
  [
    { code: 'live-swallowed', cell: C6, ename: 'E', evalue: 'V' },
    'In your live kernel (replayed as it ran), cell 7 [4] caught E: V when it ran again.'
  ],
  [
    {
      code: 'live-effect-differs',
      name: 'DF',
      aspect: 'shape',
      expectedSide: { code: 'shape', shape: [3] },
      actualSide: { code: 'shape', shape: [2] }
    },
    'In your live kernel (replayed as it ran), `DF` differs after the target cell (shape): the reference has shape (3), yours has shape (2).'
  ],
  [
    { code: 'live-effect-missing', name: 'DF' },
    'In your live kernel (replayed as it ran), `DF` is not defined after the target cell: the state the crash left behind is still there.'
  ],
  [
    {
      code: 'live-unfinished',
      stop: { code: 'interrupted' }
    },
    'Your live kernel’s history could not be replayed up to the target cell: The replay was interrupted.'
  ],
  [
    { code: 'kernel-died', run: 'fresh', cell: C6 },
    'From a fresh kernel, the kernel died while cell 7 [4] ran: its process ended (an exit such as `os._exit`, a signal, or a lack of memory), so the notebook cannot run to its end.'
  ],
  [
    { code: 'kernel-died', run: 'live', cell: C6 },
    'Replaying your live kernel’s history, the kernel died while cell 7 [4] ran: its process ended (an exit such as `os._exit`, a signal, or a lack of memory).'
  ],
  [
    { code: 'no-target' },
    'The reproduced notebook holds no error output, so there is no crashing cell to check.'
  ],
  [
    { code: 'reference-unaligned', cell: C6 },
    'No cell of the reference fix matches the crashing cell 7 [4] of the reproduced notebook, so the check cannot tell what the repair must do; tell the casebook’s author.'
  ],
  [
    { code: 'target-deleted', cell: C6 },
    'The crashing cell (cell 7 [4] in the reproduced notebook) was deleted or rewritten beyond recognition, but the reference fix keeps it: that hides the crash instead of fixing it.'
  ],
  [
    { code: 'target-emptied', cell: C1 },
    'The crashing cell 1 [ ] was emptied, but the reference fix keeps its code: an empty cell cannot crash, and cannot do its job either.'
  ],
  [
    { code: 'target-commented-out', cell: C6 },
    'The crashing cell 7 [4] was commented out, but the reference fix keeps its code: that hides the crash instead of fixing it.'
  ],
  [
    { code: 'line-commented-out', cell: C6, statement: 'X = 1' },
    'In cell 7 [4] the failing line `X = 1` was commented out, but the reference fix keeps it (repaired): that hides the crash.'
  ],
  [
    { code: 'line-removed', cell: C6, statement: 'X = 1' },
    'In cell 7 [4] the failing line `X = 1` was removed, but the reference fix keeps it (repaired): that hides the crash.'
  ],
  [
    {
      code: 'swallowed',
      cell: C6,
      line: 2,
      ename: 'KEYERROR',
      evalue: "'R'"
    },
    "In cell 7 [4], line 2 raised KEYERROR: 'R', and the cell swallowed it (the reference fix raises no such error there): the crash is hidden, not fixed."
  ],
  [
    { code: 'not-executed', cell: C6, line: 3, statement: 'X = 1' },
    'In cell 7 [4] the repaired statement on line 3 (`X = 1`) never ran from a fresh kernel: code that does not run cannot fix the crash.'
  ],
  [
    { code: 'in-string', cell: C6, line: 3, statement: 'X = 1' },
    'In cell 7 [4] the failing statement on line 3 (`X = 1`) was turned into a string literal: it no longer runs.'
  ],
  [
    { code: 'no-evidence', cell: C6 },
    'The check could not trace cell 7 [4] in the fresh kernel (is it an IPython kernel?), so it cannot tell whether the repair runs.'
  ],
  [
    {
      code: 'effect-differs',
      name: 'DF',
      aspect: 'SHAPE',
      expected: '(3, 2)',
      actual: '(3, 1)'
    },
    'After the target cell, `DF` differs from the reference fix’s (SHAPE): the reference has (3, 2), yours has (3, 1).'
  ],
  [
    { code: 'effect-missing', name: 'DF', expected: 'DATAFRAME' },
    'After the target cell, `DF` is not defined, but the reference fix defines it (DATAFRAME).'
  ],
  [
    { code: 'same-effect', names: '`DF`' },
    'After the target cell, what the reference fix sets matches yours: `DF` (element by element where the reference is deterministic, else by type, shape and columns).'
  ],
  [
    { code: 'same-effect', names: '' },
    'The reference fix’s target cell sets no variable to compare yours with.'
  ],
  [
    { code: 'same-effect', names: '', figures: true },
    'The reference fix’s target cell sets no variable, and the figures it draws match yours (their data, whichever plotting call drew them).'
  ],
  [
    { code: 'reference-failed', problem: { code: 'no-report' } },
    'The reference fix did not run here: the probe could not report on the reference target cell'
  ],
  [
    {
      code: 'fresh-error',
      cell: C6,
      line: null,
      ename: 'E',
      evalue: 'V',
      afterTarget: false
    },
    'From a fresh kernel, cell 7 [4] raised E: V'
  ],
  [
    {
      code: 'fresh-error',
      cell: C6,
      line: 2,
      ename: 'E',
      evalue: 'V',
      afterTarget: true
    },
    'From a fresh kernel, cell 7 [4] (after the target), line 2 raised E: V'
  ],
  [
    {
      code: 'fresh-unfinished',
      stop: { code: 'timeout', cell: C6, seconds: 5 }
    },
    'The fresh-kernel run did not finish: Cell 7 [4] ran longer than 5 s and was interrupted.'
  ],
  [
    { code: 'missing-module', module: 'TF' },
    'The fresh kernel cannot import TF: the environment lacks a library the notebook needs, so this says nothing about your repair. Install it, or check with the case’s kernel.'
  ],
  [{ code: 'fresh-not-run' }, 'The fresh-kernel run has not happened yet.'],
  [
    { code: 'fresh-clean', count: 5 },
    'A fresh kernel ran all 5 cells in play top to bottom without error.'
  ],
  [
    { code: 'live-only' },
    'It depends on state that a restart loses: the target cell last ran cleanly in your live kernel.'
  ],
  [
    { code: 'nb-live-error' },
    'This crash comes from the order cells ran in, which a fresh top-to-bottom run cures by itself: the live kernel must work too, and its latest run of the target still failed.'
  ],
  [
    { code: 'nb-live-not-run' },
    'This crash comes from the order cells ran in: restore a working state in your live kernel and run the target cell again.'
  ],
  [
    { code: 'live', result: 'ok' },
    'In your live kernel the target cell last ran without error.'
  ],
  [
    { code: 'live', result: 'error' },
    'In your live kernel the target cell last raised an error.'
  ],
  [
    { code: 'live', result: 'not-run' },
    'The target cell has not run in your live kernel since the notebook was saved.'
  ],
  [
    { code: 'reads-answer-key', file: 'NUMPY_1_FIXED.IPYNB' },
    'The notebook reaches for the case’s answer key (`NUMPY_1_FIXED.IPYNB`): a repair must compute its results from the case’s data, not take them from the reference fix or the diagnoses. The check runs it in a copy of the case folder that holds neither.'
  ],
  [
    { code: 'rewrites-input', file: 'DATA/FLOWERS.CSV' },
    'The notebook rewrites the case’s input file `DATA/FLOWERS.CSV`: a repair must leave its inputs as they are (write new files instead). The check runs it on a read-only copy of them.'
  ],
  [
    { code: 'writes-casebook', file: 'BENCHMARK/NUMPY_1/DATA/X.CSV' },
    'The notebook writes into the casebook itself (`BENCHMARK/NUMPY_1/DATA/X.CSV`), outside the copy the check runs it in: a repair must leave the casebook as it is.'
  ]
];

const STATUSES: CheckStatus[] = [
  'solved',
  'fails-fresh',
  'works-live-only',
  'hidden-crash',
  'different-effect',
  'not-run-live',
  'fails-live',
  'not-checked',
  'no-target',
  'unaligned',
  'no-reference',
  'changes-interpreter',
  'off-limits'
];

/** Explainer lines and the English the explainer composed for them. */
const EXPLANATIONS: Array<[ExplanationLine, string]> = [
  [{ code: 'no-crash', order: 'recorded' }, 'The recorded run did not crash.'],
  [
    { code: 'no-crash', order: 'top-to-bottom' },
    'The top-to-bottom run did not crash.'
  ],
  [
    { code: 'raised', cell: C6, ename: 'NAMEERROR', evalue: "NAME 'M'" },
    "cell 7 [4] raised NAMEERROR: NAME 'M'"
  ],
  [
    { code: 'defined-nowhere', name: 'M' },
    'No cell of the notebook defines `M`.'
  ],
  [
    { code: 'defined-ran-before', name: 'M', cells: [C1, C6], crash: C6 },
    '`M` is defined in cell 1 [ ], cell 7 [4], which ran before the crash, yet was not bound when cell 7 [4] ran.'
  ],
  [
    { code: 'defined-never-ran', name: 'M', cells: [C1] },
    '`M` is defined in cell 1 [ ], which never ran before the crash.'
  ],
  [
    { code: 'defined-ran-after', name: 'M', cells: [C1] },
    '`M` is defined in cell 1 [ ], which ran only after the crash.'
  ],
  [
    {
      code: 'ran-twice',
      runs: [
        { cell: C6, step: 4 },
        { cell: C1, step: 6 }
      ]
    },
    'cell 7 [4] ran twice (step 4 is its second run); cell 1 [ ] ran twice (step 6 is its second run).'
  ],
  [
    {
      code: 'last-changed',
      name: 'DF',
      step: 3,
      cell: C6,
      secondRun: false,
      before: X,
      after: Y
    },
    '`DF` last changed at step 3 (cell 7 [4], its first run): DATAFRAME (10, 2) columns ID, A → DATAFRAME (10, 1) columns A.'
  ],
  [
    {
      code: 'last-changed',
      name: 'DF',
      step: 4,
      cell: C6,
      secondRun: true,
      before: null,
      after: Y
    },
    '`DF` last changed at step 4 (cell 7 [4], its second run): not defined → DATAFRAME (10, 1) columns A.'
  ],
  [
    { code: 'at-crash', name: 'DF', value: Y, step: 2, cell: C1 },
    '`DF` at the crash: DATAFRAME (10, 1) columns A (last changed at step 2, cell 1 [ ]).'
  ],
  [
    {
      code: 'at-crash',
      name: 'M',
      value: { type: 'SK.MODEL', fitted: false },
      step: 2,
      cell: C1
    },
    '`M` at the crash: SK.MODEL not fitted (last changed at step 2, cell 1 [ ]).'
  ],
  [
    {
      code: 'at-crash',
      name: 'NP',
      value: { type: 'module', name: 'NUMPY' },
      step: 1,
      cell: C1
    },
    '`NP` at the crash: module NUMPY (last changed at step 1, cell 1 [ ]).'
  ],
  [{ code: 'never-set', name: 'DF' }, '`DF` was never set before the crash.']
];

/** Verdict reasons and the English `junobench verify` printed for them. */
const VERDICTS: Array<[VerdictReason, string]> = [
  [
    { code: 'no-recorded-crash' },
    'The reproduced notebook holds no error output to aim at.'
  ],
  [
    { code: 'crashed-as-recorded', ename: 'KEYERROR' },
    'Crashed at the target cell with KEYERROR as recorded.'
  ],
  [
    {
      code: 'crashed-differently',
      ename: 'E',
      recorded: 'R',
      cell: null,
      target: C6
    },
    'Crashed at the target cell with E (recorded: R).'
  ],
  [
    {
      code: 'crashed-differently',
      ename: 'E',
      recorded: 'R',
      cell: C1,
      target: C6
    },
    'Crashed at cell 1 [ ] instead of the target cell 7 [4] with E (recorded: R).'
  ],
  [{ code: 'no-crash' }, 'Ran to the end without the recorded crash.'],
  [
    { code: 'run-stopped', stop: { code: 'kernel', fate: 'died', cell: C6 } },
    'The kernel died while running cell 7 [4]; its state is lost.'
  ],
  [
    { code: 'fixed-raised', ename: 'E', step: 3, cell: C6 },
    'The fixed notebook raised E at step 3 (cell 7 [4]).'
  ],
  [
    { code: 'fixed-clean', earlierErrors: 2 },
    'Ran cleanly from the target on (2 earlier cell(s) raised errors).'
  ],
  [{ code: 'fixed-clean', earlierErrors: 0 }, 'Ran without error.'],
  [
    { code: 'missing-data', evalue: 'D.CSV' },
    'An input file is missing: D.CSV'
  ],
  [
    {
      code: 'module-not-installed',
      module: 'SNS',
      ename: 'MODULENOTFOUNDERROR',
      cell: C6
    },
    "Module 'SNS' is not installed (MODULENOTFOUNDERROR in cell 7 [4])."
  ],
  [
    {
      code: 'module-not-installed',
      module: 'SNS',
      ename: 'MODULENOTFOUNDERROR',
      cell: null
    },
    "Module 'SNS' is not installed (MODULENOTFOUNDERROR)."
  ],
  [
    {
      code: 'module-lacks-name',
      module: 'SK',
      name: 'F',
      ename: 'IMPORTERROR',
      cell: C6
    },
    "Module 'SK' has no 'F': another version may be installed (IMPORTERROR in cell 7 [4])."
  ],
  [
    { code: 'module-not-importable', module: 'TF', observed: 'E: V', cell: C6 },
    "Module 'TF' cannot be imported (E: V in cell 7 [4])."
  ],
  [
    { code: 'library-not-importable', observed: 'E: V', cell: null },
    'A library cannot be imported (E: V).'
  ],
  [{ code: 'not-run' }, 'Not run.'],
  [{ code: 'no-case-folder' }, 'The case folder is missing.'],
  [
    { code: 'notebook-missing', file: 'A_1_FIXED.IPYNB' },
    'A_1_FIXED.IPYNB is missing.'
  ],
  [{ code: 'invalid-notebook', message: 'BAD JSON.' }, 'BAD JSON.'],
  [
    { code: 'data-files-missing', because: { code: 'no-crash' } },
    'The case folder has no input data files but the notebook reads data/ (Ran to the end without the recorded crash.)'
  ]
];

/** Case markers and the loader's English. */
/** Why runs end: each as the runner's English said it before codes existed. */
const RUN_STOPS: Array<[RunStop, string]> = [
  [{ code: 'completed', count: 3 }, 'All 3 cells ran without error.'],
  [
    { code: 'crashed', cell: C6, ename: 'E', evalue: 'V' },
    'Cell 7 [4] raised E: V'
  ],
  [
    { code: 'crashed', cell: null, ename: 'E', evalue: 'V' },
    'A cell raised E: V'
  ],
  [{ code: 'interrupted' }, 'The replay was interrupted.'],
  [{ code: 'cancelled' }, 'The replay was stopped.'],
  [{ code: 'failed', reason: 'BOOM' }, 'The replay stopped: BOOM'],
  [
    { code: 'timeout', cell: C6, seconds: 2.5 },
    'Cell 7 [4] ran longer than 2.5 s and was interrupted.'
  ],
  [
    { code: 'kernel', fate: 'died', cell: C6, detail: 'BOOM' },
    'The kernel died while running cell 7 [4]; its state is lost. (BOOM)'
  ],
  [
    { code: 'kernel', fate: 'unresponsive', cell: C6, timeoutSeconds: 5 },
    'Cell 7 [4] ran longer than 5 s. The kernel did not respond to the interrupt and may still be running cell 7 [4]; the run gave up on it. Restart the kernel before running more code.'
  ],
  [
    { code: 'kernel', fate: 'lost', cell: C1 },
    'The connection to the kernel was lost while running cell 1 [ ].'
  ]
];

/** Why the reference fix gave no evidence. */
const REFERENCE_PROBLEMS: Array<[ReferenceProblem, string]> = [
  [
    { code: 'no-counterpart' },
    'the reference fix has no counterpart of the crashing cell'
  ],
  [{ code: 'kernel-start', reason: 'BOOM' }, 'could not start a kernel (BOOM)'],
  [
    {
      code: 'stopped',
      stop: { code: 'crashed', cell: C6, ename: 'E', evalue: 'V' }
    },
    'Cell 7 [4] raised E: V'
  ],
  [
    {
      code: 'stopped',
      stop: { code: 'kernel', fate: 'died', cell: C6 }
    },
    'its kernel died while cell 7 [4] ran'
  ],
  [
    { code: 'no-report' },
    'the probe could not report on the reference target cell'
  ],
  [{ code: 'not-run' }, 'no reference run']
];

const MARKERS: Array<[CaseMarker, string]> = [
  [{ code: 'folder-not-found' }, 'case folder not found'],
  [{ code: 'not-in-descriptor' }, 'not in the descriptor'],
  [{ code: 'no-reproduced' }, 'missing reproduced notebook'],
  [{ code: 'no-fixed' }, 'missing fixed notebook'],
  [{ code: 'no-readme' }, 'missing README.md'],
  [{ code: 'no-data' }, 'no data files'],
  [{ code: 'draft', file: 'D.MD' }, 'draft: not verified (see D.MD)'],
  [
    { code: 'unlisted', path: 'B/P_1', reason: 'EIO' },
    'could not list B/P_1: EIO'
  ],
  [
    { code: 'refused', path: 'B/P_1/L', reason: 'IT IS A LINK' },
    'B/P_1/L was refused: IT IS A LINK'
  ],
  [
    { code: 'too-big', path: 'B/P_1/P_1.IPYNB', size: 2048, max: 1024 },
    'B/P_1/P_1.IPYNB is 2.0 KB, over the limit of 1.0 KB; it will not be opened'
  ],
  [
    { code: 'too-many-files', max: 3 },
    'more than 3 data files; only the first 3 are listed'
  ],
  [{ code: 'too-deep', max: 2 }, 'folders deeper than 2 levels were not listed']
];

/** Casebook problems and the loader's English. */
const PROBLEMS: Array<[CasebookMessage, string]> = [
  [
    { code: 'root-not-found', root: 'CB' },
    'The casebook folder CB was not found.'
  ],
  [
    { code: 'no-descriptor', file: 'D.XLSX', root: 'CB' },
    'No D.XLSX in CB; only the case folders found are listed.'
  ],
  [
    { code: 'stray-diagnoses', file: 'G.XLSX', names: ['A_1', 'B_2'], more: 0 },
    'G.XLSX has diagnoses for case(s) that are not in the casebook: A_1, B_2.'
  ],
  [
    { code: 'stray-diagnoses', file: 'G.XLSX', names: ['A_1'], more: 4 },
    'G.XLSX has diagnoses for case(s) that are not in the casebook: A_1 and 4 more.'
  ],
  [
    { code: 'unsafe-folder', path: 'B/..' },
    'The folder "B/.." has an unsafe name and was skipped.'
  ],
  [
    { code: 'unsafe-entry', name: 'A\\B', dir: 'B/P_1' },
    'The entry "A\\\\B" in B/P_1 has an unsafe name and was skipped.'
  ],
  [
    { code: 'refused', path: 'D.XLSX', reason: 'IT IS A LINK' },
    'D.XLSX was refused: IT IS A LINK.'
  ],
  [
    { code: 'file-too-big', file: 'D.XLSX', size: 3 * 1024 * 1024, max: 1024 },
    'D.XLSX is 3.0 MB, over the limit of 1.0 KB; it was not read.'
  ],
  [{ code: 'unlisted', path: 'CB', reason: 'EIO' }, 'Could not list CB: EIO.'],
  [
    { code: 'unreadable', path: 'D.XLSX', reason: 'TIMEOUT' },
    'Could not read D.XLSX: TIMEOUT.'
  ],
  [
    { code: 'not-xlsx', file: 'D.XLSX', reason: 'BAD ZIP' },
    'D.XLSX is not a readable .xlsx file: BAD ZIP'
  ],
  [
    { code: 'no-header', file: 'D.XLSX', columns: ['NB_NAME', 'EID'] },
    'D.XLSX has no header row (expected columns NB_NAME, EID).'
  ],
  [
    {
      code: 'missing-columns',
      file: 'D.XLSX',
      sheet: 'S',
      columns: ['EID']
    },
    'D.XLSX (sheet "S") is missing the required column(s) EID; no case was read from it.'
  ],
  [
    { code: 'unknown-columns', file: 'D.XLSX', columns: ['Q'] },
    'D.XLSX has unknown column(s) Q; they were ignored.'
  ],
  [
    { code: 'repeated-columns', file: 'D.XLSX', columns: ['EID'] },
    'D.XLSX repeats the column(s) EID; the first of each was used.'
  ],
  [
    { code: 'row-without-name', file: 'D.XLSX', row: 4 },
    'D.XLSX row 4 has no nb_name; the row was skipped.'
  ],
  [
    {
      code: 'unsafe-case-name',
      file: 'D.XLSX',
      row: 3,
      name: '..',
      why: { code: 'dot-dot-segment' }
    },
    'D.XLSX row 3: case name ".." is unsafe: it has a ".." segment (only letters, digits, "_", "." and "-" are allowed, and no ".."); the row was skipped.'
  ],
  [
    { code: 'repeated-case', file: 'D.XLSX', row: 5, name: 'P_1', first: 2 },
    'D.XLSX row 5: case name "P_1" repeats row 2; row 5 was skipped.'
  ],
  [
    {
      code: 'traceback-warning',
      file: 'D.XLSX',
      row: 5,
      name: 'P_1',
      warning: 'CUT SHORT'
    },
    'D.XLSX row 5 (P_1): CUT SHORT.'
  ],
  [
    { code: 'no-instance-sheet', file: 'G.XLSX' },
    'G.XLSX has no sheet with an "instance" column; no diagnosis was read.'
  ],
  [
    { code: 'no-diagnosis-column', file: 'G.XLSX', sheet: 'S' },
    'G.XLSX (sheet "S") has no "diagnosis" column; no diagnosis was read.'
  ],
  [
    {
      code: 'unusable-instance',
      file: 'G.XLSX',
      row: 2,
      instance: '/X',
      why: { code: 'absolute' }
    },
    'G.XLSX row 2: instance "/X" is not a usable case name: it is an absolute path; the row was ignored.'
  ],
  [
    {
      code: 'second-diagnosis',
      file: 'G.XLSX',
      row: 3,
      name: 'P_1',
      first: 2
    },
    'G.XLSX row 3: a second diagnosis for "P_1" (first at row 2) was ignored.'
  ]
];

describe('one translation domain and one way to name cells', () => {
  it('names the domain once', () => {
    expect(TRANSLATION_DOMAIN).toBe('jupyterlab_junobench');
  });

  it.each([
    [6, 4, 'cell 7 [4]'],
    [0, null, 'cell 1 [ ]'],
    [11, 0, 'cell 12 [0]']
  ])('names cell index %i with prompt %p as %p', (index, count, name) => {
    expect(cellName(index, count)).toBe(name);
    // The reference carries no English; renderCell and the command line's JSON name it.
    expect(cellRef(index, count)).toEqual({
      cellIndex: index,
      executionCount: count
    });
    expect(renderCell(cellRef(index, count))).toBe(name);
    expect(
      JSON.parse(JSON.stringify(cellRef(index, count), cellNamesInJSON)).name
    ).toBe(name);
  });

  it('translates the cell name itself', () => {
    expect(cellName(6, 4, shout)).toBe('CELL 7 [4]');
  });
});

/** Every code of a union, as TypeScript makes us list it. */
type Codes<T extends { code: string }> = Record<T['code'], true>;

const FINDING_CODES: Codes<CheckFinding> = {
  'interpreter-changed': true,
  'interpreter-unknown': true,
  'no-target': true,
  'reference-unaligned': true,
  'target-deleted': true,
  'target-emptied': true,
  'target-commented-out': true,
  'line-commented-out': true,
  'line-removed': true,
  swallowed: true,
  'not-executed': true,
  'in-string': true,
  'no-evidence': true,
  'effect-differs': true,
  'effect-missing': true,
  'same-effect': true,
  'reference-failed': true,
  'fresh-error': true,
  'fresh-unfinished': true,
  'missing-module': true,
  'fresh-not-run': true,
  'fresh-clean': true,
  'live-only': true,
  'nb-live-error': true,
  'nb-live-not-run': true,
  live: true,
  'not-python': true,
  'effect-noted': true,
  'intermediate-missing': true,
  'figure-differs': true,
  environment: true,
  'live-swallowed': true,
  'live-effect-differs': true,
  'live-effect-missing': true,
  'live-unfinished': true,
  'kernel-died': true,
  'live-input-differs': true,
  'live-input-missing': true,
  'live-unreplayed': true,
  'live-error-saved': true,
  'final-differs': true,
  'data-independent': true,
  'unwatched-fails': true,
  restructured: true,
  'reads-answer-key': true,
  'rewrites-input': true,
  'writes-casebook': true
};
const EXPLANATION_CODES: Codes<ExplanationLine> = {
  'no-crash': true,
  raised: true,
  'defined-nowhere': true,
  'defined-ran-before': true,
  'defined-never-ran': true,
  'defined-ran-after': true,
  'ran-twice': true,
  'last-changed': true,
  'at-crash': true,
  'never-set': true
};
const VERDICT_CODES: Codes<VerdictReason> = {
  'no-recorded-crash': true,
  'crashed-as-recorded': true,
  'crashed-differently': true,
  'no-crash': true,
  'run-stopped': true,
  'fixed-raised': true,
  'fixed-clean': true,
  'missing-data': true,
  'module-not-installed': true,
  'module-lacks-name': true,
  'module-not-importable': true,
  'library-not-importable': true,
  'not-run': true,
  'no-case-folder': true,
  'notebook-missing': true,
  'invalid-notebook': true,
  'data-files-missing': true
};
const RUN_STOP_CODES: Codes<RunStop> = {
  completed: true,
  crashed: true,
  interrupted: true,
  cancelled: true,
  failed: true,
  timeout: true,
  kernel: true
};
const REFERENCE_PROBLEM_CODES: Codes<ReferenceProblem> = {
  'no-counterpart': true,
  'kernel-start': true,
  stopped: true,
  'no-report': true,
  'not-run': true
};
const MARKER_CODES: Codes<CaseMarker> = {
  'folder-not-found': true,
  'not-in-descriptor': true,
  'no-reproduced': true,
  'no-fixed': true,
  'no-readme': true,
  'no-data': true,
  draft: true,
  unlisted: true,
  refused: true,
  'too-big': true,
  'too-many-files': true,
  'too-deep': true
};
const PROBLEM_CODES: Codes<CasebookMessage> = {
  'root-not-found': true,
  'no-descriptor': true,
  'stray-diagnoses': true,
  'unsafe-folder': true,
  'unsafe-entry': true,
  refused: true,
  'file-too-big': true,
  unlisted: true,
  unreadable: true,
  'not-xlsx': true,
  'no-header': true,
  'missing-columns': true,
  'unknown-columns': true,
  'repeated-columns': true,
  'row-without-name': true,
  'unsafe-case-name': true,
  'repeated-case': true,
  'traceback-warning': true,
  'no-instance-sheet': true,
  'no-diagnosis-column': true,
  'unusable-instance': true,
  'second-diagnosis': true
};

/** Codes whose sentence is a message from elsewhere (the notebook reader's), passed through. */
const PASSED_THROUGH = new Set(['invalid-notebook']);

describe.each([
  ['check findings', FINDINGS, renderFinding, FINDING_CODES],
  [
    'explainer sentences',
    EXPLANATIONS,
    renderExplanationLine,
    EXPLANATION_CODES
  ],
  ['replay verdicts', VERDICTS, renderVerdictReason, VERDICT_CODES],
  ['run stops', RUN_STOPS, renderRunStop, RUN_STOP_CODES],
  [
    'reference problems',
    REFERENCE_PROBLEMS,
    renderReferenceProblem,
    REFERENCE_PROBLEM_CODES
  ],
  ['case markers', MARKERS, renderCaseMarker, MARKER_CODES],
  ['casebook problems', PROBLEMS, renderCasebookMessage, PROBLEM_CODES]
] as Array<
  [
    string,
    Array<[{ code: string }, string]>,
    (m: never, __?: Translate) => string,
    Record<string, true>
  ]
>)('%s', (_, table, render, codes) => {
  it.each(table.map(([m, text]) => [m.code, m, text] as const))(
    '%s renders in English as before',
    (_code, m, text) => {
      expect(render(m as never)).toBe(text);
      expect(render(m as never, english)).toBe(text);
    }
  );

  it.each(
    table
      .filter(([m]) => !PASSED_THROUGH.has(m.code))
      .map(([m]) => [m.code, m] as const)
  )('%s goes through the translation function, cells included', (_code, m) => {
    const sentence = render(m as never, shout);
    expect(leaks(sentence)).toEqual([]);
    expect(sentence).not.toBe(render(m as never));
  });

  it('has a row for every code', () => {
    expect([...new Set(table.map(([m]) => m.code))].sort()).toEqual(
      Object.keys(codes).sort()
    );
  });
});

describe('check statuses', () => {
  it.each(STATUSES)('%s goes through the translation function', status => {
    expect(leaks(renderStatus(status, shout))).toEqual([]);
    expect(renderStatus(status)).toMatch(/^(Solved|Not)/);
  });
});

describe('hints', () => {
  const nb: INotebookJSON = {
    cells: [
      { cell_type: 'code', source: 'A = 1', execution_count: 1, outputs: [] },
      {
        cell_type: 'code',
        source: 'B = A[0]',
        execution_count: 3,
        outputs: [
          {
            output_type: 'error',
            ename: 'TYPEERROR',
            evalue: 'NO',
            traceback: []
          }
        ]
      }
    ],
    nbformat: 4
  };
  const c = caseRecord('P_1', {
    library: 'unknown',
    pipelineStage: 'ML TRAINING',
    crashType: 'TYPE',
    rootCause: 'API MISUSE'
  });

  it('names the cell to look at by position and prompt', () => {
    expect(hintLadder(c, nb, null)[2].text).toBe('Look at cell 2 [3].');
  });

  it('renders every hint through the translation function', () => {
    const ladder = hintLadder(c, nb, null, { __: shout });
    for (const h of ladder) {
      expect(leaks(h.title)).toEqual([]);
      // The library label ('Other') is a translated label of its own elsewhere.
      expect(leaks(h.text.replace('Other', ''))).toEqual([]);
    }
  });
});

describe('the translation domain in the UI', () => {
  const files = sources(path.resolve(__dirname, '../src')).map(p => ({
    p,
    text: fs.readFileSync(p, 'utf8')
  }));

  it('loads translations only through TRANSLATION_DOMAIN', () => {
    const literal = files.filter(f =>
      /\.load\(\s*['"`]/.test(f.text.replace(/\/\/.*$/gm, ''))
    );
    expect(literal.map(f => path.relative(__dirname, f.p))).toEqual([]);
    expect(
      files.filter(f => f.text.includes('.load(TRANSLATION_DOMAIN)')).length
    ).toBeGreaterThan(0);
  });

  /** A bundle's `__` handed on without its bundle: it throws when called. */
  const UNBOUND = /\.__\s*(?:[,)]|$)/m;

  it('never hands on a translation bundle’s __ unbound', () => {
    const offenders = files.flatMap(f =>
      f.text
        .split('\n')
        .map((line, i) => ({ line, at: `${path.basename(f.p)}:${i + 1}` }))
        .filter(({ line }) => UNBOUND.test(line.replace(/\/\/.*$/, '')))
        .map(({ at, line }) => `${at}: ${line.trim()}`)
    );
    expect(offenders).toEqual([]);
  });

  it('finds a bundle’s __ handed on unbound, and knows what a bundle does with it', () => {
    expect(UNBOUND.test('describeNote(note, trans.__)')).toBe(true);
    expect(UNBOUND.test('render(x, trans.__, y)')).toBe(true);
    expect(UNBOUND.test('render(x, trans.__.bind(trans))')).toBe(false);
    expect(UNBOUND.test("trans.__('Replay')")).toBe(false);
    const trans = nullTranslator.load(TRANSLATION_DOMAIN);
    const detached = trans.__;
    expect(() => detached('Replay')).toThrow();
    expect(trans.__.bind(trans)('Replay')).toBe('Replay');
  });
});

describe('sizes and the truncation note', () => {
  it.each([
    [10, '10 bytes'],
    [2048, '2.0 KB'],
    [3 * 1024 * 1024, '3.0 MB'],
    [2.5 * 1024 * 1024 * 1024, '2.5 GB']
  ])('formatBytes(%d) is %s in English and translated whole', (n, text) => {
    expect(formatBytes(n)).toBe(text);
    expect(leaks(formatBytes(n, shout))).toEqual([]);
  });

  it('words the truncation note through the translation function', () => {
    const english = truncationNote(12_345);
    expect(english).toMatchObject({
      output_type: 'stream',
      name: 'stderr',
      text: '\n[output truncated by JunoBench: 12.1 KB not shown]\n'
    });
    const text = (truncationNote(49_000_000, shout) as { text: string }).text;
    expect(leaks(text.replace(/JUNOBENCH/, ''))).toEqual([]);
    expect(text).toContain('46.7 MB');
  });
});

describe('cells named by position and prompt everywhere', () => {
  const root = path.resolve(__dirname, '../src');

  it.each([
    ['a message id', /\bcell %\d(?! \[)/i],
    ['a template string', /\bcell \$\{[^}]*\}(?! \[)/i],
    ['a concatenation', /['"`]\s*cell ['"`]\s*\+/i]
  ])('no %s names a cell by its position alone', (_, pattern) => {
    const offenders = sources(root).flatMap(p =>
      fs
        .readFileSync(p, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${path.relative(root, p)}:${i + 1}` }))
        .filter(({ line }) => pattern.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`)
    );
    expect(offenders).toEqual([]);
  });

  it('finds one that does', () => {
    // The patterns above, on the wording this project used before.
    expect(/\bcell %\d(?! \[)/i.test("'Look at cell %1.'")).toBe(true);
    expect(
      /\bcell \$\{[^}]*\}(?! \[)/i.test('`at cell ${i + 1} instead`')
    ).toBe(true);
    expect(/\bcell %\d(?! \[)/i.test("'cell %1 [%2]'")).toBe(false);
  });
});
