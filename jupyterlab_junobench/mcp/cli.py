"""The ``junobench`` command line (the Node CLI built from src/cli/), which the MCP server asks
for the casebook's cases (``junobench list --json``) and for the repair check's verdict
(``junobench check <casebook> <case> <notebook> --json``): one implementation of each, in
TypeScript, spoken to as JSON over a process boundary.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
from pathlib import Path
from typing import Any

#: The command line of a source checkout (``jlpm build:lib`` builds lib-cli/, which it runs).
_CHECKOUT_BIN = Path(__file__).resolve().parents[2] / "bin" / "junobench.js"


class CliError(RuntimeError):
    """The command line could not run or gave no JSON; the message says what it printed."""


def default_command() -> list[str]:
    """How to run the command line: ``$JUNOBENCH_CLI`` (a command, split like a shell's), else the
    checkout's ``node bin/junobench.js``, else ``junobench`` on PATH."""
    env = os.environ.get("JUNOBENCH_CLI")
    if env:
        return shlex.split(env)
    if _CHECKOUT_BIN.is_file() and shutil.which("node"):
        return ["node", str(_CHECKOUT_BIN)]
    return ["junobench"]


class Cli:
    """Runs the command line and reads its JSON."""

    def __init__(self, command: list[str] | None = None) -> None:
        self.command = command or default_command()

    async def _json(self, args: list[str], timeout: float) -> tuple[Any, int]:
        try:
            proc = await asyncio.create_subprocess_exec(
                *self.command, *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
            )
        except OSError as e:
            raise CliError(f"cannot run {' '.join(self.command)}: {e}") from e
        try:
            out, err = await asyncio.wait_for(proc.communicate(), timeout)
        except asyncio.TimeoutError:
            proc.kill()
            await proc.wait()
            raise CliError(f"junobench {args[0]} did not finish within {timeout:.0f} s") from None
        try:
            return json.loads(out.decode("utf-8")), proc.returncode or 0
        except ValueError:
            tail = "\n".join(err.decode("utf-8", "replace").strip().splitlines()[-8:])
            raise CliError(f"junobench {args[0]} exited with code {proc.returncode} and no JSON: {tail}") from None

    async def list_cases(self, casebook: str, timeout: float = 120) -> list[dict[str, Any]]:
        """The casebook's cases as ``junobench list --json`` describes them."""
        cases, _ = await self._json(["list", casebook, "--json"], timeout)
        if not isinstance(cases, list):
            raise CliError("junobench list --json did not give a list")
        return cases

    async def check(self, casebook: str, case: str, notebook: str, kernel: str | None, timeout: float) -> dict[str, Any]:
        """The repair check's report of a notebook (``junobench check ... --json``)."""
        args = ["check", casebook, case, notebook, "--json"]
        if kernel:
            args += ["--kernel", kernel]
        report, _ = await self._json(args, timeout)
        if not isinstance(report, dict) or "passed" not in report:
            raise CliError(f"junobench check gave no verdict: {json.dumps(report)[:400]}")
        return report
