"""The bundled demo casebook and its copy under the server's contents root.

A casebook is a folder holding ``benchmark_desc.xlsx`` (the case descriptor),
``diagnoses.xlsx`` and ``benchmark/<case>/...``. The wheel ships one at
``jupyterlab_junobench/demo_casebook``; a source checkout has it at
``demo/casebook``. Nothing here ever overwrites or deletes a user's file.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

#: The file that marks a folder as a casebook.
DESCRIPTOR = "benchmark_desc.xlsx"

_PACKAGE_DIR = Path(__file__).resolve().parent
_SKIP = {"__pycache__", ".ipynb_checkpoints", ".DS_Store"}
_copy_lock = threading.Lock()


class DemoFolderConflict(Exception):
    """The demo folder name is taken by something that is not a casebook.

    ``code`` is ``demo-folder-taken`` or ``demo-folder-appeared`` (the client
    words it; the message is English for logs), ``folder`` the name.
    """

    def __init__(self, code: str, folder: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.folder = folder


@dataclass(frozen=True)
class DemoCopy:
    """Where the demo casebook copy is, whether this call made it, and its case count."""

    path: str
    created: bool
    cases: int


def is_casebook(path: Path) -> bool:
    """Whether ``path`` is a folder with a casebook descriptor."""
    return path.is_dir() and (path / DESCRIPTOR).is_file()


def count_cases(casebook: Path) -> int:
    """Number of case folders under ``casebook/benchmark``."""
    benchmark = casebook / "benchmark"
    if not benchmark.is_dir():
        return 0
    return sum(
        1 for entry in benchmark.iterdir() if entry.is_dir() and not entry.name.startswith(".")
    )


def bundled_casebook(override: str = "") -> Path | None:
    """Locate the demo casebook to copy, or ``None`` if there is none.

    ``override`` (the ``demo_source`` setting) wins when given; otherwise the
    copy packaged in the wheel, then the source checkout's ``demo/casebook``
    (editable installs, where package data is not materialised).
    """
    if override:
        candidates = [Path(override).expanduser()]
    else:
        candidates = [_PACKAGE_DIR / "demo_casebook", _PACKAGE_DIR.parent / "demo" / "casebook"]
    return next((path for path in candidates if is_casebook(path)), None)


def ensure_demo_copy(source: Path, root_dir: Path, folder: str) -> DemoCopy:
    """Make sure ``root_dir/folder`` holds a copy of the casebook ``source``.

    An existing casebook there is left untouched (``created=False``); anything
    else by that name raises :class:`DemoFolderConflict`. A new copy is staged in
    a hidden sibling folder and renamed into place, so no half-copied casebook is
    ever visible under ``folder``.
    """
    target = root_dir / folder
    with _copy_lock:
        if target.exists() or target.is_symlink():
            if not is_casebook(target):
                raise DemoFolderConflict(
                    "demo-folder-taken",
                    folder,
                    f"'{folder}' already exists in the server root and is not a JunoBench "
                    f"casebook (no {DESCRIPTOR}); it was left untouched. Rename or move it, "
                    "or set c.JunobenchExtension.demo_folder to another name."
                )
            return DemoCopy(folder, False, count_cases(target))
        staging = Path(tempfile.mkdtemp(prefix=f".{folder}-", suffix=".partial", dir=root_dir))
        try:
            staged = staging / folder
            _copy_tree(source, staged)
            if target.exists() or target.is_symlink():  # created meanwhile by someone else
                raise DemoFolderConflict(
                    "demo-folder-appeared", folder, f"'{folder}' appeared while the demo was being copied."
                )
            os.rename(staged, target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return DemoCopy(folder, True, count_cases(target))


def _copy_tree(source: Path, destination: Path) -> None:
    """Copy file contents only, so the copy is writable even if the package is not."""
    for current, dirs, files in os.walk(source):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP)
        relative = Path(current).relative_to(source)
        (destination / relative).mkdir(parents=True, exist_ok=True)
        for name in files:
            if name not in _SKIP:
                shutil.copyfile(Path(current) / name, destination / relative / name)
