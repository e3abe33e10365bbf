"""Fetch JunoBench case by case: a git partial clone with a sparse checkout.

A learner who wants three scikit-learn cases should not download every data set
of the benchmark. :func:`fetch_cases` makes (or extends) a copy of a JunoBench
git repository that holds the descriptor files and only the chosen case
folders:

* the commit and its trees are fetched without file contents
  (``--filter=blob:none --depth 1``); a file's content is fetched when it is
  checked out, so only the chosen folders' files cross the network;
* the sparse checkout lists the descriptor files and ``benchmark/<case>/`` for
  each chosen case (non-cone patterns, so no other folder's files come along);
* large files tracked by git-lfs are downloaded for those paths only (by
  checking them out with the LFS smudge filter; see :func:`_restore`).

Every step can run again: a copy records its source, commit and cases in
``.git/junobench-fetch.json``, so running the fetch again adds cases and an
interrupted fetch resumes where it stopped (the commit is not fetched twice).

The same function serves ``junobench fetch --cases`` (through
``python -m jupyterlab_junobench fetch``, see :mod:`.fetch`, which also holds
the full clone) and the server's "Fetch this case". The git and git-lfs checks,
the destination check, the Git LFS pointer scan and the size formatter here are
the ones the full clone uses too.
It never takes a source from anyone but the person who made the copy: adding
cases to an existing copy reuses the source recorded in it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable
from urllib.request import pathname2url

from .names import describe_name_problem, name_problem

#: Where a copy records how it was made, inside its ``.git`` folder.
MARKER = "junobench-fetch.json"
#: Held while a fetch runs in a copy, so two fetches never interleave.
LOCK = "junobench-fetch.lock"
#: The local branch the copy's work tree is on.
BRANCH = "junobench"
#: Files of the casebook root that every copy checks out (those present).
DESCRIPTOR_FILES = ("benchmark_desc.xlsx", "diagnoses.xlsx", "README.md", "LICENSE", ".gitattributes")
#: The steps of git and git-lfs that print a percentage, and their progress codes.
GIT_STEPS = {
    "Receiving objects": "receiving-objects",
    "Resolving deltas": "resolving-deltas",
    "Counting objects": "counting-objects",
    "Downloading LFS objects": "downloading-lfs-objects",
    "Updating files": "updating-files",
}
#: Progress lines of git and git-lfs (``Receiving objects:  45% (9/20)``).
GIT_PROGRESS = re.compile(rf"({'|'.join(GIT_STEPS)}):\s+(\d+)%")
#: The first bytes of a Git LFS pointer file.
LFS_POINTER = b"version https://git-lfs.github.com/spec/"


class FetchError(Exception):
    """A fetch that cannot go on: a code and its parameters for programs, and the English of both.

    The panel words the code (``renderFetchJobProblem`` in src/model/fetchProblems.ts);
    the message is English for logs and ``junobench fetch``.
    """

    def __init__(self, message: str, code: str = "fetch-failed", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def to_json(self) -> dict[str, Any]:
        """``{"code", ...params, "message"}``."""
        return {"code": self.code, **self.params, "message": str(self)}


@dataclass
class Progress:
    """One progress report: the phase, a percentage when git gives one, and what happens as a code.

    ``code`` and ``params`` say what happens (``checkout`` with ``{"cases":
    [...]}``, ``lfs-files`` with ``{"done": 3, "total": 9}``,
    ``receiving-objects``, a warning such as ``no-git-lfs``); the panel and
    ``junobench fetch`` word them (``renderFetchProgress`` in
    src/model/fetchProgress.ts). ``detail`` is their English, for people and logs.
    """

    phase: str
    percent: float | None
    code: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def detail(self) -> str:
        """The English of the code (:func:`describe_progress`)."""
        return describe_progress(self.code, self.params)

    def to_json(self) -> dict[str, Any]:
        """``{"code", ...params, "message"}``, as a failure's :meth:`FetchError.to_json`."""
        return {"code": self.code, **self.params, "message": self.detail}


