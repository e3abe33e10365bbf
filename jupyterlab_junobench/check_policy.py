"""The check's policy: every threshold and tolerance of "Check my fix", each with its reason.

The values live in ``check_policy.json`` beside this module, the one place they are edited.
The TypeScript judge reads a copy of it (``scripts/embed-probe.js``), the corpus validators read
it directly, and the kernel-side modules (``probe.py``, ``scratch.py``) get the values written
into their text in place of their ``POLICY`` line (``embed`` here, ``scripts/embed-probe.js`` for
the build), since the kernel that runs that text cannot read our files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

PATH = Path(__file__).with_name("check_policy.json")
#: The line of a kernel-side module that ``embed`` fills in.
MARKER = re.compile(r"^POLICY: dict\[str, float\] = \{\}$", re.M)


def load(path: Path = PATH) -> dict[str, dict]:
    """The policy's entries, each ``{"value": number, "reason": text}``; a clear error on a
    malformed entry."""
    entries = json.loads(path.read_text("utf-8"))
    for name, entry in entries.items():
        value = entry.get("value") if isinstance(entry, dict) else None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{path}: {name}: the value is not a number")
        if not isinstance(entry.get("reason"), str) or not entry["reason"].strip():
            raise ValueError(f"{path}: {name}: no reason given")
    return entries


def values(path: Path = PATH) -> dict[str, float]:
    """The policy's values by name."""
    return {name: entry["value"] for name, entry in load(path).items()}


def embed(source: str) -> str:
    """A kernel-side module's text with the policy's values written into its ``POLICY`` line."""
    line = f"POLICY: dict[str, float] = {json.dumps(values())}"
    text, n = MARKER.subn(lambda _: line, source, count=1)
    if n != 1:
        raise ValueError("the module has no 'POLICY: dict[str, float] = {}' line")
    return text
