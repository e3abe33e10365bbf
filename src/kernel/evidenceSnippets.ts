/**
 * Python snippets of the repair check's evidence probe: a tracer that records
 * which lines of one cell ran and which exceptions passed through it (caught
 * ones included), and summaries of the user namespace before and after that
 * cell. Results come back through `user_expressions` as JSON (IPython's JSON
 * formatter), never through stdout; nothing is left in the user namespace (the
 * probe lives on `sys._junobench_check`). Works on Python 3.10 and later.
 */

/** The probe's version: a kernel holding another version reinstalls it. */
const PROBE_VERSION = 4;

/**
 * The probe module, executed once per kernel into a namespace kept on `sys`.
 * `sys.settrace` (not `sys.monitoring`, which 3.10 and 3.11 lack) traces only
 * frames whose code belongs to the cell under check: IPython compiles each
 * cell under the name `ip.compile.get_code_name(raw, transformed, count)`.
 */
export const EVIDENCE_PROBE_SOURCE = String.raw`
import sys, ast, io, json, math, tokenize, types, hashlib

IGNORED = ("StopIteration", "StopAsyncIteration", "GeneratorExit")
MAX_NAMES = 300
MAX_DIGEST = 5_000_000  # elements; larger values are summarised by structure only, never copied
state = {}
VERSION = PROBE_VERSION


class Report:
    """Hands a dict to IPython's JSON formatter (user_expressions)."""

    def __init__(self, value):
        self.value = value

    def _repr_json_(self):
        return self.value


def _user_names():
    ip = get_ipython()
    hidden = ip.user_ns_hidden
    out = {}
    for k, v in list(ip.user_ns.items()):
        if k.startswith("_") or k in hidden or k in ("In", "Out", "exit", "quit", "get_ipython"):
            continue
        out[k] = v
        if len(out) >= MAX_NAMES:
            break
    return out


def _num(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _digest_array(a, np):
    if a.size > MAX_DIGEST:
        return {}
    if a.size == 0:
        return {"size": 0}
    kind = a.dtype.kind
    if kind in "biuf":
        f = a.astype("float64", copy=False)
        finite = f[~np.isnan(f)] if kind == "f" else f
        out = {"nan": int(f.size - finite.size)}
        if finite.size:
            out.update(sum=_num(finite.sum()), abs=_num(np.abs(finite).sum()),
                       min=_num(finite.min()), max=_num(finite.max()))
            out["constant"] = bool(finite.min() == finite.max()) and out["nan"] == 0
        return out
    if kind == "c":
        return {"sum": [_num(a.real.sum()), _num(a.imag.sum())]}
    flat = a.ravel()
    h = hashlib.sha1()
    first = None
    constant = True
    for item in flat[:200000]:
        text = str(item)
        h.update(text.encode("utf-8", "replace") + b"\x1f")
        if first is None:
            first = text
        elif text != first:
            constant = False
    return {"hash": h.hexdigest()[:16], "constant": constant}


def _fitted(v):
    try:
        from sklearn.utils.validation import check_is_fitted
        from sklearn.exceptions import NotFittedError
    except Exception:
        return None
    try:
        check_is_fitted(v)
        return True
    except NotFittedError:
        return False
    except Exception:
        return None


def summarise(v):
    t = type(v)
    s = {"type": "%s.%s" % (t.__module__, t.__qualname__)}
    try:
        if isinstance(v, types.ModuleType):
            return {"type": "module", "name": v.__name__}
        if v is None or isinstance(v, bool):
            s["value"] = v
            return s
        if isinstance(v, (int, float)):
            s["value"] = _num(v)
            return s
        if isinstance(v, str):
            s["len"] = len(v)
            s["hash"] = hashlib.sha1(v.encode("utf-8", "replace")).hexdigest()[:16]
            return s
        if isinstance(v, (types.FunctionType, types.BuiltinFunctionType, type)):
            return s
        np = sys.modules.get("numpy")
        pd = sys.modules.get("pandas")
        if np is not None and isinstance(v, np.generic):
            if v.dtype.kind in "biuf":
                s["value"] = _num(v)
            else:
                s["hash"] = hashlib.sha1(str(v).encode()).hexdigest()[:16]
            s["dtype"] = str(v.dtype)
            return s
        if np is not None and isinstance(v, np.ndarray):
            s.update(shape=list(v.shape), dtype=str(v.dtype))
            s.update(_digest_array(v, np))
            return s
        if pd is not None and isinstance(v, pd.DataFrame):
            s.update(shape=list(v.shape), columns=[str(c) for c in list(v.columns)[:500]],
                     dtypes=[str(d) for d in list(v.dtypes)[:500]])
            if v.size > MAX_DIGEST:
                return s
            num = v.select_dtypes(include=["number", "bool"])
            if num.shape[1]:
                s["numeric"] = _digest_array(num.to_numpy(dtype="float64", na_value=float("nan")), np)
            other = v.drop(columns=num.columns)
            if other.shape[1] and other.size <= MAX_DIGEST:
                s["other"] = _digest_array(other.astype(str).to_numpy(), np)
            return s
        if pd is not None and isinstance(v, (pd.Series, pd.Index)):
            s.update(shape=list(v.shape), dtype=str(v.dtype))
            if v.size > MAX_DIGEST:
                return s
            arr = v.to_numpy()
            if arr.dtype.kind in "biuf":
                s.update(_digest_array(arr.astype("float64"), np))
            else:
                s.update(_digest_array(arr.astype(str), np))
            return s
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(v, torch.Tensor):
            s.update(shape=list(v.shape), dtype=str(v.dtype))
            if v.numel() <= MAX_DIGEST:
                s.update(_digest_array(v.detach().cpu().double().numpy(), np))
            return s
        if torch is not None and isinstance(v, torch.nn.Module):
            s["params"] = int(sum(p.numel() for p in v.parameters()))
            return s
        if hasattr(v, "get_params") and hasattr(v, "fit"):
            s["fitted"] = _fitted(v)
            return s
        if hasattr(v, "built") and hasattr(v, "weights") and t.__module__.split(".")[0] in ("keras", "tensorflow", "tf_keras"):
            s["built"] = bool(v.built)
            s["weights"] = len(v.weights) if v.built else 0
            return s
        if isinstance(v, (list, tuple, set, frozenset, dict)):
            s["len"] = len(v)
            if len(v) <= 10000:
                text = repr(sorted(v, key=repr) if isinstance(v, (set, frozenset)) else v)
                if " at 0x" not in text:
                    s["hash"] = hashlib.sha1(text[:1000000].encode("utf-8", "replace")).hexdigest()[:16]
            return s
    except Exception as e:  # a summary never breaks the check
        s["error"] = "%s: %s" % (type(e).__name__, str(e)[:120])
    return s


def _snapshot():
    return {k: (id(v), summarise(v)) for k, v in _user_names().items()}


def _layout(source):
    """Statement spans and the lines inside string literals of a cell's code."""
    spans, strings = [], []
    try:
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if isinstance(node, ast.stmt):
                kind = type(node).__name__
                if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                    kind = "String"
                spans.append([node.lineno, getattr(node, "end_lineno", node.lineno) or node.lineno, kind])
    except SyntaxError:
        pass
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.STRING and tok.end[0] > tok.start[0]:
                strings.extend(range(tok.start[0] + 1, tok.end[0] + 1))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return spans, sorted(set(strings))


def start(source, trace, snapshot):
    """Before a step: remember the state and trace the lines and exceptions of its cell."""
    ip = get_ipython()
    try:
        transformed = ip.transform_cell(source)
    except Exception:
        transformed = source
    try:
        filename = ip.compile.get_code_name(source, transformed, ip.execution_count)
    except Exception:
        filename = None
    lines, exceptions, keep = set(), [], []
    state.clear()
    state.update(filename=filename, lines=lines, exceptions=exceptions, keep=keep,
                 transformed=transformed, trace=trace, fallback=filename is None)
    state["before"] = _snapshot() if snapshot else None
    if not trace:
        return

    def match(name):
        # %%time compiles the cell body under names of its own.
        if name in ("<timed exec>", "<timed eval>"):
            return True
        if filename is not None:
            return name == filename
        return name.startswith("<ipython-input-") or "ipykernel_" in name

    def local(frame, event, arg):
        if event == "line":
            lines.add(frame.f_lineno)
        elif event == "exception":
            exc = arg[1]
            if not any(exc is k for k in keep):
                keep.append(exc)
                name = getattr(arg[0], "__name__", "Exception")
                if name not in IGNORED:
                    try:
                        text = str(exc)[:200]
                    except Exception:
                        text = ""
                    exceptions.append({"ename": name, "evalue": text, "line": frame.f_lineno})
        return local

    def glob(frame, event, arg):
        if event == "call" and match(frame.f_code.co_filename):
            return local
        return None

    state["previous"] = sys.gettrace()
    sys.settrace(glob)


def stop():
    """After a step: stop tracing and keep the report for report()."""
    if state.get("trace"):
        sys.settrace(state.get("previous"))
    out = {}
    if state.get("trace"):
        spans, strings = _layout(state.get("transformed") or "")
        out["trace"] = {"lines": sorted(state["lines"]), "exceptions": state["exceptions"],
                        "spans": spans, "stringLines": strings,
                        "matched": "name" if not state.get("fallback") else "fallback"}
    before = state.get("before")
    if before is not None:
        after = _snapshot()
        changes = {}
        for k, (ident, summary) in after.items():
            if k not in before:
                changes[k] = "created"
            elif before[k][0] != ident:
                changes[k] = "rebound"
            elif before[k][1] != summary:
                changes[k] = "mutated"
        for k in before:
            if k not in after:
                changes[k] = "deleted"
        out["effect"] = {"changes": changes, "after": {k: v[1] for k, v in after.items()}}
    state.clear()
    state["report"] = out


def report():
    return Report(state.get("report", {}))


timeline = {}


def track(reset):
    """After a replayed cell: the user names created, rebound, mutated or deleted since the
    previous call, with the summaries of the ones still bound (reset: start a new baseline)."""
    if reset:
        timeline.clear()
    previous = timeline.get("snapshot", {})
    now = _snapshot()
    changes = {}
    for k, (ident, summary) in now.items():
        if k not in previous:
            changes[k] = {"change": "created", "summary": summary}
        elif previous[k][0] != ident:
            changes[k] = {"change": "rebound", "summary": summary}
        elif previous[k][1] != summary:
            changes[k] = {"change": "mutated", "summary": summary}
    for k in previous:
        if k not in now:
            changes[k] = {"change": "deleted", "summary": None}
    timeline["snapshot"] = now
    return Report({"changes": changes, "names": len(now)})


def environment():
    """What a cached reference run depends on: the interpreter and every installed distribution
    (their dist-info folder names carry the versions; one directory listing per path entry)."""
    import os
    dists = set()
    for entry in sys.path:
        if not entry:
            continue  # the working directory: the case folder, not the environment
        try:
            names = os.listdir(entry)
        except OSError:
            continue
        dists.update(n for n in names if n.endswith((".dist-info", ".egg-info")))
    digest = hashlib.sha1("\n".join(sorted(dists)).encode()).hexdigest()[:16]
    return Report({"python": sys.version.split()[0], "prefix": sys.prefix,
                   "distributions": len(dists), "digest": digest})
`.replace('PROBE_VERSION', String(PROBE_VERSION));

