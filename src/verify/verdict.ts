/**
 * Judging a headless replay of a case: did the reproduced notebook crash as
 * recorded, and does the fixed notebook run cleanly? Pure logic.
 */
import type { ICellError, IRunResult, IStepResult } from '../kernel/runner';
import { renderRunStop } from '../kernel/stop';
import type { RunStop } from '../kernel/stop';
import { cellRef, english, renderCell } from '../i18n';
import type { ICellRef, Translate } from '../i18n';
import { normaliseEname } from '../replay/plan';
import type { IReplayPlan } from '../replay/types';

/** How one notebook of a case fared. */
export type NotebookVerdict =
  | 'pass'
  | 'fail'
  | 'missing-notebook'
  | 'missing-data'
  | 'missing-dependency'
  | 'invalid-notebook'
  | 'no-recorded-crash'
  | 'timeout'
  | 'kernel-died'
  | 'not-run';

/** The overall state of a case. */
export type CaseVerdict = 'pass' | 'fail' | 'missing' | 'error';

/** Why a notebook run got its verdict, as a code with parameters. */
export type VerdictReason =
  | { code: 'no-recorded-crash' }
  | { code: 'crashed-as-recorded'; ename: string }
  | {
      code: 'crashed-differently';
      ename: string;
      recorded: string;
      /** The cell that crashed, null when it is the target. */
      cell: ICellRef | null;
      target: ICellRef;
    }
  | { code: 'no-crash' }
  | { code: 'run-stopped'; stop: RunStop }
  | { code: 'fixed-raised'; ename: string; step: number; cell: ICellRef }
  | { code: 'fixed-clean'; earlierErrors: number }
  | { code: 'missing-data'; evalue: string }
  | {
      code: 'module-not-installed';
      module: string;
      ename: string;
      cell: ICellRef | null;
    }
  | {
      code: 'module-lacks-name';
      module: string;
      name: string;
      ename: string;
      cell: ICellRef | null;
    }
  | {
      code: 'module-not-importable';
      module: string;
      observed: string;
      cell: ICellRef | null;
    }
  | { code: 'library-not-importable'; observed: string; cell: ICellRef | null }
  | { code: 'not-run' }
  | { code: 'no-case-folder' }
  | { code: 'notebook-missing'; file: string }
  | { code: 'invalid-notebook'; message: string }
  | { code: 'data-files-missing'; because: VerdictReason };

/** The judgement of one notebook run. */
export interface INotebookJudgement {
  /** Verdict. */
  verdict: NotebookVerdict;
  /** Why, as a code with parameters (`renderVerdictReason`). */
  why: VerdictReason;
  /** One sentence saying why, in English. */
  reason: string;
  /** The exception observed, if any. */
  observed: string | null;
}

/** Modules and file errors that mean the environment lacks something. */
const MISSING_DEPENDENCY = new Set(['modulenotfounderror', 'importerror']);
const MISSING_FILE = new Set(['filenotfounderror']);

/**
 * Judge the run of a reproduced notebook against the recorded exception.
 */
export function judgeReproduced(
  plan: IReplayPlan,
  run: IRunResult,
  recordedEname: string
): INotebookJudgement {
  const target = plan.target;
  if (!target) {
    return notebookJudgement('no-recorded-crash', {
      code: 'no-recorded-crash'
    });
  }
  // A module missing before the target keeps the notebook from the recorded
  // state, whatever the run met afterwards.
  const firstTarget = plan.steps.findIndex(
    s => s.cellIndex === target.cellIndex
  );
  const missing = judgeMissingModule(
    run,
    firstTarget < 0 ? Infinity : firstTarget
  );
  if (missing) {
    return missing;
  }
  const special = judgeEnvironment(run);
  if (run.status === 'crashed' && run.error && run.failedIndex !== null) {
    const observed = `${run.error.ename}: ${run.error.evalue}`;
    const step = plan.steps[run.failedIndex];
    const expected = normaliseEname(recordedEname || target.ename);
    const got = normaliseEname(run.error.ename);
    if (step.cellIndex === target.cellIndex && got === expected) {
      return notebookJudgement(
        'pass',
        { code: 'crashed-as-recorded', ename: run.error.ename },
        observed
      );
    }
    if (special) {
      return { ...special, observed };
    }
    const targetStep = plan.steps.find(s => s.cellIndex === target.cellIndex);
    return notebookJudgement(
      'fail',
      {
        code: 'crashed-differently',
        ename: run.error.ename,
        recorded: recordedEname || target.ename,
        cell:
          step.cellIndex === target.cellIndex
            ? null
            : cellRef(step.cellIndex, step.executionCount),
        target: cellRef(target.cellIndex, targetStep?.executionCount ?? null)
      },
      observed
    );
  }
  if (special) {
    return special;
  }
  if (run.status === 'completed') {
    return notebookJudgement('fail', { code: 'no-crash' });
  }
  return notebookJudgement(
    run.status === 'timeout' ? 'timeout' : 'kernel-died',
    { code: 'run-stopped', stop: run.stop }
  );
}

