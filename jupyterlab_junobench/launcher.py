"""Starting an IPython kernel that exits when it cannot take its ports.

jupyter_client picks a kernel's five ports, closes them, and starts the kernel, which binds them a
moment later. Any other process may take one of them in between. When that port is the shell,
stdin or control port, ipykernel exits with ``Address already in use`` and jupyter_client's
restarter starts it again on new ports. When it is the **IOPub** port, ipykernel (7.4 and earlier)
never exits: its bind raises before the IOPub thread exists, ``IPKernelApp.close`` closes the IOPub
socket only through that thread, and ``zmq.Context.term`` then waits forever for the socket left
open. The kernel stays "starting" and nothing restarts it.

``LAUNCHER`` is ``ipykernel_launcher`` with that one gap closed: a kernel whose IOPub bind failed
closes the socket on its way out, so it exits like the others and is restarted. It is Python source
run with ``python -c`` (kernelspec argv ``[python, "-c", LAUNCHER, "-f", "{connection_file}"]``), so
it needs nothing of this package in the kernel's environment (a pinned venv, a container image).
"""

from __future__ import annotations

from collections.abc import Sequence

# Kept to what every ipykernel since 6 has; a version without these attributes launches as usual.
LAUNCHER = """\
import sys
from pathlib import Path

# As ipykernel_launcher: the working directory leaves sys.path while ipykernel loads, and
# InteractiveShellApp.init_path puts it back.
if sys.path and (sys.path[0] == "" or Path(sys.path[0]) == Path.cwd()):
    del sys.path[0]

from ipykernel import kernelapp as app


def _junobench_patch():
    original = getattr(app.IPKernelApp, "close", None)
    if original is None:
        return

    def close(self):
        # A failed IOPub bind leaves the socket open and no thread to close it.
        socket = getattr(self, "iopub_socket", None)
        if getattr(self, "iopub_thread", None) is None and socket is not None and not socket.closed:
            socket.close(linger=0)
        original(self)

    app.IPKernelApp.close = close


_junobench_patch()
del _junobench_patch
app.launch_new_instance()
"""


def launcher_argv(python: str, options: Sequence[str] = ()) -> list[str]:
    """A kernelspec argv that starts ``python`` (with interpreter ``options``) through ``LAUNCHER``."""
    return [python, *options, "-c", LAUNCHER, "-f", "{connection_file}"]


def with_launcher(argv: Sequence[str]) -> list[str]:
    """``argv`` with its ``-m ipykernel_launcher`` replaced by ``-c LAUNCHER``; other argvs unchanged."""
    out = list(argv)
    for i in range(len(out) - 1):
        if out[i] == "-m" and out[i + 1] == "ipykernel_launcher":
            out[i : i + 2] = ["-c", LAUNCHER]
            return out
    return out
