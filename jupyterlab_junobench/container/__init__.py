"""The JunoBench container: its image, a kernel that runs in it, and no container left behind.

JunoBench's crashes reproduce as recorded in its container (``FROM python:3.10-slim``
plus the pinned libraries). This module builds the same layers from ``pins.json``
(``Containerfile`` beside it) with an existing engine, podman or docker, and runs
Jupyter kernels inside the image through a kernel provisioner
(:class:`ContainerProvisioner`, on jupyter_client's provisioner API)::

    python -m jupyterlab_junobench.container build [--engine podman|docker] [--base auto|debian|IMAGE] [--minimal]
    python -m jupyterlab_junobench.container status [--engine ...]
    python -m jupyterlab_junobench.container sweep [--engine ...]
    python -m jupyterlab_junobench.kernel install --container [IMAGE]   # the kernelspec

Every kernel container carries labels naming its kernel and the server process
that started it; :func:`sweep_orphans` removes those whose server is gone (it
runs when the server extension loads and before a provisioner's first launch).
docs/environment.md explains the choices and what the container isolates.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from collections.abc import Sequence

from ..launcher import launcher_argv
from ..pins import drift, drift_line, load_pins, pins_for, probe_code, requirements
from ..scratch import CASEBOOK_ANSWERS, excluded

# The image's repository name and the tag `build` moves to the newest build.
IMAGE_REPOSITORY = "junobench"
DEFAULT_IMAGE = f"{IMAGE_REPOSITORY}:latest"
# The offline base made from Debian's packages (`--base debian`).
DEBIAN_BASE = f"{IMAGE_REPOSITORY}-base:bookworm"
DEBIAN_SUITE = "bookworm"
DEBIAN_PACKAGES = ("python3", "python3-venv", "ca-certificates")
# The base of the JunoBench construction repository's docker/Dockerfile.
UPSTREAM_BASE = "python:3.10-slim"
# Labels on kernel containers.
LABEL_KERNEL = "org.junobench.kernel"
LABEL_OWNER = "org.junobench.owner"
# Labels on images (set by the Containerfile).
LABEL_KEY = "org.junobench.key"
LABEL_PINS = "org.junobench.pins"
# The kernelspec `kernel install --container` registers.
KERNEL_NAME = "junobench-container"
DISPLAY_NAME = "JunoBench (container)"
PROVISIONER_NAME = "junobench-container"
# The Python inside the image (the Containerfile's venv).
IMAGE_PYTHON = "/opt/junobench/bin/python"
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


# ---------------------------------------------------------------------------
# The engine


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


# ---------------------------------------------------------------------------
# The image


def containerfile_text() -> str:
    """The Containerfile shipped with the package."""
    return resources.files("jupyterlab_junobench").joinpath("Containerfile").read_text("utf-8")


def image_requirements(pins: dict[str, Any], minimal: bool) -> list[str]:
    """The pip requirements of the image: the kernel's, from pins.json."""
    return requirements(pins, minimal)


def build_key(containerfile: str, reqs: Sequence[str], base_id: str, find_links: Sequence[str]) -> str:
    """What makes two builds the same: the Containerfile, the requirements, the base and the wheels offered."""
    digest = hashlib.sha256()
    for part in (containerfile, "\n".join(reqs), base_id, "\n".join(sorted(find_links))):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def debian_base(engine: Engine, progress: Any = print) -> str:
    """The offline base image (mmdebstrap of Debian's python3, imported); built once, then reused."""
    found = engine.image_id(DEBIAN_BASE)
    if found:
        progress(f"base: {DEBIAN_BASE} is present ({short_id(found)})")
        return DEBIAN_BASE
    if not shutil.which("mmdebstrap"):
        raise ContainerError(
            "the offline base needs mmdebstrap (on Debian: apt-get install mmdebstrap), "
            f"or pass --base with an image that has python3 and venv (the benchmark's is {UPSTREAM_BASE})"
        )
    with tempfile.TemporaryDirectory(prefix="junobench-base-") as tmp:
        tar = Path(tmp) / "base.tar"
        progress(f"base: mmdebstrap {DEBIAN_SUITE} with {', '.join(DEBIAN_PACKAGES)} (about a minute)")
        argv = [
            "mmdebstrap",
            "--variant=minbase",
            f"--include={','.join(DEBIAN_PACKAGES)}",
            DEBIAN_SUITE,
            str(tar),
        ]
        started = time.monotonic()
        out = subprocess.run(argv, capture_output=True, text=True)
        if out.returncode != 0:
            raise ContainerError(f"mmdebstrap failed (exit code {out.returncode}): {out.stderr.strip()[-800:]}")
        progress(f"base: made in {time.monotonic() - started:.0f} s; importing as {DEBIAN_BASE}")
        engine.run(["import", str(tar), DEBIAN_BASE], timeout=600)
    return DEBIAN_BASE