/**
 * Judge the run of a fixed notebook: no error at or after the target step, and
 * no module that cannot be imported anywhere (that is a missing dependency).
 */
export function judgeFixed(
  run: IRunResult,
  targetStepIndex: number
): INotebookJudgement {
  // The run goes on past errors before the target, so a failed import there
  // would otherwise surface later as a NameError and read as a bad fix.
  const missing = judgeMissingModule(run);
  if (missing) {
    return missing;
  }
  if (run.status === 'timeout' || run.status === 'kernel-died') {
    // The step that timed out may carry the interrupt's KeyboardInterrupt:
    // the run gave up on the cell, which did not raise it.
    return notebookJudgement(run.status, {
      code: 'run-stopped',
      stop: run.stop
    });
  }
  const special = judgeEnvironment(run);
  const errors = run.steps.filter(s => s.error);
  const late = errors.find(s => s.index >= targetStepIndex);
  if (late && late.error) {
    const observed = `${late.error.ename}: ${late.error.evalue}`;
    if (special) {
      return { ...special, observed };
    }
    return notebookJudgement(
      'fail',
      {
        code: 'fixed-raised',
        ename: late.error.ename,
        step: late.index + 1,
        cell: cellRef(late.step.cellIndex, late.step.executionCount)
      },
      observed
    );
  }
  return notebookJudgement('pass', {
    code: 'fixed-clean',
    earlierErrors: errors.length
  });
}

/**
 * Combine the two notebook verdicts into the case verdict.
 */
export function caseVerdict(
  reproduced: NotebookVerdict,
  fixed: NotebookVerdict
): CaseVerdict {
  if (reproduced === 'pass' && fixed === 'pass') {
    return 'pass';
  }
  const missing: NotebookVerdict[] = [
    'missing-notebook',
    'missing-data',
    'missing-dependency'
  ];
  if (missing.includes(reproduced) || missing.includes(fixed)) {
    return 'missing';
  }
  if (
    reproduced === 'timeout' ||
    reproduced === 'kernel-died' ||
    fixed === 'timeout' ||
    fixed === 'kernel-died'
  ) {
    return 'error';
  }
  return 'fail';
}

/**
 * Recognise a run that failed for want of a module or an input file.
 */
function judgeEnvironment(run: IRunResult): INotebookJudgement | null {
  const first = run.steps.find(s => s.error);
  const error = run.error ?? first?.error ?? null;
  if (!error) {
    return null;
  }
  const name = normaliseEname(error.ename);
  if (MISSING_DEPENDENCY.has(name)) {
    const at = run.error
      ? run.steps.find(s => s.index === run.failedIndex)
      : first;
    const same =
      at?.error?.ename === error.ename && at.error.evalue === error.evalue;
    return Private.missingDependency(error, same ? at : undefined);
  }
  if (MISSING_FILE.has(name)) {
    return notebookJudgement(
      'missing-data',
      { code: 'missing-data', evalue: error.evalue },
      `${error.ename}: ${error.evalue}`
    );
  }
  return null;
}

/**
 * The first step (before `beforeStep`, in run order) that raised
 * ModuleNotFoundError or ImportError, judged as a missing dependency.
 */
function judgeMissingModule(
  run: IRunResult,
  beforeStep = Infinity
): INotebookJudgement | null {
  const hit = run.steps.find(
    s =>
      s.index < beforeStep &&
      s.error !== null &&
      MISSING_DEPENDENCY.has(normaliseEname(s.error.ename))
  );
  return hit?.error ? Private.missingDependency(hit.error, hit) : null;
}

/**
 * A judgement with its English reason.
 */
export function notebookJudgement(
  verdict: NotebookVerdict,
  why: VerdictReason,
  observed: string | null = null
): INotebookJudgement {
  return { verdict, why, reason: renderVerdictReason(why), observed };
}

