"""Baselines for `junobench verify`: the same work done by a plain nbclient loop and a papermill loop.

For every case folder under <casebook>/benchmark/ (or the cases named with --cases), each tool
executes the case's reproduced notebook in a fresh kernel, in the case folder, until the first
error, and then the fixed notebook in a fresh kernel, every cell, errors allowed. Kernel start
and shutdown are included, as they are in `junobench verify`.

- nbclient runs the cells in the recorded order (execution count, then position; cells that never
  ran are skipped, except the cell holding the recorded error; `[reexecute]` cells run twice), like
  junobench's recorded plan;
- papermill can only run top to bottom, so it runs every code cell in document order.

Prints one JSON line per tool and case, then one summary line per tool:
  {"tool": "nbclient", "case": "numpy_1", "notebook": "reproduced", "ms": 1234.5, "cells": 7, "stopped": "ValueError"}
  {"tool": "nbclient", "summary": true, "total_ms": ..., "cases": N}

Usage: python scripts/bench_nbclient_verify.py demo/casebook [--cases a,b] [--tools nbclient,papermill]
       [--kernel python3] [--timeout 300]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


REEXECUTE = re.compile(r"\[re-?execute\]", re.IGNORECASE)


def recorded_order(nb: nbformat.NotebookNode) -> list[int]:
    """Indexes of the code cells junobench's recorded plan runs, in its order.

    Like src/replay/plan.ts: cells by execution count (then position), the cell
    holding the recorded error even without a count, and a cell whose first line
    has a `[reexecute]` marker (in a comment) run twice.
    """
    cells = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        count = cell.get("execution_count")
        has_error = any(o.get("output_type") == "error" for o in cell.get("outputs", []))
        if count is None and not has_error:
            continue
        cells.append((count if count is not None else float("inf"), index))
    cells.sort()
    order = []
    for _, index in cells:
        order.append(index)
        first_line = nb.cells[index].source.split("\n", 1)[0]
        if REEXECUTE.search(first_line):
            order.append(index)
    return order


def run_nbclient(path: Path, kernel: str, timeout: int, stop_on_error: bool) -> tuple[int, str | None]:
    """Run a notebook's cells in recorded order with nbclient in its folder; (cells run, error name)."""
    nb = nbformat.read(path, as_version=4)
    order = recorded_order(nb)
    client = NotebookClient(
        nb,
        kernel_name=kernel,
        timeout=timeout,
        allow_errors=not stop_on_error,
        resources={"metadata": {"path": str(path.parent)}},
    )
    ran = 0
    stopped = None
    with client.setup_kernel():
        for index in order:
            ran += 1
            try:
                client.execute_cell(nb.cells[index], index)
            except CellExecutionError as error:
                stopped = error.ename
                break
    return ran, stopped


def run_papermill(path: Path, kernel: str, timeout: int, stop_on_error: bool, out_dir: Path) -> tuple[int, str | None]:
    """Run a notebook top to bottom with papermill in its folder; (code cells run, error name)."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    out = out_dir / path.name
    stopped = None
    try:
        result = papermill.execute_notebook(
            str(path),
            str(out),
            kernel_name=kernel,
            cwd=str(path.parent),
            execution_timeout=timeout,
            progress_bar=False,
            log_output=False,
            # The fixed notebook runs to the end whatever happens, like verify's fixed run.
            **({} if stop_on_error else {"allow_errors": True}),
        )
    except PapermillExecutionError as error:
        stopped = error.ename
        result = nbformat.read(out, as_version=4)
    ran = sum(1 for c in result.cells if c.cell_type == "code" and c.get("execution_count") is not None)
    return ran, stopped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("casebook", type=Path)
    parser.add_argument("--cases", default="")
    parser.add_argument("--tools", default="nbclient,papermill")
    parser.add_argument("--kernel", default="python3")
    parser.add_argument("--timeout", type=int, default=300)
    args = parser.parse_args()

    bench = args.casebook / "benchmark"
    if not bench.is_dir():
        print(f"{bench}: no benchmark/ folder in the casebook", file=sys.stderr)
        return 2
    wanted = [n for n in args.cases.split(",") if n]
    names = wanted or sorted(p.name for p in bench.iterdir() if p.is_dir() and not p.name.startswith("."))
    tools = [t for t in args.tools.split(",") if t]
    for tool in tools:
        if tool not in ("nbclient", "papermill"):
            print(f"--tools: unknown tool {tool!r} (nbclient, papermill)", file=sys.stderr)
            return 2

    with tempfile.TemporaryDirectory(prefix="junobench-papermill-") as tmp:
        for tool in tools:
            total = 0.0
            done = 0
            for name in names:
                for kind, stop in (("reproduced", True), ("fixed", False)):
                    path = bench / name / f"{name}_{kind}.ipynb"
                    if not path.is_file():
                        print(json.dumps({"tool": tool, "case": name, "notebook": kind, "skipped": f"{path} is missing"}))
                        continue
                    started = time.perf_counter()
                    if tool == "nbclient":
                        ran, stopped = run_nbclient(path, args.kernel, args.timeout, stop)
                    else:
                        ran, stopped = run_papermill(path, args.kernel, args.timeout, stop, Path(tmp))
                    ms = (time.perf_counter() - started) * 1000
                    total += ms
                    row = {"tool": tool, "case": name, "notebook": kind, "ms": round(ms, 1), "cells": ran, "stopped": stopped}
                    print(json.dumps(row), flush=True)
                done += 1
            print(json.dumps({"tool": tool, "summary": True, "total_ms": round(total, 1), "cases": done}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
