"""The kernel-side probe of "Check my fix" (jupyterlab_junobench/probe.py).

Most tests run the probe in an in-process IPython shell (the same AST transformer, event
callbacks and tracer a kernel uses, without the messaging); the last ones install it in real
kernels, the server's Python and Python 3.10 (the benchmark container's), the way the
TypeScript side does, and read its report through ``user_expressions``.
"""

from __future__ import annotations

import json
import os
import sys
import types
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PROBE = REPO / "jupyterlab_junobench" / "probe.py"
PY310 = Path(os.environ.get("JUNOBENCH_PY310", REPO / ".venv-py310" / "bin" / "python"))


@pytest.fixture(scope="module")
def shell():
    """An in-process IPython shell with the probe installed, as a kernel would have it."""
    from IPython.core.interactiveshell import InteractiveShell

    sh = InteractiveShell.instance()
    ns = {"get_ipython": lambda: sh, "__name__": "junobench_probe"}
    exec(compile(PROBE.read_text("utf-8"), "<junobench-check>", "exec"), ns)
    probe = types.SimpleNamespace(**ns)
    sys._junobench_check = probe
    assert probe.install()
    sh.run_cell("import numpy as np\nimport pandas as pd", store_history=True)
    yield sh, probe
    probe.uninstall()
    InteractiveShell.clear_instance()


def run(shell, source, *, trace=True, snapshot=True, want=None):
    """Run one cell under the probe and return its report (a dict)."""
    sh, probe = shell
    probe.start(source, trace, snapshot, 0, want)
    result = sh.run_cell(source, store_history=True)
    probe.stop()
    report = probe.report().value
    report["_error"] = None if result.error_in_exec is None else type(result.error_in_exec).__name__
    return report


def units(report, **where):
    """The units of a report, filtered by field values."""
    return [u for u in report["trace"]["units"] if all(u.get(k) == v for k, v in where.items())]


def unit_with(report, text):
    """The unit whose code is exactly ``text``."""
    found = [u for u in report["trace"]["units"] if u["text"] == text]
    assert found, f"no unit {text!r} in {[u['text'] for u in report['trace']['units']]}"
    return found[0]


# ------------------------------------------------------------------ units of code


@pytest.mark.parametrize(
    ("source", "dead"),
    [
        ("x = 1\nif False: y = x + 1", "y = x + 1"),
        ("x = 1\ny = x + 1 if False else None", "x + 1"),
        ("x = 1\nf = lambda: x + 1", "x + 1"),
        ("x = 1\nfor _ in []: y = x + 1", "y = x + 1"),
        ("x = 1\nwhile 0:\n    y = x + 1", "y = x + 1"),
        ("x = 1\nz = False and abs(x)", "abs(x)"),
        ("x = 1\ndef unused():\n    return abs(x)", "return abs(x)"),
        ("x = 1\ng = (abs(v) for v in [x])", "abs(v)"),
        ("x = 1\nw = [abs(v) for v in ()]", "abs(v)"),
    ],
)
def test_code_that_never_runs_is_a_unit_that_did_not_run(shell, source, dead):
    report = run(shell, source)
    assert report["_error"] is None
    assert unit_with(report, dead)["ran"] is False
    # The cell itself did run: its first statement's unit fired.
    assert unit_with(report, "x = 1")["ran"] is True


def test_code_that_runs_is_a_unit_that_ran(shell):
    report = run(shell, "x = [1, 2]\ny = abs(x[0]) if x else 0\nz = x and sorted(x)\nw = [abs(v) for v in x]")
    assert all(u["ran"] for u in units(report) if u["kind"] != "IfExp.orelse")
    assert unit_with(report, "0")["ran"] is False


def test_a_cell_magic_body_that_is_not_python_has_no_unit(shell):
    report = run(shell, "%%script true\nq = np.arange(3)")
    assert report["_error"] is None
    assert not [u for u in units(report) if "q = np.arange" == u["text"]]
    assert all(u["line"] == 1 for u in units(report))
    assert "q" not in report["effect"]["changes"]