/**
 * Why a notebook run got its verdict, as a sentence: translated by `__` (JupyterLab's `trans.__`), English by default.
 */
export function renderVerdictReason(
  r: VerdictReason,
  __: Translate = english
): string {
  const where = (cell: ICellRef | null) =>
    cell ? __(' in %1', renderCell(cell, __)) : '';
  switch (r.code) {
    case 'no-recorded-crash':
      return __('The reproduced notebook holds no error output to aim at.');
    case 'crashed-as-recorded':
      return __('Crashed at the target cell with %1 as recorded.', r.ename);
    case 'crashed-differently':
      return r.cell === null
        ? __(
            'Crashed at the target cell with %1 (recorded: %2).',
            r.ename,
            r.recorded
          )
        : __(
            'Crashed at %1 instead of the target %2 with %3 (recorded: %4).',
            renderCell(r.cell, __),
            renderCell(r.target, __),
            r.ename,
            r.recorded
          );
    case 'no-crash':
      return __('Ran to the end without the recorded crash.');
    case 'run-stopped':
      return renderRunStop(r.stop, __);
    case 'invalid-notebook':
      // The reader's own sentence.
      return r.message;
    case 'not-run':
      return __('Not run.');
    case 'no-case-folder':
      return __('The case folder is missing.');
    case 'notebook-missing':
      return __('%1 is missing.', r.file);
    case 'data-files-missing':
      return __(
        'The case folder has no input data files but the notebook reads data/ (%1)',
        renderVerdictReason(r.because, __)
      );
    case 'fixed-raised':
      return __(
        'The fixed notebook raised %1 at step %2 (%3).',
        r.ename,
        r.step,
        renderCell(r.cell, __)
      );
    case 'fixed-clean':
      return r.earlierErrors
        ? __(
            'Ran cleanly from the target on (%1 earlier cell(s) raised errors).',
            r.earlierErrors
          )
        : __('Ran without error.');
    case 'missing-data':
      return __('An input file is missing: %1', r.evalue);
    case 'module-not-installed':
      return __(
        "Module '%1' is not installed (%2%3).",
        r.module,
        r.ename,
        where(r.cell)
      );
    case 'module-lacks-name':
      return __(
        "Module '%1' has no '%2': another version may be installed (%3%4).",
        r.module,
        r.name,
        r.ename,
        where(r.cell)
      );
    case 'module-not-importable':
      return __(
        "Module '%1' cannot be imported (%2%3).",
        r.module,
        r.observed,
        where(r.cell)
      );
    case 'library-not-importable':
      return __(
        'A library cannot be imported (%1%2).',
        r.observed,
        where(r.cell)
      );
  }
}

namespace Private {
  /**
   * The judgement for an import that failed, naming the module and the cell.
   */
  export function missingDependency(
    error: ICellError,
    at?: IStepResult
  ): INotebookJudgement {
    const observed = `${error.ename}: ${error.evalue}`;
    const cell = at ? cellRef(at.step.cellIndex, at.step.executionCount) : null;
    const notFound = /No module named '?([\w.]+)'?/.exec(error.evalue);
    const noName = /cannot import name '([^']+)' from '([^']+)'/.exec(
      error.evalue
    );
    const module = notFound || noName ? null : importedModule(error);
    const why: VerdictReason = notFound
      ? {
          code: 'module-not-installed',
          module: notFound[1],
          ename: error.ename,
          cell
        }
      : noName
        ? {
            code: 'module-lacks-name',
            module: noName[2],
            name: noName[1],
            ename: error.ename,
            cell
          }
        : module
          ? { code: 'module-not-importable', module, observed, cell }
          : { code: 'library-not-importable', observed, cell };
    return notebookJudgement('missing-dependency', why, observed);
  }

  /**
   * The module an ImportError with another message was importing: the one
   * it names ("while importing x"), else the first import statement a
   * traceback arrow points at (the cell's frame comes first); null when
   * neither says.
   */
  function importedModule(error: ICellError): string | null {
    const named = /while importing '?([\w.]+)'?/.exec(error.evalue);
    if (named) {
      return named[1];
    }
    for (const line of error.traceback) {
      const statement =
        /^\s*-*>\s*\d+\s+(?:from\s+([\w.]+)\s+import\b|import\s+([\w.]+))/m.exec(
          line
        );
      if (statement) {
        return statement[1] ?? statement[2];
      }
    }
    return null;
  }
}
