"""A casebook folder's listing, several levels deep, in one answer.

The browser loads a casebook through the Contents API, one request per folder;
for 10,000 cases that is 20,000 requests, answered one at a time. This module
lists the same folders in one pass over the disk, with the Contents API's rules:
hidden entries are left out unless the contents manager allows them, and an
entry whose real path leaves the server root is left out.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

#: Deepest level listed below the casebook root (root=0, benchmark/=1,
#: benchmark/<case>/=2, benchmark/<case>/data/=3, one more level of data).
MAX_DEPTH = 4

#: Most entries returned; beyond it the answer is marked incomplete and the
#: browser lists the remaining folders through the Contents API.
MAX_ENTRIES = 500_000


class TreeError(ValueError):
    """The requested folder cannot be listed: a code (``path-outside-root``, ``path-hidden``), the path, and English."""

    def __init__(self, code: str, path: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.path = path


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def list_tree(
    root_dir: str | os.PathLike[str],
    rel_path: str,
    *,
    allow_hidden: bool = False,
    max_depth: int = MAX_DEPTH,
    max_entries: int = MAX_ENTRIES,
) -> dict[str, Any]:
    """List ``rel_path`` (a server path) under ``root_dir`` down to ``max_depth``.

    Returns ``{"path", "depth", "complete", "folders": {rel: [entry, ...]}}``
    where ``rel`` is relative to ``rel_path`` ('' for itself) and an entry is
    ``{"name", "type": "file"|"directory", "size"}`` (size for files only).
    ``complete`` is false when ``max_entries`` cut the listing short; folders
    missing from ``folders`` were not listed.
    """
    root = Path(root_dir).expanduser().resolve()
    parts = [p for p in rel_path.replace("\\", "/").split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise TreeError("path-outside-root", rel_path, f"{rel_path}: '..' is not allowed in a casebook path.")
    if not allow_hidden and any(p.startswith(".") for p in parts):
        raise TreeError("path-hidden", rel_path, f"{rel_path}: hidden folders are not listed.")
    start = root.joinpath(*parts).resolve()
    if not _inside(start, root):
        raise TreeError("path-outside-root", rel_path, f"{rel_path}: is outside the server root.")
    if not start.is_dir():
        raise FileNotFoundError(f"{rel_path}: no such folder.")

    folders: dict[str, list[dict[str, Any]]] = {}
    count = 0
    complete = True
    queue: list[tuple[Path, str, int]] = [(start, "", 0)]
    while queue:
        folder, rel, depth = queue.pop(0)
        entries: list[dict[str, Any]] = []
        try:
            with os.scandir(folder) as it:
                items = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for item in items:
            if not allow_hidden and item.name.startswith("."):
                continue
            try:
                real = Path(item.path).resolve()
                if not _inside(real, root):
                    continue
                is_dir = item.is_dir()
                entry: dict[str, Any] = {
                    "name": item.name,
                    "type": "directory" if is_dir else "file",
                }
                if not is_dir:
                    if not item.is_file():
                        continue  # FIFOs, sockets, devices, dangling links
                    entry["size"] = item.stat().st_size
            except OSError:
                continue
            entries.append(entry)
            count += 1
            if is_dir and depth + 1 <= max_depth:
                queue.append((real, f"{rel}/{item.name}" if rel else item.name, depth + 1))
        if count > max_entries:
            complete = False
            break
        folders[rel] = entries
    return {"path": "/".join(parts), "depth": max_depth, "complete": complete, "folders": folders}
