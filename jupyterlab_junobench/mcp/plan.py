"""The recorded replay order of a notebook and its recorded crash: ``recordedPlan`` of
``src/replay/plan.ts`` in Python (tests/test_mcp.py compares the two on every demo case).

The rule: the code cells with a numeric execution count, ascending by count (ties in document
order); the crashing cell (the first code cell holding an ``error`` output) always included, last
when it has no count; a cell whose first line holds a ``[reexecute]`` marker runs twice in a row.
Pure functions over notebook JSON.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from ..authoring import _ANSI

#: The ``[reexecute]`` marker of a cell's first line (any case), as in src/replay/plan.ts.
_MARKER = re.compile(r"\[re-?execute\]", re.IGNORECASE)


@dataclass(frozen=True)
class Step:
    """One step of a plan: the cell (0-based index among all cells), its recorded count, which run."""

    index: int
    count: int | None
    run: int
    is_target: bool


def strip_ansi(text: str) -> str:
    """The text without terminal colour codes (IPython colours its tracebacks)."""
    return _ANSI.sub("", text)


def source_text(cell: dict[str, Any]) -> str:
    """A cell's source as one string (nbformat stores a string or a list of lines)."""
    source = cell.get("source") or ""
    return "".join(source) if isinstance(source, list) else str(source)


def has_reexecute_marker(source: str) -> bool:
    """Whether the first line of a source holds a ``[reexecute]`` marker."""
    return bool(_MARKER.search(source.split("\n", 1)[0]))


def _count(cell: dict[str, Any]) -> int | None:
    c = cell.get("execution_count")
    if isinstance(c, bool) or not isinstance(c, (int, float)) or not math.isfinite(c):
        return None
    return int(c)


def recorded_error(nb: dict[str, Any]) -> dict[str, Any] | None:
    """The recorded crash: the first code cell in document order with an ``error`` output.

    ``{"index", "ename", "evalue", "traceback"}`` with colour codes removed, or None.
    """
    for index, cell in enumerate(nb.get("cells") or []):
        if cell.get("cell_type") != "code":
            continue
        for output in cell.get("outputs") or []:
            if output.get("output_type") == "error":
                return {
                    "index": index,
                    "ename": strip_ansi(str(output.get("ename") or "")),
                    "evalue": strip_ansi(str(output.get("evalue") or "")),
                    "traceback": [strip_ansi(t) for t in output.get("traceback") or [] if isinstance(t, str)],
                }
    return None


def recorded_plan(nb: dict[str, Any]) -> list[Step]:
    """The steps of the recorded replay, in order (see the module's docstring)."""
    target = recorded_error(nb)
    target_index = target["index"] if target else None
    cells = [
        (index, cell, _count(cell))
        for index, cell in enumerate(nb.get("cells") or [])
        if cell.get("cell_type") == "code" and (_count(cell) is not None or index == target_index)
    ]
    cells.sort(key=lambda c: (math.inf if c[2] is None else c[2], c[0]))
    steps: list[Step] = []
    for index, cell, count in cells:
        runs = 2 if has_reexecute_marker(source_text(cell)) else 1
        steps += [Step(index, count, run, index == target_index) for run in range(1, runs + 1)]
    return steps


def normalise_ename(name: str) -> str:
    """An exception name for comparison: no module prefix, no ``<class '...'>``, lower case."""
    s = strip_ansi(name).strip()
    m = re.fullmatch(r"<class\s+'([^']*)'>", s)
    if m:
        s = m.group(1)
    return s.rsplit(".", 1)[-1].strip().lower()
