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
from _ipc_kernel import start_ipc_kernel

from jupyterlab_junobench import check_policy

REPO = Path(__file__).resolve().parent.parent
PROBE = REPO / "jupyterlab_junobench" / "probe.py"
#: The text a kernel runs: the check's policy written in, as the embedding does.
PROBE_TEXT = check_policy.embed(PROBE.read_text("utf-8"))
PY310 = Path(os.environ.get("JUNOBENCH_PY310", REPO / ".venv-py310" / "bin" / "python"))


@pytest.fixture(scope="module")
def shell():
    """An in-process IPython shell with the probe installed, as a kernel would have it."""
    from IPython.core.interactiveshell import InteractiveShell

    sh = InteractiveShell.instance()
    ns = {"get_ipython": lambda: sh, "__name__": "junobench_probe"}
    exec(compile(PROBE_TEXT, "<junobench-check>", "exec"), ns)
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


def test_code_a_cell_defines_is_marked_as_a_definition_and_values_are_not(shell):
    report = run(shell, "import json as js1\nfrom collections import OrderedDict as OD1\n"
                        "def f1():\n    return 1\nv1 = np.arange(3)\nn1 = 4")
    after = report["effect"]["after"]
    assert [k for k in ("js1", "OD1", "f1", "v1", "n1") if after[k].get("definition")] == ["js1", "OD1", "f1"]


def test_final_summarises_the_names_asked_for_at_the_end_of_a_run(shell):
    sh, probe = shell
    sh.run_cell("fin1 = np.arange(4.0)\nfin2 = 'x'", store_history=True)
    out = probe.final(["fin1", "nope"]).value
    assert set(out) == {"fin1"} and out["fin1"]["shape"] == [4] and out["fin1"]["sum"] == 6.0
    assert {"fin1", "fin2"} <= set(probe.final(None).value)


def test_a_result_a_traced_cell_deletes_is_final_as_it_was_just_before(shell):
    sh, probe = shell
    run(shell, "gone = np.arange(3.0)")
    run(shell, "gone = gone * 10\nif True:\n    del gone\ndef f():\n    kept = 1\n    del kept\nf()")
    out = probe.final(["gone"]).value
    assert out["gone"]["sum"] == 30.0
    # Bound again later: its value now; deleted by an untraced cell: nothing kept.
    run(shell, "del gone")
    sh.run_cell("gone = np.zeros(2)", store_history=True)
    assert probe.final(["gone"]).value["gone"]["sum"] == 0.0
    sh.run_cell("untraced = 1\ndel untraced", store_history=True)
    assert "untraced" not in probe.final(None).value


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


def test_a_text_column_in_another_order_keeps_its_sorted_hash(shell, probe_view):
    """Rows shuffled alone keep the values (``sortedHash``), not the order (``hash``); another
    value changes both."""
    words = "['ant', 'bee', 'cat', 'dog', 'eel']"
    ref = probe_view(f"pd.DataFrame({{'w': {words}}})")["columns"][0]
    moved = probe_view(f"pd.DataFrame({{'w': sorted({words}, reverse=True)}})")["columns"][0]
    other = probe_view("pd.DataFrame({'w': ['ant', 'bee', 'cat', 'dog', 'elk']})")["columns"][0]
    assert ref["kind"] == "text" and ref["hash"] != moved["hash"]
    assert ref["sortedHash"] == moved["sortedHash"]
    assert ref["sortedHash"] != other["sortedHash"]


def test_an_index_of_positions_in_another_order_says_so(shell, probe_view):
    moved = probe_view("pd.Series([1.0, 2.0, 3.0], index=[2, 0, 1])")
    assert moved["index"]["positional"] is True and moved["byLabel"]["columns"][0]["samples"] == [2.0, 3.0, 1.0]
    assert "positional" not in probe_view("pd.Series([1.0, 2.0, 3.0], index=[7, 5, 6])")["index"]
    assert "positional" not in probe_view("pd.Series([1.0, 2.0, 3.0], index=['2', '0', '1'])")["index"]


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
    km = start_ipc_kernel(python, tmp_path)
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
            f"__jb_install({PROBE_TEXT!r})\n"
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


# ------------------------------------------------------------------ the interpreter


