/**
 * Python snippets the extension sends to kernels, kept in one place.
 *
 * Values are embedded as JSON literals, which Python reads as string literals,
 * never by pasting raw text into code.
 */

/**
 * Code that makes the kernel work in a case folder given relative to the
 * kernel's current directory, so the notebook's relative data paths resolve.
 */
export function chdirCode(relativeDir: string): string {
  const target = JSON.stringify(relativeDir);
  return [
    'import os as __jb_os',
    `__jb_os.chdir(__jb_os.path.normpath(__jb_os.path.join(__jb_os.getcwd(), ${target})))`,
    'del __jb_os',
    // Marks the kernel as used (see pristineProbeCode): a second chdir from
    // the moved directory would miss the case folder.
    `__import__("sys").${TOUCHED_MARK} = True`
  ].join('\n');
}

/** The `sys` attribute a replay's setup sets, so the kernel no longer counts as fresh. */
const TOUCHED_MARK = '_junobench_touched';

/**
 * A silent question to an IPython kernel: `code` installs a function on `sys`
 * (never in the user namespace) and `expression` calls it; the answer comes
 * back through `user_expressions` as JSON (IPython's JSON formatter, via
 * `_repr_json_`), never through stdout, so nothing a cell prints can be
 * mistaken for it.
 */
export interface IKernelQuestion {
  /** Code run silently first. */
  code: string;
  /** The `user_expressions` entry that answers. */
  expression: string;
}

/**
 * What tells whether an IPython kernel has run anything: its execution count
 * (1 until a cell runs with history), how many user-defined names it holds,
 * and whether a replay's setup ran in it.
 */
export function pristineQuestion(): IKernelQuestion {
  return Private.question('_junobench_pristine', [
    '    import sys',
    '    ip = get_ipython()',
    '    hidden = ip.user_ns_hidden',
    '    names = [k for k in ip.user_ns if not k.startswith("_") and k not in hidden]',
    '    return {"count": ip.execution_count, "names": len(names),',
    `            "touched": bool(getattr(sys, "${TOUCHED_MARK}", False))}`
  ]);
}

/**
 * Read the answer to `pristineQuestion`: true only for a kernel that ran no
 * cell, holds no user name and had no replay setup; false for anything else,
 * including an answer of another shape.
 */
export function isPristineAnswer(value: unknown): boolean {
  if (value === null || typeof value !== 'object') {
    return false;
  }
  const { count, names, touched } = value as Record<string, unknown>;
  return count === 1 && names === 0 && touched === false;
}

/**
 * The Python version, the kernel's `sys.prefix`, its working directory, the
 * versions of the given distributions (null when one is not installed), and
 * the `JUNOBENCH_ENVIRONMENT` and `JUNOBENCH_IMAGE` variables our kernelspecs
 * set (null in other kernels).
 */
export function environmentQuestion(modules: string[]): IKernelQuestion {
  return Private.question('_junobench_environment', [
    '    import sys, os, importlib.metadata as md',
    '    versions = {}',
    `    for name in ${JSON.stringify(modules)}:`,
    '        try:',
    '            versions[name] = md.version(name)',
    '        except Exception:',
    '            versions[name] = None',
    '    return {"python": sys.version.split()[0], "prefix": sys.prefix,',
    '            "cwd": os.getcwd(), "versions": versions,',
    '            "environment": os.environ.get("JUNOBENCH_ENVIRONMENT"),',
    '            "image": os.environ.get("JUNOBENCH_IMAGE")}'
  ]);
}

namespace Private {
  /**
   * A question whose answer is the dict `body` (a function body) returns.
   */
  export function question(name: string, body: string[]): IKernelQuestion {
    return {
      code: [
        `def ${name}():`,
        '    class Answer:',
        '        def __init__(self, value):',
        '            self.value = value',
        '        def _repr_json_(self):',
        '            return self.value',
        '    def answer():',
        ...body.map(line => `    ${line}`),
        '    return Answer(answer())',
        `__import__("sys").${name} = ${name}`,
        `del ${name}`
      ].join('\n'),
      expression: `__import__("sys").${name}()`
    };
  }
}

/**
 * The user_expressions entry that returns, as JSON through IPython's JSON
 * formatter, the kernel's input history of the current session
 * (`history[n]` is input `n` as typed, `history[0]` is empty) and its
 * execution count; nothing is left in the user namespace.
 */
export const INPUT_HISTORY_EXPRESSION =
  '__import__("IPython").display.JSON({"history": list(get_ipython().history_manager.input_hist_raw), "count": get_ipython().execution_count})';
