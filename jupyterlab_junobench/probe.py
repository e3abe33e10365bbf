"""The kernel-side probe of "Check my fix" and of the state timeline.

This module is executed inside the kernel that runs a case (the TypeScript side embeds this
file's text at build time and sends it once per kernel; see ``src/kernel/evidenceSnippets.ts``).
It keeps itself on ``sys._junobench_check`` and leaves the user namespace untouched: results go
back through ``user_expressions`` as JSON (IPython's JSON formatter), never through stdout.

What it records around a traced cell:

- **Units that ran.** An IPython AST transformer (``ast_transformers``) instruments the traced
  cells' code, and any code those cells compile while they run (the body of ``%%time``,
  ``%time``), with a marker before every statement and around the evaluation points that can be
  skipped inside one statement: the branches of ``x if c else y``, the right operands of
  ``and``/``or``, comprehension elements, lambda bodies and calls. A unit whose marker never
  fired never ran; code that was never compiled (a ``%%script`` or ``%%writefile`` body, a
  string) has no unit at all.
- **Exceptions.** ``sys.settrace`` (and ``threading.settrace`` for threads the cell starts) on
  every frame whose code comes from a notebook cell, whichever cell defined it, so a helper from
  another cell, a decorator or a thread that catches is seen. Each exception is reported with the
  names of its class's MRO and whether the class is genuine (defined in a module, not in a cell,
  and found under its own name there), so a look-alike class cannot pass for a harmless one.
- **The interpreter.** ``baseline()`` (called by the check after its own set-up code, before any
  notebook code) records how the kernel runs code; ``interpreter()`` lists what the notebook changed
  since: input and AST transformers, custom exception handlers, ``sys`` hooks, trace and profile
  functions (also those set and undone within a traced cell), IPython event callbacks and shell
  methods the notebook made, library or builtin callables replaced by callables the notebook made,
  and threads the notebook started (see ``docs/threat-model.md`` for the rule on library threads).
- **Effects.** Summaries of the user namespace before and after the cell (names created, rebound,
  mutated, deleted), including names a cell hides in ``user_ns_hidden``; array-likes carry an
  element-wise digest (per column: sums, an order-sensitive weighted sum, extremes, NaN count and
  values at fixed sampled positions), and the figures the cell drew are summarised too.

Works on Python 3.10 and later, with IPython 7.34 (the benchmark's) and later. Standard library
only; numpy, pandas, torch and matplotlib are used when the kernel already imported them.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import io
import json
import math
import sys
import threading
import tokenize
import types

#: Bumped whenever what the probe reports changes: a kernel holding another version reinstalls
#: it, and cached reference evidence made by another version is not used.
VERSION = 8

#: The check's policy (``check_policy.json``, every value with its reason): the embedding writes
#: its values in here (``scripts/embed-probe.js``, ``check_policy.embed``), since a kernel cannot
#: read our files. Left empty, the probe fails at once.
POLICY: dict[str, float] = {}
#: At most this many user names are summarised.
MAX_NAMES = int(POLICY["summaryNames"])
#: Values with more elements are summarised by structure and sampled values only, never copied.
MAX_DIGEST = int(POLICY["digestElements"])
#: Sampled rows per column: the same positions for any two values with as many rows.
SAMPLES = int(POLICY["sampledRows"])
#: A value of at most this many elements (rows x columns digested) is reported whole: every
#: row's value, so a wrong value at any row is seen, not only at the sampled rows. Above it, the
#: sampled rows and the digest of the whole (sums, an order-sensitive sum, extremes, NaN count).
WHOLE = int(POLICY["wholeElements"])
#: Columns digested one by one (a wider table reports its width and these first columns).
MAX_COLUMNS = int(POLICY["digestColumns"])
#: Decimals looked at for the step values sit on and for the reference's roundings.
ROUND_DIGITS = int(POLICY["roundDigits"])
#: The builtins name of the marker function the instrumented code calls.
HIT = "_junobench_hit"
#: The builtins name of the function a traced cell calls before it deletes module-level names.
DELETED = "_junobench_deleted"
#: Names IPython itself keeps in the user namespace.
_IPYTHON_NAMES = {"In", "Out", "exit", "quit", "get_ipython"}

# The real classes an honest cell may raise and catch as part of normal control flow, captured
# when the probe is installed (before any user code), so a look-alike cannot pass for them.
_BENIGN = (StopIteration, StopAsyncIteration, GeneratorExit)


class Report:
    """Hands a dict to IPython's JSON formatter (``user_expressions``)."""

    def __init__(self, value):
        self.value = value

    def _repr_json_(self):
        return self.value


def _ip():
    try:
        return get_ipython()
    except NameError:
        return None


# --------------------------------------------------------------------------- summaries


def _num(x):
    """A float for JSON: NaN and infinities as strings."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _digest_array(a, np):
    """The pooled digest of an array (sums, extremes, NaN count, or a hash of its text)."""
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
        from sklearn.exceptions import NotFittedError
        from sklearn.utils.validation import check_is_fitted
    except Exception:
        return None
    try:
        check_is_fitted(v)
        return True
    except NotFittedError:
        return False
    except Exception:
        return None


def _positions(n, k):
    """``k`` sampled row positions of ``n`` rows, evenly spread, first and last included."""
    if n <= k:
        return list(range(n))
    if k <= 1:
        return [0]
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})


def _grain(values):
    """The decimal step the values sit on (0.1 for values rounded to one decimal), or 0."""
    finite = [x for x in values if isinstance(x, float) and math.isfinite(x)]
    if not finite:
        return 0
    tolerance = POLICY["grainTolerance"]
    for d in range(ROUND_DIGITS + 1):
        scale = 10.0 ** d
        if all(abs(x * scale - round(x * scale)) <= tolerance * max(1.0, abs(x * scale)) for x in finite):
            return 10.0 ** -d
    return 0


def _sampled(rows, size):
    """How many rows a value of ``size`` elements in ``rows`` rows reports: all up to ``WHOLE``."""
    return rows if size <= WHOLE else SAMPLES


def _column_digests(matrix, np, names, k=None):
    """Per-column digests of a 2-D array (rows x columns): numeric or text (``k``: rows
    reported, by default every row of a value within ``WHOLE`` elements)."""
    rows, cols = matrix.shape
    width = min(cols, MAX_COLUMNS)
    pos = _positions(rows, _sampled(rows, rows * width) if k is None else k)
    out = []
    kind = matrix.dtype.kind
    numeric = kind in "biuf"
    if numeric and matrix.size <= MAX_DIGEST and rows:
        f = matrix[:, :width].astype("float64", copy=False)
        nan = np.isnan(f)
        z = np.where(nan, 0.0, f)
        w = 1.0 + ((np.arange(rows, dtype=np.uint64) * np.uint64(2654435761)) % np.uint64(1024)).astype("float64") / 1024.0
        sums = z.sum(axis=0)
        abss = np.abs(z).sum(axis=0)
        wsums = (z * w[:, None]).sum(axis=0)
        with np.errstate(all="ignore"):
            mins = np.where(nan, np.inf, f).min(axis=0)
            maxs = np.where(nan, -np.inf, f).max(axis=0)
        nans = nan.sum(axis=0)
    for j in range(width):
        col = matrix[:, j]
        d = {"name": names[j] if names is not None and j < len(names) else None}
        if numeric:
            samples = [_num(x) for x in col[pos].astype("float64")]
            d.update(kind="num", samples=samples, grain=_grain([x for x in samples if isinstance(x, float)]))
            if matrix.size <= MAX_DIGEST and rows:
                d.update(nan=int(nans[j]), sum=_num(sums[j]), abs=_num(abss[j]), wsum=_num(wsums[j]))
                if nans[j] < rows:
                    d.update(min=_num(mins[j]), max=_num(maxs[j]))
        else:
            texts = [str(x)[:60] for x in col[pos]]
            d.update(kind="text", samples=texts)
            if matrix.size <= MAX_DIGEST:
                # The same values in another order keep ``sortedHash``: what the run on other
                # data compares (rows shuffled alone are not other values).
                d.update(hash=_text_hash(col), sortedHash=_text_hash(sorted(str(x) for x in col)))
        out.append(d)
    return out, pos


def _text_hash(items):
    """The digest of a sequence's values as text (the same for a text column and an index)."""
    h = hashlib.sha1()
    for item in items:
        h.update(str(item).encode("utf-8", "replace") + b"\x1f")
    return h.hexdigest()[:16]


