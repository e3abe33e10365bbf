"""The one case-name rule of the Python package (the same as ``nameProblem`` in src/casebook/paths.ts).

A case name is one folder name: letters, digits, ``_``, ``.`` and ``-``, at most
255 characters, no ``..`` and no leading ``.`` (the loader skips hidden folders,
so such a case could never be found). The authoring writer, the sparse fetch
and the server's "Fetch this case" all ask :func:`name_problem`.

What is wrong is a code with parameters (``{"code": "too-long", "limit": 255}``),
the codes of ``NameProblem`` in TypeScript, where ``renderNameProblem`` words
them for the UI (translated) and the command line. :func:`describe_name_problem`
is the English of the messages the server and the fetcher log.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: The longest case name (a common file name limit).
MAX_NAME = 255
_SAFE_CHAR = re.compile(r"^[A-Za-z0-9_.\-]$")

#: The English of each code, for logs (``renderNameProblem`` in src/casebook/paths.ts words them for people).
_ENGLISH = {
    "empty": "it is empty",
    "too-long": "it is longer than {limit} characters",
    "nul": "it contains a NUL byte",
    "absolute": "it is an absolute path",
    "backslash": "it contains a backslash",
    "dot-dot-segment": 'it has a ".." segment',
    "slash": 'it contains "/"',
    "dot": 'it is "."',
    "dot-dot": 'it contains ".."',
    "hidden": 'it starts with "."',
    "character": "it contains the character {char}",
}


def name_problem(name: object) -> dict[str, Any] | None:
    """Why ``name`` cannot be a case name, as a code with parameters, or None."""
    if not isinstance(name, str) or name == "":
        return {"code": "empty"}
    if len(name) > MAX_NAME:
        return {"code": "too-long", "limit": MAX_NAME}
    if "\0" in name:
        return {"code": "nul"}
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return {"code": "absolute"}
    if "\\" in name:
        return {"code": "backslash"}
    if ".." in name.split("/"):
        return {"code": "dot-dot-segment"}
    if "/" in name:
        return {"code": "slash"}
    if name == ".":
        return {"code": "dot"}
    if ".." in name:
        return {"code": "dot-dot"}
    if name.startswith("."):
        return {"code": "hidden"}
    bad = next((ch for ch in name if not _SAFE_CHAR.match(ch)), None)
    if bad is not None:
        return {"code": "character", "char": bad}
    return None


def describe_name_problem(problem: dict[str, Any]) -> str:
    """A name problem in English, as a clause (``it is empty``), for logs and error messages."""
    params = {k: v for k, v in problem.items() if k != "code"}
    if "char" in params:
        params["char"] = json.dumps(params["char"], ensure_ascii=False)
    return _ENGLISH[problem["code"]].format(**params)
