"""Checks of the demo casebook in demo/casebook (built by scripts/build_demo.py).

- every case listed in benchmark_desc.xlsx has its folder, the three notebooks (valid nbformat),
  a README and its data;
- the shapes of notebooks from elsewhere stay in the casebook: `numpy_2` without cell ids
  (nbformat 4.4), `sklearn_2` with a fixed notebook sharing no cell id, and crashes in the last
  code cell (`pandas_2`, `sklearn_2`, `numpy_2`);
- replaying `<case>_reproduced.ipynb` in recorded order with plain jupyter_client (code cells with
  an execution count, ascending, ties by position; a cell whose first line holds `[reexecute]` runs
  twice in a row) crashes at the first cell with an `error` output, with the descriptor's `ename`;
- `<case>_fixed.ipynb` runs top to bottom under nbclient without an error;
- diagnoses.xlsx has a diagnosis for every `<case>_reproduced`;
- the build script, run into a temporary folder, yields the same cases, recorded notebooks and
  exceptions as the committed casebook.

Kernels run a few at a time and the rebuild runs in the background from the first test on; the
module takes about a minute on an idle two-core machine.
"""

from __future__ import annotations

import ast
import asyncio
import functools
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager

from jupyterlab_junobench.forkserver import REGISTRY, forked_native_kernelspec

openpyxl = pytest.importorskip("openpyxl")

REPO = Path(__file__).resolve().parent.parent
CASEBOOK = REPO / "demo" / "casebook"
BENCH = CASEBOOK / "benchmark"
BUILD_SCRIPT = REPO / "scripts" / "build_demo.py"
WORKERS = max(2, min(4, 2 * (os.cpu_count() or 1)))  # kernels at a time; startup is partly idle
CELL_TIMEOUT = 120

DESC_COLUMNS = [
    "nb_name", "eid", "ename", "evalue", "traceback", "label_root_cause", "label_refined_exp_type",
    "label_ML_pipeline", "label_if_ML_bug", "DatasetTitle_1", "DatasetTitle_2",
    "DatasetLicenseName_1", "DatasetLicenseName_2", "DatasetUrl_1", "DatasetUrl_2", "NotebookUrl",
]
GT_COLUMNS = ["library", "instance", "detection", "diagnosis", "runinfo_help"]
# Label values used by JunoBench's benchmark_desc.xlsx.
ROOT_CAUSES = {"API misuse", "data confusion", "NB specific", "implementation error",
               "ML model confusion", "library cause"}
EXP_TYPES = {"invalid argument", "tensor shape mismatch", "key error", "value error",
             "variable not found", "index error", "attribute error", "data value violation",
             "unsupported broadcast", "type error", "module not found", "runtime error",
             "feature name mismatch", "io error", "model initialization error"}
PIPELINE_STAGES = {"training", "data preparation", "evaluation/prediction", "data visualization",
                   "model construction"}
EID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "urn:jupyterlab-junobench:demo-casebook")
# Cases shaped like notebooks not written by the build script (see its docstring): nbformat 4.4
# notebooks without cell ids, and a fixed notebook whose cell ids share none with the reproduced.
NO_CELL_IDS = {"numpy_2"}
OWN_FIXED_IDS = {"sklearn_2"}
# Cases whose crash is in the last code cell of the notebook: nothing runs after the target.
CRASH_IN_LAST_CELL = {"pandas_2", "sklearn_2", "numpy_2"}
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


# ---- reading the casebook --------------------------------------------------------------------


def read_sheet(path: Path, sheet: str) -> list[dict]:
    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        rows = list(wb[sheet].iter_rows(values_only=True))
    finally:
        wb.close()
    header = [h for h in rows[0]]
    return [dict(zip(header, row, strict=True)) for row in rows[1:]]


def descriptor_rows(root: Path = CASEBOOK) -> list[dict]:
    return read_sheet(root / "benchmark_desc.xlsx", "Sheet1")


def case_names() -> list[str]:
    path = CASEBOOK / "benchmark_desc.xlsx"
    if not path.exists():
        return []
    return [row["nb_name"] for row in descriptor_rows()]


CASES = case_names()


def notebook(case: str, kind: str, root: Path = BENCH) -> nbformat.NotebookNode:
    suffix = "" if kind == "original" else f"_{kind}"
    return nbformat.read(root / case / f"{case}{suffix}.ipynb", as_version=4)


def has_marker(source: str) -> bool:
    return "[reexecute]" in source.split("\n", 1)[0].lower()