def _index_digest(index):
    """The labels of a non-default pandas index (None for a plain 0..n-1 range)."""
    pd = sys.modules.get("pandas")
    if pd is None:
        return None
    if isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1:
        return None
    labels = [str(x) for x in index]
    out = {"hash": _text_hash(labels), "n": len(labels),
           "samples": [labels[i][:60] for i in _positions(len(labels), SAMPLES)]}
    try:
        if index.is_unique:
            out["sortedHash"] = _text_hash(sorted(labels))
            # 0 .. n-1 in another order: each row labelled by a position of an unlabelled value.
            if index.dtype.kind in "iu" and len(index) and index.min() == 0 and index.max() == len(index) - 1:
                out["positional"] = True
    except Exception:
        pass
    return out


def _frame_columns(df, np, pd):
    """Per-column digests of a frame's columns (numbers together, text one by one)."""
    names = [str(c) for c in df.columns]
    frames = [_series_array(df.iloc[:, j], np, pd) for j in range(min(df.shape[1], MAX_COLUMNS))]
    if not frames:
        return [], []
    if all(a.dtype.kind in "biuf" for a in frames):
        arr = np.column_stack([a.astype("float64", copy=False) for a in frames])
        return _column_digests(arr, np, names)
    # One column at a time: as many rows of each as of the whole frame.
    k = _sampled(df.shape[0], df.shape[0] * len(frames))
    cols, pos = [], []
    for j, a in enumerate(frames):
        part, pos = _column_digests(a.reshape(-1, 1), np, [names[j]], k)
        cols.extend(part)
    return cols, pos


def _by_label(v, np, pd):
    """The digests of a frame or series with its rows in label order: the same data in another
    row order (each row keeping its label) has the same digests here."""
    try:
        if not v.index.is_unique:
            return None
        ordered = v.sort_index()
    except Exception:
        return None
    if isinstance(ordered, pd.Series):
        cols, _ = _column_digests(_series_array(ordered, np, pd).reshape(-1, 1), np, [None])
    else:
        cols, _ = _frame_columns(ordered, np, pd)
    return {"columns": cols}


def view(v):
    """The element-wise view of an array-like value, or None.

    Canonical form: a table of rows x columns, size-1 dimensions squeezed away (so (1, n),
    (n, 1) and (n,) are alike), more than two dimensions folded into columns; frames keep their
    column names, series their name, and a non-default index is reported beside the columns.
    """
    np = sys.modules.get("numpy")
    if np is None:
        return None
    pd = sys.modules.get("pandas")
    torch = sys.modules.get("torch")
    try:
        if pd is not None and isinstance(v, pd.DataFrame):
            if v.size > MAX_DIGEST * 4:
                return {"shape": list(v.shape), "digested": False}
            index = _index_digest(v.index)
            cols, pos = _frame_columns(v, np, pd)
            out = {"shape": list(v.shape), "table": [v.shape[0], v.shape[1]], "columns": cols,
                   "names": True, "index": index, "positions": list(pos or [])}
            if index is not None and v.size <= MAX_DIGEST:
                out["byLabel"] = _by_label(v, np, pd)
            return out
        if pd is not None and isinstance(v, (pd.Series, pd.Index)):
            arr = _series_array(v, np, pd)
            index = _index_digest(v.index) if isinstance(v, pd.Series) else None
            name = None if v.name is None else str(v.name)
            cols, pos = _column_digests(arr.reshape(-1, 1), np, [name])
            out = {"shape": list(v.shape), "table": [len(arr), 1], "columns": cols, "names": False,
                   "index": index, "positions": list(pos)}
            if index is not None and v.size <= MAX_DIGEST:
                out["byLabel"] = _by_label(v, np, pd)
            return out
        if torch is not None and isinstance(v, torch.Tensor):
            if v.numel() > MAX_DIGEST:
                return {"shape": list(v.shape), "digested": False}
            v = v.detach().cpu().numpy()
        if isinstance(v, (list, tuple)) and 0 < len(v) <= 1_000_000:
            try:
                arr = np.asarray(v)
            except Exception:
                return None
            if arr.dtype.kind not in "biufUSb" or arr.ndim == 0:
                return None
            v = arr
        if isinstance(v, np.ndarray):
            if v.ndim == 0:
                return None
            if v.dtype.kind == "c":
                v = np.concatenate([v.real, v.imag], axis=-1) if v.ndim > 1 else np.stack([v.real, v.imag], axis=1)
            if v.dtype.kind not in "biufUSOMmb":
                return None
            if v.dtype.kind in "Mm":
                v = v.astype("int64")
            if v.dtype.kind == "b":
                v = v.astype("int8")
            squeezed = v.reshape([d for d in v.shape if d != 1]) if v.size else v
            if squeezed.ndim == 0:
                squeezed = squeezed.reshape(1)
            if squeezed.ndim == 1:
                table = squeezed.reshape(-1, 1)
            else:
                table = squeezed.reshape(squeezed.shape[0], -1)
            if table.size > MAX_DIGEST:
                rows, cols_n = table.shape
                pos = _positions(rows, SAMPLES)
                sample = table[pos][:, : min(cols_n, 64)]
                cols, _ = _column_digests(np.ascontiguousarray(sample), np, None)
                for c in cols:
                    for key in ("sum", "abs", "wsum", "nan", "min", "max", "hash"):
                        c.pop(key, None)
                return {"shape": list(v.shape), "table": list(table.shape), "columns": cols,
                        "names": False, "index": None, "positions": list(pos), "partial": True}
            cols, pos = _column_digests(table, np, None)
            return {"shape": list(v.shape), "table": list(table.shape), "columns": cols,
                    "names": False, "index": None, "positions": list(pos)}
    except Exception as e:  # a view never breaks the check
        return {"error": f"{type(e).__name__}: {str(e)[:120]}"}
    return None


def _series_array(s, np, pd):
    """A pandas series or index as a numpy array: numbers as float, the rest as text."""
    dtype = s.dtype
    kind = getattr(dtype, "kind", "O")
    if kind in "biuf" and not isinstance(dtype, pd.CategoricalDtype):
        return s.to_numpy(dtype="float64", na_value=np.nan)
    if kind in "Mm":
        return s.astype("int64").to_numpy(dtype="float64")
    if kind == "b":
        return s.to_numpy(dtype="float64", na_value=np.nan)
    return s.astype(str).to_numpy()


