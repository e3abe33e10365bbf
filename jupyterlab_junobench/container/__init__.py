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

One module per job, each importing only those above it in this list: :mod:`.engine` (the
engine's command line and its known refusals), :mod:`.image` (the build), :mod:`.kernelspec`,
:mod:`.sweep` (labels and orphans), :mod:`.mounts` (what a kernel container sees),
:mod:`.provisioner` and :mod:`.cli`. The names below are the package's public API; none of
these modules imports :mod:`jupyterlab_junobench.kernel` (``pins.py`` holds what both need).
"""

from __future__ import annotations

from ..pins import load_pins
from .cli import main, parser
from .engine import (
    ENGINE_ENV_KEYS,
    REFUSALS,
    ContainerError,
    Engine,
    Refusal,
    engine_env_from,
    pick_engine,
    recognise_refusal,
    short_id,
)
from .image import (
    DEBIAN_BASE,
    DEBIAN_PACKAGES,
    DEBIAN_SUITE,
    DEFAULT_IMAGE,
    IMAGE_PYTHON,
    IMAGE_REPOSITORY,
    LABEL_KEY,
    LABEL_PINS,
    UPSTREAM_BASE,
    BuildResult,
    benchmark_differences,
    build,
    build_key,
    choose_base,
    containerfile_text,
    debian_base,
    image_requirements,
    probe_image,
)
from .kernelspec import DISPLAY_NAME, KERNEL_NAME, PROVISIONER_NAME, install_kernelspec, kernelspec
from .mounts import is_case_folder, mount_args, mounts_for, session_case_folder
from .provisioner import ContainerProvisioner
from .sweep import (
    LABEL_KERNEL,
    LABEL_OWNER,
    container_kernelspecs,
    kernel_containers,
    owner_alive,
    owner_label,
    process_start,
    sweep_at_start,
    sweep_orphans,
)

__all__ = [
    "BuildResult",
    "ContainerError",
    "ContainerProvisioner",
    "DEBIAN_BASE",
    "DEBIAN_PACKAGES",
    "DEBIAN_SUITE",
    "DEFAULT_IMAGE",
    "DISPLAY_NAME",
    "ENGINE_ENV_KEYS",
    "Engine",
    "IMAGE_PYTHON",
    "IMAGE_REPOSITORY",
    "KERNEL_NAME",
    "LABEL_KERNEL",
    "LABEL_KEY",
    "LABEL_OWNER",
    "LABEL_PINS",
    "PROVISIONER_NAME",
    "REFUSALS",
    "Refusal",
    "UPSTREAM_BASE",
    "benchmark_differences",
    "build",
    "build_key",
    "choose_base",
    "container_kernelspecs",
    "containerfile_text",
    "debian_base",
    "engine_env_from",
    "image_requirements",
    "install_kernelspec",
    "is_case_folder",
    "kernel_containers",
    "kernelspec",
    "load_pins",
    "main",
    "mount_args",
    "mounts_for",
    "owner_alive",
    "owner_label",
    "parser",
    "pick_engine",
    "probe_image",
    "process_start",
    "recognise_refusal",
    "session_case_folder",
    "short_id",
    "sweep_at_start",
    "sweep_orphans",
]
