"""The one fetcher of the JunoBench dataset: a full clone, or a sparse copy of chosen cases.

``python -m jupyterlab_junobench fetch <dest>`` serves people and the Node CLI
(``junobench fetch``) alike:

* with ``--cases``, ``--sparse`` or into a copy made that way, the sparse fetch
  of :mod:`.sparse` (a partial clone with a sparse checkout);
* otherwise :func:`clone_dataset`: ``git clone --depth 1``, then ``git lfs
  pull`` when git-lfs is here, then the layout checks.

For people it draws progress on stderr and prints a short summary. With
``--json-lines`` it writes one JSON object per line on stdout and nothing else:
``{"event": "progress", "phase", "percent", "code", ...params, "message"}``,
``{"event": "warning", "code", ...params, "message"}``, then ``{"event":
"summary", "mode", ...}`` or ``{"event": "error", "code", ...params,
"message"}``. Progress and warnings are :class:`.sparse.Progress` codes, errors
:class:`.sparse.FetchError` codes; ``message`` is English for logs, and the
caller words the codes (``junobench fetch`` through src/model/fetchProgress.ts
and src/model/fetchProblems.ts).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .sparse import (
    MARKER,
    FetchError,
    Git,
    Progress,
    ProgressCallback,
    check_dest,
    clone_url,
    describe_bytes,
    fetch_cases,
    has_git_lfs,
    lfs_pointers,
    not_junobench,
    read_marker,
    require_git,
    tree_size,
)

#: Configuration that keeps Git LFS pointer files when git-lfs is missing (instead of failing on
#: a filter a global configuration may require).
_NO_LFS_FILTER = ["-c", "filter.lfs.smudge=", "-c", "filter.lfs.process=", "-c", "filter.lfs.required=false"]


@dataclass
class CloneSummary:
    """What a full clone left on disk."""

    dest: str
    source: str
    #: The casebook root inside the clone (``dest`` or ``dest/JunoBench``).
    casebook: str
    #: Whether git-lfs was available.
    lfs: bool
    #: Files left as Git LFS pointers (casebook-relative).
    lfs_pointers: list[str] = field(default_factory=list)
    #: Bytes on disk of the whole clone (work tree and .git).
    disk_bytes: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data."""
        return dict(self.__dict__)


def clone_dataset(
    dest: str | Path,
    source: str,
    *,
    progress: ProgressCallback | None = None,
    timeout: float = 1800.0,
) -> CloneSummary:
    """Clone ``source`` into ``dest`` (absent or an empty folder) and check its JunoBench layout.

    A failed clone or a source that is not JunoBench leaves ``dest`` as it was;
    a descriptor left as a Git LFS pointer keeps the clone (only its large files
    are missing). Raises :class:`FetchError` naming what is wrong.
    """
    started = time.monotonic()
    report = progress or (lambda _p: None)
    require_git()
    target = Path(dest).expanduser().resolve()
    existed = check_dest(target)
    url = clone_url(source)
    lfs = has_git_lfs()
    if not lfs:
        report(Progress("warning", None, "no-git-lfs"))
    report(Progress("clone", None, "clone", {"url": url, "dest": str(target)}))
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        Git(target.parent, timeout).run(
            [*([] if lfs else _NO_LFS_FILTER), "clone", "--depth", "1", "--progress", url, str(target)],
            what=f"cannot fetch {url}: git clone",
            progress=lambda pct, step: report(Progress("clone", pct, step)),
        )
    except BaseException:
        _clean_up(target, existed)
        raise
    if lfs:
        # Explicitly: git-lfs may be installed without its filters configured (no `git lfs install`).
        try:
            Git(target, timeout).run(
                ["lfs", "pull"], what="git lfs pull", env={"GIT_LFS_SKIP_SMUDGE": "0"},
                progress=lambda pct, step: report(Progress("lfs", pct, step)),
            )
        except FetchError as err:
            report(Progress("warning", None, "lfs-pull-failed", {"problem": err.to_json()}))
    casebook = next((r for r in (target, target / "JunoBench") if (r / "benchmark_desc.xlsx").exists()), None)
    if casebook is None:
        _clean_up(target, existed)
        raise FetchError(
            f"{not_junobench(source)} The fetched files were removed from {target}.",
            "not-junobench",
            source=source,
            removed=str(target),
        )
    pointers = lfs_pointers(casebook, [casebook])
    if "benchmark_desc.xlsx" in pointers:
        raise FetchError(
            f"{casebook / 'benchmark_desc.xlsx'} is a Git LFS pointer, not the spreadsheet: install git-lfs "
            f"and run `git lfs pull` in {target}, or fetch again with git-lfs installed.",
            "descriptor-pointer",
            file=str(casebook / "benchmark_desc.xlsx"),
            dest=str(target),
        )
    if not (casebook / "benchmark").is_dir():
        _clean_up(target, existed)
        raise FetchError(
            f"{source} is not a JunoBench layout: {casebook} has benchmark_desc.xlsx but no benchmark/ folder "
            f"of cases. The fetched files were removed from {target}.",
            "no-cases-folder",
            source=source,
            casebook=str(casebook),
            removed=str(target),
        )
    report(Progress("done", 100.0, "done"))
    return CloneSummary(
        dest=str(target), source=source, casebook=str(casebook), lfs=lfs, lfs_pointers=pointers,
        disk_bytes=tree_size(target)[1], seconds=round(time.monotonic() - started, 3),
    )


