/**
 * Judging a headless replay of a case: did the reproduced notebook crash as
 * recorded, and does the fixed notebook run cleanly? Pure logic.
 */
import type { ICellError, IRunResult, IStepResult } from '../kernel/runner';
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

/** The judgement of one notebook run. */
export interface INotebookJudgement {
  /** Verdict. */
  verdict: NotebookVerdict;
  /** One sentence saying why. */
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
    return {
      verdict: 'no-recorded-crash',
      reason: 'The reproduced notebook holds no error output to aim at.',
      observed: null
    };
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
      return {
        verdict: 'pass',
        reason: `Crashed at the target cell with ${run.error.ename} as recorded.`,
        observed
      };
    }
    if (special) {
      return { ...special, observed };
    }
    const where =
      step.cellIndex === target.cellIndex
        ? 'at the target cell'
        : `at cell ${step.cellIndex + 1} instead of the target cell ${target.cellIndex + 1}`;
    return {
      verdict: 'fail',
      reason: `Crashed ${where} with ${run.error.ename} (recorded: ${recordedEname || target.ename}).`,
      observed
    };
  }
  if (special) {
    return special;
  }
  if (run.status === 'completed') {
    return {
      verdict: 'fail',
      reason: 'Ran to the end without the recorded crash.',
      observed: null
    };
  }
  return {
    verdict: run.status === 'timeout' ? 'timeout' : 'kernel-died',
    reason: run.message,
    observed: null
  };
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
  const special = judgeEnvironment(run);
  const errors = run.steps.filter(s => s.error);
  const late = errors.find(s => s.index >= targetStepIndex);
  if (late && late.error) {
    const observed = `${late.error.ename}: ${late.error.evalue}`;
    if (special) {
      return { ...special, observed };
    }
    return {
      verdict: 'fail',
      reason: `The fixed notebook raised ${late.error.ename} at step ${late.index + 1}.`,
      observed
    };
  }
  if (run.status === 'timeout' || run.status === 'kernel-died') {
    return {
      verdict: run.status,
      reason: run.message,
      observed: null
    };
  }
  return {
    verdict: 'pass',
    reason: errors.length
      ? `Ran cleanly from the target on (${errors.length} earlier cell(s) raised errors).`
      : 'Ran without error.',
    observed: null
  };
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
    return {
      verdict: 'missing-data',
      reason: `An input file is missing: ${error.evalue}`,
      observed: `${error.ename}: ${error.evalue}`
    };
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

namespace Private {
  /**
   * The judgement for an import that failed, naming the module and the cell.
   */
  export function missingDependency(
    error: ICellError,
    at?: IStepResult
  ): INotebookJudgement {
    const observed = `${error.ename}: ${error.evalue}`;
    const where = at ? ` in ${cellLabel(at)}` : '';
    const notFound = /No module named '?([\w.]+)'?/.exec(error.evalue);
    const noName = /cannot import name '([^']+)' from '([^']+)'/.exec(
      error.evalue
    );
    const module = notFound || noName ? null : importedModule(error);
    let reason: string;
    if (notFound) {
      reason = `Module '${notFound[1]}' is not installed (${error.ename}${where}).`;
    } else if (noName) {
      reason = `Module '${noName[2]}' has no '${noName[1]}': another version may be installed (${error.ename}${where}).`;
    } else if (module) {
      reason = `Module '${module}' cannot be imported (${observed}${where}).`;
    } else {
      reason = `A library cannot be imported (${observed}${where}).`;
    }
    return { verdict: 'missing-dependency', reason, observed };
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

  /**
   * A cell as people find it in the notebook: its 1-based position among all
   * cells and its recorded `[n]` prompt when it has one, e.g. `cell 2 [1]`.
   */
  function cellLabel(result: IStepResult): string {
    const count = result.step.executionCount;
    return `cell ${result.step.cellIndex + 1}${count === null ? '' : ` [${count}]`}`;
  }
}
