"""``python -m jupyterlab_junobench.doctor``: the Python side of ``junobench doctor``, as one JSON object.

It reports facts, not verdicts: whether the server extension and the labextension are installed and
enabled, the pinned and container kernelspecs and their libraries' drift from ``pins.json``, and
whether a container engine really starts a container (with the settings it runs under, and with
those of ``scripts/container-env.sh`` when those differ). The Node command (``src/cli/doctor.ts``)
adds the casebooks and judges the facts (``src/cli/doctorChecks.ts``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from collections.abc import Sequence
from typing import Any

from . import container
from .kernel import KernelEnvError, default_prefix, drift, load_pins, pins_for, probe, venv_python

# A source checkout's podman settings (what scripts/container-env.sh exports).
_REPO = Path(__file__).resolve().parent.parent
CONTAINER_ENV = {
    "CONTAINERS_CONF": str(_REPO / "deploy" / "podman" / "containers.conf"),
    "CONTAINERS_STORAGE_CONF": str(
        _REPO / "deploy" / "podman" / f"storage-{os.environ.get('JUNOBENCH_PODMAN_STORAGE', 'overlay')}.conf"
    ),
}


def server_extension() -> dict[str, Any]:
    """Whether the server extension is enabled and the prebuilt labextension is where JupyterLab looks."""
    from jupyter_core.paths import jupyter_config_path, jupyter_path
    from jupyter_server.extension.config import ExtensionConfigManager

    manager = ExtensionConfigManager(read_config_path=jupyter_config_path())
    enabled = manager.get_jpserver_extensions().get("jupyterlab_junobench")
    labextension = None
    for folder in jupyter_path("labextensions"):
        package = Path(folder) / "jupyterlab-junobench" / "package.json"
        if package.is_file():
            labextension = {"path": str(package.parent), "version": json.loads(package.read_text("utf-8"))["version"]}
            break
    from ._version import __version__

    return {"enabled": bool(enabled), "labextension": labextension, "version": __version__}


def _specs() -> dict[str, Any]:
    from jupyter_client.kernelspec import KernelSpecManager

    try:
        return KernelSpecManager().get_all_specs()
    except Exception as e:  # a broken kernelspec elsewhere is itself a finding
        return {"__error__": str(e)}


def pinned_kernel(specs: dict[str, Any]) -> dict[str, Any]:
    """The pinned kernelspec (or the default environment without one) and its drift from the pins."""
    pins = load_pins()
    found: dict[str, Any] = {"kernelspec": None, "venv": None}
    for name, entry in specs.items():
        meta = ((entry or {}).get("spec") or {}).get("metadata") or {}
        junobench = meta.get("junobench") or {}
        if junobench.get("environment") == "pinned":
            found = {"kernelspec": name, "venv": junobench.get("venv"), "pins": junobench.get("pins", "minimal")}
            break
    if found["venv"] is None and venv_python(default_prefix()).exists():
        found["venv"] = str(default_prefix())
    if found["venv"] is None:
        return found
    selected = pins_for(pins, minimal=found.get("pins", "minimal") == "minimal")
    try:
        versions = probe(venv_python(Path(found["venv"])), selected)
    except (KernelEnvError, OSError, ValueError) as e:
        return {**found, "error": str(e)}
    return {
        **found,
        "python": versions["python"],
        "localDrift": drift(versions["versions"], selected),
        "benchmarkDrift": drift(versions["versions"], selected, benchmark=True),
    }


def _start(engine: container.Engine, image: str) -> dict[str, Any]:
    """Start a container of ``image`` that reports its libraries; what happened, refusal recognised."""
    started = time.monotonic()
    out: dict[str, Any] = {"image": image, "env": engine.env}
    if engine.image_id(image) is None:
        return {**out, "started": False, "absent": True, "seconds": round(time.monotonic() - started, 2)}
    try:
        versions = container.probe_image(engine, image)
    except (container.ContainerError, ValueError) as e:
        refusal = container.recognise_refusal(str(e))
        return {
            **out,
            "started": False,
            "error": str(e)[-600:],
            "refusal": refusal.__dict__ if refusal else None,
            "seconds": round(time.monotonic() - started, 2),
        }
    # An image built with --minimal is judged against the minimal pins only.
    group = engine.image_labels(image).get(container.LABEL_PINS) or "full"
    selected = pins_for(load_pins(), minimal=group == "minimal")
    return {
        **out,
        "started": True,
        "pins": group,
        "python": versions["python"],
        "benchmarkPython": load_pins()["python"]["pinned"],
        "benchmarkDrift": drift(versions["versions"], selected, benchmark=True),
        "seconds": round(time.monotonic() - started, 2),
    }


def container_engine(specs: dict[str, Any]) -> dict[str, Any]:
    """The container kernelspec, the engine, and one real container start (twice when settings differ)."""
    kernelspec = next((s for s in container.container_kernelspecs()), None) if specs else None
    name = (kernelspec or {}).get("engine") or next((n for n in ("podman", "docker") if shutil.which(n)), None)
    out: dict[str, Any] = {
        "kernelspec": kernelspec,
        "engine": name,
        "containerEnv": CONTAINER_ENV if Path(CONTAINER_ENV["CONTAINERS_CONF"]).is_file() else None,
        "attempts": [],
    }
    if name is None or not shutil.which(name):
        return out
    image = (kernelspec or {}).get("image") or container.DEFAULT_IMAGE
    env = (kernelspec or {}).get("engine_env") or container.engine_env_from()
    attempt = {"settings": "kernelspec" if kernelspec else "current", **_start(container.Engine(name, dict(env)), image)}
    out["attempts"].append(attempt)
    if not attempt["started"] and name == "podman" and out["containerEnv"] and env != out["containerEnv"]:
        out["attempts"].append(
            {"settings": "container-env", **_start(container.Engine(name, dict(out["containerEnv"])), image)}
        )
    return out


def report() -> dict[str, Any]:
    """Every fact the doctor needs from Python."""
    specs = _specs()
    return {
        "python": {"executable": sys.executable, "version": sys.version.split()[0]},
        "serverExtension": server_extension(),
        "kernelspecs": sorted(k for k in specs if k != "__error__"),
        "kernelspecError": specs.get("__error__"),
        "pinned": pinned_kernel(specs),
        "container": container_engine(specs),
        "demoCasebook": str(p) if (p := _demo()) else None,
    }


def _demo() -> Path | None:
    from .casebook import bundled_casebook

    return bundled_casebook()


def main(argv: Sequence[str] | None = None) -> int:
    """Print the report as JSON."""
    argparse.ArgumentParser(prog="python -m jupyterlab_junobench.doctor", description=__doc__).parse_args(argv)
    print(json.dumps(report()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
