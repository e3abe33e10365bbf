"""TCP_NODELAY for kernel websockets.

Jupyter Server leaves Nagle's algorithm on for the sockets behind kernel
websockets. A kernel round trip is a handful of small writes (status, reply,
output), so the server's next small segment waits for the client's delayed ACK:
about 40 ms per round trip, which dominates running a cell that does nothing.

The hook is the server's pluggable ``kernel_websocket_connection_class``: every
kernel websocket handler builds one connection object from it and calls its
``connect()`` from the handler's ``open()``, i.e. once the websocket handshake is
done and the handler owns the stream. We wrap whatever class is configured
(the ZMQ one, the gateway one, or a third party's) in a subclass whose
``connect()`` first calls Tornado's ``WebSocketHandler.set_nodelay(True)``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tornado.web import Application
    from tornado.websocket import WebSocketHandler

_SETTING = "kernel_websocket_connection_class"


class NoDelayConnectionMixin:
    """Mixin for kernel websocket connection classes that sets TCP_NODELAY on connect."""

    websocket_handler: WebSocketHandler

    def connect(self) -> Any:
        """Disable Nagle's algorithm on the websocket, then connect as the base class does."""
        try:
            self.websocket_handler.set_nodelay(True)
        except (AssertionError, AttributeError, OSError) as err:
            # Never let a socket option stop a kernel connection.
            log = getattr(self, "log", None) or logging.getLogger(__name__)
            log.debug("jupyterlab_junobench: could not set TCP_NODELAY: %s", err)
        return super().connect()  # type: ignore[misc]


def with_nodelay(connection_class: type) -> type:
    """Return ``connection_class`` wrapped so that its websockets use TCP_NODELAY."""
    if issubclass(connection_class, NoDelayConnectionMixin):
        return connection_class
    return type(
        f"NoDelay{connection_class.__name__}",
        (NoDelayConnectionMixin, connection_class),
        {"__module__": __name__, "__doc__": connection_class.__doc__},
    )


def enable_kernel_websocket_nodelay(web_app: Application, log: logging.Logger) -> bool:
    """Install the TCP_NODELAY wrapper on the server's kernel websocket connection class.

    Returns whether it was installed; logs once either way.
    """
    connection_class = web_app.settings.get(_SETTING)
    if not isinstance(connection_class, type):
        log.warning(
            "jupyterlab_junobench: no %s in the server settings; TCP_NODELAY not enabled",
            _SETTING,
        )
        return False
    web_app.settings[_SETTING] = with_nodelay(connection_class)
    log.info(
        "jupyterlab_junobench: TCP_NODELAY on for kernel websockets (%s.%s)",
        connection_class.__module__,
        connection_class.__qualname__,
    )
    return True