def test_a_time_magic_body_is_instrumented_with_its_cell_lines(shell):
    report = run(shell, "%%time\nif False:\n    q = np.arange(3)\nr = 1")
    dead = unit_with(report, "q = np.arange(3)")
    assert (dead["line"], dead["nested"], dead["ran"]) == (3, True, False)
    assert unit_with(report, "r = 1")["line"] == 4
    assert unit_with(report, "r = 1")["ran"] is True


def test_a_string_statement_is_text_not_code(shell):
    report = run(shell, 'x = 1\n"""\ny = x + 1\n"""')
    kinds = {u["text"].strip("'\" \n"): u["kind"] for u in units(report)}
    assert "String" in kinds.values()
    assert report["trace"]["stringLines"] == [3, 4]


def test_instrumented_code_keeps_its_meaning_and_line_numbers(shell):
    report = run(shell, (
        "def f(a, *rest, k=abs(-2), **kw):\n    return [a, *rest, k, kw]\n"
        "res = f(1, *[2], z=3)\n1/0 if res else 0"))
    assert report["_error"] == "ZeroDivisionError"
    sh, _ = shell
    assert sh.user_ns["res"] == [1, 2, 2, {"z": 3}]
    exc = [e for e in report["trace"]["exceptions"] if e["ename"] == "ZeroDivisionError"]
    assert exc and exc[0]["line"] == 4


# ------------------------------------------------------------------ exceptions


def test_a_swallowed_exception_is_reported_with_its_class_identity(shell):
    report = run(shell, "try:\n    np.zeros(3).reshape(2, 2)\nexcept ValueError:\n    pass")
    (e,) = report["trace"]["exceptions"]
    assert (e["ename"], e["key"], e["genuine"], e["benign"], e["inCell"]) == (
        "ValueError", "builtins.ValueError", True, False, True)
    assert e["mro"][:2] == ["ValueError", "Exception"]


def test_a_look_alike_of_a_benign_class_is_not_benign(shell):
    sh, _ = shell
    sh.run_cell("class StopIteration(ValueError):\n    pass", store_history=True)
    report = run(shell, "try:\n    raise StopIteration('hidden')\nexcept ValueError:\n    pass")
    (e,) = report["trace"]["exceptions"]
    assert e["ename"] == "StopIteration"
    assert e["benign"] is False and e["genuine"] is False
    assert "ValueError" in e["mro"]
    sh.run_cell("del StopIteration", store_history=True)


def test_the_real_stop_iteration_is_benign(shell):
    report = run(shell, "it = iter([1])\nnext(it)\nv = next(it, None)\nfor _ in (x for x in [1]):\n    pass")
    assert all(e["benign"] for e in report["trace"]["exceptions"])


def test_a_helper_from_another_cell_that_catches_is_seen(shell):
    sh, _ = shell
    sh.run_cell("def quietly(f):\n    try:\n        return f()\n    except Exception:\n        return None", store_history=True)
    report = run(shell, "out = quietly(lambda: np.zeros(3).reshape(2, 2))")
    names = [(e["ename"], e["inCell"]) for e in report["trace"]["exceptions"]]
    assert ("ValueError", False) in names


def test_an_exception_lost_in_a_thread_is_seen(shell):
    report = run(shell, (
        "import threading\n"
        "def work():\n"
        "    np.zeros(3).reshape(2, 2)\n"
        "t = threading.Thread(target=work)\n"
        "t.start(); t.join()"))
    assert any(e["ename"] == "ValueError" and e["thread"] for e in report["trace"]["exceptions"])


# ------------------------------------------------------------------ effects and views


def test_effects_say_what_changed_and_leave_the_namespace_alone(shell):
    sh, probe = shell
    before = set(sh.user_ns)
    report = run(shell, "a1 = np.arange(6.0)\nb1 = a1.sum()")
    assert report["effect"]["changes"] == {"a1": "created", "b1": "created"}
    assert {k for k in set(sh.user_ns) - before if not k.startswith("_")} == {"a1", "b1"}
    assert not any(k.startswith(("junobench", "__jb")) for k in sh.user_ns)


