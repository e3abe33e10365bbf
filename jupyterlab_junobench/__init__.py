"""JupyterLab JunoBench: a practice room for real ML-notebook crashes.

The Python package ships the prebuilt labextension, the bundled demo casebook
and a small Jupyter Server extension that

* turns on ``TCP_NODELAY`` for kernel websockets (see :mod:`.nodelay`), and
* serves the demo casebook to the frontend (see :mod:`.handlers`), and
* removes the kernel containers a killed server left behind (see :mod:`.container`).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

try:
    from ._version import __version__
except ImportError:  # pragma: no cover - only outside a proper (editable) install
    import warnings

    warnings.warn(
        "Importing 'jupyterlab_junobench' outside a proper installation.", stacklevel=2
    )
    __version__ = "dev"

from .config import JunobenchExtension
from .handlers import setup_handlers
from .nodelay import enable_kernel_websocket_nodelay

if TYPE_CHECKING:
    from jupyter_server.serverapp import ServerApp

__all__ = ["JunobenchExtension", "__version__"]


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    """Tell Jupyter where the prebuilt labextension lives inside this package."""
    return [{"src": "labextension", "dest": "jupyterlab-junobench"}]


def _jupyter_server_extension_points() -> list[dict[str, Any]]:
    """Declare the server extension (loaded by :func:`_load_jupyter_server_extension`)."""
    return [{"module": "jupyterlab_junobench"}]


def _load_jupyter_server_extension(serverapp: ServerApp) -> None:
    """Configure kernel websockets and register the ``/junobench/*`` handlers."""
    extension = JunobenchExtension(parent=serverapp)
    if extension.tcp_nodelay:
        extension.nodelay_active = enable_kernel_websocket_nodelay(
            serverapp.web_app, serverapp.log
        )
    setup_handlers(serverapp.web_app, extension)
    # Kernel containers whose server was killed: removed in the background (the engine may be slow).
    from .container import sweep_at_start

    threading.Thread(target=sweep_at_start, args=(serverapp.log,), name="junobench-sweep", daemon=True).start()
    serverapp.log.info(
        "jupyterlab_junobench %s loaded (TCP_NODELAY on kernel websockets: %s)",
        __version__,
        "on" if extension.nodelay_active else "off",
    )