def summarise(v, full=False):
    """A summary of a value: type plus what the probe can tell cheaply (``full``: with its view)."""
    t = type(v)
    s = {"type": f"{t.__module__}.{t.__qualname__}"}
    try:
        if isinstance(v, types.ModuleType):
            return {"type": "module", "name": v.__name__, "definition": True}
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
            # A module, class or function is code, not a value computed from the data.
            s["definition"] = True
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
        elif pd is not None and isinstance(v, pd.DataFrame):
            s.update(shape=list(v.shape), columns=[str(c) for c in list(v.columns)[:500]],
                     dtypes=[str(d) for d in list(v.dtypes)[:500]])
            if v.size <= MAX_DIGEST:
                num = v.select_dtypes(include=["number", "bool"])
                if num.shape[1]:
                    s["numeric"] = _digest_array(num.to_numpy(dtype="float64", na_value=float("nan")), np)
                other = v.drop(columns=num.columns)
                if other.shape[1] and other.size <= MAX_DIGEST:
                    s["other"] = _digest_array(other.astype(str).to_numpy(), np)
        elif pd is not None and isinstance(v, (pd.Series, pd.Index)):
            s.update(shape=list(v.shape), dtype=str(v.dtype))
            if v.size <= MAX_DIGEST:
                arr = v.to_numpy()
                if arr.dtype.kind in "biuf":
                    s.update(_digest_array(arr.astype("float64"), np))
                else:
                    s.update(_digest_array(arr.astype(str), np))
        else:
            torch = sys.modules.get("torch")
            if torch is not None and isinstance(v, torch.Tensor):
                s.update(shape=list(v.shape), dtype=str(v.dtype))
                if v.numel() <= MAX_DIGEST:
                    s.update(_digest_array(v.detach().cpu().double().numpy(), np))
            elif torch is not None and isinstance(v, torch.nn.Module):
                s["params"] = int(sum(p.numel() for p in v.parameters()))
                return s
            elif hasattr(v, "get_params") and hasattr(v, "fit"):
                s["fitted"] = _fitted(v)
                if full and s["fitted"]:
                    n_in = getattr(v, "n_features_in_", None)
                    if isinstance(n_in, int):
                        s["features"] = n_in
                return s
            elif (hasattr(v, "built") and hasattr(v, "weights")
                  and t.__module__.split(".")[0] in ("keras", "tensorflow", "tf_keras")):
                s["built"] = bool(v.built)
                s["weights"] = len(v.weights) if v.built else 0
                return s
            elif isinstance(v, (list, tuple, set, frozenset, dict)):
                s["len"] = len(v)
                if len(v) <= 10000:
                    text = repr(sorted(v, key=repr) if isinstance(v, (set, frozenset)) else v)
                    if " at 0x" not in text:
                        s["hash"] = hashlib.sha1(text[:1000000].encode("utf-8", "replace")).hexdigest()[:16]
            else:
                return s
        if full:
            vw = view(v)
            if vw is not None:
                s["view"] = vw
    except Exception as e:  # a summary never breaks the check
        s["error"] = f"{type(e).__name__}: {str(e)[:120]}"
    return s


def _user_names():
    """The user's names: everything in the user namespace but IPython's own and private names.

    Names IPython hides at start-up stay hidden; a name a cell puts into ``user_ns_hidden``
    later is still the user's.
    """
    ip = _ip()
    if ip is None:
        return {}
    hidden = state.get("hidden0") or set()
    out = {}
    for k, v in list(ip.user_ns.items()):
        if k.startswith("_") or k in _IPYTHON_NAMES or (k in hidden and ip.user_ns_hidden.get(k, object()) is v):
            continue
        out[k] = v
        if len(out) >= MAX_NAMES:
            break
    return out


def _snapshot(full=False, previous=None, want=None):
    """Every user name's identity and summary; with ``full``, array-likes that changed since
    ``previous`` (or are in ``want``) also carry their element-wise view."""
    out = {}
    for k, v in _user_names().items():
        deep = full and (previous is None or want is None or k in want or k not in previous
                         or previous[k][0] != id(v))
        summary = summarise(v, deep)
        if full and not deep and previous is not None and summary != previous[k][1]:
            summary = summarise(v, True)  # mutated in place
        out[k] = (id(v), summary)
    return out


# --------------------------------------------------------------------------- figures


def _data_digest(values):
    """A compact digest of a 1-D sequence of numbers: length, sums and sampled values."""
    np = sys.modules.get("numpy")
    try:
        a = np.asarray(values, dtype="float64").ravel()
    except Exception:
        return {"n": len(values) if hasattr(values, "__len__") else None}
    cols, _ = _column_digests(a.reshape(-1, 1), np, None) if a.size else ([{}], None)
    d = cols[0]
    d.pop("name", None)
    d["n"] = int(a.size)
    return d


def _figure_summary(fig):
    """What a matplotlib figure shows: per axes, its lines, bars, collections and images."""
    axes = []
    for ax in fig.get_axes():
        a = {"lines": [], "patches": 0, "bars": None, "collections": [], "images": 0,
             "title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel()}
        for line in ax.get_lines():
            a["lines"].append({"x": _data_digest(line.get_xdata()), "y": _data_digest(line.get_ydata()),
                               "label": str(line.get_label())[:60]})
        heights = []
        for p in ax.patches:
            if hasattr(p, "get_height") and hasattr(p, "get_width"):
                heights.append(float(p.get_height()))
        a["patches"] = len(ax.patches)
        if heights:
            a["bars"] = _data_digest(heights)
        for c in ax.collections:
            try:
                offsets = c.get_offsets()
                a["collections"].append(_data_digest(offsets[:, 1]) if len(offsets) else {"n": 0})
            except Exception:
                a["collections"].append({"n": None})
        a["images"] = len(ax.images)
        axes.append(a)
    return {"axes": axes}


def _open_figures():
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return {}
    try:
        return {id(plt.figure(n)): plt.figure(n) for n in plt.get_fignums()}
    except Exception:
        return {}


def _capture(fig):
    """Summarise a figure the cell under check drew, before it is closed (once per figure)."""
    if not state.get("active") or not state.get("armed") or state.get("figures") is not None:
        return
    key = id(fig)
    if key in state.get("figures_before", ()) or key in state.setdefault("captured_ids", set()):
        return
    state["captured_ids"].add(key)
    try:
        state.setdefault("captured", []).append((getattr(fig, "number", 0) or 0, _figure_summary(fig)))
    except Exception as e:
        state.setdefault("captured", []).append((0, {"error": f"{type(e).__name__}: {str(e)[:120]}"}))


def _patch_figure_closing():
    """Make matplotlib summarise a figure before closing it: ``plt.show()`` in the inline
    backend, ``plt.close()`` and the end of a cell all close figures (patched once)."""
    helpers = sys.modules.get("matplotlib._pylab_helpers")
    if helpers is None or getattr(helpers.Gcf, "_junobench_patched", False):
        return
    gcf = helpers.Gcf
    destroy = gcf.destroy.__func__
    destroy_all = gcf.destroy_all.__func__

    def patched_destroy(cls, num):
        try:
            manager = num if hasattr(num, "canvas") else cls.figs.get(num)
            if manager is not None:
                _capture(manager.canvas.figure)
        except Exception:
            pass
        return destroy(cls, num)

    def patched_destroy_all(cls):
        try:
            for manager in list(cls.figs.values()):
                _capture(manager.canvas.figure)
        except Exception:
            pass
        return destroy_all(cls)

    gcf.destroy = classmethod(patched_destroy)
    gcf.destroy_all = classmethod(patched_destroy_all)
    gcf._junobench_patched = True


def _pre_execute():
    """IPython pre_execute callback: the execution after ``start`` is the cell under check."""
    if state.get("active") and not state.get("armed"):
        _patch_figure_closing()
        state["armed"] = True


def _post_execute():
    """IPython post_execute callback: summarise the traced cell's figures still open, before
    the inline backend closes them (it registers its own callback after this one)."""
    if not state.get("active") or not state.get("armed") or state.get("figures") is not None:
        return
    try:
        for fig in _open_figures().values():
            _capture(fig)
    except Exception as e:
        state.setdefault("captured", []).append((0, {"error": f"{type(e).__name__}: {str(e)[:120]}"}))
    state["figures"] = [summary for _, summary in sorted(state.get("captured", []), key=lambda x: x[0])]


# --------------------------------------------------------------------------- units (AST)


class _Instrument(ast.NodeTransformer):
    """Puts a marker before every statement and around skippable evaluation points."""

    def __init__(self, registry, cell, offset, nested):
        self.registry = registry
        self.cell = cell
        self.offset = offset
        self.nested = nested
        # Inside a function or class body (a ``del`` there is not of the notebook's names).
        self.scope = 0

    def _unit(self, node, kind):
        uid = len(self.registry)
        try:
            text = ast.unparse(node)
        except Exception:
            text = ""
        self.registry.append({
            "id": uid, "cell": self.cell, "kind": kind,
            "line": getattr(node, "lineno", 0) + self.offset,
            "endLine": (getattr(node, "end_lineno", None) or getattr(node, "lineno", 0)) + self.offset,
            "col": getattr(node, "col_offset", 0), "endCol": getattr(node, "end_col_offset", None),
            "nested": self.nested, "text": text[:400],
        })
        return uid

    def _marker(self, uid, node):
        call = ast.Call(func=ast.Name(id=HIT, ctx=ast.Load()), args=[ast.Constant(uid)], keywords=[])
        return ast.copy_location(call, node)

    def _wrap(self, node, kind):
        """Visit ``node`` and make it ``HIT(uid) or node``: the marker returns None, the value is
        kept. The unit is registered (with its source text) before its children are visited."""
        if node is None or isinstance(node, ast.Starred):
            return self.visit(node) if node is not None else None
        uid = self._unit(node, kind)
        visited = self.visit(node) if not isinstance(node, ast.Call) else self.generic_visit(node)
        new = ast.BoolOp(op=ast.Or(), values=[self._marker(uid, node), visited])
        return ast.copy_location(new, node)

    def _body(self, stmts):
        out = []
        for i, st in enumerate(stmts):
            if isinstance(st, ast.ImportFrom) and st.module == "__future__":
                out.append(st)
                continue
            if i == 0 and isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant) and isinstance(st.value.value, str):
                # A docstring stays first (and is text, not code).
                self._unit(st, "String")
                out.append(st)
                continue
            is_text = isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant) and isinstance(st.value.value, str)
            uid = self._unit(st, "String" if is_text else type(st).__name__)
            visited = self.visit(st)
            out.append(ast.copy_location(ast.Expr(value=self._marker(uid, st)), st))
            names = _deleted_names(st) if isinstance(st, ast.Delete) and not self.scope else ()
            if names:
                # The values of the names it deletes are kept first: a result is compared as it
                # was just before its deletion (``final``).
                call = ast.Call(func=ast.Name(id=DELETED, ctx=ast.Load()),
                                args=[ast.Constant(tuple(names))], keywords=[])
                out.append(ast.copy_location(ast.Expr(value=call), st))
            if isinstance(visited, list):
                out.extend(visited)
            elif visited is not None:
                out.append(visited)
        return out

    def generic_visit(self, node):
        for field, old in ast.iter_fields(node):
            if isinstance(old, list) and old and all(isinstance(x, ast.stmt) for x in old):
                setattr(node, field, self._body(old))
            elif isinstance(old, list):
                new = []
                for x in old:
                    if isinstance(x, ast.AST):
                        x = self.visit(x)
                        if x is None:
                            continue
                    new.append(x)
                setattr(node, field, new)
            elif isinstance(old, ast.AST):
                setattr(node, field, self.visit(old))
        return node

    def visit_Module(self, node):
        node.body = self._body(node.body)
        return node

    def _scoped(self, node):
        self.scope += 1
        try:
            return self.generic_visit(node)
        finally:
            self.scope -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def visit_IfExp(self, node):
        node.test = self.visit(node.test)
        node.body = self._wrap(node.body, "IfExp.body")
        node.orelse = self._wrap(node.orelse, "IfExp.orelse")
        return node

    def visit_BoolOp(self, node):
        node.values = [self.visit(node.values[0])] + [self._wrap(v, "BoolOp.operand") for v in node.values[1:]]
        return node

    def visit_Lambda(self, node):
        node.args = self.visit(node.args)
        node.body = self._wrap(node.body, "Lambda.body")
        return node

    def _comprehension(self, node):
        node.generators = [self.visit(g) for g in node.generators]
        if isinstance(node, ast.DictComp):
            node.key = self._wrap(node.key, "Comprehension.key")
            node.value = self._wrap(node.value, "Comprehension.value")
        else:
            node.elt = self._wrap(node.elt, "Comprehension.element")
        return node

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_Call(self, node):
        return self._wrap(node, "Call")

    def visit_JoinedStr(self, node):
        # f-strings: their expressions run, but markers inside would need parentheses in
        # older grammars; leave them as they are.
        return node


