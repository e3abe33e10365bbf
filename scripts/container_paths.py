"""The building machine's Python paths in recorded outputs, written as the benchmark container's.

A traceback a kernel sends names the files of its Python: `/work/main/.venv/lib/python3.11/
site-packages/pandas/core/frame.py`, `~/.pyenv/versions/3.11.7/lib/python3.11/...`. Recorded into
the demo casebook, such a path tells every reader where the notebooks were built (a home folder, a
repository's checkout) and not where a learner runs them. `container_paths` writes them as the
benchmark container lays its Python out (jupyterlab_junobench/Containerfile: `python:3.10-slim`, a
venv at `/opt/junobench`): libraries under `/opt/junobench/lib/python3.10/site-packages/`, the
standard library under `/usr/local/lib/python3.10/`. The line numbers stay those of the libraries
that ran.

One function, used where outputs are recorded (scripts/build_demo.py, scripts/make_fair_corpus.py
--record) and to rewrite outputs recorded before (`build_demo.py --container-paths`).
tests/test_demo_casebook.py fails on any path of the building machine left in demo/ or the corpora.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any

#: The container's venv (jupyterlab_junobench/Containerfile) and its base image's Python.
SITE_PACKAGES = "/opt/junobench/lib/python3.10/site-packages/"
STDLIB = "/usr/local/lib/python3.10/"

# An absolute or home-relative path up to its Python's lib folder; the earliest match starts at the
# path's first character (ANSI colour codes end in a letter, so no look-behind).
_PYTHON_LIB = re.compile(r"(?:~|/)[\w.~/+-]*?/lib/python3\.\d+/(?:(site|dist)-packages/)?")


def container_paths(text: str) -> str:
    """`text` with every Python library path written as the benchmark container's."""
    return _PYTHON_LIB.sub(lambda m: SITE_PACKAGES if m.group(1) else STDLIB, text)


def container_outputs(outputs: list[MutableMapping[str, Any]]) -> list[MutableMapping[str, Any]]:
    """Rewrite, in place, the paths in a cell's outputs (streams, tracebacks, error values, text
    data); returns the same list."""
    for out in outputs:
        kind = out.get("output_type")
        if kind == "stream":
            out["text"] = _each(out["text"])
        elif kind == "error":
            out["traceback"] = [container_paths(line) for line in out["traceback"]]
            out["evalue"] = container_paths(out["evalue"])
        elif kind in ("execute_result", "display_data"):
            data = out.get("data", {})
            for mime in ("text/plain", "text/html"):
                if mime in data:
                    data[mime] = _each(data[mime])
    return outputs


def _each(text: str | list[str]) -> str | list[str]:
    """A multiline string as nbformat stores it: one string or a list of lines."""
    return container_paths(text) if isinstance(text, str) else [container_paths(t) for t in text]
