"""No kernel container left behind: labels naming each container's server, and the sweep of those whose server is gone."""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path
from typing import Any

from .engine import ContainerError, Engine
from .kernelspec import PROVISIONER_NAME

# Labels on kernel containers.
LABEL_KERNEL = "org.junobench.kernel"
LABEL_OWNER = "org.junobench.owner"


def process_start(pid: int) -> str | None:
    """A process's start time (clock ticks since boot), to tell it from a later one with its pid."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name may hold spaces and parentheses: fields follow the last ')'.
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None


def owner_label(pid: int | None = None) -> str:
    """This server process as a container label: host, pid and start time."""
    pid = os.getpid() if pid is None else pid
    return f"{socket.gethostname()}/{pid}/{process_start(pid) or '?'}"


def owner_alive(owner: str) -> bool:
    """Whether the process a label names still runs (a label of another host counts as alive)."""
    parts = owner.split("/")
    if len(parts) != 3 or not parts[1].isdigit():
        return False
    host, pid, start = parts[0], int(parts[1]), parts[2]
    if host != socket.gethostname():
        return True
    now = process_start(pid)
    if now is None:
        if not Path("/proc").is_dir():
            try:
                os.kill(pid, 0)
                return True
            except OSError:
                return False
        return False
    return start in ("?", now)


def kernel_containers(engine: Engine) -> list[dict[str, str]]:
    """Every kernel container on the engine: id, name, kernel id, owner and state."""
    listed = engine.run(["ps", "-a", "-q", "--no-trunc", "--filter", f"label={LABEL_KERNEL}"], check=False)
    ids = [line.strip() for line in listed.stdout.splitlines() if line.strip()]
    if listed.returncode != 0 or not ids:
        return []
    labels = "\t".join(f'{{{{index .Config.Labels "{label}"}}}}' for label in (LABEL_KERNEL, LABEL_OWNER))
    fmt = f"{{{{.Id}}}}\t{{{{.Name}}}}\t{labels}\t{{{{.State.Status}}}}"
    out = engine.run(["inspect", "--format", fmt, *ids], check=False)
    rows = []
    for line in out.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) == 5:
            rows.append({"id": parts[0], "name": parts[1], "kernel": parts[2], "owner": parts[3], "state": parts[4]})
    return rows


def sweep_orphans(engine: Engine, log: Any = None) -> list[str]:
    """Remove the kernel containers whose server process is gone; returns their names."""
    removed = []
    for row in kernel_containers(engine):
        if owner_alive(row["owner"]):
            continue
        engine.run(["rm", "-f", row["id"]], check=False)
        removed.append(row["name"].lstrip("/"))
    if removed and log is not None:
        log.info(
            "junobench: removed %d kernel container(s) left by a server that is gone: %s",
            len(removed),
            ", ".join(removed),
        )
    return removed


def container_kernelspecs() -> list[dict[str, Any]]:
    """The installed kernelspecs that run in a container (by their provisioner)."""
    from jupyter_client.kernelspec import KernelSpecManager

    found = []
    try:
        specs = KernelSpecManager().get_all_specs()
    except Exception:  # a broken kernelspec elsewhere must not stop the server
        return []
    for name, entry in specs.items():
        meta = (entry.get("spec") or {}).get("metadata") or {}
        prov = meta.get("kernel_provisioner") or {}
        if prov.get("provisioner_name") == PROVISIONER_NAME:
            found.append({"name": name, **(prov.get("config") or {})})
    return found


def sweep_at_start(log: Any = None) -> list[str]:
    """At server start: sweep the orphans of every engine a container kernelspec uses."""
    removed: list[str] = []
    seen = set()
    for spec in container_kernelspecs():
        engine_name = spec.get("engine") or "podman"
        env = spec.get("engine_env") or {}
        key = (engine_name, json.dumps(env, sort_keys=True))
        if key in seen or not shutil.which(engine_name):
            continue
        seen.add(key)
        try:
            removed += sweep_orphans(Engine(engine_name, dict(env)), log)
        except ContainerError as e:
            if log is not None:
                log.warning("junobench: could not look for orphan kernel containers: %s", e)
    return removed
