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
    'del __jb_os'
  ].join('\n');
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
