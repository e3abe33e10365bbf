"""The kernel provisioner: a Jupyter kernel inside the image, its container named and labelled, removed at the end."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import uuid
from pathlib import Path
from typing import Any

from jupyter_client.provisioning.local_provisioner import LocalProvisioner
from traitlets import Dict, Unicode

from .engine import Engine, short_id
from .image import DEFAULT_IMAGE
from .mounts import mount_args, mounts_for, session_case_folder
from .sweep import LABEL_KERNEL, LABEL_OWNER, owner_label, sweep_orphans


class ContainerProvisioner(LocalProvisioner):
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
        if self.parent is None:  # jupyter_client's KernelManager always makes its provisioner with itself as parent
            raise RuntimeError(f"{self.kernel_spec.display_name}: a provisioner needs its kernel manager")
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

    async def get_provisioner_info(self) -> dict[str, Any]:
        """What a restart of the server needs to find this kernel's container again."""
        info = await super().get_provisioner_info()
        info["container_name"] = self.container_name
        return info

    async def load_provisioner_info(self, provisioner_info: dict[str, Any]) -> None:
        """Restore the container's name."""
        await super().load_provisioner_info(provisioner_info)
        self.container_name = provisioner_info.get("container_name")
