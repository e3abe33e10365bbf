"""The stand-in data of tests/_standin.py make the real JunoBench cases behave as recorded.

Needs the real material in ``../shared/junobench`` (third-party, never copied into the
repository): skipped with a reason when it is absent. Builds the stand-in casebook in a
temporary folder, runs every reproduced and fixed notebook's recorded cells in a fresh
kernel (two at a time, all at once on first use) and checks that

- each reproduced notebook raises its descriptor's exception class at the cell that
  holds the recorded error output, with the recorded message's opening words;
- each fixed notebook runs clean through all its recorded cells, the fixed crash cell
  included.

sklearn_3 imports tensorflow and catboost: its tests skip when those are not importable.
"""

from __future__ import annotations

import importlib.util
import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import _standin

SHARED = Path(__file__).resolve().parents[2] / "shared" / "junobench"

pytestmark = pytest.mark.skipif(
    not (SHARED / "benchmark_desc.xlsx").is_file(),
    reason=f"the real JunoBench material is not at {SHARED} (see tests/_standin.py)",
)

# (case, kind) pairs that have a notebook in the real folders; sklearn_5 has no fixed one.
NOTEBOOKS = [
    ("sklearn_3", "reproduced"),
    ("sklearn_3", "fixed"),
    ("sklearn_5", "reproduced"),
    ("sklearn_6", "reproduced"),
    ("sklearn_6", "fixed"),
    ("sklearn_7", "reproduced"),
    ("sklearn_7", "fixed"),
]


def _runnable(case: str) -> list[str]:
    """What keeps a case from running here: missing kernel tooling or libraries."""
    missing = [m for m in ("nbclient", "ipykernel") if importlib.util.find_spec(m) is None]
    return missing + _standin.missing_requirements(case)


class _Runs:
    """Builds the casebook and runs every runnable notebook once, two kernels at a time."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._results: dict[tuple[str, str], object] | None = None

    def casebook(self) -> Path:
        return self.root

    def result(self, case: str, kind: str):
        with self._lock:
            if self._results is None:
                self._results = self._run_all()
        outcome = self._results[(case, kind)]
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    def _run_all(self) -> dict[tuple[str, str], object]:
        os.environ.setdefault("MPLBACKEND", "Agg")
        todo = [(c, k) for c, k in NOTEBOOKS if not _runnable(c)]

        def one(item: tuple[str, str]):
            case, kind = item
            nb = self.root / "benchmark" / case / f"{case}_{kind}.ipynb"
            try:
                return _standin.run_recorded(nb, nb.parent, timeout=180)
            except BaseException as exc:  # reported by the test that asks for it
                return exc

        with ThreadPoolExecutor(max_workers=2) as pool:
            return dict(zip(todo, pool.map(one, todo), strict=True))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> _Runs:
    root = tmp_path_factory.mktemp("standin-casebook")
    _standin.build_casebook(root, [c for c in _standin.CASES], SHARED)
    return _Runs(root)


def test_casebook_layout(runs: _Runs) -> None:
    """The casebook looks like JunoBench and every case has the input files its notebooks read."""
    root = runs.casebook()
    assert (root / "benchmark_desc.xlsx").is_file() and (root / "diagnoses.xlsx").is_file()
    expected = {
        "sklearn_3": ["train_synthetic.csv", "test_synthetic.csv", "greeks_synthetic.csv"],
        "sklearn_5": ["iris.csv"],
        "sklearn_6": ["train.csv", "test.csv"],
        "sklearn_7": ["Customers.csv"],
    }
    for case, files in expected.items():
        for name in files:
            assert (root / "benchmark" / case / "data" / name).is_file(), f"{case}: data/{name} missing"


def test_generation_is_deterministic(tmp_path: Path) -> None:
    """The same seed writes byte-identical stand-in files."""
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        _standin.build_casebook(out, ["sklearn_5", "sklearn_6", "sklearn_7"], SHARED)
    for case, name in (
        ("sklearn_5", "iris.csv"),
        ("sklearn_6", "train.csv"),
        ("sklearn_6", "test.csv"),
        ("sklearn_7", "Customers.csv"),
    ):
        rel = Path("benchmark") / case / "data" / name
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


@pytest.mark.parametrize("case", ["sklearn_3", "sklearn_5", "sklearn_6", "sklearn_7"])
def test_reproduced_crashes_as_recorded(runs: _Runs, case: str) -> None:
    missing = _runnable(case)
    if missing:
        pytest.skip(f"{case} needs {', '.join(missing)}, not importable here")
    nb_path = runs.casebook() / "benchmark" / case / f"{case}_reproduced.ipynb"
    recorded = _standin.recorded_crash(json.loads(nb_path.read_text(encoding="utf-8")))
    assert recorded is not None, f"{case}: the reproduced notebook holds no error output"
    row = _standin.descriptor_row(runs.casebook(), case)
    result = runs.result(case, "reproduced")
    assert not result.ok, f"{case}: ran clean instead of crashing ({result.summary()})"
    assert result.error_cell == recorded[0], (
        f"{case}: crashed at cell {result.error_cell}, recorded at {recorded[0]}: {result.summary()}"
    )
    assert (result.ename or "").lower() == str(row["ename"]).lower(), f"{case}: {result.ename} instead of {row['ename']}"
    opening = str(row["evalue"]).splitlines()[0][:25]
    assert opening in (result.evalue or ""), f"{case}: message {result.evalue!r} does not start like the recorded {opening!r}"


@pytest.mark.parametrize("case", ["sklearn_3", "sklearn_6", "sklearn_7"])
def test_fixed_runs_clean(runs: _Runs, case: str) -> None:
    missing = _runnable(case)
    if missing:
        pytest.skip(f"{case} needs {', '.join(missing)}, not importable here")
    nb_path = runs.casebook() / "benchmark" / case / f"{case}_reproduced.ipynb"
    crash_cell = _standin.recorded_crash(json.loads(nb_path.read_text(encoding="utf-8")))[0]
    result = runs.result(case, "fixed")
    assert result.ok, f"{case}: the fixed notebook failed: {result.summary()}"
    assert crash_cell in result.executed, f"{case}: the fixed crash cell {crash_cell} did not run"
    assert result.executed[-1] >= crash_cell