def _deleted_names(node):
    """The plain names a ``del`` statement deletes (``del a, (b, c)``; not ``del a[0]``)."""
    out = []
    stack = list(node.targets)
    while stack:
        t = stack.pop(0)
        if isinstance(t, ast.Name):
            out.append(t.id)
        elif isinstance(t, (ast.Tuple, ast.List)):
            stack.extend(t.elts)
    return out


#: The last value of each module-level name a traced cell deleted (kept alive until the end).
deleted = {}


def _before_delete(names):
    """Called by a traced cell just before it deletes ``names``: keep their values."""
    ip = _ip()
    ns = getattr(ip, "user_ns", None) or {}
    for name in names:
        if name in ns:
            deleted[name] = ns[name]


def _cell_offset(source, nested_line):
    """Where a nested body's line 1 sits in the cell: after a cell magic's first line, or on
    the line of the line magic that compiled it."""
    if source.lstrip().startswith("%%"):
        lead = len(source) - len(source.lstrip())
        return source[:lead].count("\n") + 1
    return max(0, (nested_line or 1) - 1)


class _Transformer(ast.NodeTransformer):
    """The AST transformer registered with IPython: instruments only while a cell is traced."""

    def visit(self, node):
        ctx = state.get("unitctx")
        if not ctx or not isinstance(node, ast.Module):
            return node
        try:
            if not ctx["seen"]:
                ctx["seen"] = True
                return _Instrument(units, ctx["cell"], 0, False).visit(node)
            line = _executing_line(ctx.get("filename"))
            if line is None:
                # Not compiled by the cell under check (the probe's own silent code).
                return node
            offset = _cell_offset(ctx.get("source") or "", line)
            return _Instrument(units, ctx["cell"], offset, True).visit(node)
        except Exception as e:  # never break the learner's code: run it uninstrumented
            ctx["error"] = f"{type(e).__name__}: {str(e)[:120]}"
            return node


def _executing_line(filename):
    """The line the traced cell's frame is running now (the magic that compiles nested code)."""
    f = sys._getframe(1)
    while f is not None:
        if filename is not None and f.f_code.co_filename == filename:
            return f.f_lineno
        f = f.f_back
    return None


#: Every unit ever registered in this kernel (ids are positions), and the ids that ran.
units = []
hits = set()


def _layout(source):
    """Statement spans and the lines inside multi-line string literals of a cell's code."""
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


# --------------------------------------------------------------------------- roles


def roles(source):
    """Which names a cell's code leaves as its results and which it only uses as intermediates.

    A name is an intermediate when, after its last assignment (or, for a name the cell only
    changes in place, after the first statement that uses it), a later statement of the same
    cell consumes it: reads it in an assignment or in a call that is not just a display. The
    names the cell leaves unconsumed (read at most by a final displayed expression, ``print``
    or ``display``) are its results.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    body = tree.body
    last_store = {}
    first_use = {}
    for i, st in enumerate(body):
        for node in ast.walk(st):
            if isinstance(node, ast.Name):
                first_use.setdefault(node.id, i)
                if isinstance(node.ctx, (ast.Store, ast.Del)):
                    last_store[node.id] = i
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                last_store[node.name] = i
                first_use.setdefault(node.name, i)
            elif isinstance(node, ast.alias):
                name = (node.asname or node.name).split(".")[0]
                last_store[name] = i
                first_use.setdefault(name, i)

    def is_display(i, st):
        if not isinstance(st, ast.Expr):
            return False
        if i == len(body) - 1:
            return True
        v = st.value
        return isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in ("print", "display")

    out = {}
    for name, first in first_use.items():
        since = last_store.get(name, first)
        consumed = False
        for j in range(since + 1, len(body)):
            st = body[j]
            if is_display(j, st):
                continue
            if any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in ast.walk(st)):
                consumed = True
                break
        out[name] = "intermediate" if consumed else "result"
    return out


def column_roles(source):
    """For each frame a cell adds columns to (``df['c'] = ...``), which of those columns are
    results and which intermediates. A column is an intermediate when a later statement of the
    cell feeds the frame on as a whole, before any rebinding of it: a subscript that is not one
    other column (``df[X.columns]``, ``df[cols]``, a list holding the column) or the bare frame as
    a call's argument (``model.predict(df)``): a feature built to be used. Otherwise it is a
    result (``df = df.dropna()`` carries it on; ``df['other']`` or ``df.groupby(...)`` leave it)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    body = tree.body

    def feeds(stmt, frame, column):
        for node in ast.walk(stmt):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == frame \
                    and isinstance(node.ctx, ast.Load):
                key = node.slice
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    continue
                if isinstance(key, (ast.List, ast.Tuple)) and all(
                        isinstance(k, ast.Constant) for k in key.elts) and column not in [k.value for k in key.elts]:
                    continue
                return True
            if isinstance(node, ast.Call) and any(
                    isinstance(a, ast.Name) and a.id == frame for a in [*node.args, *(k.value for k in node.keywords)]):
                return True
        return False

    out = {}
    for i, st in enumerate(body):
        if not isinstance(st, (ast.Assign, ast.AugAssign)):
            continue
        targets = st.targets if isinstance(st, ast.Assign) else [st.target]
        for t in targets:
            if not (isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)):
                continue
            key = t.slice
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                continue
            frame, role = t.value.id, "result"
            for later in body[i + 1:]:
                if feeds(later, frame, key.value):
                    role = "intermediate"
                    break
                if isinstance(later, ast.Assign) and any(isinstance(x, ast.Name) and x.id == frame for x in later.targets):
                    break
            out.setdefault(frame, {})[key.value] = role
    return out


