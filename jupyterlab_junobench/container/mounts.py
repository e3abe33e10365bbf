"""What a kernel container sees of the host: its working folder, a case's data read-only, no answer key."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..scratch import CASEBOOK_ANSWERS, excluded


def session_case_folder(session_path: str | None, root_dir: str | None) -> str | None:
    """The case folder of a working copy (absolute), from the notebook a session runs, or None."""
    if not session_path or not root_dir:
        return None
    try:
        with open(session_path, encoding="utf-8") as f:
            nb = json.load(f)
    except (OSError, ValueError):
        return None
    meta = ((nb.get("metadata") or {}).get("junobench") or {}) if isinstance(nb, dict) else {}
    folder = meta.get("caseFolder") if isinstance(meta, dict) else None
    if not isinstance(folder, str) or not folder:
        return None
    root = Path(root_dir).resolve()
    target = (root / folder.lstrip("/")).resolve()
    # A folder outside the server root is not mounted, whatever the notebook says.
    if root != target and root not in target.parents:
        return None
    return str(target) if target.is_dir() else None


def is_case_folder(folder: str) -> bool:
    """Whether a folder holds a case's notebooks (``<name>_fixed.ipynb`` or ``<name>_reproduced.ipynb``)."""
    name = os.path.basename(folder.rstrip(os.sep))
    return any(os.path.isfile(os.path.join(folder, f"{name}_{kind}.ipynb")) for kind in ("fixed", "reproduced"))


def mounts_for(cwd: str, case_folder: str | None) -> list[tuple[str, str]]:
    """(path, mode) pairs, parents first: ``rw``, ``ro``, or ``mask`` (hidden behind an empty file or folder).

    The kernel's folder is mounted read-write; of the case folder only what a notebook may read
    (its data: every entry but the notebooks and the answer key, ``scratch.excluded``), read-only.
    A kernel started in the case folder itself (``junobench check`` starts its kernels there)
    gets no read-write mount: its writes stay in the container. Answer files that the
    read-write mount would show (a case folder inside the kernel's folder, the casebook's
    ``diagnoses.xlsx`` above it) are masked.
    """
    cwd = str(Path(cwd).resolve())
    case = str(Path(case_folder).resolve()) if case_folder else (cwd if is_case_folder(cwd) else None)
    mounts: dict[str, str] = {}
    if case is None or not _within(cwd, case):
        mounts[cwd] = "rw"
    if case is not None:
        name = os.path.basename(case)
        try:
            entries = sorted(os.listdir(case))
        except OSError:
            entries = []
        for entry in entries:
            path = os.path.join(case, entry)
            if not excluded(entry, name):
                mounts[path] = "ro"
            elif cwd in mounts and _within(path, cwd):
                mounts[path] = "mask"
        if cwd in mounts and _within(case, cwd):
            folder = os.path.dirname(case)
            while _within(folder, cwd):
                for label in CASEBOOK_ANSWERS:
                    if os.path.exists(os.path.join(folder, label)):
                        mounts[os.path.join(folder, label)] = "mask"
                if folder == cwd:
                    break
                folder = os.path.dirname(folder)
    return sorted(mounts.items(), key=lambda m: (len(m[0]), m[0]))


def mount_args(path: str, mode: str) -> list[str]:
    """The engine's arguments for one of ``mounts_for``'s mounts (same path inside and out)."""
    if mode == "mask":
        return ["--tmpfs", f"{path}:ro"] if os.path.isdir(path) else ["-v", f"/dev/null:{path}:ro"]
    return ["-v", f"{path}:{path}:{mode}"]


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)
