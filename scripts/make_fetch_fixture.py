#!/usr/bin/env python3
"""Build a local git repository laid out like the JunoBench dataset, for fetch tests.

    python scripts/make_fetch_fixture.py DEST [--data-kb N] [--no-lfs] [--json]

It holds the demo casebook (10 cases) under ``JunoBench/``, as the dataset does:
``JunoBench/benchmark_desc.xlsx``, ``JunoBench/diagnoses.xlsx`` and
``JunoBench/benchmark/<case>/``. With git-lfs installed (and without
``--no-lfs``) the data files are tracked by git-lfs, as large files are in the
dataset; otherwise they are plain files. ``--data-kb`` adds a file of that many
kilobytes of incompressible data to each case's ``data/``, so that what a fetch
transfers can be measured. The repository allows partial clones
(``uploadpack.allowFilter``), as the dataset's host does.

With ``--json`` it prints, per case, the blob ids of the case folder's files
and the Git LFS object ids of its large files, for tests that check what a
fetch transferred.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "demo" / "casebook"


def has_git_lfs() -> bool:
    """Whether git-lfs is installed."""
    return subprocess.run(["git", "lfs", "version"], capture_output=True).returncode == 0


def git(cwd: Path, *args: str) -> str:
    """Run git in ``cwd`` with a fixed identity; return its output."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "JunoBench fixture",
        "GIT_AUTHOR_EMAIL": "fixture@example.invalid",
        "GIT_COMMITTER_NAME": "JunoBench fixture",
        "GIT_COMMITTER_EMAIL": "fixture@example.invalid",
    }
    done = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed in {cwd}: {done.stderr.strip()}")
    return done.stdout


def build(dest: Path, *, data_kb: int = 0, lfs: bool | None = None) -> dict[str, object]:
    """Create the fixture repository in ``dest`` (which must not exist); return what it holds."""
    if dest.exists():
        raise SystemExit(f"{dest} exists: the fixture is built into a new folder.")
    use_lfs = has_git_lfs() if lfs is None else lfs
    root = dest / "JunoBench"
    shutil.copytree(DEMO, root)
    if data_kb > 0:
        for case in sorted((root / "benchmark").iterdir()):
            seed = hashlib.sha256(case.name.encode()).digest()
            blob = bytearray()
            while len(blob) < data_kb * 1024:
                seed = hashlib.sha256(seed).digest()
                blob += seed
            (case / "data" / "extra.bin").write_bytes(bytes(blob[: data_kb * 1024]))
    git(dest, "init", "--quiet", "-b", "main")
    if use_lfs:
        git(dest, "lfs", "install", "--local")
        git(dest, "lfs", "track", "JunoBench/benchmark/*/data/**")
    git(dest, "add", "-A")
    git(dest, "commit", "--quiet", "-m", "JunoBench-like fixture from the demo casebook")
    git(dest, "config", "uploadpack.allowFilter", "true")
    git(dest, "config", "uploadpack.allowAnySHA1InWant", "true")
    cases: dict[str, dict[str, list[str]]] = {}
    for line in git(dest, "ls-tree", "-r", "HEAD", "JunoBench/benchmark/").splitlines():
        meta, path = line.split("\t", 1)
        case = path.split("/")[2]
        entry = cases.setdefault(case, {"blobs": [], "lfs": []})
        entry["blobs"].append(meta.split()[2])
    if use_lfs:
        for line in git(dest, "lfs", "ls-files", "--long").splitlines():
            oid, _mark, path = line.split(" ", 2)
            cases[path.split("/")[2]]["lfs"].append(oid)
    return {"path": str(dest), "lfs": use_lfs, "cases": cases}


def main() -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest")
    parser.add_argument("--data-kb", type=int, default=0)
    parser.add_argument("--no-lfs", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    info = build(Path(args.dest).resolve(), data_kb=args.data_kb, lfs=False if args.no_lfs else None)
    if args.json:
        print(json.dumps(info, indent=1))
    else:
        print(f"{info['path']}: {len(info['cases'])} cases, data files {'in git-lfs' if info['lfs'] else 'plain'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
