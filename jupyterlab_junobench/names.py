"""The one case-name rule of the Python package (the same as ``nameProblem`` in src/casebook/paths.ts).

A case name is one folder name: letters, digits, ``_``, ``.`` and ``-``, at most
255 characters, no ``..`` and no leading ``.`` (the loader skips hidden folders,
so such a case could never be found). The authoring writer, the sparse fetch
and the server's "Fetch this case" all ask :func:`name_problem`.
"""

from __future__ import annotations

import json
import re

#: The longest case name (a common file name limit).
MAX_NAME = 255
_SAFE_CHAR = re.compile(r"^[A-Za-z0-9_.\-]$")


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a case name, in a few words (``is empty``, ...), or None."""
    if not isinstance(name, str) or name == "":
        return "is empty"
    if len(name) > MAX_NAME:
        return f"is longer than {MAX_NAME} characters"
    if "\0" in name:
        return "contains a NUL byte"
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return "is an absolute path"
    if "\\" in name:
        return "contains a backslash"
    if ".." in name.split("/"):
        return 'has a ".." segment'
    if "/" in name:
        return 'contains "/"'
    if name == ".":
        return 'is "."'
    if ".." in name:
        return 'contains ".."'
    if name.startswith("."):
        return 'starts with "."'
    bad = next((ch for ch in name if not _SAFE_CHAR.match(ch)), None)
    if bad is not None:
        return f"contains the character {json.dumps(bad, ensure_ascii=False)}"
    return None
