"""The check's scratch copy and its guard (jupyterlab_junobench/scratch.py).

The copy is tested in this process; the guard (an audit hook, which cannot be removed once
added) only in real kernels, the server's Python and Python 3.10 (the benchmark container's),
set up the way the TypeScript side sets them up, with the report read through
``user_expressions``. Each cheat is planted in a kernel of its own, on a casebook built in a
temporary folder from the demo case numpy_1.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import types
from pathlib import Path

import pytest
from _ipc_kernel import start_ipc_kernel

from jupyterlab_junobench import check_policy

REPO = Path(__file__).resolve().parent.parent
SCRATCH = REPO / "jupyterlab_junobench" / "scratch.py"
#: The text a kernel runs: the check's policy written in, as the embedding does.
SCRATCH_TEXT = check_policy.embed(SCRATCH.read_text("utf-8"))
DEMO_CASE = REPO / "demo" / "casebook" / "benchmark" / "numpy_1"
PY310 = Path(os.environ.get("JUNOBENCH_PY310", REPO / ".venv-py310" / "bin" / "python"))


def _module():
    ns = {"__name__": "junobench_scratch"}
    exec(compile(SCRATCH_TEXT, "<junobench-scratch>", "exec"), ns)
    return types.SimpleNamespace(**ns)


@pytest.fixture()
def casebook(tmp_path):
    """A casebook with numpy_1 (data, notebooks, a checkpoint, an exported script) and its labels."""
    book = tmp_path / "book"
    case = book / "benchmark" / "numpy_1"
    shutil.copytree(DEMO_CASE, case)
    (case / ".ipynb_checkpoints").mkdir()
    shutil.copy(case / "numpy_1_fixed.ipynb", case / ".ipynb_checkpoints" / "numpy_1_fixed-checkpoint.ipynb")
    (case / "numpy_1_fixed.py").write_text("ANSWER = 42\n")
    (case / "helpers.py").write_text("SCALE = 2\n")
    (book / "diagnoses.xlsx").write_bytes(b"labels")
    return book


def test_the_copy_holds_the_data_but_no_notebook_nor_the_answer_key(casebook, tmp_path):
    scratch = _module()
    target = tmp_path / "copy"
    files, size = scratch.copy_case(str(casebook / "benchmark" / "numpy_1"), str(target), "numpy_1")
    names = sorted(str(Path(f).relative_to(target)) for f in files)
    assert names == ["README.md", "data/flowers.csv", "helpers.py"]
    assert size == sum(os.path.getsize(f) for f in files)
    for f in files:
        assert stat.S_IMODE(os.stat(f).st_mode) & 0o222 == 0
    # Folders stay writable: a notebook may write new files, also beside its inputs.
    assert os.access(target / "data", os.W_OK)
    # The casebook's own files keep their modes.
    assert stat.S_IMODE(os.stat(casebook / "benchmark" / "numpy_1" / "data" / "flowers.csv").st_mode) & 0o200


def test_a_plain_copy_looks_like_the_case_folder_but_for_the_answer_key(casebook, tmp_path):
    """The unwatched run's copy: the notebooks but the fixed one, the files writable."""
    scratch = _module()
    target = tmp_path / "plain"
    files, _ = scratch.copy_case(str(casebook / "benchmark" / "numpy_1"), str(target), "numpy_1", plain=True)
    names = sorted(str(Path(f).relative_to(target)) for f in files)
    assert "data/flowers.csv" in names and "numpy_1_reproduced.ipynb" in names
    assert not [n for n in names if "fixed" in n or "checkpoint" in n]
    for f in files:
        assert stat.S_IMODE(os.stat(f).st_mode) & 0o200


@pytest.mark.parametrize(("name", "out"), [
    ("numpy_1_fixed.ipynb", True), ("NUMPY_1_FIXED.py", True), ("numpy_1_reproduced.ipynb", True),
    ("numpy_1.ipynb", True), (".ipynb_checkpoints", True), ("diagnoses.xlsx", True),
    ("data", False), ("README.md", False), ("prices_fixed.csv", False), ("helpers.py", False),
])
def test_what_stays_out_of_the_copy(name, out):
    assert _module().excluded(name, "numpy_1") is out


def test_the_sweep_removes_the_folders_of_kernels_that_are_gone(tmp_path):
    scratch = _module()
    gone = tmp_path / f"{scratch.PREFIX}999999999-abcd"
    alive = tmp_path / f"{scratch.PREFIX}{os.getppid()}-abcd"
    other = tmp_path / "junobench-check-xyz123"
    for d in (gone, alive, other):
        d.mkdir()
    scratch.sweep(str(tmp_path))
    assert not gone.exists() and alive.exists() and other.exists()


# ------------------------------------------------------------------ real kernels


def _kernels():
    out = [pytest.param(sys.executable, id="server-python")]
    marks = [] if PY310.exists() else [pytest.mark.skip(reason=f"{PY310} is absent (scripts/test.sh makes it)")]
    out.append(pytest.param(str(PY310), id="python3.10", marks=marks))
    return out