def choose_base(engine: Engine, base: str, progress: Any = print) -> str:
    """The base image: ``debian`` (offline), an image reference, or ``auto`` (the benchmark's if it can be had)."""
    if base == "debian":
        return debian_base(engine, progress)
    if base != "auto":
        if engine.image_id(base) is None:
            progress(f"base: pulling {base}")
            engine.stream(["pull", base], f"pulling {base}")
        return base
    if engine.image_id(UPSTREAM_BASE) is not None:
        return UPSTREAM_BASE
    pulled = engine.run(["pull", UPSTREAM_BASE], check=False, timeout=900)
    if pulled.returncode == 0:
        return UPSTREAM_BASE
    reason = (pulled.stderr.strip().splitlines() or ["no registry"])[-1][:200]
    progress(f"base: {UPSTREAM_BASE} cannot be pulled here ({reason}); using the offline Debian base")
    return debian_base(engine, progress)


def short_id(image_id: str) -> str:
    """An image id as people see it (12 hex digits)."""
    return image_id.split(":")[-1][:12]


@dataclass
class BuildResult:
    """What `build` made or found."""

    image: str
    image_id: str
    base: str
    built: bool
    key: str
    differences: list[str]


def probe_image(engine: Engine, image: str) -> dict[str, Any]:
    """Python version and installed versions of the pinned distributions inside the image."""
    code = probe_code(pins_for(load_pins(), minimal=False))
    out = engine.run(["run", "--rm", "--network", "none", image, IMAGE_PYTHON, "-c", code], timeout=300)
    return json.loads(out.stdout.strip().splitlines()[-1])


def benchmark_differences(found: dict[str, Any], base: str, pins: dict[str, Any]) -> list[str]:
    """Lines saying how an image differs from the JunoBench container (base, Python, each library)."""
    lines: list[str] = []
    if base != UPSTREAM_BASE:
        lines.append(f"base: {base} (the benchmark's is {UPSTREAM_BASE})")
    pinned_python = pins["python"]["pinned"]
    if not str(found.get("python", "")).startswith(pinned_python + "."):
        lines.append(f"Python {found.get('python')} (the benchmark's is {pinned_python})")
    versions = found.get("versions", {})
    lines += [drift_line(d, "pinned") for d in drift(versions, pins_for(pins, minimal=False), benchmark=True)]
    return lines


