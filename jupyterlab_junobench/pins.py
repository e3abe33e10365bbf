"""``pins.json`` read for both kernels: the pinned environment (``kernel.py``) and the image (``container/``).

The one list of pins, the requirements pip installs from it, the probe that asks an interpreter
for its versions, and the drift of what it found from the pins. Nothing here builds or runs
a kernel; both kernels' modules import it, and it imports neither.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Pin:
    """One library of pins.json as the local install sees it."""

    name: str
    pinned: str
    group: str
    requirement: str | None
    local_version: str | None
    reason: str | None
    distributions: tuple[str, ...]


def load_pins() -> dict[str, Any]:
    """The pins file shipped with the package (jupyterlab_junobench/pins.json)."""
    text = resources.files("jupyterlab_junobench").joinpath("pins.json").read_text("utf-8")
    pins: dict[str, Any] = json.loads(text)
    return pins


def pins_for(pins: dict[str, Any], minimal: bool) -> list[Pin]:
    """The pins the kernel installs: the minimal group, plus the full group unless ``minimal``."""
    groups = ("minimal",) if minimal else ("minimal", "full")
    out: list[Pin] = []
    for lib in pins["libraries"]:
        if lib["group"] not in groups:
            continue
        local = lib.get("local")
        out.append(
            Pin(
                name=lib["name"],
                pinned=lib["pinned"],
                group=lib["group"],
                requirement=(local["requirement"] if local else f"{lib['name']}=={lib['pinned']}"),
                local_version=(local["version"] if local else lib["pinned"]),
                reason=(local["reason"] if local else None),
                distributions=tuple(lib.get("distributions") or [lib["name"]]),
            )
        )
    return out


def requirements(pins: dict[str, Any], minimal: bool) -> list[str]:
    """The pip requirements of the kernel environment (ipykernel last, unpinned as in the container)."""
    reqs = [p.requirement for p in pins_for(pins, minimal) if p.requirement]
    return [*reqs, "ipykernel"]


def probe_code(pins: list[Pin]) -> str:
    """Python that prints the interpreter's version, prefix and the pinned distributions' versions as JSON."""
    names = sorted({d for p in pins for d in p.distributions} | {"ipykernel"})
    return (
        "import json, sys, importlib.metadata as md\n"
        "def v(n):\n"
        "    try:\n"
        "        return md.version(n)\n"
        "    except Exception:\n"
        "        return None\n"
        f"print(json.dumps({{'python': sys.version.split()[0], 'prefix': sys.prefix,"
        f" 'versions': {{n: v(n) for n in {names!r}}}}}))\n"
    )


def probe_result(stdout: str) -> dict[str, Any]:
    """What :func:`probe_code` printed (its last line): ``{python, prefix, versions}``."""
    found: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
    return found


def installed_version(versions: dict[str, str | None], pin: Pin) -> str | None:
    """The first installed version among a pin's distributions, or None."""
    return next((versions.get(d) for d in pin.distributions if versions.get(d)), None)


def drift(versions: dict[str, str | None], pins: list[Pin], benchmark: bool = False) -> list[dict[str, Any]]:
    """``{name, found, wanted}`` for each library not at its local pin (or, with ``benchmark``, the container's)."""
    out = []
    for p in pins:
        wanted = p.pinned if benchmark else p.local_version
        if wanted is None:
            continue
        version = installed_version(versions, p)
        if version is None or version.split("+")[0] != wanted:
            out.append({"name": p.name, "found": version, "wanted": wanted})
    return out


def drift_line(d: dict[str, Any], pin_name: str) -> str:
    """One line of :func:`drift`, ``pin_name`` being "local pin" or "pinned"."""
    found = d["found"] or "not installed"
    return f"{d['name']}: {found} ({pin_name} {d['wanted']})"