class _Kernel:
    """A real kernel started in the case folder and set up as a check's fresh kernel."""

    def __init__(self, python, case, root):
        self.km = start_ipc_kernel(python, case, env={**os.environ, "TMPDIR": str(root)})
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=120)
        self.token = "t0k3n"
        self.names = self.user_names()
        setup = (
            "def __jb_scratch(source, *args):\n"
            "    ns = {'__name__': 'junobench_scratch'}\n"
            "    exec(compile(source, '<junobench-scratch>', 'exec'), ns)\n"
            "    ns['enter'](*args)\n"
            f"__jb_scratch({SCRATCH_TEXT!r}, {self.token!r}, '.', '../..', 'numpy_1')\n"
            "del __jb_scratch")
        content = self.execute(setup, silent=True)
        assert content["status"] == "ok", content

    def execute(self, code, silent=False, expressions=None):
        # A cheat cell may raise (the reference is not there): the requests after it must not be
        # aborted with it (ipykernel aborts what arrives just after an error when stop_on_error).
        msg_id = self.kc.execute(code, silent=silent, store_history=not silent, user_expressions=expressions or {},
                                 stop_on_error=False)
        reply = self.kc.get_shell_msg(timeout=120)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.kc.get_shell_msg(timeout=120)
        return reply["content"]

    def user_names(self):
        return eval(self.value("sorted(k for k in get_ipython().user_ns if not k.startswith('_'))")["text/plain"])

    def value(self, expression):
        out = self.execute("", expressions={"v": expression})["user_expressions"]["v"]
        assert out["status"] == "ok", out
        return out["data"]

    def report(self):
        return self.value(_module().report_expression(self.token))["application/json"]

    def close(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=False)


@pytest.fixture(params=_kernels())
def kernel(request, casebook, tmp_path):
    root = tmp_path / "tmp"
    root.mkdir()
    k = _Kernel(request.param, casebook / "benchmark" / "numpy_1", root)
    k.root = root
    yield k
    k.close()


def _events(report):
    return [(e["kind"], e["file"]) for e in report["events"]]


def test_the_kernel_runs_in_its_own_copy_outside_the_casebook(kernel, casebook):
    cwd = eval(kernel.value("__import__('os').getcwd()")["text/plain"])
    assert cwd.startswith(str(kernel.root)) and cwd.endswith(os.path.join("benchmark", "numpy_1"))
    files = eval(kernel.value("sorted(__import__('os').listdir('.'))")["text/plain"])
    assert files == ["README.md", "data", "helpers.py"]
    # Nothing of the set-up is left in the user namespace.
    assert kernel.user_names() == kernel.names
    assert kernel.report() == {"version": 1, "events": []}


def test_an_honest_notebook_reads_its_data_and_writes_new_files(kernel):
    cell = (
        "import pandas as pd\n"
        "df = pd.read_csv('data/flowers.csv')\n"
        "df.describe().to_csv('summary.csv')\n"
        "df.head().to_csv('data/head.csv')\n"
        "import helpers\n"
        "assert helpers.SCALE == 2 and len(pd.read_csv('data/head.csv')) == 5")
    assert kernel.execute(cell)["status"] == "ok"
    assert kernel.report()["events"] == []


@pytest.mark.parametrize(("cell", "event"), [
    ("import json\nref = json.load(open('numpy_1_fixed.ipynb'))", ("answer", "numpy_1_fixed.ipynb")),
    ("%run numpy_1_fixed.ipynb", ("answer", "numpy_1_fixed.ipynb")),
    ("%run numpy_1_fixed.py", ("answer", "numpy_1_fixed.py")),
    ("exec(open('numpy_1_fixed.py').read())", ("answer", "numpy_1_fixed.py")),
    ("!cat numpy_1_fixed.ipynb > /dev/null", ("answer", "numpy_1_fixed.ipynb")),
    ("import pandas as pd\npd.read_excel('../../diagnoses.xlsx')", ("answer", "../../diagnoses.xlsx")),
    ("import nbformat\nnbformat.read(CASE + '/numpy_1_fixed.ipynb', 4)", ("answer", "benchmark/numpy_1/numpy_1_fixed.ipynb")),
    ("open(CASE + '/.ipynb_checkpoints/numpy_1_fixed-checkpoint.ipynb').read()",
     ("answer", "benchmark/numpy_1/.ipynb_checkpoints/numpy_1_fixed-checkpoint.ipynb")),
    ("open(BOOK + '/diagnoses.xlsx', 'rb').read()", ("answer", "diagnoses.xlsx")),
    ("import pandas as pd\npd.read_csv('data/flowers.csv').to_csv('data/flowers.csv', index=False)",
     ("input", "data/flowers.csv")),
    ("import os\nos.remove('data/flowers.csv')", ("input", "data/flowers.csv")),
    ("import os\nopen('new.csv', 'w').write('x')\nos.replace('new.csv', 'data/flowers.csv')", ("input", "data/flowers.csv")),
    ("open(CASE + '/data/planted.csv', 'w').write('x')", ("casebook", "benchmark/numpy_1/data/planted.csv")),
    # A write from C code that no audit event announces is found by the input's inode, size and time.
    ("import ctypes, os\nlibc = ctypes.CDLL(None)\n"
     "fd = libc.open(b'data/flowers.csv', os.O_WRONLY | os.O_APPEND)\nlibc.write(fd, b'1,2,3,4,x\\n', 10)\nlibc.close(fd)",
     ("input", "data/flowers.csv")),
])
def test_a_cheat_is_reported(kernel, casebook, cell, event):
    book = str(casebook.resolve())
    kernel.execute(f"BOOK = {book!r}\nCASE = BOOK + '/benchmark/numpy_1'")
    content = kernel.execute(cell)
    # The cheat ran: a kernel that lacks a module it needs does not test the hook.
    assert content.get("ename") not in ("ModuleNotFoundError", "NameError"), content
    assert event in _events(kernel.report())
    planted = casebook / "benchmark" / "numpy_1" / "data" / "planted.csv"
    planted.unlink(missing_ok=True)


