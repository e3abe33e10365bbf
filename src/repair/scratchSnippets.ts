/**
 * The setup of a check's fresh kernel: run the notebook in a scratch copy of
 * the case folder, without the answer key, and watch what it touches. The
 * Python is `jupyterlab_junobench/scratch.py` (linted and tested with pytest),
 * embedded at build time by `scripts/embed-probe.js`; this module only builds
 * the short calls into it. The report comes back through `user_expressions`.
 */
import scratch from './scratch.generated.json';

/** Where the case lives, seen from the fresh kernel's working directory. */
export interface IScratchOptions {
  /** The case folder: absolute, or relative to the kernel's working directory. */
  caseFolder: string;
  /** The casebook's root folder, likewise; null when unknown. */
  casebook: string | null;
  /** The case's name (its answer key is `<case>_fixed*`). */
  caseName: string;
  /** A token naming this kernel's copy (letters and digits; default: random). */
  token?: string;
  /**
   * A seed: the copy's tables get other data of the same form (rows shuffled, decimal
   * columns jittered: `perturb_inputs` in scratch.py), for the check's run on other data.
   */
  perturb?: number;
  /**
   * The copy looks like the case folder: its notebooks (not the fixed one) kept and its files
   * writable (the check's unwatched run).
   */
  plain?: boolean;
}

/** The setup code and the report expression of one fresh kernel. */
export interface IScratchSetup {
  /** Code run silently before anything else: copy, change into the copy, start the guard. */
  setupCode: string;
  /** The `user_expressions` entry that returns the guard's report. */
  reportExpression: string;
}

/**
 * The setup of one fresh kernel of a check: the module runs in a namespace of its
 * own, copies the case folder and adds its audit hook; nothing stays in the user
 * namespace. A kernel that cannot make the copy fails its setup (the check then
 * reports that it could not run).
 */
export function scratchSetup(options: IScratchOptions): IScratchSetup {
  const token = options.token ?? Private.token();
  if (!/^[0-9a-z]{4,40}$/.test(token)) {
    throw new Error(`bad scratch token ${token}`);
  }
  const setupCode = [
    'def __jb_scratch(source, *args):',
    '    ns = {"__name__": "junobench_scratch"}',
    '    exec(compile(source, "<junobench-scratch>", "exec"), ns)',
    '    ns["enter"](*args)',
    `__jb_scratch(${JSON.stringify(scratch.source)}, ${JSON.stringify(token)}, ${JSON.stringify(
      options.caseFolder
    )}, ${options.casebook === null ? 'None' : JSON.stringify(options.casebook)}, ${JSON.stringify(
      options.caseName
    )}, None, ${Number.isInteger(options.perturb) ? options.perturb : 'None'}, ${
      options.plain ? 'True' : 'False'
    })`,
    'del __jb_scratch'
  ].join('\n');
  return { setupCode, reportExpression: Private.reportExpression(token) };
}

namespace Private {
  /** A random token of letters and digits. */
  export function token(): string {
    return (
      Math.random().toString(36).slice(2, 10) + Date.now().toString(36)
    ).replace(/[^0-9a-z]/g, '');
  }

  /**
   * The report expression: a custom audit event the guard answers into a list
   * (the same text as `report_expression` in scratch.py).
   */
  export function reportExpression(token: string): string {
    return `(lambda r: (__import__("sys").audit("junobench.scratch", ${JSON.stringify(
      token
    )}, r), r[0])[1])([])`;
  }
}