def _clean_up(target: Path, existed: bool) -> None:
    """Remove what a failed clone left, keeping a destination that existed empty."""
    if not target.exists():
        return
    if not existed:
        shutil.rmtree(target, ignore_errors=True)
        return
    for entry in target.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


# --- command line --------------------------------------------------------------


class _Bar:
    """Progress for people: a bar on a terminal, plain lines otherwise."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.last: tuple[str, int] = ("", -1)

    def __call__(self, p: Progress) -> None:
        if self.tty:
            if p.percent is None:
                self.stream.write(f"\r\x1b[K{p.detail}\n")
            else:
                filled = int(p.percent / 5)
                self.stream.write(f"\r\x1b[K[{'#' * filled}{'.' * (20 - filled)}] {p.percent:3.0f}% {p.detail}")
                if p.percent >= 100:
                    self.stream.write("\n")
        else:
            # Plain lines: each phase once, then every quarter.
            step = -1 if p.percent is None else int(p.percent // 25)
            key = (f"{p.phase}:{p.detail}", step)
            if key == self.last:
                return
            self.last = key
            self.stream.write(p.detail + (f" {p.percent:.0f}%" if p.percent is not None else "") + "\n")
        self.stream.flush()


class _Lines:
    """Progress as JSON lines of codes: each phase and step once, then every 5 percent."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.last: tuple[str, str, str, int] = ("", "", "", -2)

    def __call__(self, p: Progress) -> None:
        step = -1 if p.percent is None else int(p.percent // 5)
        key = (p.phase, p.code, json.dumps(p.params, sort_keys=True), step)
        if key == self.last:
            return
        self.last = key
        if p.phase == "warning":
            self.write("warning", **p.to_json())
        else:
            self.write("progress", phase=p.phase, percent=p.percent, **p.to_json())

    def write(self, event: str, **data: Any) -> None:
        self.stream.write(json.dumps({"event": event, **data}) + "\n")
        self.stream.flush()


def _report_error(err: FetchError, lines: _Lines | None, lead: str = "") -> None:
    """The error as a JSON line of its code, or as a sentence on stderr."""
    if lines:
        lines.write("error", **err.to_json())
    else:
        print(f"{lead}junobench fetch: {err}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """``python -m jupyterlab_junobench fetch <dest> [--source S] [--cases a,b] [--sparse] [--json|--json-lines]``."""
    parser = argparse.ArgumentParser(
        prog="python -m jupyterlab_junobench fetch",
        description="Fetch a JunoBench git repository: all of it, or its descriptor files and chosen case folders.",
    )
    parser.add_argument("dest")
    parser.add_argument("--source", default=None, help="repository URL or local folder (new copies)")
    parser.add_argument("--cases", default="", help="comma-separated case names (a sparse copy)")
    parser.add_argument("--sparse", action="store_true", help="a sparse copy, even without --cases")
    parser.add_argument("--timeout", type=float, default=1800.0)
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the summary as JSON on stdout")
    out.add_argument("--json-lines", action="store_true", help="progress and summary as JSON lines on stdout")
    args = parser.parse_args(argv)
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    lines = _Lines(sys.stdout) if args.json_lines else None
    report = lines or _Bar(sys.stderr)
    sparse = bool(cases) or args.sparse or read_marker(Path(args.dest).expanduser()) is not None
    try:
        if sparse:
            summary: Any = fetch_cases(args.dest, cases, args.source, progress=report, timeout=args.timeout)
        elif args.source is None:
            dest = Path(args.dest).expanduser().resolve()
            raise FetchError(
                f"{dest} is not a copy made by junobench fetch (no .git/{MARKER}): give the source to fetch from.",
                "no-source",
                dest=str(dest),
                marker=f".git/{MARKER}",
            )
        else:
            summary = clone_dataset(args.dest, args.source, progress=report, timeout=args.timeout)
    except FetchError as err:
        _report_error(err, lines)
        return 1
    except KeyboardInterrupt:
        stop = FetchError(
            f"interrupted; run the same command again to resume in {args.dest}.", "interrupted", dest=args.dest
        )
        # On a terminal, below the ^C.
        _report_error(stop, lines, lead="\n")
        return 130
    if lines:
        lines.write("summary", mode="sparse" if sparse else "full", **summary.to_json())
    elif args.json:
        print(json.dumps(summary.to_json(), indent=1))
    elif sparse:
        print(f"{len(summary.cases)} case folder(s) in {summary.casebook}: {', '.join(summary.cases) or '(none)'}")
        print(f"disk used: {describe_bytes(summary.disk_bytes)}")
    else:
        print(f"casebook: {summary.casebook}")
        if summary.lfs_pointers:
            print(f"{len(summary.lfs_pointers)} file(s) are Git LFS pointers; run `git lfs pull` in {summary.dest}.")
        print(f"disk used: {describe_bytes(summary.disk_bytes)}")
    return 0