#: The English of the progress codes whose words are one template (the others: :func:`describe_progress`).
PROGRESS_WORDS = {
    "fetch-list": "fetching the file list of {source}",
    "receiving-objects": "receiving objects",
    "resolving-deltas": "resolving deltas",
    "counting-objects": "counting objects",
    "downloading-lfs-objects": "downloading large files (git-lfs)",
    "updating-files": "updating files",
    "lfs-files": "downloading large files (git-lfs): {done}/{total}",
    "clone": "cloning {url} into {dest}",
    "done": "done",
    "no-git-lfs": "warning: git-lfs is not installed: the small files are cloned, but large files (spreadsheets, "
    "data) stay Git LFS pointer files. Install git-lfs, then run `git lfs pull` in the destination.",
}


def describe_progress(code: str, params: dict[str, Any]) -> str:
    """The English of a progress code, word for word ``renderFetchProgress``'s (a jest spec compares them)."""
    if code == "checkout":
        cases = params["cases"]
        if not cases:
            return "checking out the descriptor files"
        return f"checking out the descriptor files and {len(cases)} case folder(s): {', '.join(cases)}"
    if code == "lfs-pull-failed":
        return f"warning: git lfs pull failed ({params['problem']['message']}); large files may be Git LFS pointers."
    return PROGRESS_WORDS[code].format(**params)


ProgressCallback = Callable[[Progress], None]


