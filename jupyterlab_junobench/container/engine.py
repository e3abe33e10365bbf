"""The container engine's command line (podman or docker), the refusals it is known to print, and image ids."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field

# Environment variables of the engine's own configuration, kept in the kernelspec.
ENGINE_ENV_KEYS = ("CONTAINERS_CONF", "CONTAINERS_STORAGE_CONF", "CONTAINER_HOST", "DOCKER_HOST", "DOCKER_CONFIG")


class ContainerError(RuntimeError):
    """A container step failed; the message says which and why."""


@dataclass(frozen=True)
class Refusal:
    """An engine's known refusal on machines like ours: a code, what it means and what to set."""

    code: str
    meaning: str
    fix: str


# The container settings of scripts/container-env.sh (deploy/podman/), which this kind of machine needs.
_ENV_FIX = (
    ". scripts/container-env.sh (CONTAINERS_CONF=deploy/podman/containers.conf, "
    "CONTAINERS_STORAGE_CONF=deploy/podman/storage-overlay.conf)"
)

# What an engine prints when the machine refuses it, first match wins. Each pattern is a message
# seen from podman, runc, crun or docker; the fix names the setting that avoids it.
REFUSALS: tuple[tuple[str, str, str, str], ...] = (
    (
        "rlimit",
        r"error setting rlimit|setrlimit|RLIMIT_\w+.*operation not permitted",
        "the machine does not let a container raise its resource limits (ulimits)",
        _ENV_FIX + ": its default_ulimits = [] asks for none",
    ),
    (
        "cgroups",
        r"cgroup|sd-bus call|systemd.*(user session|not running)|dbus",
        "the engine cannot create the container's control group (no systemd, or a read-only /sys/fs/cgroup)",
        _ENV_FIX + ": its cgroup_manager = \"cgroupfs\"",
    ),
    (
        "storage",
        r"overlay.*not supported|kernel does not support overlay|error creating overlay mount|"
        r"mount.*overlay.*(permission denied|invalid argument)|database .*(does not match|configuration mismatch)|"
        r"storage.*(driver|graphroot)|no space left on device",
        "the engine's image storage does not work here (overlay over overlay, another storage's database, or a full disk)",
        "JUNOBENCH_PODMAN_STORAGE=vfs . scripts/container-env.sh (vfs storage: slower, works anywhere), "
        "or free disk space under the graphroot",
    ),
    (
        "runtime",
        r"OCI runtime .*not found|runtime \"?\w+\"? not found|executable file `?(runc|crun)`? not found",
        "the engine's OCI runtime is not installed",
        "apt-get install runc, then " + _ENV_FIX + ": its runtime = \"runc\"",
    ),
    (
        "user-namespace",
        r"newuidmap|newgidmap|cannot find UID/GID|not enough IDs available|/etc/subuid",
        "a rootless engine found no subordinate user ids for this user",
        "add a range for this user to /etc/subuid and /etc/subgid (usermod --add-subuids 100000-165535 "
        "--add-subgids 100000-165535 $USER), then podman system migrate",
    ),
    (
        "no-daemon",
        r"Cannot connect to the Docker daemon|docker daemon .*running\?|dial unix .*docker\.sock",
        "docker's client is here but no docker daemon answers",
        "use podman (apt-get install podman runc, then " + _ENV_FIX + "), or start dockerd",
    ),
    (
        "permission",
        r"OCI permission denied|operation not permitted|permission denied",
        "the machine refused the container an operation it needs",
        _ENV_FIX + "; inside another container, run this one with the settings deploy/podman/ names",
    ),
)


def recognise_refusal(text: str) -> Refusal | None:
    """The known refusal an engine's error output shows, or None."""
    for code, pattern, meaning, fix in REFUSALS:
        if re.search(pattern, text, re.IGNORECASE):
            return Refusal(code, meaning, fix)
    return None


@dataclass
class Engine:
    """A container engine's command line (podman or docker) and its environment."""

    name: str
    env: dict[str, str] = field(default_factory=dict)

    @property
    def command(self) -> str:
        """The engine's executable."""
        return self.name

    def environ(self) -> dict[str, str]:
        """The process environment for engine commands."""
        return {**os.environ, **self.env}

    def run(
        self, args: Sequence[str], check: bool = True, timeout: float | None = 120
    ) -> subprocess.CompletedProcess[str]:
        """Run ``<engine> args`` and capture its output; raises naming the command on failure."""
        argv = [self.command, *args]
        try:
            out = subprocess.run(argv, capture_output=True, text=True, env=self.environ(), timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise ContainerError(f"{' '.join(argv[:3])}: {e}") from e
        if check and out.returncode != 0:
            raise ContainerError(
                f"{' '.join(argv[:3])} failed (exit code {out.returncode}): {out.stderr.strip()[-800:]}"
            )
        return out

    def stream(self, args: Sequence[str], what: str) -> None:
        """Run ``<engine> args`` with its output shown line by line; raises naming ``what``."""
        argv = [self.command, *args]
        print(f"$ {' '.join(argv)}", flush=True)
        try:
            proc = subprocess.Popen(
                argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=self.environ()
            )
        except OSError as e:
            raise ContainerError(f"{what}: cannot run {self.command}: {e}") from e
        assert proc.stdout is not None
        tail: list[str] = []
        for line in proc.stdout:
            print(f"  {line}", end="", flush=True)
            tail = [*tail[-30:], line.rstrip()]
        code = proc.wait()
        if code != 0:
            last = "\n".join(tail[-12:])
            raise ContainerError(f"{what} failed (exit code {code}). Last lines:\n{last}")

    def image_id(self, ref: str) -> str | None:
        """The full id of an image present locally, or None."""
        out = self.run(["image", "inspect", "--format", "{{.Id}}", ref], check=False)
        if out.returncode != 0:
            return None
        return out.stdout.strip().splitlines()[0] if out.stdout.strip() else None

    def image_labels(self, ref: str) -> dict[str, str]:
        """An image's labels ({} when it is absent or has none)."""
        out = self.run(["image", "inspect", "--format", "{{json .Config.Labels}}", ref], check=False)
        if out.returncode != 0:
            return {}
        try:
            return json.loads(out.stdout.strip() or "null") or {}
        except ValueError:
            return {}


def pick_engine(name: str | None = None, env: dict[str, str] | None = None) -> Engine:
    """The engine named, or the first of podman and docker on PATH; raises when none is."""
    candidates = [name] if name else ["podman", "docker"]
    for candidate in candidates:
        if candidate not in ("podman", "docker"):
            raise ContainerError(f"--engine {candidate}: the engine must be podman or docker")
        if shutil.which(candidate):
            return Engine(candidate, dict(env or {}))
    wanted = name or "podman or docker"
    raise ContainerError(f"no container engine: {wanted} is not on PATH (on Debian: apt-get install podman runc)")


def engine_env_from(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The engine configuration variables set now (kept in the kernelspec for the server)."""
    source = os.environ if environ is None else environ
    return {k: source[k] for k in ENGINE_ENV_KEYS if source.get(k)}


def short_id(image_id: str) -> str:
    """An image id as people see it (12 hex digits)."""
    return image_id.split(":")[-1][:12]
