"""A plain ipykernel of a given Python, started over IPC sockets.

Over TCP, jupyter_client picks five free ports and the kernel binds them a moment later; another
process (CI runs the corpora and Galata beside pytest) can take one in between, and the kernel dies
before its first reply ("Kernel died before replying to kernel_info", CI of 8ed91da). Unix sockets
in a private folder have no such window.

The kernel is named by a kernelspec written beside its sockets: jupyter_client ignores a
``kernel_cmd`` argument, which once made the "python3.10" kernels of these tests run the server's
own Python.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager


def start_ipc_kernel(python: str, cwd: Path | str, **start: Any) -> KernelManager:
    """Start ``python -m ipykernel_launcher`` in ``cwd`` with its sockets in a folder of its own."""
    home = Path(tempfile.mkdtemp(prefix="jb-ipc-"))
    spec = home / "kernels" / "plain"
    spec.mkdir(parents=True)
    argv = [python, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": python, "language": "python"}))
    km = KernelManager(
        kernel_name="plain",
        kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec.parent)]),
        transport="ipc",
        connection_file=str(home / "kernel.json"),
        ip=str(home / "k"),
    )
    km.start_kernel(cwd=str(cwd), **start)
    return km
