"""The docs' generated pages (docs/_ext/junobench_pages.py): the numbers from the benchmarks' JSON, the
settings from schema/, the CLI's subcommands. Pure: no Sphinx, no CLI run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "docs" / "_ext"))

import junobench_pages as pages  # noqa: E402

META = {"date": "2026-12-05T01:00:00+00:00", "machine": "2 cores (X)", "load": [1.0, 0.5, 0.2], "command": "python scripts/x.py"}


def write(folder: Path, name: str, data: object) -> None:
    (folder / name).write_text(json.dumps(data))


def test_each_figure_comes_with_its_date_machine_and_command(tmp_path: Path) -> None:
    write(
        tmp_path,
        "junobench-bench-kernel-start.json",
        {
            "forked": {"first_s": 1.5, "first_cpu_s": 1.1, "median_s": 0.52, "slowest_s": 0.7, "median_cpu_s": 0.67},
            "plain": {"first_s": 1.4, "first_cpu_s": 1.6, "median_s": 1.29, "slowest_s": 1.5, "median_cpu_s": 1.68},
            "meta": META,
        },
    )
    write(
        tmp_path,
        "junobench-check-corpus.json",
        {
            "meta": {**META, "command": "node scripts/check-corpus.js --jobs 2 --json x.json"},
            "results": [
                {"corpus": "mutation", "expectStatus": "solved", "got": "solved", "passed": True, "expectPass": True, "ms": 1000},
                {"corpus": "fair", "expectStatus": None, "passed": True, "expectPass": False, "ms": 3000},
            ],
        },
    )
    # junobench verify's own JSON records no date, machine or command: the page says so.
    write(tmp_path, "junobench-verify-demo.json", {"casebook": "casebook", "jobs": 2, "seconds": 30.5, "reports": []})
    page = pages.numbers_page(tmp_path)
    kernel = page.split("### Pinned kernels")[1].split("###")[0]
    assert "- date: 2026-12-05T01:00:00+00:00" in kernel
    assert "- machine: 2 cores (X), load average 1.0 / 0.5 / 0.2" in kernel
    assert "- command: `python scripts/x.py`" in kernel
    assert "| later kernels, median (s) | 0.52 | 1.29 |" in kernel
    corpus = page.split("### The repair check")[1].split("###")[0]
    assert "- command: `node scripts/check-corpus.js --jobs 2 --json x.json`" in corpus
    assert "| mutation | 1 | 1 | 0 | 0 | 1000 |" in corpus
    assert "| fair | 1 | 0 | 1 | 0 | 3000 |" in corpus
    assert "| all | 2 | 1 | 1 | 0 | 2000 |" in corpus
    verify = page.split("### `junobench verify` of the demo casebook")[1].split("###")[0]
    assert "this JSON does not record its date" in verify and "as `scripts/test.sh` runs it" in verify
    assert "| casebook | 0 | 0 | 0 | 0 | 2 | 30.5 |" in verify
    # What is not measured yet says which command makes it.
    missing = page.split("### Not measured here yet")[1]
    assert "python scripts/benchmark-container.py" in missing and "junobench-verify-real.json" in missing


def test_the_mcp_benchmark_shows_each_cell_and_the_total(tmp_path: Path) -> None:
    write(
        tmp_path,
        "junobench-bench-mcp.json",
        {
            "meta": META,
            "case": "numpy_1",
            "repeats": 20,
            "kernel": "python3",
            "cells": [{"index": 1, "directMs": 2.0, "mcpMs": 5.0, "ratio": 2.5, "serverMs": 3.0}],
            "directMs": 2.0,
            "mcpMs": 5.0,
            "serverMs": 3.0,
            "ratio": 2.5,
            "serverRatio": 1.5,
        },
    )
    page = pages.numbers_page(tmp_path)
    assert "| 1 | 2.00 | 5.00 | 2.50 | 3.00 |" in page and "| all | 2.00 | 5.00 | 2.50 | 3.00 |" in page


def test_a_json_of_another_shape_fails_the_build(tmp_path: Path) -> None:
    write(tmp_path, "junobench-bench-container.json", {"junobench": {"start_s": 1}})
    with pytest.raises(pages.PageError, match="junobench-bench-container.json"):
        pages.numbers_page(tmp_path)


def test_every_setting_of_every_schema_is_on_the_settings_page() -> None:
    page = pages.settings_page()
    for path in (REPO / "schema").glob("*.json"):
        schema = json.loads(path.read_text("utf-8"))
        assert f"## {schema['title']}" in page
        for name in schema.get("properties", {}):
            assert f"| `{name}` |" in page
    for option in ("tcp_nodelay", "allow_fetch", "demo_folder"):
        assert f"| `{option}` |" in page


def test_the_subcommands_are_read_from_the_usage_once_each() -> None:
    usage = (
        "Usage:\n  junobench list <c>\n  junobench check a\n                  [--x]\n"
        "  junobench check b\n  junobench new <c>\n"
    )
    assert pages.subcommands(usage) == ["list", "check", "new"]


def test_the_benchmarks_that_printed_only_are_read_from_their_json(tmp_path: Path) -> None:
    write(
        tmp_path,
        "junobench-bench-fetch.json",
        {
            "meta": META,
            "cases": 2,
            "data_kb": 1024,
            "runs": 3,
            "rows": [
                {
                    "data_files": "plain files",
                    "fetch": "full clone",
                    "seconds": 1.5,
                    "transferred_bytes": 10_600_000,
                    "disk_bytes": 21_000_000,
                }
            ],
        },
    )
    write(
        tmp_path,
        "junobench-bench-state.json",
        {
            "meta": META,
            "repeats": 3,
            "cases": [
                {
                    "name": "numpy_1",
                    "steps": 5,
                    "trackedMs": 1100,
                    "untrackedMs": 1000,
                    "payloadMedianBytes": 120,
                    "payloadMaxBytes": 900,
                }
            ],
            "ratio": 1.1,
        },
    )
    write(
        tmp_path,
        "junobench-bench.json",
        {
            "meta": META,
            "descriptor": None,
            "bundle": {"total": 2048, "files": 3, "dev": False},
            "perCell": {"cells": 200, "nodelayOnMs": 2.5, "nodelayOffMs": 9.0, "nbclientMs": 1.5},
            "openToCrash": [
                {"name": "numpy_1", "totalMs": 1700, "kernelStartMs": 600, "cells": 5, "status": "error", "ename": "ValueError"}
            ],
            "checkRepeats": 3,
            "checkVsRunAll": [
                {"name": "numpy_1", "checkMs": 2600, "runAllMs": 2000, "ratio": 1.3, "check": "solved, 5/5 cells"}
            ],
        },
    )
    write(
        tmp_path,
        "junobench-bench-browser.json",
        {"meta": META, "lines": [{"measure": "open→crash shown numpy_1", "value": "1.70 s | done"}]},
    )
    spawn = {"p50": 15.1, "p90": 15.8, "max": 15.9, "n": 3}
    write(
        tmp_path,
        "junobench-bench-hub.json",
        {
            "meta": META,
            "case": "numpy_1",
            "groups": [
                {"users": 3, "reached_crash": 3, "wall_s": 21.0, "errors": [],
                 "rows": {"spawn": spawn, "open -> crash": spawn, "replay to crash": None}},
            ],
        },
    )
    write(
        tmp_path,
        "junobench-bench-ratios.json",
        {
            "meta": META,
            "perCell": {"cells": 200, "oursMs": 3.0, "nbclientMs": 2.0, "oursTotalMs": 600, "nbclientTotalMs": 400},
            "verify": {"repeats": 1, "notes": {},
                       "medianMs": {"jobs1": 30000, "jobs2": 20000, "nbclient": 25000, "papermill": 40000}},
        },
    )
    page = pages.numbers_page(tmp_path)
    assert "ours 3.00 ms, nbclient 2.00 ms (ratio 1.50)" in page
    assert "| verify --jobs 2 | 20.0 | 0.80 | 0.50 |" in page
    for title in ("A sparse fetch", "The Node runner", "Replaying with and without", "In Chromium", "Learners starting",
                  "Our runner and"):
        section = page.split(f"### {title}")[1].split("###")[0]
        assert "- date: 2026-12-05T01:00:00+00:00" in section and "- command: `python scripts/x.py`" in section, title
    assert "| plain files | full clone | 1.50 | 10.6 MB | 21.0 MB |" in page
    assert "| numpy_1 | 5 | 1.10 | 1.00 | 10.0% | 120 B / 900 B |" in page
    assert "| ours, TCP_NODELAY on | 2.50 |" in page and "| numpy_1 | 1.70 | 0.60 | 5 | error ValueError |" in page
    assert "| numpy_1 | 2600 | 2000 | 1.30 | solved, 5/5 cells |" in page
    assert "| open→crash shown numpy_1 | 1.70 s \\| done |" in page
    assert "| 3 | 3/3 | 21.0 | 15.1 / 15.8 / 15.9 | 15.1 / 15.8 / 15.9 | – |" in page
    missing = page.split("### Not measured here yet")[1]
    for script in ("benchmark-fetch.py", "benchmark.js", "benchmark-state.js", "benchmark-browser.sh", "benchmark-hub.py",
                   "benchmark-ratios.js"):
        assert script not in missing, script


def test_the_bench_run_of_the_corpora_shows_each_class_against_the_plain_check(tmp_path: Path) -> None:
    cached = {"reference": {"cached": True}}
    times = {"plainMs": 1000, "runAllMs": 1000}
    write(
        tmp_path,
        "junobench-check-corpus-bench.json",
        {
            "meta": META,
            "results": [
                {"class": "cheat-plain", "passed": False, "expectPass": False, "plainPassed": True, "ms": 2000, **times,
                 "evidence": cached},
                {"class": "fair-genuine", "passed": True, "expectPass": True, "plainPassed": False, "ms": 1500, **times,
                 "evidence": cached},
                {"class": "fair-genuine", "passed": True, "expectPass": True, "plainPassed": True, "ms": 4000, **times,
                 "evidence": {"reference": {"cached": False}}},
            ],
        },
    )
    page = pages.numbers_page(tmp_path).split("### The repair check against the plain check")[1].split("###")[0]
    assert "| cheat-plain | 1 | 0 / 0 | 1 / 0 |" in page
    assert "| fair-genuine | 2 | 0 / 0 | 0 / 1 |" in page
    assert "the check's median 1.75 s" in page and "median 1.75 (p90 2.00)" in page
    assert "The first check of a case (the reference fix run twice too): median 4.0 s." in page
    # A run without --bench in that file is not what the command writes.
    write(tmp_path, "junobench-check-corpus-bench.json", {"meta": META, "results": [{"class": "x", "passed": True}]})
    with pytest.raises(pages.PageError, match="junobench-check-corpus-bench.json"):
        pages.numbers_page(tmp_path)
