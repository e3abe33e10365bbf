"""The check's scratch copy of a case folder, and the guard that watches what a notebook touches.

This module is executed inside every fresh kernel of "Check my fix" (the learner's run, the
reference runs, the live replay), before any cell runs; the TypeScript side embeds this file's
text at build time (``scripts/embed-probe.js``) and calls ``enter`` from the kernel's setup code
(``src/repair/scratchSnippets.ts``).

``enter`` copies the case folder into a folder of the kernel's own under the system's temporary
folder, laid out as in the casebook (``<tmp>/junobench-scratch-<pid>-<token>/benchmark/<case>/``) so
that ``../../diagnoses.xlsx`` resolves to a file that does not exist, and without the answer
key: no notebook (the ``_fixed`` and ``_reproduced`` notebooks, checkpoints), nothing named
``<case>_fixed*`` or ``<case>_reproduced*`` (a script exported from them), nothing of the
casebook outside the case folder (``diagnoses.xlsx``). The copied files are made read-only (their
folders stay writable: a notebook may write new files), the kernel changes into the copy, and the
copy is removed when the kernel exits.

Then it adds an audit hook (PEP 578: it cannot be removed, and it sees every ``open``, whether
Python or a library calls it) that records:

- **the answer key reached for**: a file opened inside the real casebook that is a notebook, a
  spreadsheet of the casebook or named ``<case>_fixed*``; a file named ``<case>_fixed*``,
  ``diagnoses.xlsx`` or ``benchmark_desc.xlsx`` opened anywhere (also when it does not exist:
  the audit event comes before the file system's answer); a magic or shell escape (``%run``,
  ``%load``, ``!cat``) run with one in its arguments; a process started with one in its arguments;
- **inputs rewritten**: a copied input file opened for writing, removed, renamed over, truncated,
  its time stamps or mode changed; anything written inside the real casebook. ``report``
  compares the inputs' inode, size and modification time with the copy's too, which catches
  writes from C code that no audit event announces.

The report is asked for with a custom audit event (``sys.audit("junobench.scratch", token,
out)``): the hook answers into ``out``. Nothing is left in the user namespace, ``builtins`` or
``sys``. Standard library only; Python 3.10 and later.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time

#: Bumped whenever the report changes shape.
VERSION = 1
#: The check's policy (``check_policy.json``, every value with its reason): the embedding writes
#: its values in here (``scripts/embed-probe.js``, ``check_policy.embed``), since a kernel cannot
#: read our files; imported from the package (the container's mounts, the MCP session), the
#: module reads the file. Left empty in a kernel, the module fails at once.
POLICY: dict[str, float] = {}
if not POLICY and __name__.startswith("jupyterlab_junobench."):
    from .check_policy import values as _policy_values

    POLICY = _policy_values()

#: The audit event that asks the hook for its report.
EVENT = "junobench.scratch"
#: Temporary folders of check kernels: ``<prefix><pid>-<token>``.
PREFIX = "junobench-scratch-"
#: Casebook files that hold the labels (the diagnosis of every case).
CASEBOOK_ANSWERS = ("diagnoses.xlsx", "benchmark_desc.xlsx")
#: At most this many events are kept (the first ones).
MAX_EVENTS = 20
#: ``open`` flags that write.
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


class Report:
    """A JSON value for ``user_expressions`` (IPython's JSON formatter reads ``_repr_json_``)."""

    def __init__(self, value: dict) -> None:
        self.value = value

    def _repr_json_(self) -> dict:
        return self.value


def excluded(name: str, case: str, plain: bool = False) -> bool:
    """Whether an entry of the case folder stays out of the copy: the answer key, and but for a
    ``plain`` copy (the unwatched run's, which looks like the case folder) the notebooks."""
    low = name.lower()
    stem = case.lower()
    return (
        low == ".ipynb_checkpoints"
        or low.startswith(f"{stem}_fixed")
        or low in CASEBOOK_ANSWERS
        or (not plain and (low.endswith(".ipynb") or low.startswith(f"{stem}_reproduced")))
    )


def answer_names(case: str) -> re.Pattern[str]:
    """A pattern for names of the answer key in any text: ``<case>_fixed``, the casebook's labels."""
    words = [re.escape(f"{case}_fixed"), *(re.escape(n) for n in CASEBOOK_ANSWERS)]
    return re.compile("|".join(words), re.IGNORECASE)


def copy_case(source: str, target: str, case: str, plain: bool = False) -> tuple[list[str], int]:
    """Copy the case folder without its answer key, its files read-only (``plain``: the
    notebooks but the fixed one kept, the files writable, as in the case folder); the copied
    files (absolute) and their bytes."""
    files: list[str] = []
    size = 0

    def ignore(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if excluded(n, case, plain)}

    shutil.copytree(source, target, ignore=ignore, symlinks=False, dirs_exist_ok=True)
    for folder, _dirs, names in os.walk(target):
        for name in names:
            path = os.path.join(folder, name)
            st = os.lstat(path)
            size += st.st_size
            files.append(path)
            if not plain:
                os.chmod(path, st.st_mode & ~0o222)
    return files, size


def sweep(root: str) -> None:
    """Remove the temporary folders of check kernels that are gone (killed before their exit)."""
    try:
        names = os.listdir(root)
    except OSError:
        return
    for name in names:
        m = re.fullmatch(re.escape(PREFIX) + r"(\d+)-[0-9a-z]+", name)
        if not m or int(m.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(m.group(1)), 0)
            continue
        except ProcessLookupError:
            pass
        except OSError:
            continue
        shutil.rmtree(os.path.join(root, name), ignore_errors=True)


def _stat(path: str) -> list[int] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return [st.st_ino, st.st_size, st.st_mtime_ns]


class Guard:
    """What the notebook touched: the audit hook's state."""

    def __init__(self, token: str, base: str, work: str, casebook: str | None, case: str, inputs: list[str]) -> None:
        self.token = token
        self.base = base
        self.work = work
        self.casebook = casebook
        self.case = case
        self.names = answer_names(case)
        self.inputs = {p: _stat(p) for p in inputs}
        self.events: list[dict] = []
        self.seen: set[tuple[str, str]] = set()
        self.local = threading.local()

    # -- classification ---------------------------------------------------------------------
    def _display(self, path: str) -> str:
        if self.casebook and _inside(path, self.casebook):
            return os.path.relpath(path, self.casebook)
        if _inside(path, self.base):
            return os.path.relpath(path, self.work)
        return path

    def _is_answer(self, path: str) -> bool:
        name = os.path.basename(path)
        if self.names.search(name):
            return True
        if self.casebook and _inside(path, self.casebook):
            low = name.lower()
            parts = os.path.relpath(path, self.casebook).split(os.sep)
            return (
                low.endswith(".ipynb")
                or ".ipynb_checkpoints" in parts
                or len(parts) == 1  # the casebook's own files: descriptors and labels
            )
        return False

    def _add(self, kind: str, what: str, how: str) -> None:
        key = (kind, what)
        if key in self.seen or len(self.events) >= MAX_EVENTS:
            return
        self.seen.add(key)
        self.events.append({"kind": kind, "file": what, "how": how})

    def _path(self, value: object) -> str | None:
        if isinstance(value, int) or value is None:
            return None
        try:
            return os.path.realpath(os.fsdecode(value))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return None

    def _written(self, path: str | None, how: str) -> None:
        if path is None:
            return
        if path in self.inputs:
            self._add("input", self._display(path), how)
        elif self.casebook and _inside(path, self.casebook):
            self._add("casebook", self._display(path), how)

    def _read(self, path: str | None, how: str) -> None:
        if path is not None and self._is_answer(path):
            self._add("answer", self._display(path), how)

    def _strings(self, values: object, how: str) -> None:
        for text in _texts(values):
            for word in text.split():
                if self.names.search(word):
                    self._add("answer", word.strip("'\"`;,()[]{}"), how)
                    return

    # -- the hook -----------------------------------------------------------------------------
    def hook(self, event: str, args: tuple) -> None:
        if getattr(self.local, "busy", False):
            return
        self.local.busy = True
        try:
            self._event(event, args)
        except Exception:  # a guard never breaks the notebook it watches
            pass
        finally:
            self.local.busy = False

    def _event(self, event: str, args: tuple) -> None:
        if event == "open":
            path, mode, flags = (tuple(args) + (None, None, None))[:3]
            target = self._path(path)
            writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                mode is None and isinstance(flags, int) and bool(flags & _WRITE_FLAGS)
            )
            if writes:
                self._written(target, "open")
            else:
                self._read(target, "open")
        elif event in ("os.remove", "os.truncate", "os.utime", "os.chmod", "shutil.rmtree", "os.rmdir"):
            self._written(self._path(args[0] if args else None), event)
        elif event == "os.rename":
            self._written(self._path(args[0]), event)
            self._written(self._path(args[1]), event)
        elif event == "exec":
            # A magic (``%run``, ``%load``, ``!cat``) may look a file up before opening it (no
            # ``open`` event when it is not there): its arguments are the code's constants.
            code = args[0] if args else None
            names, consts = _code_parts(code)
            if names & _MAGICS:
                self._strings(consts, "magic")
        elif event in ("subprocess.Popen", "os.system", "os.posix_spawn", "os.exec", "os.spawn"):
            self._strings(args[:2], event)
        elif event == EVENT and len(args) == 2 and args[0] == self.token and isinstance(args[1], list):
            args[1].append(Report(self.report()))

    def report(self) -> dict:
        """The events so far, and the inputs changed since the copy (by inode, size, time)."""
        for path, before in self.inputs.items():
            if _stat(path) != before:
                self._add("input", self._display(path), "changed")
        return {"version": VERSION, "events": list(self.events)}


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