@dataclass
class FetchSummary:
    """What a sparse fetch left on disk."""

    dest: str
    source: str
    commit: str
    #: The casebook root inside the copy (``dest`` or ``dest/JunoBench``).
    casebook: str
    #: Casebook-relative prefix of the casebook inside the repository ('' or 'JunoBench/').
    prefix: str
    #: Case folders checked out, sorted.
    cases: list[str]
    #: Cases this run added.
    added: list[str]
    #: Case folders the source has (whether checked out or not), sorted.
    available: list[str]
    #: Whether this run continued a copy that existed (an added case or an interrupted fetch).
    resumed: bool
    #: Whether git-lfs was available.
    lfs: bool
    #: Checked-out files left as Git LFS pointers (repository-relative).
    lfs_pointers: list[str] = field(default_factory=list)
    #: Git objects in the copy, and the bytes of its packs and loose objects.
    objects: int = 0
    object_bytes: int = 0
    #: Git LFS objects in the copy and their bytes.
    lfs_objects: int = 0
    lfs_bytes: int = 0
    #: Bytes on disk of the whole copy (work tree and .git).
    disk_bytes: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data."""
        return dict(self.__dict__)


def fetch_cases(
    dest: str | os.PathLike[str],
    cases: list[str] | None = None,
    source: str | None = None,
    *,
    progress: ProgressCallback | None = None,
    timeout: float = 1800.0,
) -> FetchSummary:
    """Make or extend a sparse copy of ``source`` in ``dest`` holding ``cases``.

    Without cases only the descriptor files are checked out (to resolve
    selectors against the descriptor before choosing). ``source`` is required
    for a new copy and must match the recorded one for an existing copy.
    Raises :class:`FetchError` with a sentence naming what is wrong.
    """
    started = time.monotonic()
    report = progress or (lambda _p: None)
    requested = sorted(set(cases or []))
    for name in requested:
        problem = name_problem(name)
        if problem is not None:
            raise FetchError(
                f"{json.dumps(name, ensure_ascii=False)} is not a case name: {describe_name_problem(problem)} "
                "(a case name is one folder "
                "name of letters, digits, '_', '.' and '-').",
                "bad-case-name",
                name=name,
                problem=problem,
            )
    require_git()
    target = Path(dest).expanduser().resolve()
    state, resumed = _open_copy(target, source)
    with _locked(target):
        git = Git(target, timeout)
        if not state.get("commit") or not git.has_object(state["commit"]):
            report(Progress("fetch", None, "fetch-list", {"source": state["source"]}))
            git.run(
                ["fetch", "--filter=blob:none", "--depth", "1", "--progress", "origin", "HEAD"],
                progress=lambda pct, step: report(Progress("fetch", pct, step)),
                what=f"git fetch {state['url']}",
            )
            state["commit"] = git.output(["rev-parse", "FETCH_HEAD"]).strip()
            _write_marker(target, state)
        commit = state["commit"]
        files = git.output(["ls-tree", "--name-only", commit]).splitlines()
        if "JunoBench" in files:
            files += git.output(["ls-tree", "--name-only", commit, "JunoBench/"]).splitlines()
        prefix = _casebook_prefix(files)
        if prefix is None:
            raise FetchError(not_junobench(state["source"]), "not-junobench", source=state["source"])
        bench = f"{prefix}benchmark/"
        listed = git.output(["ls-tree", "-d", "--name-only", commit, bench]).splitlines()
        available = sorted(p[len(bench):] for p in listed if p.startswith(bench))
        unknown = [name for name in requested if name not in available]
        if unknown:
            raise FetchError(
                f"{state['source']} has no case folder {', '.join(unknown)} "
                f"(it has {len(available)} case folders under {bench}).",
                "unknown-case",
                source=state["source"],
                cases=unknown,
                available=len(available),
                folder=bench,
            )
        before = list(state.get("cases", []))
        wanted = sorted(set(before) | set(requested))
        report(Progress("checkout", None, "checkout", {"cases": wanted}))
        git.run(["sparse-checkout", "set", "--no-cone", *_patterns(prefix, wanted)], what="git sparse-checkout set")
        if not git.ok(["rev-parse", "--verify", "--quiet", "HEAD"]) or git.output(["rev-parse", "HEAD"]).strip() != commit:
            git.run(["checkout", "--quiet", "-B", BRANCH, commit], what="git checkout")
        state["cases"] = wanted
        _write_marker(target, state)
        lfs = has_git_lfs()
        pointers = lfs_pointers(target, _roots(target / prefix, wanted))
        # Files an interrupted checkout did not write yet.
        pathspecs = [p.relative_to(target).as_posix() for p in _roots(target / prefix, wanted)]
        deleted = git.output(["ls-files", "--deleted", "-z", "--", *pathspecs]).split("\0")
        todo = sorted({*pointers, *(p for p in deleted if p)}) if lfs else [p for p in deleted if p]
        if todo:
            _restore(git, target, todo, lfs, report)
            pointers = lfs_pointers(target, _roots(target / prefix, wanted))
        objects, object_bytes = git.object_counts()
        lfs_objects, lfs_bytes = tree_size(target / ".git" / "lfs" / "objects")
        summary = FetchSummary(
            dest=str(target),
            source=state["source"],
            commit=commit,
            casebook=str(target / prefix) if prefix else str(target),
            prefix=prefix,
            cases=wanted,
            added=[name for name in wanted if name not in before],
            available=available,
            resumed=resumed,
            lfs=lfs,
            lfs_pointers=pointers,
            objects=objects,
            object_bytes=object_bytes,
            lfs_objects=lfs_objects,
            lfs_bytes=lfs_bytes,
            disk_bytes=tree_size(target)[1],
            seconds=round(time.monotonic() - started, 3),
        )
        report(Progress("done", 100.0, "done"))
        return summary


def read_marker(dest: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The record of a sparse copy (source, commit, cases), or None when ``dest`` is not one."""
    path = Path(dest) / ".git" / MARKER
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("source"), str) else None


def find_copy(start: Path, stop: Path) -> Path | None:
    """The sparse copy holding ``start`` (it or a parent, never above ``stop``), or None."""
    start, stop = start.resolve(), stop.resolve()
    current = start
    while True:
        if read_marker(current) is not None:
            return current
        if current == stop or stop not in current.parents:
            return None
        current = current.parent