class _Kernel:
    """A real kernel with the probe installed the way the check installs it."""

    def __init__(self, python, cwd):
        self.km = start_ipc_kernel(python, cwd)
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=120)
        install = (
            "def __jb_install(source):\n"
            "    import sys, types\n"
            "    ns = {'get_ipython': get_ipython, '__name__': 'junobench_probe'}\n"
            "    exec(compile(source, '<junobench-check>', 'exec'), ns)\n"
            "    sys._junobench_check = types.SimpleNamespace(**ns)\n"
            "    sys._junobench_check.install()\n"
            f"__jb_install({PROBE_TEXT!r})\n"
            "del __jb_install")
        assert self.execute(install, silent=True)["status"] == "ok"

    def execute(self, code, silent=False, expressions=None):
        msg_id = self.kc.execute(code, silent=silent, store_history=not silent,
                                 user_expressions=expressions or {})
        reply = self.kc.get_shell_msg(timeout=120)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.kc.get_shell_msg(timeout=120)
        return reply["content"]

    def traced(self, cell):
        """Run a cell as the check runs a traced one (the probe around it)."""
        self.execute(f"__import__('sys')._junobench_check.start({cell!r}, True, False, 0, None)", silent=True)
        content = self.execute(cell)
        self.execute("__import__('sys')._junobench_check.stop()", silent=True)
        return content

    def baseline(self):
        assert self.execute("__import__('sys')._junobench_check.baseline()", silent=True)["status"] == "ok"

    def interpreter(self):
        out = self.execute("", expressions={"r": "__import__('sys')._junobench_check.interpreter()"})
        return out["user_expressions"]["r"]["data"]["application/json"]

    def close(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


@pytest.fixture(scope="module", params=_kernels())
def kernel(request, tmp_path_factory):
    """One real kernel per Python for the interpreter tests (each test takes a new baseline)."""
    k = _Kernel(request.param, tmp_path_factory.mktemp("case"))
    k.execute("import numpy as np\nimport pandas as pd")
    yield k
    k.close()


# (cell that changes the interpreter, run traced?, expected (kind, name), code that undoes it)
CHANGES = [
    ("def _fix(lines):\n    return [l.replace('axis=1', 'axis=0') for l in lines]\n"
     "get_ipython().input_transformers_cleanup.append(_fix)", False, ("input-transformer", "_fix"),
     "get_ipython().input_transformers_cleanup.remove(_fix)"),
    ("def _post(lines):\n    return lines\nget_ipython().input_transformers_post.append(_post)", True,
     ("input-transformer", "_post"), "get_ipython().input_transformers_post.remove(_post)"),
    ("import ast\nclass Axis0(ast.NodeTransformer):\n    def visit_Constant(self, node):\n        return node\n"
     "get_ipython().ast_transformers.append(Axis0())", False, ("ast-transformer", "Axis0"),
     "get_ipython().ast_transformers.pop()"),
    ("def _quiet(shell, etype, value, tb, tb_offset=None):\n    return None\n"
     "get_ipython().set_custom_exc((ValueError,), _quiet)", False, ("exception-handler", "ValueError"),
     "get_ipython().set_custom_exc((), None)"),
    ("import sys\nsys.settrace(lambda *a: None)", False, ("trace", "sys.settrace"), "sys.settrace(None)"),
    ("import sys\nold = sys.gettrace()\nsys.settrace(None)\nsys.settrace(old)", True, ("trace", "sys.settrace"), ""),
    ("import threading\nthreading.setprofile(lambda *a: None)", False, ("trace", "threading.setprofile"),
     "threading.setprofile(None)"),
    ("pd.DataFrame.mean = lambda self, *a, **k: 0", False, ("monkeypatch", "pandas.DataFrame.mean"),
     "del pd.DataFrame.mean"),
    ("_std = np.std\nnp.std = lambda *a, **k: 1.0", False, ("monkeypatch", "numpy.std"), "np.std = _std"),
    ("_var = np.var\nnp.var = eval('lambda *a, **k: 1.0', {})", False, ("monkeypatch", "numpy.var"), "np.var = _var"),
    ("import builtins\n_len = builtins.len\nbuiltins.len = lambda x: _len(x)", False, ("monkeypatch", "builtins.len"),
     "builtins.len = _len"),
    ("import builtins\n_hit = builtins._junobench_hit\nbuiltins._junobench_hit = lambda uid: None", False,
     ("monkeypatch", "builtins._junobench_hit"), "builtins._junobench_hit = _hit"),
    ("def _forget(result):\n    result.error_in_exec = None\nget_ipython().events.register('post_run_cell', _forget)",
     False, ("event-callback", "post_run_cell: _forget"),
     "get_ipython().events.unregister('post_run_cell', _forget)"),
    ("get_ipython().showtraceback = lambda *a, **k: None", False, ("shell", "get_ipython().showtraceback"),
     "del get_ipython().showtraceback"),
    ("import _thread, time\ndef work():\n    global done\n    done = True\n"
     "_thread.start_new_thread(work, ())  # in the background\ntime.sleep(0.2)", True,
     ("thread", "_thread.start_new_thread(work, ())"), ""),
    ("import threading\ndef work2():\n    pass\nt = threading.Thread(target=work2)\nt.start(); t.join()", True,
     ("thread", "work2"), ""),
    ("import threading\nstop = threading.Event()\ndef loop():\n    stop.wait()\n"
     "threading.Thread(target=loop, daemon=True).start()", False, ("thread", "loop"), "stop.set()"),
    # Outside traced cells too, however the notebook reaches the C function that starts a thread.
    ("import _thread, time\ndef work3():\n    pass\n_thread.start_new_thread(work3, ())\ntime.sleep(0.2)", False,
     ("thread", "_thread.start_new_thread(work3, ())"), ""),
    ("from _thread import start_new_thread as go\nimport time\ndef work4():\n    pass\ngo(work4, ())\ntime.sleep(0.2)",
     False, ("thread", "go(work4, ())"), ""),
    ("import threading, time\ndef work5():\n    pass\nthreading._start_new_thread(work5, ())\ntime.sleep(0.2)", False,
     ("thread", "threading._start_new_thread(work5, ())"), ""),
    ("import sys\nold = sys.gettrace()\nsys.settrace(None)\nsys.settrace(old)", False, ("trace", "sys.settrace"), ""),
    ("import sys\nsys.setprofile(None)", False, ("trace", "sys.setprofile"), ""),
]


@pytest.mark.parametrize(("cell", "traced", "expected", "undo"), CHANGES,
                         ids=[f"{c[2][0]}:{c[2][1]}" + (":traced" if c[1] else "") for c in CHANGES])
def test_a_change_to_the_interpreter_is_reported_with_its_cell(kernel, cell, traced, expected, undo):
    kernel.baseline()
    content = kernel.traced(cell) if traced else kernel.execute(cell)
    assert content["status"] == "ok", content
    found = kernel.interpreter()
    kernel.execute(undo)
    assert [(c["kind"], c["name"]) for c in found] == [expected]
    if expected[0] not in ("ast-transformer", "exception-handler"):
        # The cell that made the change, by the kernel's execution count.
        assert found[0]["count"] == content["execution_count"]


FAIR = [
    "import warnings\nwarnings.filterwarnings('ignore')\npd.set_option('display.max_columns', 50)\nnp.random.seed(0)",
    "%matplotlib inline\nimport matplotlib.pyplot as plt\nplt.plot([1, 2], [3, 4])\nplt.show()",
    "%load_ext autoreload\n%autoreload 2",
    "from sklearn.ensemble import RandomForestClassifier\nX = np.random.rand(100, 3)\ny = (X[:, 0] > .5).astype(int)\n"
    "m = RandomForestClassifier(n_estimators=10, n_jobs=2, random_state=0).fit(X, y)",
    "from concurrent.futures import ThreadPoolExecutor\nfrom joblib import Parallel, delayed\n"
    "sq = Parallel(n_jobs=2, prefer='threads')(delayed(abs)(-i) for i in range(4))",
    "from collections import namedtuple\nfrom dataclasses import dataclass\nPoint = namedtuple('Point', 'x y')\n"
    "@dataclass\nclass Row:\n    a: int\nclass Mine(pd.DataFrame):\n    def mean(self, *a, **k):\n        return 0\n"
    "def helper(x):\n    return x + 1\ndf = pd.DataFrame({'a': [1.0, 2.0]})\ndf2 = df.apply(helper)",
    "try:\n    from tqdm.auto import tqdm\n    for _ in tqdm(range(3)):\n        pass\n    tqdm.pandas()\n"
    "    df.progress_apply(lambda c: c.sum())\nexcept ImportError:\n    pass",
]


@pytest.mark.parametrize("python", _kernels())
def test_an_untouched_kernel_and_fair_code_change_nothing(python, tmp_path):
    k = _Kernel(python, tmp_path)
    try:
        k.execute("import numpy as np\nimport pandas as pd")
        k.baseline()
        assert k.interpreter() == []
        for cell in FAIR:
            # Traced, as the check runs the cells a learner changed (thread starts are watched).
            content = k.traced(cell)
            assert content["status"] == "ok", (cell, content)
        assert k.interpreter() == []
    finally:
        k.close()


def test_without_a_baseline_the_interpreter_report_is_empty(shell):
    _, probe = shell
    probe._baseline.clear()
    assert probe.interpreter().value is None


# ------------------------------------------------------------------ rounding at a boundary


@pytest.mark.parametrize("python", _kernels())
def test_a_reference_kernel_notes_the_halves_its_roundings_meet(python, tmp_path):
    """Each way a notebook rounds (the builtin, ndarray and numpy scalar methods, np.round,
    pandas) notes the values that sit half-way between two steps, and only those."""
    k = _Kernel(python, tmp_path)
    try:
        k.execute("import numpy as np\nimport pandas as pd")
        k.baseline()
        assert k.execute("__import__('sys')._junobench_check.watch_rounding()", silent=True)["status"] == "ok"

        def rounding():
            out = k.execute("", expressions={"r": "__import__('sys')._junobench_check.rounding()"})
            value = out["user_expressions"]["r"]["data"]["application/json"]
            return {tuple(p) for p in value["pairs"]}, value["count"]

        # Nothing at a half: nothing noted, whichever way it is rounded.
        for cell in ("a = np.array([0.12, 0.31, 7.0]).round(1)", "b = round(0.31, 1)",
                     "c = pd.Series([0.12, 0.31]).round(1)", "d = np.round(np.array([1.26, 3.0]), 1)"):
            assert k.traced(cell)["status"] == "ok"
        assert rounding() == (set(), {})
        cells = {
            "e = np.array([0.25, 1.0]).round(1)": (1, 2),         # ndarray.round: 0.25 between 0.2 and 0.3
            "f = np.round(np.array([3.75]), 1)": (1, 37),        # np.round ends in ndarray.round
            "g = pd.Series([0.45, 2.0]).round(1)": (1, 4),       # pandas too
            "h = round(2.5)": (0, 2),                            # the builtin
            "i = np.float64(-0.125).round(2)": (2, -13),         # a numpy scalar, below zero
        }
        for cell, pair in cells.items():
            assert k.traced(cell)["status"] == "ok", cell
            assert pair in rounding()[0], cell
        pairs, count = rounding()
        # 2.5 is also half-way at no other number of decimals; 0.25 is at 1 decimal only.
        assert (2, 25) not in pairs and (0, 0) not in pairs
        assert count["1"] >= 3 and count["0"] >= 1
        # The values themselves are those of the plain functions.
        out = k.execute("", expressions={"v": "[float(e[0]), float(f[0]), float(g[0]), h, float(i)]"})
        assert out["user_expressions"]["v"]["data"]["text/plain"] == "[0.2, 3.8, 0.4, 2, -0.12]"
        # Rounding left alone in the learner's kernel: no profile and no builtin changed.
        assert k.interpreter() == []
    finally:
        k.close()


def test_a_value_within_the_whole_size_is_reported_at_every_row(probe_view, shell):
    """Up to WHOLE elements every row is reported, so a change at any row shows in the samples;
    above it, the sampled rows only (the sums still cover the whole)."""
    _, probe = shell
    small = probe_view("np.arange(1000.0)")
    assert small["positions"] == list(range(1000))
    assert len(small["columns"][0]["samples"]) == 1000
    frame = probe_view("pd.DataFrame({'a': np.arange(500.0), 'b': ['x'] * 500})")
    assert [len(c["samples"]) for c in frame["columns"]] == [500, 500]
    # Wider: 2 columns x 6000 rows is above WHOLE (10,000 elements).
    big = probe_view("np.arange(12000.0).reshape(6000, 2)")
    assert len(big["positions"]) == probe.SAMPLES
    assert probe.WHOLE == 10_000