#: IPython's calls for magics and shell escapes in transformed cell code.
_MAGICS = frozenset({"run_line_magic", "run_cell_magic", "magic", "system", "getoutput"})


def _code_parts(code: object, depth: int = 0) -> tuple[set[str], list[object]]:
    """The names a code object (and the code nested in it) uses, and its other constants."""
    names = set(getattr(code, "co_names", ()))
    consts: list[object] = []
    for c in getattr(code, "co_consts", ()):
        if hasattr(c, "co_consts"):
            if depth < 20:
                inner, more = _code_parts(c, depth + 1)
                names |= inner
                consts += more
        else:
            consts.append(c)
    return names, consts


def _texts(values: object, depth: int = 0) -> list[str]:
    if isinstance(values, (str, bytes, os.PathLike)):
        try:
            return [os.fsdecode(values)]
        except (TypeError, ValueError):
            return []
    if isinstance(values, (list, tuple, frozenset, set)) and depth < 4:
        return [t for v in values for t in _texts(v, depth + 1)]
    return []


#: How much ``perturb_inputs`` moves a decimal value: by up to this fraction of itself.
JITTER = POLICY["perturbJitter"]
#: Input files ``perturb_inputs`` reads (comma- or tab-separated text), and at most this size.
TABLES = (".csv", ".tsv")
MAX_PERTURB_BYTES = int(POLICY["perturbMaxBytes"])