def clone_url(source: str) -> str:
    """The URL git fetches: URLs as given, local folders as ``file://`` URLs."""
    if re.match(r"^[a-z][a-z0-9+.-]*://", source, re.I) or re.match(r"^[^/]+@[^/]+:", source):
        return source
    local = Path(source).expanduser().resolve()
    if not local.exists():
        raise FetchError(
            f"the source {source} does not exist (not a URL, and no such local folder).", "source-missing", source=source
        )
    return "file://" + pathname2url(str(local))


def describe_bytes(n: int) -> str:
    """``1.5 MB``-style size for people."""
    size = float(n)
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{n} B"  # pragma: no cover


# --- the copy and its record ---------------------------------------------------


def _open_copy(target: Path, source: str | None) -> tuple[dict[str, Any], bool]:
    """Read the record of an existing copy, or make a new empty repository."""
    state = read_marker(target)
    if state is not None:
        if source is not None and clone_url(source) != state.get("url"):
            raise FetchError(
                f"{target} is a copy of {state['source']}, not of {source}: fetch into another folder, "
                "or leave out the source to add cases to this copy.",
                "other-source",
                dest=str(target),
                recorded=state["source"],
                source=source,
            )
        return state, True
    if source is None:
        raise FetchError(
            f"{target} is not a copy made by junobench fetch (no .git/{MARKER}): give the source to "
            "fetch from.",
            "no-source",
            dest=str(target),
            marker=f".git/{MARKER}",
        )
    check_dest(target)
    url = clone_url(source)
    target.mkdir(parents=True, exist_ok=True)
    git = Git(target, 60)
    git.run(["init", "--quiet"], what="git init")
    git.run(["remote", "add", "origin", url], what="git remote add")
    git.run(["config", "remote.origin.promisor", "true"], what="git config")
    git.run(["config", "remote.origin.partialclonefilter", "blob:none"], what="git config")
    state = {"version": 1, "source": source, "url": url, "commit": None, "cases": []}
    _write_marker(target, state)
    return state, False