def test_a_name_hidden_by_the_cell_is_still_seen(shell):
    sh, _ = shell
    report = run(shell, "hid = np.arange(3)\nget_ipython().user_ns_hidden['hid'] = hid")
    assert "hid" in report["effect"]["after"]


@pytest.mark.parametrize(
    "same",
    ["[[1.0, 2.0], [3.0, 4.0]]", "np.array([[1, 2], [3, 4]])", "pd.DataFrame([[1, 2], [3, 4]]).to_numpy()",
     "np.array([[[1.0, 2.0]], [[3.0, 4.0]]])"],
)
def test_containers_with_the_same_values_have_the_same_view(shell, probe_view, same):
    ref = probe_view("np.array([[1.0, 2.0], [3.0, 4.0]])")
    mine = probe_view(same)
    assert ref["table"] == mine["table"] == [2, 2]
    assert [c["samples"] for c in ref["columns"]] == [c["samples"] for c in mine["columns"]]
    assert [c["wsum"] for c in ref["columns"]] == [c["wsum"] for c in mine["columns"]]


def test_reversed_rows_and_swapped_columns_change_the_view(shell, probe_view):
    ref = probe_view("np.arange(200.0).reshape(100, 2)")
    rev = probe_view("np.arange(200.0).reshape(100, 2)[::-1]")
    swap = probe_view("np.arange(200.0).reshape(100, 2)[:, ::-1]")
    assert [c["sum"] for c in ref["columns"]] == [c["sum"] for c in rev["columns"]]
    assert [c["wsum"] for c in ref["columns"]] != [c["wsum"] for c in rev["columns"]]
    assert ref["columns"][0]["samples"] != swap["columns"][0]["samples"]


def test_a_frame_keeps_its_column_names_and_index(shell, probe_view):
    v = probe_view("pd.DataFrame({'a': [1.5, 2.5], 'b': ['x', 'y']}, index=['p', 'q'])")
    assert v["names"] is True
    assert [(c["name"], c["kind"]) for c in v["columns"]] == [("a", "num"), ("b", "text")]
    assert v["index"]["samples"] == ["p", "q"]
    s = probe_view("pd.Series([1.0, 2.0], index=['p', 'q'], name='a')")
    assert s["table"] == [2, 1] and s["index"]["hash"] == v["index"]["hash"]


def test_rounded_values_report_their_grain(shell, probe_view):
    v = probe_view("np.round(np.linspace(0, 10, 50), 1)")
    assert v["columns"][0]["grain"] == pytest.approx(0.1)


def test_a_huge_array_is_sampled_without_a_copy(shell, probe_view):
    v = probe_view("np.zeros((6_000_000,), dtype=np.int8)")
    assert v.get("partial") is True
    assert "sum" not in v["columns"][0]


def test_figures_the_cell_draws_are_summarised(shell):
    sh, _ = shell
    sh.run_cell("import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt", store_history=True)
    report = run(shell, "plt.figure()\nplt.plot([1, 2, 3], [4, 5, 6])\nplt.bar([1, 2], [3, 4])")
    (fig,) = report["effect"]["figures"]
    (axes,) = fig["axes"]
    assert axes["lines"][0]["y"]["samples"] == [4.0, 5.0, 6.0]
    assert axes["patches"] == 2
    sh.run_cell("plt.close('all')", store_history=True)