def _decimals(text: str) -> int | None:
    """The decimals of a number written as a decimal fraction ("3.25": 2), else None."""
    t = text.strip()
    if not re.fullmatch(r"[-+]?\d*\.\d+", t):
        return None
    return len(t.split(".")[1])


def _measure(cells: list[str]) -> bool:
    """Whether a column of whole numbers holds measurements (scores, counts): at least
    ``measureDistinct`` distinct values up to ``measureMagnitude`` or more, not all distinct (an
    id). Labels, codes, flags and years (few values) are not."""
    if not all(re.fullmatch(r"[-+]?\d+", c.strip()) for c in cells):
        return False
    values = {int(c) for c in cells}
    return (len(values) >= POLICY["measureDistinct"] and max(abs(v) for v in values) >= POLICY["measureMagnitude"]
            and len(values) < len(cells))


def perturb_inputs(files: list[str], seed: int) -> dict[str, list[str]]:
    """Other data of the same form: the copied tables' rows shuffled, their decimal columns
    (every value a number written with a decimal point, or empty) jittered, each value by up to
    ``JITTER`` of itself, written with its own decimals, and their whole-number measurements
    (``_measure``) likewise, rounded to whole numbers. Ids, labels, codes, years and text keep
    their values, so the notebook still runs; a result that depends on the data changes.
    Deterministic for a seed. Returns, per file, the columns jittered (an empty list: only the
    rows shuffled)."""
    import csv
    import random

    moved: dict[str, list[str]] = {}
    for path in sorted(files):
        if not path.lower().endswith(TABLES) or os.path.getsize(path) > MAX_PERTURB_BYTES:
            continue
        delimiter = "\t" if path.lower().endswith(".tsv") else ","
        try:
            with open(path, newline="", encoding="utf-8") as fh:
                rows = list(csv.reader(fh, delimiter=delimiter))
        except (OSError, UnicodeDecodeError, csv.Error):
            continue
        if len(rows) < 3:
            continue
        header, body = rows[0], rows[1:]
        width = len(header)
        columns = []
        for j in range(width):
            cells = [r[j] for r in body if j < len(r) and r[j].strip()]
            if cells and (all(_decimals(c) is not None for c in cells) or _measure(cells)):
                columns.append(j)
        rng = random.Random(f"{seed}:{os.path.basename(path)}")
        rng.shuffle(body)
        for r in body:
            for j in columns:
                if j < len(r) and r[j].strip():
                    d = _decimals(r[j]) or 0
                    r[j] = f"{float(r[j]) * (1 + JITTER * rng.uniform(-1, 1)):.{d}f}"
        mode = os.stat(path).st_mode
        os.chmod(path, mode | 0o200)
        with open(path, "w", newline="", encoding="utf-8") as fh:
            csv.writer(fh, delimiter=delimiter, lineterminator="\n").writerows([header, *body])
        os.chmod(path, mode)
        moved[os.path.basename(path)] = [header[j] for j in columns]
    return moved