def build(
    engine: Engine,
    base: str = "auto",
    minimal: bool = False,
    tag: str = DEFAULT_IMAGE,
    find_links: Sequence[str] = (),
    ca_bundle: str | None = None,
    progress: Any = print,
) -> BuildResult:
    """Build the image, or find the one built from the same inputs; returns what it made or found."""
    pins = load_pins()
    reqs = image_requirements(pins, minimal)
    progress(f"[1/3] base image ({base})")
    base_ref = choose_base(engine, base, progress)
    base_id = engine.image_id(base_ref) or base_ref
    text = containerfile_text()
    links = [str(Path(d).resolve()) for d in find_links if d and Path(d).is_dir()]
    key = build_key(text, reqs, base_id, links)
    keyed = f"{IMAGE_REPOSITORY}:{key}"
    existing = engine.image_id(keyed)
    built = False
    if existing and engine.image_labels(keyed).get(LABEL_KEY) == key:
        progress(f"[2/3] image {keyed} is up to date ({short_id(existing)}): nothing to build")
    else:
        progress(
            f"[2/3] building {keyed} on {base_ref} with {len(reqs)} requirements ({'minimal' if minimal else 'full'} pins)"
        )
        with tempfile.TemporaryDirectory(prefix="junobench-image-") as ctx:
            Path(ctx, "Containerfile").write_text(text, "utf-8")
            Path(ctx, "requirements.txt").write_text("\n".join(reqs) + "\n", "utf-8")
            argv = [
                "build",
                "--network",
                "host",
                "-f",
                str(Path(ctx, "Containerfile")),
                "--build-arg",
                f"BASE={base_ref}",
                "--build-arg",
                f"JUNOBENCH_KEY={key}",
                "--build-arg",
                f"JUNOBENCH_PINS={'minimal' if minimal else 'full'}",
                "-t",
                keyed,
            ]
            if engine.name == "podman":
                # pip inside the build trusts the host's certificate authorities (a proxy's included).
                if ca_bundle and Path(ca_bundle).is_file():
                    argv += ["-v", f"{ca_bundle}:/etc/ssl/certs/ca-certificates.crt:ro"]
                for i, folder in enumerate(links):
                    argv += ["-v", f"{folder}:/wheels/{i}:ro"]
                if links:
                    argv += ["--build-arg", "FIND_LINKS=" + " ".join(f"/wheels/{i}" for i in range(len(links)))]
            elif links:
                progress("note: docker builds cannot mount wheel folders; --find-links is ignored")
            argv.append(ctx)
            started = time.monotonic()
            engine.stream(argv, f"building {keyed}")
            progress(f"built in {time.monotonic() - started:.0f} s")
        built = True
    engine.run(["tag", keyed, tag])
    image_id = engine.image_id(tag) or ""
    progress(f"[3/3] checking the libraries inside {tag}")
    found = probe_image(engine, tag)
    diffs = benchmark_differences(found, base_ref, pins)
    return BuildResult(image=tag, image_id=image_id, base=base_ref, built=built, key=key, differences=diffs)


# ---------------------------------------------------------------------------
# Kernel containers: mounts, labels, orphans


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


def session_case_folder(session_path: str | None, root_dir: str | None) -> str | None:
    """The case folder of a working copy (absolute), from the notebook a session runs, or None."""
    if not session_path or not root_dir:
        return None
    try:
        with open(session_path, encoding="utf-8") as f:
            nb = json.load(f)
    except (OSError, ValueError):
        return None
    meta = ((nb.get("metadata") or {}).get("junobench") or {}) if isinstance(nb, dict) else {}
    folder = meta.get("caseFolder") if isinstance(meta, dict) else None
    if not isinstance(folder, str) or not folder:
        return None
    root = Path(root_dir).resolve()
    target = (root / folder.lstrip("/")).resolve()
    # A folder outside the server root is not mounted, whatever the notebook says.
    if root != target and root not in target.parents:
        return None
    return str(target) if target.is_dir() else None


def is_case_folder(folder: str) -> bool:
    """Whether a folder holds a case's notebooks (``<name>_fixed.ipynb`` or ``<name>_reproduced.ipynb``)."""
    name = os.path.basename(folder.rstrip(os.sep))
    return any(os.path.isfile(os.path.join(folder, f"{name}_{kind}.ipynb")) for kind in ("fixed", "reproduced"))