def _write_marker(target: Path, state: dict[str, Any]) -> None:
    """Write the record atomically, so an interruption never leaves half a file."""
    path = target / ".git" / MARKER
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(state, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


@contextlib.contextmanager
def _locked(target: Path) -> Iterator[None]:
    """Hold the copy's lock; a lock left by a process that is gone is taken over."""
    path = target / ".git" / LOCK
    for _attempt in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            if _lock_is_stale(path):
                path.unlink(missing_ok=True)
                continue
            raise FetchError(
                f"another fetch is running in {target} (lock {path}); wait for it to finish.",
                "busy",
                dest=str(target),
                lock=str(path),
            ) from None
        with os.fdopen(fd, "w") as handle:
            handle.write(str(os.getpid()))
        break
    try:
        yield
    finally:
        path.unlink(missing_ok=True)


def _lock_is_stale(path: Path) -> bool:
    """Whether the process that wrote a lock is gone."""
    try:
        pid = int(path.read_text().strip() or "0")
    except (OSError, ValueError):
        return True
    if pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


# --- what to check out ---------------------------------------------------------


def _casebook_prefix(files: list[str]) -> str | None:
    """'' or 'JunoBench/': where the descriptor lies in the repository."""
    if "benchmark_desc.xlsx" in files:
        return ""
    if "JunoBench/benchmark_desc.xlsx" in files:
        return "JunoBench/"
    return None


def _patterns(prefix: str, cases: list[str]) -> list[str]:
    """Non-cone sparse-checkout patterns: the descriptor files and the chosen case folders."""
    patterns = ["/.gitattributes"]
    patterns += [f"/{prefix}{name}" for name in DESCRIPTOR_FILES]
    patterns += [f"/{prefix}benchmark/{name}/" for name in cases]
    return list(dict.fromkeys(patterns))


def _roots(casebook: Path, cases: list[str]) -> list[Path]:
    """The descriptor files and case folders a copy checks out, under its casebook root."""
    return [casebook / name for name in DESCRIPTOR_FILES] + [casebook / "benchmark" / name for name in cases]


def _restore(git: Git, target: Path, paths: list[str], lfs: bool, report: ProgressCallback) -> None:
    """Write these files from the commit, with their large-file content when git-lfs is here.

    Not `git lfs pull --include`: git-lfs scans every small blob of the commit
    for pointers, and in a partial clone that fetches the files of every case.
    Checking out a file with the LFS smudge filter on fetches only its object.
    """
    if lfs:
        git.run(["lfs", "install", "--local"], what="git lfs install --local")
        report(Progress("lfs", 0.0, "lfs-files", {"done": 0, "total": len(paths)}))
    env = {"GIT_LFS_SKIP_SMUDGE": "0"} if lfs else {}
    chunk = 50
    for start in range(0, len(paths), chunk):
        part = paths[start : start + chunk]
        for rel in part:
            # A pointer file has the stat of the index entry, so git would keep it.
            (target / rel).unlink(missing_ok=True)
        git.run(["checkout", "--", *part], what="git checkout --", env=env)
        if lfs:
            done = min(len(paths), start + chunk)
            report(Progress("lfs", 100.0 * done / len(paths), "lfs-files", {"done": done, "total": len(paths)}))


def lfs_pointers(base: Path, roots: list[Path]) -> list[str]:
    """Paths (relative to ``base``, POSIX) of the files under ``roots`` that are Git LFS pointers; ``.git`` is skipped."""
    found: list[str] = []
    for root in roots:
        for path in [root] if root.is_file() else _files(root):
            if path.is_file() and not path.is_symlink() and path.stat().st_size <= 1024:
                with path.open("rb") as handle:
                    if handle.read(len(LFS_POINTER)) == LFS_POINTER:
                        found.append(path.relative_to(base).as_posix())
    return sorted(found)


def _files(root: Path) -> Iterator[Path]:
    """The files under a folder, outside any ``.git`` folder."""
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        yield from (Path(folder) / name for name in names)


def not_junobench(source: str) -> str:
    """The sentence for a source without a descriptor."""
    return f"{source} is not a JunoBench layout: no benchmark_desc.xlsx at its root or under JunoBench/."


def check_dest(target: Path) -> bool:
    """Refuse a destination that is a file or a non-empty folder; return whether it exists (empty)."""
    if not target.exists():
        return False
    if not target.is_dir():
        raise FetchError(
            f"{target} exists and is not a folder: choose another destination.", "dest-not-folder", dest=str(target)
        )
    if any(target.iterdir()):
        raise FetchError(
            f"{target} exists and is not empty (and is not a copy made by junobench fetch): choose "
            "a new folder (or empty this one) to fetch into.",
            "dest-not-empty",
            dest=str(target),
        )
    return True


def tree_size(root: Path) -> tuple[int, int]:
    """Files and bytes under a folder (0, 0 when it does not exist)."""
    count = total = 0
    if not root.exists():
        return 0, 0
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
                count += 1
            except OSError:
                continue
    return count, total


# --- git -----------------------------------------------------------------------


def require_git() -> None:
    """Raise FetchError unless git is on PATH."""
    if shutil.which("git") is None:
        raise FetchError(
            "git is not installed (or not on PATH): fetching the dataset uses git; "
            "install git (e.g. apt-get install git) and try again.",
            "no-git",
        )


def has_git_lfs() -> bool:
    """Whether git-lfs is installed."""
    try:
        return subprocess.run(["git", "lfs", "version"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


class Git:
    """git commands in one folder, with the environment a fetch needs."""

    def __init__(self, cwd: Path, timeout: float) -> None:
        self.cwd = cwd
        self.timeout = timeout
        self.env = {
            **os.environ,
            "GIT_TERMINAL_PROMPT": "0",
            # Large files are pulled for the chosen paths only, by `git lfs pull`.
            "GIT_LFS_SKIP_SMUDGE": "1",
            "GIT_ADVICE": "0",
            "LC_ALL": "C",
        }

    def _base(self) -> list[str]:
        # A copy made by root for another user, or in a container, is still ours.
        return ["git", "-c", "advice.detachedHead=false", "-c", f"safe.directory={self.cwd}", "-C", str(self.cwd)]

    def output(self, args: list[str]) -> str:
        done = subprocess.run(
            self._base() + args, capture_output=True, text=True, env=self.env, timeout=self.timeout
        )
        if done.returncode != 0:
            detail = _last_lines(done.stderr)
            raise FetchError(
                f"git {args[0]} failed in {self.cwd}: {detail}",
                "git-failed",
                command=f"git {args[0]}",
                folder=str(self.cwd),
                detail=detail,
            )
        return done.stdout

    def ok(self, args: list[str]) -> bool:
        return (
            subprocess.run(self._base() + args, capture_output=True, env=self.env, timeout=self.timeout).returncode
            == 0
        )

    def has_object(self, sha: str) -> bool:
        return self.ok(["cat-file", "-e", f"{sha}^{{commit}}"])

    def object_counts(self) -> tuple[int, int]:
        """Objects in the copy and their bytes on disk (``git count-objects -v``)."""
        text = self.output(["count-objects", "-v"])
        values = dict(
            (k.strip(), int(v)) for k, v in (line.split(":", 1) for line in text.splitlines() if ":" in line)
            if v.strip().isdigit()
        )
        return (
            values.get("count", 0) + values.get("in-pack", 0),
            (values.get("size", 0) + values.get("size-pack", 0)) * 1024,
        )

    def run(
        self,
        args: list[str],
        *,
        what: str,
        progress: Callable[[float | None, str], None] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        """Run git, reporting the percentages it prints with their step's code; raise FetchError with its reason.

        ``what`` is the git command as typed (``git fetch <url>``), the ``step`` of a failure: a command
        is the same in every language, so the panel shows it untranslated inside its own sentence.
        """
        proc = subprocess.Popen(
            self._base() + args,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**self.env, **(env or {})},
        )
        tail = ""
        deadline = time.monotonic() + self.timeout
        assert proc.stderr is not None
        buffer = b""
        try:
            while True:
                chunk = proc.stderr.read1(4096) if hasattr(proc.stderr, "read1") else proc.stderr.read(4096)
                if not chunk:
                    break
                buffer += chunk
                parts = re.split(rb"[\r\n]", buffer)
                buffer = parts.pop()
                for raw in parts:
                    line = raw.decode("utf-8", "replace").strip()
                    if not line:
                        continue
                    tail = (tail + "\n" + line)[-4000:]
                    match = GIT_PROGRESS.search(line)
                    if match and progress is not None:
                        progress(float(match.group(2)), GIT_STEPS[match.group(1)])
                if time.monotonic() > deadline:
                    proc.kill()
                    raise FetchError(
                        f"{what} got no answer within {self.timeout:.0f} s; the source may be unreachable "
                        "(there may be no network here).",
                        "timeout",
                        step=what,
                        seconds=round(self.timeout),
                    )
            code = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            raise FetchError(
                f"{what} did not finish within {self.timeout:.0f} s.", "unfinished", step=what, seconds=round(self.timeout)
            ) from None
        except BaseException:
            # An interruption (Ctrl-C) stops git too; the next fetch resumes.
            proc.kill()
            proc.wait()
            raise
        tail = (tail + "\n" + buffer.decode("utf-8", "replace")).strip()
        if code != 0:
            detail = _last_lines(tail) or f"exit code {code}"
            raise FetchError(
                f"{what} failed ({detail}). The source may be "
                "unreachable or not a git repository (there may be no network here; check the URL, "
                "or give a local copy as the source).",
                "source-unreachable",
                step=what,
                detail=detail,
            )


def _last_lines(text: str, n: int = 3) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip() and "promisor remote" not in line]
    return " ".join(lines[-n:])