/**
 * Code that installs the probe in a kernel (silently, once per probe version).
 */
export function evidenceInstallCode(): string {
  const source = JSON.stringify(EVIDENCE_PROBE_SOURCE);
  return [
    'def __jb_install(source, version):',
    '    import sys, types',
    '    old = getattr(sys, "_junobench_check", None)',
    '    if old is not None and getattr(old, "VERSION", None) == version:',
    '        return',
    '    try:',
    '        ns = {"get_ipython": get_ipython}',
    '        exec(compile(source, "<junobench-check>", "exec"), ns)',
    '        sys._junobench_check = types.SimpleNamespace(**ns)',
    '    except Exception:',
    '        # Not an IPython kernel: no probe, and every report comes back empty.',
    '        sys._junobench_check = None',
    `__jb_install(${source}, ${PROBE_VERSION})`,
    'del __jb_install'
  ].join('\n');
}

/** What the probe records around one cell. */
export interface IEvidenceProbeOptions {
  /** Trace the cell's lines and exceptions. */
  trace: boolean;
  /** Summarise the user namespace before and after the cell. */
  snapshot: boolean;
}

/**
 * Code run silently just before the cell `source`: starts the probe for it.
 */
export function evidenceStartCode(
  source: string,
  options: IEvidenceProbeOptions
): string {
  const py = (b: boolean) => (b ? 'True' : 'False');
  return `__import__("sys")._junobench_check.start(${JSON.stringify(source)}, ${py(
    options.trace
  )}, ${py(options.snapshot)})`;
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