def mounts_for(cwd: str, case_folder: str | None) -> list[tuple[str, str]]:
    """(path, mode) pairs, parents first: ``rw``, ``ro``, or ``mask`` (hidden behind an empty file or folder).

    The kernel's folder is mounted read-write; of the case folder only what a notebook may read
    (its data: every entry but the notebooks and the answer key, ``scratch.excluded``), read-only.
    A kernel started in the case folder itself (``junobench check`` starts its kernels there)
    gets no read-write mount: its writes stay in the container. Answer files that the
    read-write mount would show (a case folder inside the kernel's folder, the casebook's
    ``diagnoses.xlsx`` above it) are masked.
    """
    cwd = str(Path(cwd).resolve())
    case = str(Path(case_folder).resolve()) if case_folder else (cwd if is_case_folder(cwd) else None)
    mounts: dict[str, str] = {}
    if case is None or not _within(cwd, case):
        mounts[cwd] = "rw"
    if case is not None:
        name = os.path.basename(case)
        try:
            entries = sorted(os.listdir(case))
        except OSError:
            entries = []
        for entry in entries:
            path = os.path.join(case, entry)
            if not excluded(entry, name):
                mounts[path] = "ro"
            elif cwd in mounts and _within(path, cwd):
                mounts[path] = "mask"
        if cwd in mounts and _within(case, cwd):
            folder = os.path.dirname(case)
            while _within(folder, cwd):
                for label in CASEBOOK_ANSWERS:
                    if os.path.exists(os.path.join(folder, label)):
                        mounts[os.path.join(folder, label)] = "mask"
                if folder == cwd:
                    break
                folder = os.path.dirname(folder)
    return sorted(mounts.items(), key=lambda m: (len(m[0]), m[0]))


def mount_args(path: str, mode: str) -> list[str]:
    """The engine's arguments for one of ``mounts_for``'s mounts (same path inside and out)."""
    if mode == "mask":
        return ["--tmpfs", f"{path}:ro"] if os.path.isdir(path) else ["-v", f"/dev/null:{path}:ro"]
    return ["-v", f"{path}:{path}:{mode}"]


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


# ---------------------------------------------------------------------------
# The kernel provisioner

try:
    from jupyter_client.provisioning import LocalProvisioner
    from traitlets import Dict, Unicode
except ImportError:  # pragma: no cover - jupyter_client comes with the server
    LocalProvisioner = object  # type: ignore[assignment,misc]