def first_error(nb) -> tuple[int, dict] | None:
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            for out in cell.outputs:
                if out.output_type == "error":
                    return index, out
    return None


def recorded_steps(nb) -> list[int]:
    """Cell positions in recorded order: counts ascending, ties by position, markers twice."""
    counted = [(cell.execution_count, index) for index, cell in enumerate(nb.cells)
               if cell.cell_type == "code" and cell.execution_count is not None]
    steps: list[int] = []
    for _, index in sorted(counted):
        steps.extend([index, index] if has_marker(nb.cells[index].source) else [index])
    return steps


# The python3 kernelspec of this Python, through our launcher and forked (forkserver.py), as the
# other suites have it: plain ipykernel_launcher hangs for ever when another process took its IOPub
# port first (CI run 23: a fixed notebook's kernel did not answer in 90 s); through the launcher it
# exits, and these tests start it again. Written once, outside the repository.
@functools.cache
def kernel_dir() -> Path:
    data = Path(tempfile.mkdtemp(prefix="junobench-demo-kernels-"))
    (data / "kernels" / "python3").mkdir(parents=True)
    (data / "kernels" / "python3" / "kernel.json").write_text(json.dumps(forked_native_kernelspec()), "utf-8")
    return data / "kernels"


def kernel_manager() -> AsyncKernelManager:
    """A manager of this Python's python3 kernel, through the launcher and forked."""
    return AsyncKernelManager(kernel_name="python3", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernel_dir())]))


@pytest.fixture(scope="module", autouse=True)
def no_fork_server_left():
    yield
    REGISTRY.stop_all()
    if kernel_dir.cache_info().currsize:
        shutil.rmtree(kernel_dir().parent, ignore_errors=True)
        kernel_dir.cache_clear()


def kernel_env() -> dict[str, str]:
    env = dict(os.environ)
    env["MPLBACKEND"] = "Agg"
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    return env


# ---- running notebooks -------------------------------------------------------------------------


async def execute(kc, source: str) -> dict:
    """Run one cell with an async client; return the execute_reply content."""
    msg_id = kc.execute(source, store_history=True, allow_stdin=False)
    deadline = time.monotonic() + CELL_TIMEOUT
    while True:  # drain iopub until the kernel is idle for this request
        try:
            msg = await kc.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            if time.monotonic() > deadline:
                raise TimeoutError(source) from None
            continue
        if (msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "status"
                and msg["content"]["execution_state"] == "idle"):
            break
    while True:
        reply = await kc.get_shell_msg(timeout=CELL_TIMEOUT)
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply["content"]


