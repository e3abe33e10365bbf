"""``scripts/start.sh`` starts the demo clean: its settings overrides answer JupyterLab's news question.

The test reads the settings folder from start.sh itself and starts a real
JupyterLab with it, as start.sh does; the served defaults must say "no news"
and "no update check", so no notification toast covers the case header.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("requests")

from _lab import running_lab

REPO = Path(__file__).resolve().parent.parent
START = REPO / "scripts" / "start.sh"
NOTIFICATION = "@jupyterlab/apputils-extension:notification"


def _settings_dir() -> Path:
    text = START.read_text()
    assert '--LabApp.app_settings_dir="$SETTINGS_DIR"' in text, "start.sh passes its settings folder"
    match = re.search(r"^SETTINGS_DIR=\$PWD/(\S+)$", text, re.M)
    assert match, "start.sh names its settings folder"
    return REPO / match.group(1)


def test_the_demo_overrides_answer_the_news_question(tmp_path: Path) -> None:
    overrides = json.loads((_settings_dir() / "overrides.json").read_text())
    assert overrides[NOTIFICATION] == {"fetchNews": "false", "checkForUpdates": False}
    with running_lab(tmp_path, [f"--LabApp.app_settings_dir={_settings_dir()}"]) as get:
        r = get(f"lab/api/settings/{NOTIFICATION}")
        assert r.status_code == 200, r.text
        props = r.json()["schema"]["properties"]
        # "none" (the schema's default) is what makes JupyterLab ask.
        assert props["fetchNews"]["default"] == "false"
        assert props["checkForUpdates"]["default"] is False
