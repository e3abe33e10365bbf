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
 * Code that prints, as one JSON line on stdout, what tells whether an IPython
 * kernel has run anything: its execution count (1 until a cell runs with
 * history), how many user-defined names it holds, and whether a replay's setup
 * ran in it.
 */
export function pristineProbeCode(): string {
  return [
    'def __jb_pristine():',
    '    import json, sys',
    '    ip = get_ipython()',
    '    hidden = ip.user_ns_hidden',
    '    names = [k for k in ip.user_ns if not k.startswith("_") and k not in hidden]',
    '    print(json.dumps({"count": ip.execution_count, "names": len(names),',
    `                      "touched": bool(getattr(sys, "${TOUCHED_MARK}", False))}))`,
    '__jb_pristine()',
    'del __jb_pristine'
  ].join('\n');
}

/**
 * Read the output of `pristineProbeCode`: true only for a kernel that ran no
 * cell, holds no user name and had no replay setup; false for anything else,
 * including output that is not the expected JSON line.
 */
export function parsePristineOutput(stdout: string): boolean {
  const line = stdout.trim().split('\n').pop() ?? '';
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return false;
  }
  if (value === null || typeof value !== 'object') {
    return false;
  }
  const { count, names, touched } = value as Record<string, unknown>;
  return count === 1 && names === 0 && touched === false;
}

/**
 * Code that prints, as one JSON line on stdout, the Python version, the kernel's
 * `sys.prefix`, its working directory and the versions of the given modules
 * (null when a module is not installed).
 */
export function environmentProbeCode(modules: string[]): string {
  const names = JSON.stringify(modules);
  return [
    'def __jb_probe(names):',
    '    import json, sys, os, importlib.metadata as md',
    '    versions = {}',
    '    for name in names:',
    '        try:',
    '            versions[name] = md.version(name)',
    '        except Exception:',
    '            versions[name] = None',
    '    print(json.dumps({"python": sys.version.split()[0], "prefix": sys.prefix,',
    '                      "cwd": os.getcwd(), "versions": versions}))',
    `__jb_probe(${names})`,
    'del __jb_probe'
  ].join('\n');
}

/**
 * The user_expressions entry that returns, as JSON through IPython's JSON
 * formatter, the kernel's input history of the current session
 * (`history[n]` is input `n` as typed, `history[0]` is empty) and its
 * execution count; nothing is left in the user namespace.
 */
export const INPUT_HISTORY_EXPRESSION =
  '__import__("IPython").display.JSON({"history": list(get_ipython().history_manager.input_hist_raw), "count": get_ipython().execution_count})';