def reads(source):
    """The names a cell's code reads before it assigns them: what the cell takes as input."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    assigned, out = set(), []
    for st in tree.body:
        loads = [n.id for n in ast.walk(st) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        for name in loads:
            if name not in assigned and name not in out:
                out.append(name)
        for n in ast.walk(st):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                assigned.add(n.id)
    return out


# --------------------------------------------------------------------------- exceptions


def _class_info(cls):
    """A class's identity across kernels: its module and qualified name, the names of its MRO,
    and whether it is genuine (defined in a module, not a cell, and found there under its name)."""
    module = getattr(cls, "__module__", "?")
    qual = getattr(cls, "__qualname__", getattr(cls, "__name__", "?"))
    genuine = False
    if module != "__main__":
        obj = sys.modules.get(module)
        for part in qual.split("."):
            obj = getattr(obj, part, None) if obj is not None else None
        genuine = obj is cls
    if genuine:
        # A class a cell created (its methods' code comes from a cell) is not genuine.
        for value in vars(cls).values():
            code = getattr(value, "__code__", None)
            if code is not None and _is_cell_file(code.co_filename):
                genuine = False
                break
    try:
        mro = [c.__name__ for c in cls.__mro__]
    except Exception:
        mro = [getattr(cls, "__name__", "?")]
    return {"key": f"{module}.{qual}", "genuine": genuine, "mro": mro,
            "benign": any(cls is b for b in _BENIGN)}


_cell_files = {}


def _is_cell_file(filename):
    """Whether code with this file name was compiled from a notebook cell (or a cell's magic)."""
    known = _cell_files.get(filename)
    if known is not None:
        return known
    ip = _ip()
    found = filename in ("<timed exec>", "<timed eval>")
    if not found and ip is not None:
        fmap = getattr(getattr(ip, "compile", None), "_filename_map", None)
        if isinstance(fmap, dict) and filename in fmap:
            found = True
    if not found:
        found = filename.startswith(("<ipython-input-", "<cell")) or "ipykernel_" in filename and filename.endswith(".py")
    if len(_cell_files) < 100000:
        _cell_files[filename] = found
    return found


def _local(frame, event, arg):
    if event == "exception":
        exc = arg[1]
        seen = state.get("seen")
        if seen is None:
            return _local
        filename = frame.f_code.co_filename
        fmap = getattr(getattr(_ip(), "compile", None), "_filename_map", None)
        count = fmap.get(filename) if isinstance(fmap, dict) else None
        # Where it is now: the last cell frame an exception reaches is the one that caught it
        # (or the cell it escaped from).
        where = {
            "line": frame.f_lineno, "inCell": filename == state.get("filename"),
            "cellCount": count if isinstance(count, int) else None, "function": frame.f_code.co_name,
            "thread": threading.current_thread() is not threading.main_thread(),
        }
        for k, entry in enumerate(seen):
            if entry is exc:
                state["exceptions"][k].update(where)
                return _local
        seen.append(exc)
        info = _class_info(arg[0])
        try:
            text = str(exc)[:200]
        except Exception:
            text = ""
        state["exceptions"].append({"ename": getattr(arg[0], "__name__", "Exception"), "evalue": text,
                                    "firstLine": frame.f_lineno, **where, **info})
    return _local


def _global(frame, event, arg):
    if event == "call" and _is_cell_file(frame.f_code.co_filename):
        try:
            frame.f_trace_lines = False
        except Exception:
            pass
        return _local
    return None


# --------------------------------------------------------------------------- one traced cell

state = {}


def start(source, trace, snapshot, cell=0, want=None):
    """Before a step: remember the state, instrument and trace the step's cell (``want``: names
    whose element-wise view is wanted after it even if the cell leaves them alone; None: all)."""
    ip = _ip()
    try:
        transformed = ip.transform_cell(source)
    except Exception:
        transformed = source
    try:
        filename = ip.compile.get_code_name(source, transformed, ip.execution_count)
    except Exception:
        filename = None
    keep = {k: state.get(k) for k in ("hidden0",)}
    state.clear()
    state.update(keep)
    state.update(filename=filename, exceptions=[], seen=[], transformed=transformed, trace=trace,
                 source=source, cell=cell, active=True, armed=False, figures=None,
                 first_unit=len(units), want=None if want is None else set(want))
    state["before"] = _snapshot(full=False) if snapshot else None
    state["snapshot"] = snapshot
    if snapshot:
        # What the cell reads, in full: the live kernel's inputs are compared with a fresh run's.
        ns = _user_names()
        state["inputs"] = {n: summarise(ns[n], True) for n in reads(transformed)[:50]
                           if n in ns and not isinstance(ns[n], (types.ModuleType, types.FunctionType, type))}
    state["figures_before"] = set(_open_figures()) if snapshot else set()
    if not snapshot:
        state["figures"] = []
    if not trace:
        return
    state["unitctx"] = {"cell": cell, "seen": False, "filename": filename, "source": source}
    state["previous"] = sys.gettrace()
    state["previous_thread"] = getattr(threading, "gettrace", lambda: None)()
    threading.settrace(_global)
    _settrace(_global)
    if _rounding["on"]:
        state["previous_profile"] = sys.getprofile()
        sys.setprofile(_round_profile)


def stop():
    """After a step: stop tracing and keep the report for ``report()``."""
    if state.get("trace"):
        _settrace(state.get("previous"))
        threading.settrace(state.get("previous_thread"))
        if "previous_profile" in state:
            sys.setprofile(state.pop("previous_profile"))
    state["active"] = False
    out = {}
    ctx = state.pop("unitctx", None)
    if state.get("trace"):
        spans, strings = _layout(state.get("transformed") or "")
        mine = units[state.get("first_unit", 0):]
        out["trace"] = {
            "lines": [], "exceptions": state["exceptions"], "spans": spans, "stringLines": strings,
            "units": [dict(u, ran=u["id"] in hits) for u in mine if u["cell"] == state.get("cell")],
            "instrumented": bool(ctx and ctx.get("seen")),
            "instrumentError": (ctx or {}).get("error"),
            "matched": "name" if state.get("filename") else "fallback",
        }
    before = state.get("before")
    if before is not None:
        after = _snapshot(full=True, previous=before, want=state.get("want"))
        changes = {}
        for k, (ident, summary) in after.items():
            if k not in before:
                changes[k] = "created"
            elif before[k][0] != ident:
                changes[k] = "rebound"
            else:
                light = dict(summary)
                light.pop("view", None)
                light.pop("features", None)
                if before[k][1] != light:
                    changes[k] = "mutated"
        for k in before:
            if k not in after:
                changes[k] = "deleted"
        out["effect"] = {
            "changes": changes,
            "after": {k: v[1] for k, v in after.items()},
            "before": {k: {"type": v[1].get("type"), "columns": v[1].get("columns")}
                       for k, v in before.items() if isinstance(v[1].get("columns"), list)},
            "figures": state.get("figures") or [],
            "roles": roles(state.get("transformed") or ""),
            "columnRoles": column_roles(state.get("transformed") or ""),
            "inputs": state.get("inputs") or {},
        }
    keep = state.get("hidden0")
    state.clear()
    state["hidden0"] = keep
    state["report"] = out


def report():
    return Report(state.get("report", {}))


def final(want=None):
    """At the end of a run: the element-wise summary of every user name (or of those in
    ``want`` that are bound), so what the notebook finally leaves is compared, not only what
    it had right after the crashing cell; a name a traced cell deleted, as it was just before."""
    names = _user_names()
    out = {k: summarise(v, True) for k, v in names.items() if want is None or k in want}
    # A result a traced cell deleted is compared as it was just before its deletion.
    for k, v in deleted.items():
        if k not in names and (want is None or k in want) and not k.startswith("_"):
            out[k] = summarise(v, True)
    return Report(out)


def units_ran(ids):
    """Which of these unit ids ran so far (units defined in one cell may run in a later one)."""
    return Report({"ran": [i for i in ids if i in hits]})


# --------------------------------------------------------------------------- state timeline

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


# --------------------------------------------------------------------------- environment


def environment():
    """What a cached reference run depends on: the interpreter, every installed distribution
    (their dist-info folder names carry the versions; one directory listing per path entry)
    and this probe's version."""
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
    return Report({"python": sys.version.split()[0], "prefix": sys.prefix, "probe": VERSION,
                   "distributions": len(dists), "digest": digest})


# --------------------------------------------------------------------------- interpreter

# What the notebook changes in how Python and IPython run code, against a baseline the check takes
# after its own set-up code and before any notebook code (``baseline()``):
# input and AST transformers, custom exception handlers, sys hooks, trace and profile functions,
# IPython event callbacks and shell methods, library or builtin callables replaced by callables the
# notebook made, and threads the notebook started. Threads a library starts on its own behalf
# (tqdm's monitor, thread pools of joblib or BLAS) are not the notebook's: a thread is the
# notebook's when the code that started it, leaving the standard library's frames aside, is the
# notebook's own, or when what it runs is.

_baseline = {}
#: Changes seen while a traced cell ran (thread starts, trace and profile calls), in order.
_seen_changes = []
_SYS_HOOKS = ("excepthook", "displayhook", "breakpointhook", "unraisablehook")
_EVENTS = ("pre_execute", "pre_run_cell", "post_execute", "post_run_cell", "shell_initialized")
#: Module attributes reported as trace functions, not as replaced callables.
_HOOK_ATTRS = {("threading", "_trace_hook"), ("threading", "_profile_hook")}
#: Names IPython's builtin trap adds to and removes from builtins around each execution.
_TRAP_NAMES = {"get_ipython", "display", "exit", "quit", "dreload", "__IPYTHON__", "__IPYTHON__active"}


def _paths():
    import os
    import sysconfig
    paths = sysconfig.get_paths()
    std = tuple({os.path.realpath(paths[k]) + os.sep for k in ("stdlib", "platstdlib") if paths.get(k)}
                | {paths[k] + os.sep for k in ("stdlib", "platstdlib") if paths.get(k)})
    return std, os.getcwd() + os.sep


def _is_stdlib(filename):
    if filename.startswith("<frozen"):
        return True
    std = _baseline.get("stdlib") or ()
    return filename.startswith(std) and "-packages" not in filename


def _code_of(obj):
    """The function a callable runs, unwrapped (methods, partials, static and class methods)."""
    if type(obj) is types.FunctionType:
        return obj
    for _ in range(4):
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
        elif isinstance(obj, property):
            obj = obj.fget
        elif isinstance(obj, types.MethodType):
            obj = obj.__func__
        elif type(obj).__name__ == "partial" and hasattr(obj, "func"):
            obj = obj.func
        else:
            break
    return obj


def _notebook_code(code, globals_=None):
    """Whether a code object is the notebook's own: compiled from a cell, run with the user
    namespace as its globals, read from a file in the working directory, or made by
    ``exec``/``eval`` outside any module."""
    filename = code.co_filename
    kind = _files.get(filename)
    if kind is None:
        cwd = _baseline.get("cwd")
        if _is_cell_file(filename):
            kind = 1
        elif cwd and filename.startswith(cwd) and "-packages" not in filename \
                and not filename.startswith((sys.prefix, sys.base_prefix)):
            kind = 1  # a module the notebook wrote into its folder
        else:
            kind = 2 if filename.startswith("<") else 0
        _files[filename] = kind
    if kind != 2:
        return kind == 1  # a library's file is the library's code
    if globals_ is not None and globals_ is getattr(_ip(), "user_ns", None):
        return True
    return id(code) in _exec_codes


#: Per file name: 1 the notebook's, 0 a library's, 2 not a file (exec, eval, the probe).
_files = {}


def _notebook_made(obj):
    """Whether a callable was made by the notebook (a cell's function, lambda or class, one
    made by exec/eval, or an instance of such a class)."""
    fn = _code_of(obj)
    if isinstance(fn, types.FunctionType):
        return _notebook_code(fn.__code__, fn.__globals__)
    cls = fn if isinstance(fn, type) else type(fn)
    return getattr(cls, "__module__", None) == "__main__"


_WRAPPERS = (staticmethod, classmethod, property, types.MethodType)


def _made(value):
    """``_notebook_made`` for a scan: plain functions and classes first, wrappers unwrapped."""
    t = type(value)
    if t is types.FunctionType:
        return _notebook_code(value.__code__, value.__globals__)
    if t is type or isinstance(value, type):
        return getattr(value, "__module__", None) == "__main__"
    if t in _WRAPPERS or t.__name__ == "partial":
        return _notebook_made(value)
    return getattr(t, "__module__", None) == "__main__" and callable(value)


def _count_of(obj):
    """The execution count of the cell that defined a callable, or None."""
    fn = _code_of(obj)
    if not isinstance(fn, types.FunctionType):
        fn = next((_code_of(v) for v in vars(type(fn) if not isinstance(fn, type) else fn).values()
                   if isinstance(_code_of(v), types.FunctionType)), None)
    if fn is None:
        return None
    fmap = getattr(getattr(_ip(), "compile", None), "_filename_map", None)
    count = fmap.get(fn.__code__.co_filename) if isinstance(fmap, dict) else None
    if count is None and id(fn.__code__) in _exec_codes:
        count = _exec_codes[id(fn.__code__)][1]  # made by exec or eval: the cell that ran it
    return count if isinstance(count, int) else None


def _label(obj):
    fn = _code_of(obj)
    return str(getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__)[:80]


def _transformer_lists(ip):
    out = {"input-transformer": [], "ast-transformer": [], "prefilter": []}
    for attr in ("input_transformers_cleanup", "input_transformers_post"):
        out["input-transformer"].extend(getattr(ip, attr, None) or [])
    manager = getattr(ip, "input_transformer_manager", None)
    for attr in ("cleanup_transforms", "line_transforms", "token_transformers"):
        for t in getattr(manager, attr, None) or []:
            if not any(t is x for x in out["input-transformer"]):
                out["input-transformer"].append(t)
    out["ast-transformer"] = [t for t in getattr(ip, "ast_transformers", None) or []
                              if not isinstance(t, _Transformer)]
    prefilter = getattr(ip, "prefilter_manager", None)
    out["prefilter"] = list(getattr(prefilter, "transformers", None) or []) + list(
        getattr(prefilter, "checkers", None) or [])
    return out


def _callbacks(ip):
    events = getattr(getattr(ip, "events", None), "callbacks", None) or {}
    return {e: list(events.get(e) or []) for e in _EVENTS}


_audit_installed = []


def baseline():
    """Take the interpreter's baseline: what the check's kernel runs code with before the
    notebook's first cell (the check calls it after its own set-up code). Installs the audit
    hook the first time, so only kernels the check owns take one."""
    ip = _ip()
    std, cwd = _paths()
    _baseline.clear()
    _seen_changes.clear()
    if not _audit_installed:
        # An audit hook cannot be removed: only a check's kernel, which is shut down after the
        # check, takes a baseline.
        sys.addaudithook(_audit)
        _audit_installed.append(True)
        _watch_c_calls()
    _baseline.update(
        stdlib=std, cwd=cwd,
        transformers={k: [id(t) for t in v] for k, v in _transformer_lists(ip).items()} if ip else {},
        callbacks={e: [id(c) for c in cbs] for e, cbs in _callbacks(ip).items()} if ip else {},
        custom=getattr(ip, "custom_exceptions", ()) if ip else (),
        hooks={h: getattr(sys, h, None) for h in _SYS_HOOKS},
        trace=sys.gettrace(), profile=sys.getprofile(),
        thread_trace=getattr(threading, "_trace_hook", None),
        thread_profile=getattr(threading, "_profile_hook", None),
        builtins=dict(vars(builtins)),
        shell={k: v for k, v in vars(ip).items() if callable(v)} if ip else {},
        modules={name: {k: id(v) for k, v in vars(m).items()}
                 for name, m in list(sys.modules.items()) if isinstance(m, types.ModuleType)},
        threads=set(sys._current_frames()),
    )
    return Report({"ok": True})


def _note(kind, name, count):
    """Keep a change seen while the notebook ran (once per kind and name)."""
    if len(_seen_changes) < 200 and not any(c["kind"] == kind and c["name"] == name for c in _seen_changes):
        _seen_changes.append({"kind": kind, "name": name, "count": count})


#: Code objects (and the code nested in them) that the notebook's code ran through exec or eval,
#: by id, with the execution count of the cell that ran them (the code is kept alive so that an
#: id is not reused).
_exec_codes = {}


def _audit(event, args):
    """The audit hook of a check's kernel: code the notebook compiles and runs itself (exec,
    eval), and, where Python reports them, trace or profile functions set (3.11 and later) and
    threads started (3.12 and later) outside the traced cells."""
    if event not in _AUDITED:
        return
    if event == "sys.settrace" and not _trace_audited:
        _trace_audited.append(True)
    if not _baseline:
        return
    try:
        caller = sys._getframe(1)
        # exec and eval called by the notebook's code itself (an import's exec is importlib's).
        frame = caller if event == "exec" else _notebook_frame(caller)
        if frame is None or not _notebook_code(frame.f_code, frame.f_globals):
            return
        if event == "exec":
            todo, count = [args[0]], _where(frame)
            while todo and len(_exec_codes) < 100000:
                code = todo.pop()
                if isinstance(code, types.CodeType):
                    _exec_codes[id(code)] = (code, count)
                    todo.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
        elif event.startswith("_thread."):
            _note("thread", _thread_name(caller), _where(frame))
        else:
            _note("trace", event, _where(frame))
    except Exception:
        pass


#: Whether this Python raises the ``sys.settrace`` audit event (3.10's later releases do).
_trace_audited = []

_AUDITED = {"exec", "_thread.start_new_thread", "_thread.start_joinable_thread", "sys.settrace", "sys.setprofile"}


def _notebook_frame(frame):
    """The first frame out from ``frame`` that is not the standard library's, when it is the
    notebook's own code (else None: a library's doing, or the probe's)."""
    while frame is not None and _is_stdlib(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None or not _notebook_code(frame.f_code, frame.f_globals):
        return None
    return frame


def _where(frame):
    """The execution count of the cell a frame runs the code of, or None."""
    fmap = getattr(getattr(_ip(), "compile", None), "_filename_map", None)
    count = fmap.get(frame.f_code.co_filename) if isinstance(fmap, dict) else None
    return count if isinstance(count, int) else None


def _thread_name(frame):
    """What a starting thread runs: the target of the ``threading.Thread`` being started, or
    the raw function's call site."""
    f = frame
    while f is not None:
        if f.f_code.co_name == "start" and isinstance(f.f_locals.get("self"), threading.Thread):
            t = f.f_locals["self"]
            target = getattr(t, "_target", None)
            if target is not None and _notebook_made(target):
                return _label(target)
            # A pool's worker: the pool's name, without the numbers threads get.
            import re
            return re.sub(r"[-_ ]*\d+", "", str(getattr(t, "name", ""))).strip() or type(t).__qualname__
        f = f.f_back
    # A raw thread: the call that starts it, as the cell wrote it.
    import linecache
    line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).split("#")[0].strip()
    return line[:80] or "_thread.start_new_thread"


def _profiled(frame, kind):
    """Note a watched C call (``frame``: its caller) when the notebook's own code made it."""
    try:
        mine = _notebook_frame(frame)
        if mine is not None:
            if kind == "thread":
                _note("thread", _thread_name(frame), _where(mine))
            else:
                _note("trace", kind, _where(mine))
    except Exception:
        pass


#: The real ``sys.settrace``, for the probe's own calls.
_settrace = sys.settrace


def _watch_c_calls():
    """Where Python raises no audit event for them (thread starts before 3.12, trace and profile
    functions set in early 3.10 releases), put a watcher in front of the C functions, every name they are
    reached by, before any notebook code runs: a notebook's import of one binds the watcher. A
    profile function did this job before, at the price of a Python call on every call of a traced
    cell (a third of a fully traced notebook's time); the watchers cost nothing until called."""
    import _thread

    def watcher(fn, kind):
        def watched(*args, **kwargs):
            _profiled(sys._getframe(1), kind)
            return fn(*args, **kwargs)
        for attr in ("__name__", "__qualname__", "__doc__"):
            try:
                setattr(watched, attr, getattr(fn, attr))
            except Exception:
                pass
        return watched

    places = []
    if sys.version_info < (3, 12):
        places += [(_thread, n, "thread") for n in ("start_new_thread", "start_new", "start_joinable_thread")]
        places.append((threading, "_start_new_thread", "thread"))
    _settrace(sys.gettrace())
    if not _trace_audited:
        places += [(sys, n, f"sys.{n}") for n in ("settrace", "setprofile")]
    made = {}
    for module, name, kind in places:
        fn = getattr(module, name, None)
        if fn is None or not callable(fn):
            continue
        if id(fn) not in made:
            made[id(fn)] = watcher(fn, kind)
        setattr(module, name, made[id(fn)])


def _public_name(cls):
    """``pandas.DataFrame`` rather than ``pandas.core.frame.DataFrame`` where the package
    exports the class under its name."""
    module = getattr(cls, "__module__", "?")
    top = sys.modules.get(module.split(".")[0])
    if top is not None and getattr(top, cls.__name__, None) is cls:
        return f"{top.__name__}.{cls.__qualname__}"
    return f"{module}.{cls.__qualname__}"


def interpreter():
    """What the notebook changed in how the interpreter runs code since the baseline, as
    ``[{kind, name, count}]`` (``count``: the execution count of the cell that made the
    change, when known)."""
    ip = _ip()
    out, keys = [], set()

    def add(kind, name, count=None):
        if (kind, name) not in keys:
            keys.add((kind, name))
            out.append({"kind": kind, "name": name, "count": count})

    if not _baseline:
        return Report(None)
    if ip is not None:
        now = _transformer_lists(ip)
        for kind, items in now.items():
            before = set(_baseline["transformers"].get(kind, []))
            for t in items:
                if id(t) not in before:
                    add("input-transformer" if kind == "prefilter" else kind, _label(t), _count_of(t))
            ids = {id(t) for t in items}
            if any(i not in ids for i in before):
                add(kind, "(removed)")
        for event, cbs in _callbacks(ip).items():
            before = set(_baseline["callbacks"].get(event, []))
            for cb in cbs:
                if id(cb) not in before and _notebook_made(cb):
                    add("event-callback", f"{event}: {_label(cb)}", _count_of(cb))
        custom = getattr(ip, "custom_exceptions", ())
        if custom != _baseline["custom"]:
            names = ", ".join(getattr(c, "__name__", "?") for c in (custom or ()))
            add("exception-handler", names or "(removed)", _count_of(getattr(ip, "CustomTB", None)))
        shell = _baseline["shell"]
        for k, v in list(vars(ip).items()):
            if callable(v) and shell.get(k) is not v and _notebook_made(v):
                add("shell", f"get_ipython().{k}", _count_of(v))
    # IPython and ipykernel swap hooks and ``input`` around each execution: what counts is a
    # hook or builtin the notebook made.
    for h in _SYS_HOOKS:
        v = getattr(sys, h, None)
        if v is not _baseline["hooks"].get(h) and _made(v):
            add("hook", f"sys.{h}", _count_of(v))
    for kind, now, before, label in (
            ("trace", sys.gettrace(), _baseline["trace"], "sys.settrace"),
            ("trace", sys.getprofile(), _baseline["profile"], "sys.setprofile"),
            ("trace", getattr(threading, "_trace_hook", None), _baseline["thread_trace"], "threading.settrace"),
            ("trace", getattr(threading, "_profile_hook", None), _baseline["thread_profile"], "threading.setprofile")):
        if now is not before and now is not _global:
            add(kind, label, _count_of(now) if now is not None else None)
    for change in _seen_changes:
        add(change["kind"], change["name"], change["count"])
    # Builtins replaced (the builtin trap's own names aside).
    old = _baseline["builtins"]
    for k, v in list(vars(builtins).items()):
        if k in _TRAP_NAMES or k == "_":
            continue
        if k in old and old[k] is not v and _made(v):
            add("monkeypatch", f"builtins.{k}", _count_of(v))
    # Library modules and their classes: a callable the notebook made where the library has its
    # own (a module imported after the baseline has no earlier state to compare with).
    user = getattr(ip, "user_ns", None)
    modules = _baseline["modules"]
    scanned = set()
    for mname, m in list(sys.modules.items()):
        if not isinstance(m, types.ModuleType) or mname in ("__main__", "builtins", "sys"):
            continue
        ns = getattr(m, "__dict__", None)
        if not isinstance(ns, dict) or ns is user:
            continue
        known = modules.get(mname, {})
        for k, v in list(ns.items()):
            try:
                if isinstance(v, type) and id(v) not in scanned and getattr(v, "__module__", None) != "__main__":
                    scanned.add(id(v))
                    _scan_class(v, add)
                if known.get(k) != id(v) and _made(v) and (mname, k) not in _HOOK_ATTRS:
                    add("monkeypatch", f"{mname}.{k}", _count_of(v))
            except Exception:  # an odd object (a lazy proxy) never breaks the report
                continue
    # Threads still running that run the notebook's code.
    frames = sys._current_frames()
    for ident, frame in frames.items():
        if ident in _baseline["threads"] or ident == threading.main_thread().ident:
            continue
        t = threading._active.get(ident)
        target = getattr(t, "_target", None) if t is not None else None
        count = None
        mine = target is not None and _notebook_made(target)
        if mine:
            count = _count_of(target)
        f = frame
        while f is not None and not mine:
            mine = _notebook_code(f.f_code, f.f_globals)
            count = _where(f) if mine else None
            f = f.f_back
        if mine:
            add("thread", _label(target) if target is not None else getattr(t, "name", "_thread"), count)
    return Report(out)


def _scan_class(cls, add):
    """A library class's attributes that a callable the notebook made replaced."""
    try:
        items = list(vars(cls).items())
    except TypeError:
        return
    for k, v in items:
        try:
            if _made(v):
                add("monkeypatch", f"{_public_name(cls)}.{k}", _count_of(v))
        except Exception:
            pass


# --------------------------------------------------------------------------- rounding

#: The reference's roundings of values that sit at a rounding boundary (an unrounded value
#: half-way between two steps of ``10**-d``), for each ``d`` up to ``ROUND_DIGITS``: how many,
#: and which pairs of neighbours ``(d, k)``: ``k * 10**-d`` and ``(k + 1) * 10**-d``. A repair
#: that rounds such a value the other way (half up where the reference rounds half to even) is
#: one step apart there and only there.
_rounding = {"on": False, "count": {}, "pairs": set()}
#: Pairs kept at most (the decimals looked at are ``ROUND_DIGITS``: the call's own ``decimals``
#: is not visible to a profile function).
MAX_PAIRS = int(POLICY["roundPairs"])


def watch_rounding():
    """In a reference kernel: note the boundary values its rounding calls meet (``round()``
    through a wrapper; ``ndarray.round``, numpy scalars' ``round`` and ``__round__``, which
    ``np.round`` and pandas' ``round`` end in, through a profile function while a traced cell
    runs). Never in the learner's kernel: nothing there is changed for it."""
    _rounding.update(on=True, count={}, pairs=set())
    original = builtins.round
    if getattr(original, "_junobench_round", False):
        return Report({"ok": True})

    def round(number, ndigits=None):  # stands in for the builtin
        _halves(number)
        return original(number, ndigits)

    round._junobench_round = True
    round.__doc__ = original.__doc__
    builtins.round = round
    return Report({"ok": True})


def _round_profile(frame, event, arg):
    if event == "c_call" and getattr(arg, "__name__", None) in ("round", "__round__"):
        operand = getattr(arg, "__self__", None)
        if operand is not None and not isinstance(operand, types.ModuleType):
            _halves(operand)


def _halves(value):
    """Note the elements of ``value`` that sit half-way between two steps of ``10**-d``."""
    try:
        np = sys.modules.get("numpy")
        if np is not None:
            a = np.asarray(value, dtype=float).ravel()[:MAX_DIGEST]
            a = a[np.isfinite(a)]
        else:
            a = [float(value)]
            a = [x for x in a if math.isfinite(x)]
    except Exception:
        return
    count, pairs = _rounding["count"], _rounding["pairs"]
    tolerance = POLICY["boundaryTolerance"]
    for d in range(ROUND_DIGITS + 1):
        scale = 10.0 ** d
        if np is not None:
            t = a * scale
            low = np.floor(t)
            at = np.abs(t - low - 0.5) <= tolerance * np.maximum(1.0, np.abs(t))
            ks = low[at]
        else:
            ks = [math.floor(x * scale) for x in a
                  if abs(x * scale - math.floor(x * scale) - 0.5) <= tolerance * max(1.0, abs(x * scale))]
        if len(ks):
            count[d] = count.get(d, 0) + len(ks)
            for k in ks[: max(0, MAX_PAIRS - len(pairs))]:
                pairs.add((d, int(k)))


def rounding():
    """The boundary roundings seen since ``watch_rounding``: ``{"count": {d: n}, "pairs":
    [[d, k], ...]}`` (see ``_rounding``)."""
    return Report({"count": {str(d): n for d, n in sorted(_rounding["count"].items())},
                   "pairs": sorted([d, k] for d, k in _rounding["pairs"])})


# --------------------------------------------------------------------------- installation


def install():
    """Register the AST transformer, the marker and the figure hook (once per kernel)."""
    ip = _ip()
    if ip is None:
        return False
    setattr(builtins, HIT, hits.add)
    setattr(builtins, DELETED, _before_delete)
    if not any(isinstance(t, _Transformer) or type(t).__name__ == "_Transformer" for t in ip.ast_transformers):
        ip.ast_transformers.append(_Transformer())
    try:
        ip.events.register("pre_execute", _pre_execute)
        ip.events.register("post_execute", _post_execute)
    except Exception:
        pass
    state["hidden0"] = set(getattr(ip, "user_ns_hidden", {}) or {})
    return True


def uninstall():
    """Remove what ``install`` registered (tests; a kernel that reinstalls another version)."""
    ip = _ip()
    if ip is None:
        return
    ip.ast_transformers[:] = [t for t in ip.ast_transformers if type(t).__name__ != "_Transformer"]
    for event, callback in (("pre_execute", _pre_execute), ("post_execute", _post_execute)):
        try:
            ip.events.unregister(event, callback)
        except Exception:
            pass


def dumps(value):
    """JSON text of a report (for tests and callers outside IPython's formatter)."""
    return json.dumps(value.value if isinstance(value, Report) else value)
