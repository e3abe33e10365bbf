"""The one adapter over a session's Jupyter kernel: which kernel, start, execute, restart, stop.

Everything a session sends to its kernel goes through :class:`Kernel`; the Python it sends
besides the notebook's cells (the probe's installation and calls) is built here, and values come
back through ``user_expressions`` (IPython's JSON formatter), never through stdout.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from .. import check_policy, container, kernel as pinned

#: The environments, best first, as ``KERNEL_ENVIRONMENTS`` in src/kernel/environment.ts.
ENVIRONMENTS = ("container", "pinned", "server")
#: The kernelspec names ``python -m jupyterlab_junobench.kernel install`` gives by default.
DEFAULT_NAMES = {"container": container.KERNEL_NAME, "pinned": pinned.KERNEL_NAME}
#: A name ``inspect`` accepts: an identifier, optionally followed by attributes.
NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
#: Seconds between two looks at whether the kernel still runs, while it executes.
LIVENESS_POLL = 0.5


class KernelError(RuntimeError):
    """The kernel could not be started or restarted."""


class KernelDied(KernelError):
    """The kernel process ended while it ran code."""


def spec_environment(name: str, spec: dict[str, Any]) -> str:
    """Where a kernelspec runs: its ``metadata.junobench.environment``, else its
    ``JUNOBENCH_ENVIRONMENT`` variable, else ``pinned`` for a spec named ``junobench``, else ``server``
    (``specEnvironment`` in src/kernel/environment.ts)."""
    meta = (spec.get("metadata") or {}).get("junobench")
    marked = meta.get("environment") if isinstance(meta, dict) else None
    for value in (marked, (spec.get("env") or {}).get("JUNOBENCH_ENVIRONMENT")):
        if value in ("container", "pinned"):
            return value
    return "pinned" if name == pinned.KERNEL_NAME else "server"


def choose_kernel(specs: dict[str, dict[str, Any]], default: str = "python3") -> tuple[str, str]:
    """The best kernel present, as ``(kernelspec name, environment)``: the container, then the
    pinned kernel, then ``default`` (the server's Python). ``specs`` as
    ``KernelSpecManager.get_all_specs()`` returns them; of several kernelspecs of one environment,
    the one with the default install name, else the first by name."""
    for environment in ENVIRONMENTS[:2]:
        names = sorted(n for n, entry in specs.items() if spec_environment(n, entry.get("spec") or {}) == environment)
        if names:
            preferred = DEFAULT_NAMES[environment]
            return (preferred if preferred in names else names[0]), environment
    return default, "server"


def installed_kernel(requested: str | None = None) -> tuple[str, str]:
    """The kernel to run in: ``requested`` when given (its environment from its kernelspec), else
    the best installed one."""
    from jupyter_client.kernelspec import KernelSpecManager

    try:
        specs = KernelSpecManager().get_all_specs()
    except Exception:  # a broken kernelspec elsewhere leaves the server's Python
        specs = {}
    if requested:
        return requested, spec_environment(requested, (specs.get(requested) or {}).get("spec") or {})
    return choose_kernel(specs)


def probe_install_code() -> str:
    """Code that installs the probe (jupyterlab_junobench/probe.py) in the kernel, on ``sys``,
    leaving the user namespace alone; a kernel without IPython gets none (as
    ``evidenceInstallCode`` in src/kernel/evidenceSnippets.ts), with the check's policy written in."""
    source = check_policy.embed(resources.files("jupyterlab_junobench").joinpath("probe.py").read_text("utf-8"))
    return "\n".join(
        [
            "def __jb_install(source):",
            "    import sys, types",
            "    try:",
            '        ns = {"get_ipython": get_ipython, "__name__": "junobench_probe"}',
            '        exec(compile(source, "<junobench-check>", "exec"), ns)',
            "        sys._junobench_check = types.SimpleNamespace(**ns)",
            "        sys._junobench_check.install()",
            "    except Exception:",
            "        sys._junobench_check = None",
            f"__jb_install({json.dumps(source)})",
            "del __jb_install",
        ]
    )


def track_expression(reset: bool) -> str:
    """The ``user_expressions`` entry for what the last cell changed in the user namespace."""
    return f'__import__("sys")._junobench_check.track({reset})'


def summary_expression(name: str) -> str:
    """The ``user_expressions`` entry for the probe's summary (with its view) of a user name."""
    head, *attrs = name.split(".")
    # The user namespace through IPython itself: a notebook may have rebound `get_ipython`.
    value = f'__import__("IPython").get_ipython().user_ns[{json.dumps(head)}]' + "".join(f".{a}" for a in attrs)
    return f'(lambda p: p.Report(p.summarise({value}, True)))(__import__("sys")._junobench_check)'


@dataclass
class Execution:
    """What one execution gave: the reply's status and count, the nbformat outputs, the error."""

    status: str
    execution_count: int | None
    outputs: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None
    user_expressions: dict[str, Any] = field(default_factory=dict)


def expression_value(reply: dict[str, Any]) -> tuple[Any, str | None]:
    """A ``user_expressions`` reply entry as ``(JSON value or text, error)``."""
    if reply.get("status") != "ok":
        return None, f"{reply.get('ename', 'Error')}: {reply.get('evalue', '')}"
    data = reply.get("data") or {}
    if "application/json" in data:
        return data["application/json"], None
    return data.get("text/plain"), None


class Kernel:
    """A kernel of one session, started in the session's folder."""

    def __init__(self, name: str, cwd: str, log: str) -> None:
        self.name = name
        self.cwd = cwd
        self.log = log
        self._manager: Any = None
        self._client: Any = None
        self._log: Any = None

    @property
    def pid(self) -> int | None:
        """The kernel process's id (the engine's client for a container kernel), or None."""
        process = getattr(getattr(self._manager, "provisioner", None), "process", None)
        return getattr(process, "pid", None)

    async def start(self, timeout: float = 120) -> None:
        """Start the kernel and wait until it answers, then install the probe. Its own stdout
        goes nowhere (the stdio transport owns ours) and its stderr to the log file."""
        from jupyter_client.manager import AsyncKernelManager

        self._manager = AsyncKernelManager(kernel_name=self.name)
        self._log = open(self.log, "ab")  # closed by shutdown()
        try:
            await self._manager.start_kernel(cwd=self.cwd, stdout=subprocess.DEVNULL, stderr=self._log)
            await self._connect(timeout)
        except Exception as e:
            await self.shutdown()
            raise KernelError(f"the kernel {self.name} did not start: {e}") from e

    async def _connect(self, timeout: float) -> None:
        if self._client is not None:
            self._client.stop_channels()
        self._client = self._manager.client()
        self._client.start_channels()
        await self._client.wait_for_ready(timeout=timeout)
        await self.execute(probe_install_code(), silent=True, timeout=timeout)

    async def restart(self, timeout: float = 120) -> None:
        """A fresh interpreter in the same kernel (same folder, probe installed again)."""
        try:
            await self._manager.restart_kernel(now=True)
            await self._connect(timeout)
        except Exception as e:
            raise KernelError(f"the kernel {self.name} did not restart: {e}") from e

    async def execute(
        self, code: str, *, silent: bool = False, user_expressions: dict[str, str] | None = None, timeout: float = 120
    ) -> Execution:
        """Run code and collect its outputs as nbformat outputs; on a timeout the kernel is
        interrupted and :class:`asyncio.TimeoutError` raised."""
        outputs: list[dict[str, Any]] = []
        error: dict[str, Any] | None = None

        def hook(msg: dict[str, Any]) -> None:
            nonlocal error
            kind = msg["header"]["msg_type"]
            content = msg["content"]
            if kind == "stream":
                if outputs and outputs[-1].get("output_type") == "stream" and outputs[-1]["name"] == content["name"]:
                    outputs[-1]["text"] += content["text"]
                else:
                    outputs.append({"output_type": "stream", "name": content["name"], "text": content["text"]})
            elif kind in ("display_data", "execute_result"):
                out = {"output_type": kind, "data": content.get("data", {}), "metadata": content.get("metadata", {})}
                if kind == "execute_result":
                    out["execution_count"] = content.get("execution_count")
                outputs.append(out)
            elif kind == "error":
                error = {"ename": content["ename"], "evalue": content["evalue"], "traceback": content["traceback"]}
                outputs.append({"output_type": "error", **error})
            elif kind == "clear_output":
                outputs.clear()

        request = asyncio.ensure_future(
            self._client.execute_interactive(
                code,
                silent=silent,
                store_history=not silent,
                user_expressions=user_expressions or {},
                allow_stdin=False,
                stop_on_error=False,
                timeout=timeout,
                output_hook=hook,
            )
        )
        # A kernel that dies never replies: look at it while waiting, instead of waiting out the timeout.
        while True:
            done, _ = await asyncio.wait({request}, timeout=LIVENESS_POLL)
            if done:
                break
            if not await self._manager.is_alive():
                request.cancel()
                raise KernelDied(f"the kernel {self.name} died")
        try:
            reply = request.result()
        except TimeoutError as e:
            await self._manager.interrupt_kernel()
            raise asyncio.TimeoutError(str(e)) from e
        content = reply["content"]
        if content.get("status") == "error" and error is None:
            error = {k: content.get(k) for k in ("ename", "evalue", "traceback")}
        return Execution(
            status=content.get("status", "error"),
            execution_count=content.get("execution_count"),
            outputs=outputs,
            error=error,
            user_expressions=content.get("user_expressions") or {},
        )

    async def shutdown(self) -> None:
        """Stop the kernel (and its container) for good; safe to call twice."""
        if self._client is not None:
            self._client.stop_channels()
            self._client = None
        manager, self._manager = self._manager, None
        if manager is not None:
            try:
                if await manager.is_alive():
                    await manager.shutdown_kernel(now=True)
                else:
                    await manager.cleanup_resources()
            except Exception:  # already gone
                pass
        if self._log is not None:
            self._log.close()
            self._log = None
