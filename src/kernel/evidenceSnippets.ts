/**
 * The Python the repair check and the state timeline send to a kernel. The
 * probe itself is a Python module, `jupyterlab_junobench/probe.py` (linted and
 * tested with pytest on real kernels), embedded here at build time by
 * `scripts/embed-probe.js`; this module only builds the short calls into it.
 * Results come back through `user_expressions` as JSON (IPython's JSON
 * formatter), never through stdout; nothing is left in the user namespace (the
 * probe lives on `sys._junobench_check`).
 */
import probe from './probe.generated.json';

/** The probe's version: a kernel holding another version reinstalls it. */
export const PROBE_VERSION: number = probe.version;

/** A hash of the probe's text, for cache keys. */
export const PROBE_HASH: string = probe.hash;

/**
 * Code that installs the probe in a kernel (silently, once per probe version):
 * the module runs in a namespace of its own kept on `sys`, then registers its
 * AST transformer and IPython event callbacks.
 */
export function evidenceInstallCode(): string {
  const source = JSON.stringify(probe.source);
  return [
    'def __jb_install(source, version):',
    '    import sys, types',
    '    old = getattr(sys, "_junobench_check", None)',
    '    if old is not None and getattr(old, "VERSION", None) == version:',
    '        return',
    '    if old is not None and hasattr(old, "uninstall"):',
    '        old.uninstall()',
    '    try:',
    '        ns = {"get_ipython": get_ipython, "__name__": "junobench_probe"}',
    '        exec(compile(source, "<junobench-check>", "exec"), ns)',
    '        sys._junobench_check = types.SimpleNamespace(**ns)',
    '        sys._junobench_check.install()',
    '    except Exception:',
    '        # Not an IPython kernel: no probe, and every report comes back empty.',
    '        sys._junobench_check = None',
    `__jb_install(${source}, ${PROBE_VERSION})`,
    'del __jb_install'
  ].join('\n');
}

/** What the probe records around one cell. */
export interface IEvidenceProbeOptions {
  /** Instrument the cell and trace the exceptions of every cell frame while it runs. */
  trace: boolean;
  /** Summarise the user namespace before and after the cell. */
  snapshot: boolean;
  /** A number the cell's units are reported under (its index in the plan). */
  cell?: number;
  /**
   * Names whose element-wise view is wanted after the cell even when it leaves
   * them alone (undefined: every name).
   */
  want?: string[];
}

/**
 * Code run silently just before the cell `source`: starts the probe for it.
 */
export function evidenceStartCode(
  source: string,
  options: IEvidenceProbeOptions
): string {
  const py = (b: boolean) => (b ? 'True' : 'False');
  const want = options.want ? JSON.stringify(options.want) : 'None';
  return `__import__("sys")._junobench_check.start(${JSON.stringify(source)}, ${py(
    options.trace
  )}, ${py(options.snapshot)}, ${options.cell ?? 0}, ${want})`;
}

/** Code run silently just after the cell: stops tracing, keeps the report. */
export const EVIDENCE_STOP_CODE = '__import__("sys")._junobench_check.stop()';

/**
 * The user_expressions entry that returns what the last replayed cell changed
 * in the user namespace (`reset`: the first call of a run, the baseline).
 */
export function trackExpression(reset: boolean): string {
  return `__import__("sys")._junobench_check.track(${reset ? 'True' : 'False'})`;
}

/**
 * A statement that starts a new state baseline, doing nothing where the probe
 * could not be installed (so a replay never fails because of it).
 */
export function trackResetCode(): string {
  return 'getattr(__import__("sys"), "_junobench_check", None) and __import__("sys")._junobench_check.track(True)';
}

/** The user_expressions entry that returns the interpreter and library versions as JSON. */
export const EVIDENCE_ENVIRONMENT_EXPRESSION =
  '__import__("sys")._junobench_check.environment()';

/** The user_expressions entry that returns the report as JSON. */
export const EVIDENCE_REPORT_EXPRESSION =
  '__import__("sys")._junobench_check.report()';

/**
 * The user_expressions entry that returns, at the end of a run, the element-wise summary of
 * the user names in `want` (every user name when null).
 */
export function finalStateExpression(want: string[] | null): string {
  return `__import__("sys")._junobench_check.final(${want ? JSON.stringify(want) : 'None'})`;
}

/**
 * Code run silently after a check kernel's set-up code, before the notebook's first cell: the
 * interpreter's baseline, which the end-of-run report compares with (nothing where the probe
 * could not be installed).
 */
export const EVIDENCE_BASELINE_CODE =
  'getattr(__import__("sys"), "_junobench_check", None) and __import__("sys")._junobench_check.baseline()';

/**
 * The user_expressions entry that returns, at the end of a run, what the notebook changed in
 * how the interpreter runs code since the baseline, as `[{kind, name, count}]`.
 */
export const EVIDENCE_INTERPRETER_EXPRESSION =
  '__import__("sys")._junobench_check.interpreter()';

/**
 * Code run silently in a reference kernel after its baseline: the rounding calls of its traced
 * cells note the values they meet at a rounding boundary (`watch_rounding` in the probe).
 */
export const EVIDENCE_ROUNDING_WATCH_CODE =
  'getattr(__import__("sys"), "_junobench_check", None) and __import__("sys")._junobench_check.watch_rounding()';

/** The user_expressions entry that returns those boundary roundings at the end of a run. */
export const EVIDENCE_ROUNDING_EXPRESSION =
  '__import__("sys")._junobench_check.rounding()';
