"""``scripts/make_fetch_fixture.py`` as a module, for the fetch tests (not a test module)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("make_fetch_fixture", REPO / "scripts" / "make_fetch_fixture.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: The fixture builder: ``FIXTURE.build(dest, data_kb=..., lfs=...)``, ``FIXTURE.git(...)``.
FIXTURE = _load()