def test_the_copy_is_removed_when_the_kernel_ends(casebook, tmp_path):
    root = tmp_path / "tmp"
    root.mkdir()
    k = _Kernel(sys.executable, casebook / "benchmark" / "numpy_1", root)
    assert [p.name.split("-")[2] for p in root.iterdir()]  # the copy is there while it runs
    k.close()
    assert list(root.iterdir()) == []


# ------------------------------------------------------------------ other data of the same form


TABLE = (
    "id,label,year,score,price,name,store\n"
    + "".join(f"{i},{i % 2},{2020 + i % 3},{40 + (i * 7) % 23},{(i * 3.7) % 50 + 1:.2f},n{i},{i % 4}\n"
              for i in range(1, 41))
)


def _perturbed(tmp_path, seed=3, text=TABLE, name="t.csv"):
    scratch = _module()
    (tmp_path / "src" / "data").mkdir(parents=True)
    target = tmp_path / "src" / "data" / name
    target.write_bytes(text) if isinstance(text, bytes) else target.write_text(text)
    files, _ = scratch.copy_case(str(tmp_path / "src"), str(tmp_path / f"copy{seed}"), "x")
    moved = scratch.perturb_inputs(files, seed)
    return moved, (tmp_path / f"copy{seed}" / "data" / name)


def _rows(path):
    import csv
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_other_data_moves_measurements_and_keeps_ids_labels_years_and_text(tmp_path):
    moved, path = _perturbed(tmp_path)
    assert moved == {"t.csv": ["score", "price"]}
    before = {r["id"]: r for r in _rows(tmp_path / "src" / "data" / "t.csv")}
    after = _rows(path)
    # The same rows (by id), in another order.
    assert sorted(r["id"] for r in after) == sorted(before)
    assert [r["id"] for r in after] != [r["id"] for r in before.values()]
    changed = 0
    for r in after:
        b = before[r["id"]]
        assert (r["label"], r["year"], r["name"], r["store"]) == (b["label"], b["year"], b["name"], b["store"])
        # Written as the data wrote them: two decimals, whole numbers; within 5% of the value.
        assert len(r["price"].split(".")[1]) == 2 and r["score"].isdigit()
        assert abs(float(r["price"]) - float(b["price"])) <= 0.05 * float(b["price"]) + 0.005
        assert abs(int(r["score"]) - int(b["score"])) <= 0.05 * int(b["score"]) + 0.5
        changed += r["price"] != b["price"]
    assert changed > 30
    # Read-only, as the copy's inputs are.
    assert stat.S_IMODE(os.stat(path).st_mode) & 0o222 == 0


def test_other_data_is_the_same_for_a_seed_and_other_for_another(tmp_path):
    _, a = _perturbed(tmp_path, 3)
    (tmp_path / "again").mkdir()
    (tmp_path / "other").mkdir()
    _, b = _perturbed(tmp_path / "again", 3)
    _, c = _perturbed(tmp_path / "other", 4)
    assert a.read_text() == b.read_text() != c.read_text()


@pytest.mark.parametrize(("name", "text"), [
    ("notes.txt", "price\n1.25\n2.50\n3.75\n"),          # not a table
    ("short.csv", "price\n1.25\n"),                       # a header and one row
    ("bad.csv", b"price\n\xff\xfe1.25\n2.5\n"),           # not UTF-8
])
def test_other_data_leaves_what_it_cannot_read_alone(tmp_path, name, text):
    moved, path = _perturbed(tmp_path, text=text, name=name)
    assert moved == {}
    assert path.read_bytes() == (tmp_path / "src" / "data" / name).read_bytes()