def test_a_figure_closed_by_the_cell_itself_is_summarised_first(shell):
    sh, _ = shell
    sh.run_cell("import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt", store_history=True)
    report = run(shell, "plt.figure()\nplt.plot([1, 2], [3, 1])\nplt.close('all')")
    (fig,) = report["effect"]["figures"]
    assert fig["axes"][0]["lines"][0]["y"]["samples"] == [3.0, 1.0]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("mu = d.mean()\nZ = d - mu\nZ[:5]", {"mu": "intermediate", "Z": "result"}),
        ("s = d.sort_values()\nprint(s)", {"s": "result"}),
        ("m = M()\nm.fit(X)\np = m.predict(X)", {"m": "intermediate", "p": "result"}),
        ("x = 1\nx = x + 1", {"x": "result"}),
        ("Xs = scaler.fit_transform(X)\nXt = scaler.transform(T)", {"scaler": "intermediate", "Xs": "result"}),
        ("model.fit(X, y)", {"model": "result"}),
    ],
)
def test_roles_tell_results_from_intermediates(shell, source, expected):
    _, probe = shell
    found = probe.roles(source)
    assert {k: found[k] for k in expected} == expected


@pytest.fixture()
def probe_view(shell):
    """The view of a Python expression's value, made in the shell's namespace."""
    sh, probe = shell

    def make(expr):
        value = eval(expr, sh.user_ns)
        return probe.view(value)

    return make


# ------------------------------------------------------------------ real kernels


def _kernels():
    out = [pytest.param(sys.executable, id="server-python")]
    if PY310.exists():
        out.append(pytest.param(str(PY310), id="python3.10"))
    else:
        out.append(pytest.param(str(PY310), id="python3.10", marks=pytest.mark.skip(
            reason=f"{PY310} is absent (scripts/test.sh makes it)")))
    return out


@pytest.mark.parametrize("python", _kernels())
def test_the_probe_reports_from_a_real_kernel(python, tmp_path):
    from jupyter_client.manager import KernelManager

    km = KernelManager(kernel_cmd=[python, "-m", "ipykernel_launcher", "-f", "{connection_file}"])
    km.start_kernel(cwd=str(tmp_path))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)

        def execute(code, silent=False, expressions=None):
            msg_id = kc.execute(code, silent=silent, store_history=not silent, user_expressions=expressions or {})
            reply = kc.get_shell_msg(timeout=120)
            while reply["parent_header"].get("msg_id") != msg_id:
                reply = kc.get_shell_msg(timeout=120)
            return reply["content"]

        def names():
            out = execute("", expressions={"n": "sorted(k for k in get_ipython().user_ns if not k.startswith('_'))"})
            return set(json.loads(out["user_expressions"]["n"]["data"]["text/plain"].replace("'", '"')))

        baseline = names()
        install = (
            "def __jb_install(source):\n"
            "    import sys, types\n"
            "    ns = {'get_ipython': get_ipython, '__name__': 'junobench_probe'}\n"
            "    exec(compile(source, '<junobench-check>', 'exec'), ns)\n"
            "    sys._junobench_check = types.SimpleNamespace(**ns)\n"
            "    sys._junobench_check.install()\n"
            f"__jb_install({PROBE.read_text('utf-8')!r})\n"
            "del __jb_install")
        assert execute(install, silent=True)["status"] == "ok"
        execute("import numpy as np\nvals = np.arange(4.0)")
        cell = "total = vals.sum()\nif False: shadow = total * 2\ntry:\n    vals.reshape(3, 3)\nexcept ValueError:\n    pass"
        execute(f"__import__('sys')._junobench_check.start({cell!r}, True, True, 0, None)", silent=True)
        assert execute(cell)["status"] == "ok"
        out = execute("__import__('sys')._junobench_check.stop()", silent=True,
                      expressions={"r": "__import__('sys')._junobench_check.report()"})
        report = out["user_expressions"]["r"]["data"]["application/json"]
        trace = report["trace"]
        dead = [u for u in trace["units"] if u["text"] == "shadow = total * 2"]
        assert dead and dead[0]["ran"] is False and trace["matched"] == "name"
        assert [e["key"] for e in trace["exceptions"]] == ["builtins.ValueError"]
        assert report["effect"]["changes"] == {"total": "created"}
        # The probe left nothing in the user namespace: only the cells' own names are new.
        assert names() - baseline == {"np", "total", "vals"}
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
