#!/usr/bin/env python3
"""Bytes and seconds of a 2-case sparse fetch against a full clone of the fetch fixture.

    python scripts/benchmark-fetch.py [--data-kb 1024] [--runs 3] [--json FILE]

The fixture (scripts/make_fetch_fixture.py) is the 10 demo cases laid out like
the dataset, each with ``--data-kb`` of incompressible data added, in git-lfs
when it is installed and as plain files otherwise (both are measured when
git-lfs is here). "Transferred" is what landed in the copy's object stores
(git packs and loose objects, plus Git LFS objects); "disk" adds the work tree.
Prints one table; the median of ``--runs`` runs. ``--json FILE`` writes the same rows with the
date, machine and command (scripts/bench_meta.py), for the docs' numbers page.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from jupyterlab_junobench.fetch import clone_dataset  # noqa: E402
from jupyterlab_junobench.sparse import describe_bytes, fetch_cases  # noqa: E402

sys.path.insert(0, str(REPO / "scripts"))
from bench_meta import meta  # noqa: E402

CASES = ["NBspecific_1", "sklearn_1"]


def _fixture_module():
    spec = importlib.util.spec_from_file_location("make_fetch_fixture", REPO / "scripts" / "make_fetch_fixture.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader
    spec.loader.exec_module(module)
    return module


def _size(root: Path) -> int:
    total = 0
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                pass
    return total


def _stores(copy: Path) -> int:
    return _size(copy / ".git" / "objects") + _size(copy / ".git" / "lfs" / "objects")


def full_clone(source: Path, dest: Path) -> tuple[float, int, int]:
    """The full clone of the one fetcher (``git clone --depth 1``, ``git lfs pull``): seconds, transferred, disk."""
    started = time.monotonic()
    clone_dataset(dest, str(source))
    return time.monotonic() - started, _stores(dest), _size(dest)


def sparse(source: Path, dest: Path) -> tuple[float, int, int]:
    """The sparse fetch of CASES: seconds, transferred, disk."""
    started = time.monotonic()
    fetch_cases(dest, CASES, str(source))
    return time.monotonic() - started, _stores(dest), _size(dest)


def main() -> int:
    """Build the fixtures, time both ways, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-kb", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", help="also write the rows, with date, machine and command, to this file")
    args = parser.parse_args()
    fixture = _fixture_module()
    modes = [False, True] if fixture.has_git_lfs() else [False]
    rows = []
    with tempfile.TemporaryDirectory(prefix="junobench-bench-fetch-") as tmp:
        work = Path(tmp)
        for lfs in modes:
            source = work / f"source-{'lfs' if lfs else 'plain'}"
            fixture.build(source, data_kb=args.data_kb, lfs=lfs)
            for name, run in (("full clone", lambda d, s=source: full_clone(s, d)),
                              (f"sparse, {len(CASES)} cases", lambda d, s=source: sparse(s, d))):
                results = []
                for i in range(args.runs):
                    dest = work / f"copy-{i}"
                    results.append(run(dest))
                    shutil.rmtree(dest)
                rows.append((
                    "git-lfs" if lfs else "plain files",
                    name,
                    statistics.median(r[0] for r in results),
                    statistics.median(r[1] for r in results),
                    statistics.median(r[2] for r in results),
                ))
    print(f"Fetch fixture: 10 cases, {args.data_kb} kB of data added per case; median of {args.runs} runs")
    print(f"{'data files':<12} {'fetch':<18} {'seconds':>8} {'transferred':>12} {'disk':>10}")
    for mode, name, seconds, moved, disk in rows:
        print(f"{mode:<12} {name:<18} {seconds:>8.2f} {describe_bytes(int(moved)):>12} {describe_bytes(int(disk)):>10}")
    by_mode: dict[str, list[tuple]] = {}
    for row in rows:
        by_mode.setdefault(row[0], []).append(row)
    for mode, (full, part) in by_mode.items():
        print(f"{mode}: the sparse fetch moved {part[3] / full[3]:.0%} of the full clone's bytes "
              f"in {part[2] / full[2]:.0%} of its time")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "meta": meta(),
            "cases": len(CASES),
            "data_kb": args.data_kb,
            "runs": args.runs,
            "rows": [
                {"data_files": mode, "fetch": name, "seconds": seconds, "transferred_bytes": int(moved),
                 "disk_bytes": int(disk)}
                for mode, name, seconds, moved, disk in rows
            ],
        }, indent=1))
        print(f"(written to {args.json})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