class ContainerProvisioner(LocalProvisioner):  # type: ignore[misc,valid-type]
    """Runs a kernel inside a container image, leaving no container behind.

    The kernelspec's ``argv`` is the command inside the image. The engine's
    client runs attached (``run --rm --init``); signals, kill and clean-up go to
    the container by its name, and the container carries labels naming its
    kernel and this server process so that a later server removes it if this
    one is killed.
    """

    image = Unicode(DEFAULT_IMAGE, config=True, help="The image the kernel runs in.")
    engine = Unicode("podman", config=True, help="The container engine: podman or docker.")
    engine_env = Dict(config=True, help="Environment variables of the engine's own configuration.")

    _swept: bool = False
    container_name: str | None = None

    def _engine(self) -> Engine:
        return Engine(self.engine, {str(k): str(v) for k, v in (self.engine_env or {}).items()})

    def _root_dir(self) -> str | None:
        parent = getattr(self.parent, "parent", None)
        return getattr(parent, "root_dir", None)

    async def pre_launch(self, **kwargs: Any) -> dict[str, Any]:
        """The host command: the kernelspec's argv inside ``<engine> run`` with the mounts and labels."""
        engine = self._engine()
        if not shutil.which(engine.command):
            raise RuntimeError(f"{self.kernel_spec.display_name}: the container engine {engine.command} is not on PATH")
        if not ContainerProvisioner._swept:
            ContainerProvisioner._swept = True
            await asyncio.to_thread(sweep_orphans, engine, getattr(self, "log", None))
        kwargs = await super().pre_launch(**kwargs)
        inner = list(kwargs.pop("cmd"))
        env = kwargs.get("env") or {}
        cwd = str(kwargs.get("cwd") or os.getcwd())
        case_folder = session_case_folder(env.get("JPY_SESSION_NAME"), self._root_dir())
        image_id = await asyncio.to_thread(engine.image_id, self.image)
        if image_id is None:
            raise RuntimeError(
                f"{self.kernel_spec.display_name}: the image {self.image} is not present "
                "(build it: python -m jupyterlab_junobench.container build)"
            )
        self.container_name = f"junobench-{self.kernel_id[:8]}-{uuid.uuid4().hex[:6]}"
        conn = str(Path(self.parent.connection_file).resolve())
        run = [
            engine.command,
            "run",
            "--rm",
            "--init",
            "--name",
            self.container_name,
            "--label",
            f"{LABEL_KERNEL}={self.kernel_id}",
            "--label",
            f"{LABEL_OWNER}={owner_label()}",
            "--network",
            "host",
            "--user",
            f"{os.getuid()}:{os.getgid()}",
            "-e",
            "HOME=/tmp",
            "-e",
            f"JUNOBENCH_IMAGE={self.image}@{short_id(image_id)}",
        ]
        passed = dict(self.kernel_spec.env or {})
        if env.get("JPY_SESSION_NAME"):
            passed["JPY_SESSION_NAME"] = env["JPY_SESSION_NAME"]
        for key, value in passed.items():
            run += ["-e", f"{key}={value}"]
        for path, mode in mounts_for(cwd, case_folder):
            run += mount_args(path, mode)
        run += ["-v", f"{conn}:{conn}:ro", "-w", str(Path(cwd).resolve()), self.image, *inner]
        kwargs["cmd"] = run
        kwargs["env"] = {**os.environ, **engine.env}
        return kwargs

    async def _container(self, *args: str) -> None:
        if self.container_name:
            await asyncio.to_thread(self._engine().run, [*args, self.container_name], False, 60)

    async def send_signal(self, signum: int) -> None:
        """Signal the kernel in the container (the container's init passes it on)."""
        if self.process is None:
            return
        await self._container("kill", "--signal", signal.Signals(signum).name)

    async def kill(self, restart: bool = False) -> None:
        """Kill the container, then its engine client."""
        await self._container("kill", "--signal", "KILL")
        await super().kill(restart)

    async def terminate(self, restart: bool = False) -> None:
        """Ask the container's kernel to end."""
        await self._container("kill", "--signal", "TERM")

    async def cleanup(self, restart: bool = False) -> None:
        """Remove the container (whatever its state) and return the ports."""
        await self._container("rm", "-f")
        self.container_name = None
        await super().cleanup(restart)

    def get_provisioner_info(self) -> dict[str, Any]:
        """What a restart of the server needs to find this kernel's container again."""
        info = super().get_provisioner_info()
        info["container_name"] = self.container_name
        return info

    async def load_provisioner_info(self, provisioner_info: dict[str, Any]) -> None:
        """Restore the container's name."""
        await super().load_provisioner_info(provisioner_info)
        self.container_name = provisioner_info.get("container_name")


# ---------------------------------------------------------------------------
# The kernelspec


def kernelspec(
    image: str, image_id: str, engine: Engine, name: str = KERNEL_NAME, display_name: str = DISPLAY_NAME
) -> dict[str, Any]:
    """The kernel.json of a kernel inside ``image``."""
    return {
        # ipykernel_launcher, but a kernel whose IOPub port was taken exits (see launcher.py).
        "argv": launcher_argv(IMAGE_PYTHON),
        "display_name": display_name,
        "language": "python",
        "interrupt_mode": "signal",
        "env": {"MPLBACKEND": "Agg", "JUNOBENCH_ENVIRONMENT": "container"},
        "metadata": {
            "kernel_provisioner": {
                "provisioner_name": PROVISIONER_NAME,
                "config": {"image": image, "engine": engine.name, "engine_env": engine.env},
            },
            "junobench": {"environment": "container", "image": image, "image_id": short_id(image_id), "name": name},
        },
    }


