"""Writing JunoBench cases: the one writer of case folders and descriptor workbooks.

Used by the server extension (``POST /junobench/authoring/*``, the "Save as
JunoBench Case…" commands) and by ``junobench add`` / ``junobench new`` through
``python -m jupyterlab_junobench.authoring``. The workbooks are read and written
with openpyxl; other rows are never touched, and the previous file is kept as
``<file>.bak`` before it is replaced.

A *case spec* (JSON) says what to write::

    {
      "case": "NBspecific_7",
      "update": false,                      # replace an existing case
      "notebooks": {"original": {...}, "reproduced": {...}, "fixed": {...} | null},
      "data": ["data/train.csv"],           # relative to the data root, kept relative
      "row": {"ename": "nameerror", "evalue": "...", "traceback": ["...", ...],
              "label_root_cause": "...", "label_refined_exp_type": "...",
              "label_ML_pipeline": "...", "label_if_ML_bug": "...",
              "datasets": [{"title": "...", "license": "...", "url": "..."}],
              "NotebookUrl": "..."},
      "library": "NBspecific",              # diagnoses.xlsx "library" column
      "diagnosis": "...",
      "readme": null,                       # null: a template (kept when one exists)
      "draft": "not verified yet" | null    # DRAFT.md in the case folder says why
    }

Names follow the loader's rules (letters, digits, ``_``, ``.``, ``-``; no ``..``);
every path written is checked to stay inside the casebook folder.

What goes wrong is an :class:`AuthoringError` with a code and parameters (its
``to_json``), and a warning is the same shape: ``renderWriterProblem`` in
src/authoring/writerProblems.ts words them for the UI (translated) and for
``junobench add``; the English here is for logs and ``str``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator

from .names import describe_name_problem, name_problem

try:  # POSIX: writers in other processes (junobench add) wait for each other too
    import fcntl
except ImportError:  # pragma: no cover - Windows: the in-process lock only
    fcntl = None  # type: ignore[assignment]

#: The descriptor file at the casebook root.
DESCRIPTOR = "benchmark_desc.xlsx"
#: The written diagnoses at the casebook root.
DIAGNOSES = "diagnoses.xlsx"
#: The folder of the case folders.
BENCHMARK = "benchmark"
#: The file that marks a case as a draft (it did not verify); its text says why.
DRAFT_FILE = "DRAFT.md"

#: The descriptor's columns, in JunoBench's order.
DESCRIPTOR_COLUMNS = [
    "nb_name", "eid", "ename", "evalue", "traceback", "label_root_cause",
    "label_refined_exp_type", "label_ML_pipeline", "label_if_ML_bug", "DatasetTitle_1",
    "DatasetTitle_2", "DatasetLicenseName_1", "DatasetLicenseName_2", "DatasetUrl_1",
    "DatasetUrl_2", "NotebookUrl",
]
#: The Ground_truth columns of JunoBench's diagnoses.xlsx (the sixth has no header there).
DIAGNOSES_COLUMNS = ["library", "instance", "detection", "diagnosis", "runinfo_help", None]
#: The label columns a spec may set.
LABEL_COLUMNS = ("label_root_cause", "label_refined_exp_type", "label_ML_pipeline", "label_if_ML_bug")

#: Excel keeps at most this many characters in a cell.
MAX_CELL_CHARS = 32767
#: Characters an xlsx cell cannot hold (XML 1.0), as openpyxl checks them.
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_ANSI = re.compile(r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]")


#: One write at a time in this process (the server handles requests on threads).
_write_lock = threading.Lock()


@contextlib.contextmanager
def casebook_lock(casebook: Path) -> Iterator[None]:
    """Hold the casebook's write lock: a read-modify-write of a workbook never interleaves."""
    with _write_lock:
        if fcntl is None or not casebook.is_dir():
            yield
            return
        with open(casebook / ".junobench-authoring.lock", "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


class AuthoringError(Exception):
    """Bad input for the writer: a code and its parameters; the message is their English, for logs."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    @property
    def problem(self) -> dict[str, Any]:
        """The code with its parameters, ``{"code", ...params}``."""
        return {"code": self.code, **self.params}

    def to_json(self) -> dict[str, Any]:
        """``{"code", ...params, "message"}``, as the command line answers."""
        return {**self.problem, "message": str(self)}


def _warning(code: str, message: str, **params: Any) -> dict[str, Any]:
    """A warning of a write, the shape of an error: ``{"code", ...params, "message"}``."""
    return {"code": code, **params, "message": message}


@dataclass
class WriteResult:
    """What a write did: files written (casebook-relative), warnings, backups kept."""

    case: str
    files: list[str] = field(default_factory=list)
    backups: list[str] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)
    updated: bool = False

    def to_json(self) -> dict[str, Any]:
        """The result as JSON for the CLI and the REST handler."""
        return {
            "case": self.case,
            "files": self.files,
            "backups": self.backups,
            "warnings": self.warnings,
            "updated": self.updated,
        }


# ------------------------------------------------------------------------------------------
# Names and paths
# ------------------------------------------------------------------------------------------


def check_case_name(name: object) -> str:
    """Return ``name`` when it is a safe case name; raise AuthoringError saying why not."""
    problem = name_problem(name)
    if problem is not None:
        raise AuthoringError(
            "bad-case-name",
            f"case name {json.dumps(name)} cannot be used: {describe_name_problem(problem)} (only letters, "
            "digits, \"_\", \".\" and \"-\" are allowed, and no \"..\")",
            name=name if isinstance(name, (str, int, float, bool)) or name is None else str(name),
            problem=problem,
        )
    return str(name)


#: The English of the paths :func:`relative_part` checks, by field (the code's ``field``).
_PATH_FIELDS = {"casebook": "casebook path", "notebook-folder": "notebook folder", "data": "case {case}: data path"}


def relative_part(path: object, field: str, case: str | None = None) -> str:
    """A relative POSIX path with no ``..``, backslash, NUL or absolute start, normalised.

    ``field`` names the path in a refusal: ``casebook``, ``notebook-folder``
    or ``data`` (a data path of ``case``).
    """
    about: dict[str, Any] = {"field": field, "path": path if isinstance(path, str) else None}
    if case is not None:
        about["case"] = case
    what = f"{_PATH_FIELDS[field].format(case=case)} {json.dumps(about['path'])}"
    if not isinstance(path, str) or path.strip() == "":
        raise AuthoringError("path-empty", f"{what} is empty", **about)
    if "\0" in path:
        raise AuthoringError("path-nul", f"{what} contains a NUL byte", **about)
    if "\\" in path:
        raise AuthoringError("path-backslash", f"{what} contains a backslash", **about)
    if path.startswith("/") or re.match(r"^[A-Za-z]:", path):
        raise AuthoringError(
            "path-absolute", f"{what} is an absolute path; give it relative to the notebook's folder", **about
        )
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise AuthoringError("path-dot-dot", f"{what} has a \"..\" segment: it would leave its folder", **about)
    if not parts:
        raise AuthoringError("path-no-file", f"{what} names no file", **about)
    return "/".join(parts)


def inside(root: Path, relative: str) -> Path:
    """``root/relative``, refusing any result (symbolic links resolved) outside ``root``."""
    base = root.resolve()
    target = (base / relative).resolve()
    if target != base and base not in target.parents:
        raise AuthoringError(
            "outside",
            f"{relative} resolves to {target}, outside {base}; nothing was written",
            path=relative,
            target=str(target),
            root=str(base),
        )
    return target


# ------------------------------------------------------------------------------------------
# Casebooks
# ------------------------------------------------------------------------------------------


def new_casebook(root: Path) -> WriteResult:
    """Create an empty casebook at ``root``: ``benchmark/`` and the two workbooks with headers.

    Refuses a folder that already has a descriptor, and a folder that holds
    anything besides hidden files (a casebook starts empty).
    """
    if (root / DESCRIPTOR).exists():
        raise AuthoringError(
            "already-casebook", f"{root} already holds {DESCRIPTOR}: it is a casebook already",
            folder=str(root), file=DESCRIPTOR,
        )
    if root.exists():
        if not root.is_dir():
            raise AuthoringError("not-a-folder", f"{root} exists and is not a folder", folder=str(root))
        others = [p.name for p in root.iterdir() if not p.name.startswith(".")]
        if others:
            raise AuthoringError(
                "folder-not-empty",
                f"{root} is not empty ({', '.join(sorted(others)[:5])}); a new casebook starts in an "
                "empty or new folder",
                folder=str(root),
                entries=sorted(others)[:5],
            )
    root.mkdir(parents=True, exist_ok=True)
    (root / BENCHMARK).mkdir(exist_ok=True)
    result = WriteResult(case="")
    _save_atomic(_new_descriptor(), root / DESCRIPTOR)
    _save_atomic(_new_diagnoses(), root / DIAGNOSES)
    result.files = [DESCRIPTOR, DIAGNOSES, f"{BENCHMARK}/"]
    return result


def _new_workbook(title: str, header: list[Any]):
    """A workbook of one sheet holding only a header row."""
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.worksheets[0]
    ws.title = title
    ws.append(header)
    return wb


def _new_descriptor():
    return _new_workbook("Sheet1", DESCRIPTOR_COLUMNS)


def _new_diagnoses():
    return _new_workbook("Ground_truth", DIAGNOSES_COLUMNS)


# ------------------------------------------------------------------------------------------
# Cases
# ------------------------------------------------------------------------------------------


def write_case(spec: dict[str, Any], casebook: Path, data_root: Path | None) -> WriteResult:
    """Write (or with ``update`` replace) one case described by ``spec`` into ``casebook``.

    ``data_root`` is the folder the spec's data paths are relative to (the
    notebook's folder). Everything is checked before anything is written; one
    write at a time per casebook.
    """
    with casebook_lock(Path(casebook)):
        return _write_case(spec, Path(casebook), data_root)


def _write_case(spec: dict[str, Any], casebook: Path, data_root: Path | None) -> WriteResult:
    if not isinstance(spec, dict):
        raise AuthoringError("spec-not-object", "the case spec must be a JSON object")
    case = check_case_name(spec.get("case"))
    update = bool(spec.get("update", False))
    casebook = Path(casebook)
    if not (casebook / DESCRIPTOR).is_file():
        raise AuthoringError(
            "not-a-casebook",
            f"{casebook} has no {DESCRIPTOR}: it is not a casebook (create one with "
            "\"New JunoBench Casebook…\" or `junobench new`)",
            folder=str(casebook),
            file=DESCRIPTOR,
        )
    folder_rel = f"{BENCHMARK}/{case}"
    folder = inside(casebook, folder_rel)
    row = _check_row(spec.get("row"), case)
    notebooks = _check_notebooks(spec.get("notebooks"), case)
    data = _check_data(spec.get("data") or [], data_root, case)
    existing_row = _find_descriptor_row(casebook / DESCRIPTOR, case)
    if not update and (existing_row is not None or folder.exists()):
        where = (
            f"row {existing_row} of {DESCRIPTOR}" if existing_row is not None else f"the folder {folder_rel}"
        )
        raise AuthoringError(
            "case-exists",
            f"case {case} already exists in {casebook} ({where}); choose another name or update it "
            "(--update)",
            case=case,
            casebook=str(casebook),
            row=existing_row,
            file=DESCRIPTOR,
            folder=folder_rel,
        )
    result = WriteResult(case=case, updated=existing_row is not None or folder.exists())
    traceback, shortened = fit_traceback(row["traceback"])
    if shortened:
        result.warnings.append(_warning(
            "traceback-shortened",
            f"the traceback of {case} is longer than an xlsx cell holds ({MAX_CELL_CHARS} "
            f"characters); {shortened} line(s) were left out or cut in {DESCRIPTOR}",
            case=case,
            limit=MAX_CELL_CHARS,
            lines=shortened,
            file=DESCRIPTOR,
        ))
    row = {**row, "traceback": traceback}
    diagnosis = spec.get("diagnosis")
    diagnosis = diagnosis if isinstance(diagnosis, str) else ""
    # Every text must fit its cell, and both workbooks must be usable, before anything is written.
    texts = [*row.items(), ("diagnosis", diagnosis)]
    texts += [(f"dataset {k}", v) for d in row.get("datasets") or [] for k, v in d.items()]
    for key, value in texts:
        if isinstance(value, str):
            _xlsx_text(value, key, DIAGNOSES if key == "diagnosis" else DESCRIPTOR)
    if (casebook / DIAGNOSES).exists():
        _diagnoses_sheet(_load(casebook / DIAGNOSES), casebook / DIAGNOSES)

    folder.mkdir(parents=True, exist_ok=True)
    inside(casebook, folder_rel)  # again, now that it exists (a symlink planted meanwhile)
    for kind, nb in notebooks.items():
        name = _notebook_name(case, kind)
        _write_text_atomic(folder / name, json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
        result.files.append(f"{folder_rel}/{name}")
    for source, rel in data:
        target = inside(folder, rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        if not (target.exists() and os.path.samefile(source, target)):
            shutil.copyfile(source, target)
        result.files.append(f"{folder_rel}/{rel}")
    readme = spec.get("readme")
    readme_path = folder / "README.md"
    if isinstance(readme, str) and readme.strip():
        _write_text_atomic(readme_path, readme)
        result.files.append(f"{folder_rel}/README.md")
    elif not readme_path.exists():
        _write_text_atomic(readme_path, readme_template(case, row, [rel for _, rel in data]))
        result.files.append(f"{folder_rel}/README.md")
    set_draft(casebook, case, spec.get("draft"))

    result.backups += upsert_descriptor_row(casebook / DESCRIPTOR, case, row)
    result.files.append(DESCRIPTOR)
    library = spec.get("library") or _library_of(case)
    result.backups += upsert_diagnosis(casebook / DIAGNOSES, case, str(library), diagnosis)
    result.files.append(DIAGNOSES)
    return result


def set_draft(casebook: Path, case: str, reason: object) -> str | None:
    """Mark ``case`` as a draft with ``reason`` (writes DRAFT.md) or, with no reason, as verified."""
    case = check_case_name(case)
    folder = inside(casebook, f"{BENCHMARK}/{case}")
    if not folder.is_dir():
        raise AuthoringError(
            "no-case-folder", f"case {case} has no folder {BENCHMARK}/{case} in {casebook}",
            case=case, folder=f"{BENCHMARK}/{case}", casebook=str(casebook),
        )
    draft = folder / DRAFT_FILE
    if isinstance(reason, str) and reason.strip():
        _write_text_atomic(
            draft,
            "# Draft\n\nThis case is a draft: it did not verify, so it does not count yet.\n\n"
            f"{reason.strip()}\n\nFix the notebooks and save the case again, or run "
            f"`junobench add` with `--update`; the case counts once it verifies.\n",
        )
        return f"{BENCHMARK}/{case}/{DRAFT_FILE}"
    if draft.exists():
        draft.unlink()
    return None


def write_fixed(casebook: Path, case: str, notebook: object) -> WriteResult:
    """Write ``<case>_fixed.ipynb`` of an existing case."""
    case = check_case_name(case)
    folder_rel = f"{BENCHMARK}/{case}"
    folder = inside(casebook, folder_rel)
    if not folder.is_dir():
        raise AuthoringError(
            "no-case-folder", f"case {case} has no folder {folder_rel} in {casebook}",
            case=case, folder=folder_rel, casebook=str(casebook),
        )
    nb = _check_notebook(notebook, f"{case}_fixed.ipynb")
    name = _notebook_name(case, "fixed")
    _write_text_atomic(folder / name, json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    return WriteResult(case=case, files=[f"{folder_rel}/{name}"], updated=True)


def readme_template(case: str, row: dict[str, Any], data: list[str]) -> str:
    """The README.md of a new case: dataset credits, the crash, the labels, the files."""
    datasets = row.get("datasets") or []
    credits = "\n".join(
        f"- **Title:** {d.get('title') or '(to fill in)'}  \n"
        f"  **License:** {d.get('license') or '(to fill in)'}  \n"
        f"  **URL:** {d.get('url') or '(to fill in)'}"
        for d in datasets
    ) or "- **Title:** (to fill in)  \n  **License:** (to fill in)  \n  **URL:** (to fill in)"
    files = ", ".join(f"`{f}`" for f in data) or "(none)"
    first = (row.get("evalue") or "").strip().splitlines()
    return f"""# {case}

## Dataset Information

{credits}

Input files in this folder: {files}

## Crash

Recorded exception: `{row.get('ename') or '?'}: {first[0] if first else ''}`

Labels: root cause *{row.get('label_root_cause') or '?'}*, crash type
*{row.get('label_refined_exp_type') or '?'}*, pipeline stage *{row.get('label_ML_pipeline') or '?'}*.

## Notes for learners

(Describe the notebook and what it was meant to do; do not give the fix away here.)
"""


def fit_traceback(lines: list[str]) -> tuple[str, int]:
    """The traceback as the descriptor stores it (``repr`` of the list) within an xlsx cell.

    Too long, the library frames in the middle go first (the first three lines,
    which hold the cell's own frame, and the exception line stay), then every
    line is cut to an equal share. Returns the literal and how many lines were
    left out or cut.
    """
    items = list(lines)
    text = repr(items)
    if len(text) <= MAX_CELL_CHARS:
        return text, 0
    head, middle, tail = items[:3], items[3:-1], items[-1:] if len(items) > 3 else []
    dropped = 0
    while middle:
        middle.pop(0)
        dropped += 1
        note = f"... {dropped} traceback line(s) left out by junobench to fit an xlsx cell ..."
        text = repr(head + [note] + middle + tail)
        if len(text) <= MAX_CELL_CHARS:
            return text, dropped
    kept = head + ([f"... {dropped} traceback line(s) left out by junobench ..."] if dropped else []) + tail
    share = MAX_CELL_CHARS // (2 * max(len(kept), 1))
    cut = [line if len(repr(line)) <= share else line[: share // 4] + " ... [cut by junobench]" for line in kept]
    return repr(cut), dropped + sum(1 for a, b in zip(kept, cut, strict=True) if a != b)


# ------------------------------------------------------------------------------------------
# Workbooks
# ------------------------------------------------------------------------------------------


def upsert_descriptor_row(path: Path, case: str, row: dict[str, Any]) -> list[str]:
    """Add or update the row of ``case`` in the descriptor; other rows stay as they are.

    The sheet is the one the loader reads (the first whose header holds
    ``nb_name``); a missing column is added after the last one. Returns the backups kept.
    """
    wb = _load(path)
    ws, header_row = _descriptor_sheet(wb, path)
    columns = _columns(ws, header_row)
    values = {
        "nb_name": case,
        "ename": row["ename"],
        "evalue": row["evalue"],
        "traceback": row["traceback"],
        "NotebookUrl": row.get("NotebookUrl") or None,
    }
    for label in LABEL_COLUMNS:
        values[label] = row.get(label) or None
    datasets = row.get("datasets") or []
    count = max(2, len(datasets))
    for i in range(count):
        d = datasets[i] if i < len(datasets) else {}
        values[f"DatasetTitle_{i + 1}"] = d.get("title") or None
        values[f"DatasetLicenseName_{i + 1}"] = d.get("license") or None
        values[f"DatasetUrl_{i + 1}"] = d.get("url") or None
    at = _find_row(ws, header_row, columns["nb_name"], case)
    if at is None:
        at = _last_used_row(ws, header_row) + 1
    if "eid" not in columns or not _cell_text(ws.cell(at, columns["eid"]).value):
        # A new row (or one without an eid) gets an id; an existing eid is kept.
        values["eid"] = str(uuid.uuid4())
    for name, value in values.items():
        column = columns.get(name.lower())
        if column is None:
            if value is None:
                continue
            column = _add_column(ws, header_row, columns, name)
        ws.cell(at, column).value = _xlsx_text(value, name, path.name)
    return _save_with_backup(wb, path)


def upsert_diagnosis(path: Path, case: str, library: str, diagnosis: str) -> list[str]:
    """Add or update ``<case>_reproduced`` (and ``<case>_fixed``) in diagnoses.xlsx."""
    if not path.exists():
        _save_atomic(_new_diagnoses(), path)
    wb = _load(path)
    ws = _diagnoses_sheet(wb, path)
    columns = _columns(ws, 1)
    for needed in ("instance", "diagnosis"):
        if needed not in columns:
            _add_column(ws, 1, columns, needed)
    rows = {
        f"{case}_fixed": {"library": library, "detection": False, "diagnosis": None, "runinfo_help": "None"},
        f"{case}_reproduced": {"library": library, "detection": True, "diagnosis": diagnosis or None},
    }
    for instance, values in rows.items():
        at = _find_row(ws, 1, columns["instance"], instance)
        if at is None:
            at = _last_used_row(ws, 1) + 1
            ws.cell(at, columns["instance"]).value = instance
        for name, value in values.items():
            column = columns.get(name.lower())
            if column is not None:
                ws.cell(at, column).value = (
                    value if isinstance(value, bool) or value is None else _xlsx_text(value, name, path.name)
                )
    return _save_with_backup(wb, path)


def _diagnoses_sheet(wb, path: Path):
    """The sheet the loader reads diagnoses from (src/casebook/diagnoses.ts)."""
    ws = next(
        (s for s in wb.worksheets if s.title.strip().lower() == "ground_truth" and _has_instance(s)),
        None,
    ) or next((s for s in wb.worksheets if _has_instance(s)), None)
    if ws is None:
        raise AuthoringError(
            "no-instance-sheet", f"{path.name} has no sheet with an \"instance\" column; it was left as it is",
            file=path.name,
        )
    return ws


def _load(path: Path):
    from openpyxl import load_workbook

    try:
        return load_workbook(path)
    except Exception as err:  # openpyxl raises many kinds for a corrupt file
        raise AuthoringError(
            "not-xlsx", f"{path.name} is not a readable .xlsx file ({err}); it was left as it is",
            file=path.name, detail=str(err),
        ) from err


def _descriptor_sheet(wb, path: Path):
    """The sheet and 1-based header row the loader reads (src/casebook/descriptor.ts)."""
    for ws in wb.worksheets:
        header_row = _header_row(ws)
        if header_row is not None and "nb_name" in [_cell_text(c.value).lower() for c in ws[header_row]]:
            return ws, header_row
    raise AuthoringError(
        "no-name-sheet", f"{path.name} has no sheet with an nb_name column; it was left as it is", file=path.name
    )


def _header_row(ws) -> int | None:
    for index, row in enumerate(ws.iter_rows(values_only=True), start=1):
        if any(_cell_text(v) != "" for v in row):
            return index
    return None


def _has_instance(ws) -> bool:
    return any(_cell_text(c.value).lower() == "instance" for c in ws[1])


def _columns(ws, header_row: int) -> dict[str, int]:
    """Header names (trimmed, lower case) to 1-based columns; the first of duplicates wins."""
    columns: dict[str, int] = {}
    for cell in ws[header_row]:
        key = _cell_text(cell.value).lower()
        if key and key not in columns:
            columns[key] = cell.column
    return columns


def _add_column(ws, header_row: int, columns: dict[str, int], name: str) -> int:
    column = max([0, *columns.values(), ws.max_column if ws.max_row >= header_row else 0]) + 1
    ws.cell(header_row, column).value = name
    columns[name.lower()] = column
    return column


def _find_row(ws, header_row: int, column: int, value: str) -> int | None:
    for at in range(header_row + 1, ws.max_row + 1):
        if _cell_text(ws.cell(at, column).value) == value:
            return at
    return None


def _find_descriptor_row(path: Path, case: str) -> int | None:
    wb = _load(path)
    ws, header_row = _descriptor_sheet(wb, path)
    return _find_row(ws, header_row, _columns(ws, header_row)["nb_name"], case)


def _last_used_row(ws, header_row: int) -> int:
    last = header_row
    for index, row in enumerate(ws.iter_rows(min_row=header_row + 1, values_only=True), start=header_row + 1):
        if any(v is not None and _cell_text(v) != "" for v in row):
            last = index
    return last


def _cell_text(value: object) -> str:
    return "" if value is None else str(value).strip()


def _xlsx_text(value: object, column: str, file: str) -> object:
    """Text an xlsx cell can hold: control characters written as ``\\xNN``; too long is an error."""
    if value is None:
        return None
    text = _ILLEGAL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(value))
    if len(text) > MAX_CELL_CHARS:
        raise AuthoringError(
            "cell-too-long",
            f"the {column} of this case is {len(text)} characters long; an xlsx cell holds at most "
            f"{MAX_CELL_CHARS}, so nothing was written ({file} is left as it is)",
            column=column,
            length=len(text),
            limit=MAX_CELL_CHARS,
            file=file,
        )
    return text


def _save_with_backup(wb, path: Path) -> list[str]:
    """Keep the previous file as ``<file>.bak``, then replace it atomically."""
    backups = []
    if path.exists():
        backup = path.with_name(path.name + ".bak")
        if backup.exists() or backup.is_symlink():
            backup.unlink()  # a read-only copy of a read-only original cannot be overwritten
        shutil.copy2(path, backup)
        backups.append(path.name + ".bak")
    _save_atomic(wb, path)
    return backups


def _file_mode(path: Path) -> int:
    """The mode to give a rewritten file: the old file's, else the default under the umask."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _replace_atomic(path: Path, write: Callable[[str], None]) -> None:
    """Write a sibling temporary file with ``write(tmp)``, then rename it over ``path``."""
    mode = _file_mode(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, mode | 0o200)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _save_atomic(wb, path: Path) -> None:
    _replace_atomic(path, wb.save)


def _write_text_atomic(path: Path, text: str) -> None:
    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)

    _replace_atomic(path, write)


# ------------------------------------------------------------------------------------------
# Checking the spec
# ------------------------------------------------------------------------------------------


def _notebook_name(case: str, kind: str) -> str:
    return {"original": f"{case}.ipynb", "reproduced": f"{case}_reproduced.ipynb", "fixed": f"{case}_fixed.ipynb"}[kind]


def _check_notebooks(notebooks: object, case: str) -> dict[str, dict[str, Any]]:
    if not isinstance(notebooks, dict) or not isinstance(notebooks.get("reproduced"), dict):
        raise AuthoringError("no-reproduced", f"case {case}: the spec has no reproduced notebook", case=case)
    out = {}
    for kind in ("original", "reproduced", "fixed"):
        nb = notebooks.get(kind)
        if nb is None:
            continue
        out[kind] = _check_notebook(nb, _notebook_name(case, kind))
    return out


def _check_notebook(nb: object, name: str) -> dict[str, Any]:
    if not isinstance(nb, dict):
        raise AuthoringError("not-a-notebook", f"{name}: not a notebook (a JSON object)", file=name)
    if nb.get("nbformat") != 4:
        found = nb.get("nbformat")
        found = found if isinstance(found, (str, int, float, bool)) or found is None else str(found)
        raise AuthoringError(
            "nbformat", f"{name}: nbformat {json.dumps(found)} is not 4", file=name, nbformat=found
        )
    cells = nb.get("cells")
    if not isinstance(cells, list) or not all(isinstance(c, dict) and "cell_type" in c for c in cells):
        raise AuthoringError("cells", f"{name}: \"cells\" is not a list of cells", file=name)
    return nb


def _check_row(row: object, case: str) -> dict[str, Any]:
    if not isinstance(row, dict):
        raise AuthoringError("no-row", f"case {case}: the spec has no descriptor row", case=case)
    for key in ("ename", "evalue"):
        if not isinstance(row.get(key), str) or (key == "ename" and not row[key].strip()):
            raise AuthoringError(
                "no-exception-field", f"case {case}: the recorded exception has no {key}", case=case, field=key
            )
    traceback = row.get("traceback")
    if not isinstance(traceback, list) or not all(isinstance(t, str) for t in traceback):
        raise AuthoringError("traceback-type", f"case {case}: the traceback must be a list of strings", case=case)
    row = dict(row)
    row["traceback"] = [_ANSI.sub("", t) for t in traceback]
    datasets = row.get("datasets") or []
    if not isinstance(datasets, list) or not all(isinstance(d, dict) for d in datasets):
        raise AuthoringError(
            "datasets-type", f"case {case}: datasets must be a list of {{title, license, url}}", case=case
        )
    for key in (*LABEL_COLUMNS, "NotebookUrl"):
        if row.get(key) is not None and not isinstance(row.get(key), str):
            raise AuthoringError("label-type", f"case {case}: {key} must be text", case=case, column=key)
    return row


def _check_data(paths: object, data_root: Path | None, case: str) -> list[tuple[Path, str]]:
    if not isinstance(paths, list):
        raise AuthoringError("data-type", f"case {case}: data must be a list of paths", case=case)
    if paths and data_root is None:
        raise AuthoringError(
            "data-without-root",
            f"case {case}: data files were given without the folder they are relative to",
            case=case,
        )
    reserved = {f"{case}.ipynb", f"{case}_reproduced.ipynb", f"{case}_fixed.ipynb", "readme.md", DRAFT_FILE.lower()}
    out: list[tuple[Path, str]] = []
    for raw in paths:
        rel = relative_part(raw, "data", case)
        if rel.lower() in reserved:
            raise AuthoringError(
                "data-reserved", f"case {case}: data path {rel} would overwrite the case's own {rel}",
                case=case, path=rel,
            )
        assert data_root is not None
        root = data_root.resolve()
        source = data_root / rel
        resolved = source.resolve()
        if root not in resolved.parents:
            # Symbolic links may point anywhere: copy only what really lives in the folder.
            raise AuthoringError(
                "data-outside", f"case {case}: data path {rel} resolves to {resolved}, outside {root}",
                case=case, path=rel, target=str(resolved), root=str(root),
            )
        if not source.exists():
            raise AuthoringError(
                "data-missing", f"case {case}: data file {rel} does not exist in {data_root}",
                case=case, path=rel, folder=str(data_root),
            )
        if source.is_dir():
            for child in sorted(source.rglob("*")):
                child_rel = child.relative_to(data_root).as_posix()
                if not child.is_file() or any(part.startswith(".") for part in child_rel.split("/")):
                    continue
                if root not in child.resolve().parents:
                    raise AuthoringError(
                        "data-outside",
                        f"case {case}: data path {child_rel} resolves to {child.resolve()}, outside {root}",
                        case=case, path=child_rel, target=str(child.resolve()), root=str(root),
                    )
                out.append((child, child_rel))
            continue
        if not source.is_file():
            raise AuthoringError(
                "data-not-file", f"case {case}: data path {rel} is not a regular file", case=case, path=rel
            )
        out.append((source, rel))
    return out


def _library_of(case: str) -> str:
    prefix = case.split("_", 1)[0]
    return prefix or "other"


# ------------------------------------------------------------------------------------------
# Command line: python -m jupyterlab_junobench.authoring
# ------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """``new-casebook PATH``, ``write-case``, ``write-fixed`` and ``set-draft``; JSON on stdout."""
    parser = argparse.ArgumentParser(prog="python -m jupyterlab_junobench.authoring")
    sub = parser.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new-casebook", help="create an empty casebook folder")
    new.add_argument("path")
    write = sub.add_parser("write-case", help="write a case from the JSON spec on stdin")
    write.add_argument("--casebook", required=True)
    write.add_argument("--data-root", default=None)
    fixed = sub.add_parser("write-fixed", help="write <case>_fixed.ipynb from the notebook JSON on stdin")
    fixed.add_argument("--casebook", required=True)
    fixed.add_argument("--case", required=True)
    draft = sub.add_parser("set-draft", help="mark a case as a draft (--reason) or as verified")
    draft.add_argument("--casebook", required=True)
    draft.add_argument("--case", required=True)
    draft.add_argument("--reason", default=None)
    args = parser.parse_args(argv)
    try:
        if args.command == "new-casebook":
            result = new_casebook(Path(args.path)).to_json()
        elif args.command == "write-case":
            spec = _read_stdin_json()
            data_root = Path(args.data_root) if args.data_root else None
            result = write_case(spec, Path(args.casebook), data_root).to_json()
        elif args.command == "write-fixed":
            result = write_fixed(Path(args.casebook), args.case, _read_stdin_json()).to_json()
        else:
            path = set_draft(Path(args.casebook), args.case, args.reason)
            result = {"case": args.case, "draft": path}
    except AuthoringError as err:
        print(json.dumps({"ok": False, "error": err.to_json()}, ensure_ascii=False))
        return 2
    except OSError as err:
        print(json.dumps({"ok": False, "error": write_failed(err).to_json()}, ensure_ascii=False))
        return 2
    print(json.dumps({"ok": True, **result}, ensure_ascii=False))
    return 0


def write_failed(err: OSError) -> AuthoringError:
    """A write the operating system refused, as the error the command line and the server answer."""
    detail = f"{err.filename}: {err.strerror or err}" if err.filename else str(err.strerror or err)
    return AuthoringError("write-failed", f"could not write: {detail}", detail=detail)


def _read_stdin_json() -> Any:
    try:
        return json.loads(sys.stdin.buffer.read().decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as err:
        raise AuthoringError("stdin-not-json", f"the spec on stdin is not JSON: {err}", detail=str(err)) from err


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
