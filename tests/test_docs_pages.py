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