def install_kernelspec(
    image: str,
    engine: Engine,
    prefix: str | None = None,
    user: bool = False,
    name: str = KERNEL_NAME,
    display_name: str = DISPLAY_NAME,
) -> Path:
    """Register the container kernel; returns the kernelspec's folder."""
    from jupyter_client.kernelspec import KernelSpecManager

    image_id = engine.image_id(image)
    if image_id is None:
        raise ContainerError(
            f"the image {image} is not present on {engine.name} (build it: python -m jupyterlab_junobench.container build)"
        )
    with tempfile.TemporaryDirectory(prefix="junobench-kernelspec-") as tmp:
        folder = Path(tmp) / name
        folder.mkdir()
        (folder / "kernel.json").write_text(
            json.dumps(kernelspec(image, image_id, engine, name, display_name), indent=1), "utf-8"
        )
        where = KernelSpecManager().install_kernel_spec(
            str(folder), name, user=user, prefix=None if user else (prefix or sys.prefix)
        )
    return Path(where)


# ---------------------------------------------------------------------------
# The command line


def parser() -> argparse.ArgumentParser:
    """The command line."""
    p = argparse.ArgumentParser(
        prog="python -m jupyterlab_junobench.container",
        description="Build the JunoBench container image and manage kernel containers.",
    )
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the image from pins.json (idempotent)")
    b.add_argument("--engine", choices=["podman", "docker"], help="container engine (default: podman, else docker)")
    b.add_argument(
        "--base",
        default="auto",
        help=f"auto ({UPSTREAM_BASE} when it can be had, else debian), debian (offline, from Debian's packages) or an image",
    )
    b.add_argument("--minimal", action="store_true", help="only the light libraries (numpy, pandas, scikit-learn, ...)")
    b.add_argument("--tag", default=DEFAULT_IMAGE, help=f"the tag to give the image (default: {DEFAULT_IMAGE})")
    b.add_argument(
        "--find-links",
        action="append",
        default=None,
        help="a folder of wheels pip may use inside the build (podman; default: $PIP_FIND_LINKS when it is a folder)",
    )
    b.add_argument(
        "--ca-bundle",
        default="/etc/ssl/certs/ca-certificates.crt",
        help="the host's CA bundle, mounted for pip (podman)",
    )
    b.add_argument("--json", action="store_true", help="print the result as JSON")
    for name, text in (
        ("status", "list the kernel containers and the image"),
        ("sweep", "remove kernel containers whose server is gone"),
    ):
        s = sub.add_parser(name, help=text)
        s.add_argument("--engine", choices=["podman", "docker"])
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = parser().parse_args(argv)
    try:
        engine = pick_engine(args.engine, engine_env_from())
        if args.command == "build":
            links = args.find_links
            if links is None:
                links = [d for d in os.environ.get("PIP_FIND_LINKS", "").split() if Path(d).is_dir()]
            result = build(
                engine,
                base=args.base,
                minimal=args.minimal,
                tag=args.tag,
                find_links=links,
                ca_bundle=args.ca_bundle,
                progress=(lambda *_: None) if args.json else print,
            )
            if args.json:
                print(json.dumps(result.__dict__, indent=1))
                return 0
            print(f"image: {result.image} ({short_id(result.image_id)}){'' if result.built else ', already built'}")
            if result.differences:
                print(f"differs from the JunoBench container in {len(result.differences)} way(s):")
                for line in result.differences:
                    print(f"  {line}")
            else:
                print("same base, Python and library versions as the JunoBench container")
            return 0
        if args.command == "sweep":
            removed = sweep_orphans(engine)
            print(f"removed {len(removed)} orphan kernel container(s){': ' + ', '.join(removed) if removed else ''}")
            return 0
        image_id = engine.image_id(DEFAULT_IMAGE)
        print(f"image {DEFAULT_IMAGE}: {short_id(image_id) if image_id else 'not built'}")
        rows = kernel_containers(engine)
        for row in rows:
            alive = "server running" if owner_alive(row["owner"]) else "orphan"
            print(f"  {row['name'].lstrip('/')}  kernel {row['kernel']}  {row['state']}  ({alive})")
        print(f"{len(rows)} kernel container(s)")
        return 0
    except ContainerError as e:
        print(f"junobench container: error: {e}", file=sys.stderr)
        refusal = recognise_refusal(str(e))
        if refusal is not None:
            print(f"junobench container: {refusal.meaning}. To fix it: {refusal.fix}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