def enter(token: str, case_folder: str, casebook: str | None, case: str, root: str | None = None,
          perturb: int | None = None, plain: bool = False) -> dict:
    """Copy the case folder for this kernel, change into the copy and start the guard.

    ``case_folder`` and ``casebook`` are absolute or relative to the current folder (the
    casebook may be None when unknown). ``perturb``: a seed to jitter the copied tables with
    (``perturb_inputs``), for the check's run on other data; ``plain``: the copy looks like the
    case folder (``copy_case``), for the run with nothing of the check watching. Returns what the
    copy cost.
    """
    if not re.fullmatch(r"[0-9a-z]{4,40}", token):
        raise ValueError("bad token")
    started = time.perf_counter()
    source = os.path.realpath(case_folder)
    if not os.path.isdir(source):
        raise FileNotFoundError(f"the case folder {case_folder} is not there")
    book = os.path.realpath(casebook) if casebook else None
    inside = book is not None and _inside(source, book) and source != book
    layout = os.path.relpath(source, book) if inside else os.path.basename(source)
    root = root or tempfile.gettempdir()
    sweep(root)
    base = os.path.join(root, f"{PREFIX}{os.getpid()}-{token}")
    os.mkdir(base, 0o700)
    atexit.register(shutil.rmtree, base, True)
    work = os.path.join(base, layout)
    files, size = copy_case(source, work, case, plain)
    moved = perturb_inputs(files, perturb) if perturb is not None else {}
    os.chdir(work)
    guard = Guard(token, os.path.realpath(base), os.path.realpath(work), book, case, [os.path.realpath(f) for f in files])
    sys.addaudithook(guard.hook)
    return {"files": len(files), "bytes": size, "ms": round((time.perf_counter() - started) * 1000, 1),
            "perturbed": moved}


def report_expression(token: str) -> str:
    """The ``user_expressions`` entry that returns the guard's report (JSON)."""
    return f'(lambda r: (__import__("sys").audit({json.dumps(EVENT)}, {json.dumps(token)}, r), r[0])[1])([])'
