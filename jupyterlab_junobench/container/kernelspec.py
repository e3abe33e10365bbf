"""The kernelspec of a kernel inside the image (``python -m jupyterlab_junobench.kernel install --container``)."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..launcher import launcher_argv
from .engine import ContainerError, Engine, short_id
from .image import IMAGE_PYTHON

# The kernelspec `kernel install --container` registers.
KERNEL_NAME = "junobench-container"
DISPLAY_NAME = "JunoBench (container)"
PROVISIONER_NAME = "junobench-container"


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
