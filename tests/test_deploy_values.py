"""Checks of the deployment files in deploy/ (see docs/deployment.md).

- ``deploy/z2jh-values.yaml`` parses and sets what a JunoBench class needs: the
  single-user image, a home volume per learner, memory and CPU guarantees not
  above their limits, idle culling, and the reveal policy mounted as
  JupyterLab's settings overrides, identical to ``deploy/overrides.json``;
- ``deploy/overrides.json`` names a real setting of this extension with an
  allowed value, and a real JupyterLab given it as its overrides serves that
  value as the setting's default.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")
pytest.importorskip("requests")

from _lab import running_lab  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
VALUES = REPO / "deploy" / "z2jh-values.yaml"
OVERRIDES = REPO / "deploy" / "overrides.json"
PACKAGE = json.loads((REPO / "package.json").read_text())["name"]
REVEAL_PLUGIN = f"{PACKAGE}:reveal"
REVEAL_SCHEMA = json.loads((REPO / "schema" / "reveal.json").read_text())


@pytest.fixture(scope="module")
def values() -> dict:
    return yaml.safe_load(VALUES.read_text())


def _quantity(text: str | int | float) -> float:
    """A Kubernetes quantity (1G, 512M, 2Gi, 0.5) as a number."""
    units = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}
    s = str(text)
    for unit in sorted(units, key=len, reverse=True):
        if s.endswith(unit):
            return float(s[: -len(unit)]) * units[unit]
    return float(s)


def test_single_user_image_and_command(values):
    singleuser = values["singleuser"]
    assert singleuser["image"]["name"].endswith("/junobench-singleuser")
    assert singleuser["image"]["tag"]
    assert singleuser["cmd"] == "jupyterhub-singleuser"
    assert singleuser["defaultUrl"] == "/lab"


def test_every_learner_has_their_own_home_volume(values):
    storage = values["singleuser"]["storage"]
    assert storage["type"] == "dynamic"
    assert storage["homeMountPath"] == "/home/jovyan"
    assert _quantity(storage["capacity"]) >= 1 * 2**30
    assert "{user_server}" in storage["dynamic"]["volumeNameTemplate"]


@pytest.mark.parametrize("resource", ["memory", "cpu"])
def test_resource_guarantees_do_not_exceed_limits(values, resource):
    spec = values["singleuser"][resource]
    assert _quantity(spec["guarantee"]) > 0
    assert _quantity(spec["guarantee"]) <= _quantity(spec["limit"])


def test_idle_servers_are_culled(values):
    cull = values["cull"]
    assert cull["enabled"] is True
    assert 0 < cull["every"] <= cull["timeout"]
    assert cull["users"] is False  # culling stops servers, never deletes learners (or their homes)


def test_overrides_name_a_real_setting_with_an_allowed_value():
    overrides = json.loads(OVERRIDES.read_text())
    assert list(overrides) == [REVEAL_PLUGIN]
    policy = overrides[REVEAL_PLUGIN]["revealPolicy"]
    assert policy in REVEAL_SCHEMA["properties"]["revealPolicy"]["enum"]
    assert set(overrides[REVEAL_PLUGIN]) <= set(REVEAL_SCHEMA["properties"])


def test_values_mount_the_same_overrides_into_the_lab_settings_folder(values):
    files = values["singleuser"]["extraFiles"]
    (mounted,) = [f for f in files.values() if f["mountPath"].endswith("/share/jupyter/lab/settings/overrides.json")]
    assert json.loads(mounted["stringData"]) == json.loads(OVERRIDES.read_text())
    assert mounted["mode"] & 0o222 == 0, "the overrides file should be read-only"


def test_jupyterlab_serves_the_overridden_reveal_policy_as_default(tmp_path):
    """A real JupyterLab whose settings folder holds deploy/overrides.json."""
    settings = tmp_path / "settings"
    settings.mkdir()
    (settings / "overrides.json").write_text(OVERRIDES.read_text())
    with running_lab(tmp_path, [f"--LabApp.app_settings_dir={settings}"]) as get:
        r = get(f"lab/api/settings/{REVEAL_PLUGIN}")
        assert r.status_code == 200, r.text
        expected = json.loads(OVERRIDES.read_text())[REVEAL_PLUGIN]["revealPolicy"]
        assert expected != REVEAL_SCHEMA["properties"]["revealPolicy"]["default"]
        assert r.json()["schema"]["properties"]["revealPolicy"]["default"] == expected
