"""The MCP tools over a :class:`~.session.Room`, and the two transports: stdio, and streamable
HTTP behind a bearer token. The only module that imports the ``mcp`` SDK; wiring only.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import signal
from collections.abc import Awaitable
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent

from .._version import __version__
from .session import Room, ToolError

INSTRUCTIONS = """\
JunoBench: debug one crashing Jupyter notebook per session in a live kernel.
list_cases shows the cases; open_case(case) copies the case's notebook, replays it in the
order its cells were recorded until it crashes and returns a session id: every other tool
takes it. Cells are addressed by their 0-based index among all cells. Find the cause
(run_cell, inspect, state_timeline), repair the notebook (edit_cell, insert_cell,
delete_cell), check it runs from a fresh kernel (run_all) and submit it: submit returns the
repair check's verdict. Each session has a budget of steps and seconds."""


async def _answer(work: Awaitable[dict[str, Any]]) -> CallToolResult:
    """A tool's result as JSON (text and structured content); a refusal as a JSON error."""
    try:
        payload, failed = await work, False
    except ToolError as e:
        payload, failed = e.to_json(), True
    except Exception as e:  # a bug: still an answer in JSON, and the server goes on
        logging.getLogger(__name__).exception("junobench mcp: a tool failed")
        payload, failed = ToolError("internal", f"{type(e).__name__}: {e}").to_json(), True
    text = json.dumps(payload, ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=payload, is_error=failed)


def build_server(room: Room) -> MCPServer:
    """The MCP server with the JunoBench tools."""
    server = MCPServer(name="junobench", instructions=INSTRUCTIONS, version=__version__)

    @server.tool()
    async def list_cases(
        library: list[str] | None = None,
        crash_type: list[str] | None = None,
        root_cause: list[str] | None = None,
        stage: list[str] | None = None,
        notebook_specific: bool | None = None,
        runnable_only: bool = True,
        text: str = "",
    ) -> CallToolResult:
        """The casebook's cases, filtered as in the panel: each list matches any of its values
        (library, crash type, root cause, ML pipeline stage); notebook_specific true or false;
        runnable_only (default true) keeps the cases that can be replayed; text: every word must occur."""
        filters = {
            "library": library,
            "crash_type": crash_type,
            "root_cause": root_cause,
            "stage": stage,
            "notebook_specific": notebook_specific,
            "runnable_only": runnable_only,
            "text": text,
        }
        return await _answer(room.list_cases(filters))

    @server.tool()
    async def open_case(case: str) -> CallToolResult:
        """Open a session on a case: a working copy of its reproduced notebook in a folder and a
        kernel of its own, replayed in the recorded order (execution counts) until it crashes.
        Returns the session id, the cells, the recorded and the replayed crash, and the budget."""
        return await _answer(room.open_case(case))

    @server.tool()
    async def get_notebook(session: str) -> CallToolResult:
        """The working copy's cells: index, type, source, execution count and outputs."""
        return await _answer(room.get_notebook(session))

    @server.tool()
    async def edit_cell(session: str, index: int, source: str) -> CallToolResult:
        """Replace the source of cell `index` (0-based, among all cells)."""
        return await _answer(room.edit_cell(session, index, source))

    @server.tool()
    async def insert_cell(session: str, index: int, source: str, cell_type: str = "code") -> CallToolResult:
        """Insert a new cell before position `index` (the number of cells appends); code or markdown."""
        return await _answer(room.insert_cell(session, index, source, cell_type))

    @server.tool()
    async def delete_cell(session: str, index: int) -> CallToolResult:
        """Delete cell `index`."""
        return await _answer(room.delete_cell(session, index))

    @server.tool()
    async def run_cell(session: str, index: int) -> CallToolResult:
        """Run code cell `index` in the session's kernel, as it is now; returns its outputs, its
        error and the names it created or changed."""
        return await _answer(room.run_cell(session, index))

    @server.tool()
    async def run_all(session: str, restart: bool = True) -> CallToolResult:
        """Run every code cell top to bottom, stopping at the first error; by default in a fresh
        kernel (restart), as the repair check does."""
        return await _answer(room.run_all(session, restart))

    @server.tool()
    async def inspect(session: str, name: str) -> CallToolResult:
        """A variable's value in the kernel: its summary (type, shape, dtype, digests, a view of
        its elements) and its text representation. `name` may have attributes: `model.coef_`."""
        return await _answer(room.inspect(session, name))

    @server.tool()
    async def state_timeline(session: str, name: str | None = None) -> CallToolResult:
        """Which cells created, rebound, mutated or deleted which names, run by run, since the
        session opened (restarts marked); `name` keeps the steps that touched that name."""
        return await _answer(room.state_timeline(session, name))

    @server.tool()
    async def submit(session: str) -> CallToolResult:
        """Submit the working copy to the repair check (a fresh kernel, the case's reference fix):
        returns passed, status, grade, headline and reasons."""
        return await _answer(room.submit(session))

    @server.tool()
    async def close_case(session: str) -> CallToolResult:
        """End a session: its kernel stops; its folder and trajectory stay."""
        return await _answer(room.close(session))

    return server


class TokenGate:
    """ASGI middleware: every HTTP request needs ``Authorization: Bearer <token>``."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.token = token.encode("utf-8")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            scheme, _, value = given.partition(b" ")
            if scheme.lower() != b"bearer" or not hmac.compare_digest(value.strip(), self.token):
                body = json.dumps({"error": {"code": "unauthorized", "message": "a bearer token is required"}}).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


async def _until_stopped(work: Awaitable[None], room: Room) -> None:
    """Serve until done; then stop every kernel. On SIGTERM or SIGHUP, stop every kernel and
    exit at once: the stdio transport reads stdin in a thread that no cancellation reaches."""
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []

    async def stop() -> None:
        await room.shutdown()
        os._exit(0)

    def on_signal() -> None:
        if not stopping:
            stopping.append(loop.create_task(stop()))

    for sig in (signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, on_signal)
    try:
        await work
    finally:
        await room.shutdown()


async def serve_stdio(room: Room) -> None:
    """Serve over stdin/stdout until the client goes; then stop every kernel."""
    await _until_stopped(build_server(room).run_stdio_async(), room)


async def serve_http(room: Room, host: str, port: int, token: str) -> None:
    """Serve streamable HTTP at ``http://host:port/mcp`` behind the token; then stop every kernel."""
    import uvicorn

    app = TokenGate(build_server(room).streamable_http_app(host=host), token)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    await _until_stopped(uvicorn.Server(config).serve(), room)