async def ready_kernel(case: str):
    """A kernel in the case folder that answered kernel_info, and its client.

    A kernel that does not answer within a minute is replaced once: on a loaded
    two-core machine a start-up can stall, and that is not what these tests judge.
    """
    for attempt in (1, 2):
        km = kernel_manager()
        await km.start_kernel(cwd=str(BENCH / case), env=kernel_env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kc = km.client()
        kc.start_channels()
        try:
            await kc.wait_for_ready(timeout=60)
            return km, kc
        except RuntimeError:
            kc.stop_channels()
            await km.shutdown_kernel(now=True)
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def replay_recorded(case: str) -> dict:
    """Replay the reproduced notebook in recorded order; report where and how it crashed."""
    nb = notebook(case, "reproduced")
    steps = recorded_steps(nb)
    km, kc = await ready_kernel(case)
    try:
        for step, index in enumerate(steps):
            reply = await execute(kc, nb.cells[index].source)
            if reply["status"] == "error":
                return {"steps": steps, "step": step, "cell": index,
                        "ename": reply["ename"], "evalue": reply["evalue"]}
        return {"steps": steps, "step": None, "cell": None, "ename": None, "evalue": None}
    finally:
        kc.stop_channels()
        await km.shutdown_kernel(now=True)


async def run_fixed(case: str) -> str | None:
    """Run the fixed notebook top to bottom with nbclient; return an error text or None."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    for attempt in (1, 2):
        nb = notebook(case, "fixed")
        client = NotebookClient(nb, km=kernel_manager(), timeout=CELL_TIMEOUT, startup_timeout=90,
                                resources={"metadata": {"path": str(BENCH / case)}})
        try:
            await client.async_execute(env=kernel_env(), stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
        except CellExecutionError as err:
            return str(err)
        except RuntimeError:
            # The kernel did not start or answer (see ready_kernel): once more, with a new kernel.
            if attempt == 2:
                raise
            continue
        break
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    return f"error output: {errors[0].ename}" if errors else None


def over_cases(run) -> dict:
    """`run` on every case, WORKERS kernels at a time, in one event loop (no client threads)."""
    async def main():
        gate = asyncio.Semaphore(WORKERS)

        async def one(case):
            async with gate:
                return await run(case)

        return await asyncio.gather(*(one(case) for case in CASES))

    return dict(zip(CASES, asyncio.run(main()), strict=True))


@pytest.fixture(scope="module")
def replays() -> dict[str, dict]:
    return over_cases(replay_recorded)


@pytest.fixture(scope="module")
def fixed_runs() -> dict[str, str | None]:
    return over_cases(run_fixed)


def build_script():
    """scripts/build_demo.py as a module (for its digest of the casebook)."""
    import importlib.util

    if "build_demo" in sys.modules:
        return sys.modules["build_demo"]
    spec = importlib.util.spec_from_file_location("build_demo", BUILD_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    # Its dataclasses look their module up in sys.modules.
    sys.modules["build_demo"] = module
    spec.loader.exec_module(module)
    return module


def demo_unchanged() -> bool:
    """Whether demo/casebook and build_demo.py are as last built (and no rebuild is asked for)."""
    if os.environ.get("JUNOBENCH_REBUILD_DEMO") == "1":
        return False
    script = build_script()
    return script.recorded_hash() == script.source_hash()


@pytest.fixture(scope="module")
def background_build(tmp_path_factory):
    """Start `build_demo.py --skip-fixed` into a temporary folder; it runs while other tests do.

    Not when the casebook and the script are as last built (their digest says so): then there is
    nothing new to compare, and the fixture gives None.
    """
    if demo_unchanged():
        yield None
        return
    out = tmp_path_factory.mktemp("rebuilt") / "casebook"
    log = open(out.parent / "build.log", "w+")
    proc = subprocess.Popen(
        [sys.executable, str(BUILD_SCRIPT), "--out", str(out), "--skip-fixed", "--quiet",
         "--jobs", "2"],
        stdout=log, stderr=subprocess.STDOUT, text=True)
    yield proc, out, log
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    log.close()


@pytest.fixture(scope="module")
def descriptor() -> dict[str, dict]:
    return {row["nb_name"]: row for row in descriptor_rows()}


# ---- tests -------------------------------------------------------------------------------------


def test_casebook_lists_the_required_cases(background_build):
    assert CASES, f"no cases read from {CASEBOOK / 'benchmark_desc.xlsx'}"
    for name in ["NBspecific_1", "NBspecific_2", "NBspecific_3", "numpy_1", "numpy_2", "pandas_1",
                 "pandas_2", "sklearn_1", "sklearn_2", "matplotlib_1"]:
        assert name in CASES
    assert len(set(CASES)) == len(CASES)
    assert sorted(p.name for p in BENCH.iterdir() if p.is_dir()) == sorted(CASES)
    assert (CASEBOOK / "README.md").is_file()


def test_descriptor_format(descriptor):
    wb = openpyxl.load_workbook(CASEBOOK / "benchmark_desc.xlsx")
    assert wb.sheetnames == ["Sheet1"]
    header = [c.value for c in wb["Sheet1"][1]]
    assert header == DESC_COLUMNS
    for name, row in descriptor.items():
        assert re.fullmatch(r"(NBspecific|[a-z]+)_\d+", name)
        assert row["eid"] == str(uuid.uuid5(EID_NAMESPACE, name))
        assert row["ename"] == row["ename"].lower() and row["ename"]
        assert row["label_root_cause"] in ROOT_CAUSES
        assert row["label_refined_exp_type"] in EXP_TYPES
        assert row["label_ML_pipeline"] in PIPELINE_STAGES
        assert row["label_if_ML_bug"] in {"ML bug", "python bug"}
        if name.startswith("NBspecific_"):
            assert row["label_root_cause"] == "NB specific"
        traceback = ast.literal_eval(row["traceback"])
        assert isinstance(traceback, list) and all(isinstance(t, str) for t in traceback)
        assert any("\x1b[" in t for t in traceback), "ANSI colour codes are kept"
        assert ANSI.sub("", traceback[-1]).lower().startswith(row["ename"])
        if row["DatasetTitle_1"]:
            assert row["DatasetLicenseName_1"] == "CC0: Public Domain"


@pytest.mark.parametrize("case", CASES)
def test_case_folder_and_notebooks(case, descriptor):
    folder = BENCH / case
    assert (folder / "README.md").is_file()
    if descriptor[case]["DatasetTitle_1"]:
        assert any((folder / "data").glob("*.csv"))
    nbs = {}
    for kind in ["original", "reproduced", "fixed"]:
        nb = notebook(case, kind)
        nbformat.validate(nb)
        assert nb.metadata["kernelspec"]["name"] == "python3"
        if case in NO_CELL_IDS:
            assert (nb.nbformat, nb.nbformat_minor) == (4, 4)
            assert not any("id" in cell for cell in nb.cells)
        else:
            assert (nb.nbformat, nb.nbformat_minor) == (4, 5)
            assert all(cell.get("id") for cell in nb.cells)
        nbs[kind] = nb
    original, repro, fixed = nbs["original"], nbs["reproduced"], nbs["fixed"]

    # The original: the reproduced sources, not executed.
    assert [c.source for c in original.cells] == [c.source for c in repro.cells]
    assert all(c.execution_count is None and not c.outputs
               for c in original.cells if c.cell_type == "code")

    # The reproduced notebook: a first error output, equal to the descriptor's exception.
    found = first_error(repro)
    assert found is not None, "no error output in the reproduced notebook"
    target, error = found
    row = descriptor[case]
    assert error.ename.lower() == row["ename"]
    assert error.evalue == row["evalue"]
    assert list(error.traceback) == ast.literal_eval(row["traceback"])
    counts = [c.execution_count for c in repro.cells if c.cell_type == "code"]
    assert repro.cells[target].execution_count == max(n for n in counts if n is not None)
    assert len({n for n in counts if n is not None}) == len([n for n in counts if n is not None])
    for cell in repro.cells:
        if cell.cell_type == "code" and cell.execution_count is None:
            assert not cell.outputs, "a cell that never ran has no outputs"
    # a [reexecute] cell shows its second count: the first one belongs to no other cell
    for cell in repro.cells:
        if cell.cell_type == "code" and has_marker(cell.source):
            assert cell.execution_count - 1 not in counts

    # The fixed notebook: same cells (by id, unless the case says otherwise), all run once in
    # document order, no errors.
    repro_ids, fixed_ids = {c.get("id") for c in repro.cells}, {c.get("id") for c in fixed.cells}
    if case in NO_CELL_IDS:
        assert repro_ids == fixed_ids == {None}
    elif case in OWN_FIXED_IDS:
        assert not repro_ids & fixed_ids
    else:
        assert repro_ids <= fixed_ids
    code_cells = [c for c in fixed.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code_cells] == list(range(1, len(code_cells) + 1))
    assert not any(o.output_type == "error" for c in code_cells for o in c.outputs)
    assert not any(has_marker(c.source) for c in code_cells)


def test_notebook_specific_stories():
    # out of order: counts are not monotonic in document order, and a defining cell never ran
    nb = notebook("NBspecific_1", "reproduced")
    counts = [c.execution_count for c in nb.cells if c.cell_type == "code"]
    ran = [n for n in counts if n is not None]
    assert ran != sorted(ran)
    target, error = first_error(nb)
    assert error.ename == "NameError"
    name = re.search(r"name '(\w+)' is not defined", error.evalue).group(1)
    definers = [i for i, c in enumerate(nb.cells)
                if c.cell_type == "code" and re.search(rf"^{name}\s*=", c.source, re.M)]
    assert definers and all(i > target and nb.cells[i].execution_count is None for i in definers)
    # re-execution: a [reexecute] cell appears in NBspecific_2 and NBspecific_3
    for case in ["NBspecific_2", "NBspecific_3"]:
        nb = notebook(case, "reproduced")
        assert any(c.cell_type == "code" and c.source.startswith("# [reexecute]") for c in nb.cells)


@pytest.mark.parametrize("case", sorted(CRASH_IN_LAST_CELL))
def test_crash_in_the_last_code_cell(case):
    for kind in ["reproduced", "fixed"]:
        nb = notebook(case, kind)
        code_cells = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
        if kind == "reproduced":
            assert first_error(nb)[0] == code_cells[-1]
        else:  # the fix is in that last cell too
            before = notebook(case, "reproduced")
            last = [c for c in before.cells if c.cell_type == "code"][-1]
            assert nb.cells[code_cells[-1]].source != last.source


@pytest.mark.parametrize("case", CASES)
def test_reproduced_replays_to_the_recorded_crash(case, replays, descriptor):
    result = replays[case]
    target, _ = first_error(notebook(case, "reproduced"))
    assert result["ename"] is not None, f"{case}: the recorded-order replay did not crash"
    assert result["cell"] == target, (
        f"{case}: crashed in cell {result['cell']}, the target is cell {target}")
    assert result["ename"].lower() == descriptor[case]["ename"].lower()
    assert result["step"] == len(result["steps"]) - 1  # nothing was recorded after the crash


@pytest.mark.parametrize("case", CASES)
def test_fixed_runs_top_to_bottom(case, fixed_runs):
    assert fixed_runs[case] is None, fixed_runs[case]


def test_diagnoses_cover_every_case():
    wb = openpyxl.load_workbook(CASEBOOK / "diagnoses.xlsx")
    assert "Ground_truth" in wb.sheetnames
    header = [c.value for c in wb["Ground_truth"][1]]
    assert header[:5] == GT_COLUMNS
    rows = {row["instance"]: row for row in read_sheet(CASEBOOK / "diagnoses.xlsx", "Ground_truth")}
    assert set(rows) == {f"{c}_{k}" for c in CASES for k in ("reproduced", "fixed")}
    for case in CASES:
        repro, fixed = rows[f"{case}_reproduced"], rows[f"{case}_fixed"]
        assert repro["detection"] is True and fixed["detection"] is False
        assert isinstance(repro["diagnosis"], str) and len(repro["diagnosis"]) > 40
        assert fixed["diagnosis"] in (None, "")
        library = case.rsplit("_", 1)[0]
        expected = library if library in {"NBspecific", "numpy", "pandas", "sklearn",
                                           "tensorflow", "torch"} else "other"
        assert repro["library"] == fixed["library"] == expected


def test_the_build_digest_covers_the_script_and_every_casebook_file(tmp_path):
    import shutil

    script = build_script()
    copy = tmp_path / "casebook"
    shutil.copytree(CASEBOOK, copy)
    base = script.source_hash(copy)
    assert base == script.source_hash(copy)
    notebook_path = next((copy / "benchmark").glob("*/*_reproduced.ipynb"))
    notebook_path.write_bytes(notebook_path.read_bytes() + b" ")
    assert script.source_hash(copy) != base
    notebook_path.write_bytes(notebook_path.read_bytes()[:-1])
    assert script.source_hash(copy) == base
    (copy / "benchmark" / "extra.txt").write_text("x")
    assert script.source_hash(copy) != base
    (copy / "benchmark" / "extra.txt").unlink()
    (copy / script.HASH_FILE).write_text("anything")
    assert script.source_hash(copy) == base


def test_build_script_reproduces_the_casebook(background_build):
    if background_build is None:
        # The digest recorded by the last build matches the script and every casebook file now.
        assert build_script().recorded_hash() == build_script().source_hash()
        return
    proc, out, log = background_build
    try:
        proc.wait(timeout=600)
    except subprocess.TimeoutExpired:
        pytest.fail("build_demo.py did not finish in 10 minutes")
    log.seek(0)
    assert proc.returncode == 0, log.read()[-3000:]
    rebuilt = descriptor_rows(out)
    committed = descriptor_rows()
    assert [r["nb_name"] for r in rebuilt] == [r["nb_name"] for r in committed]
    for new, old in zip(rebuilt, committed, strict=True):
        case = old["nb_name"]
        assert new["ename"] == old["ename"], case
        assert new["evalue"] == old["evalue"], case
        for kind in ["original", "reproduced"]:
            a, b = notebook(case, kind, out / "benchmark"), notebook(case, kind)
            assert (a.nbformat, a.nbformat_minor) == (b.nbformat, b.nbformat_minor), case
            assert [(c.get("id"), c.cell_type, c.source, c.get("execution_count"))
                    for c in a.cells] == \
                   [(c.get("id"), c.cell_type, c.source, c.get("execution_count"))
                    for c in b.cells], f"{case}_{kind}"
        a, b = first_error(notebook(case, "reproduced", out / "benchmark")), \
            first_error(notebook(case, "reproduced"))
        assert a[0] == b[0] and a[1].ename == b[1].ename, case
        assert sorted(p.name for p in (out / "benchmark" / case / "data").iterdir()) == \
               sorted(p.name for p in (BENCH / case / "data").iterdir())
    gt_new = read_sheet(out / "diagnoses.xlsx", "Ground_truth")
    gt_old = read_sheet(CASEBOOK / "diagnoses.xlsx", "Ground_truth")
    assert [r["instance"] for r in gt_new] == [r["instance"] for r in gt_old]
