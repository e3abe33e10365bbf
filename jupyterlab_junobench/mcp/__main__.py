"""``python -m jupyterlab_junobench.mcp``: the MCP server of docs/agents.md."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path
from collections.abc import Sequence

from ..casebook import bundled_casebook
from .session import Options, Room, check_work_folder

#: The environment variable that holds the HTTP token when ``--token`` is not given.
TOKEN_ENV = "JUNOBENCH_MCP_TOKEN"


def parser() -> argparse.ArgumentParser:
    """The command line."""
    d = Options(casebook=Path("."), work=Path("."))
    p = argparse.ArgumentParser(
        prog="python -m jupyterlab_junobench.mcp",
        description="An MCP server that gives an agent one JunoBench case per session in a live kernel.",
    )
    p.add_argument("--casebook", help="the casebook (default: the bundled demo casebook)")
    p.add_argument(
        "--work-dir",
        help="where session folders go (working copy, trajectory, the kernel's folder); "
        "default: <tmp>/junobench-mcp; never inside the casebook",
    )
    p.add_argument("--max-steps", type=int, default=d.max_steps, help=f"tool calls per session (default {d.max_steps})")
    p.add_argument(
        "--max-seconds", type=float, default=d.max_seconds, help=f"seconds per session (default {d.max_seconds:g})"
    )
    p.add_argument(
        "--cell-timeout", type=float, default=d.cell_timeout, help=f"seconds one cell may run (default {d.cell_timeout:g})"
    )
    p.add_argument("--max-sessions", type=int, default=d.max_sessions, help=f"sessions open at once (default {d.max_sessions})")
    p.add_argument("--kernel", help="the kernelspec (default: the container kernel, else junobench, else python3)")
    p.add_argument(
        "--submissions",
        help="submit also copies the working copy to DIR/<case>/<case>.ipynb (the latest submission of a case wins)",
    )
    p.add_argument("--hide-labels", action="store_true", help="leave crash type, root cause and stage out of list_cases")
    p.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on PORT (path /mcp) instead of stdio")
    p.add_argument("--host", default="127.0.0.1", help="with --http: the address (default 127.0.0.1)")
    p.add_argument("--token", help=f"with --http: the bearer token (default: ${TOKEN_ENV})")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = parser().parse_args(argv)
    casebook = Path(args.casebook) if args.casebook else bundled_casebook()
    if casebook is None:
        print("junobench mcp: no casebook given and no demo casebook found", file=sys.stderr)
        return 2
    work = Path(args.work_dir) if args.work_dir else Path(tempfile.gettempdir()) / "junobench-mcp"
    try:
        check_work_folder(casebook, work)
    except ValueError as e:
        print(f"junobench mcp: {e}", file=sys.stderr)
        return 2
    work.mkdir(parents=True, exist_ok=True)
    options = Options(
        casebook=casebook.resolve(),
        work=work.resolve(),
        max_steps=args.max_steps,
        max_seconds=args.max_seconds,
        cell_timeout=args.cell_timeout,
        max_sessions=args.max_sessions,
        kernel=args.kernel,
        submissions=Path(args.submissions).resolve() if args.submissions else None,
        hide_labels=args.hide_labels,
    )
    try:
        from . import server
    except ImportError as e:
        print(f"junobench mcp: {e}; install the MCP SDK: pip install 'jupyterlab-junobench[mcp]'", file=sys.stderr)
        return 2
    room = Room(options)
    if args.http is None:
        asyncio.run(server.serve_stdio(room))
        return 0
    token = args.token or os.environ.get(TOKEN_ENV)
    if not token:
        print(f"junobench mcp: --http needs a token (--token or ${TOKEN_ENV})", file=sys.stderr)
        return 2
    asyncio.run(server.serve_http(room, args.host, args.http, token))
    return 0


if __name__ == "__main__":
    sys.exit(main())
