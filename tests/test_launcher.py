"""The kernel launcher of our kernelspecs: a kernel that cannot take one of its ports exits.

Each test gives a real ipykernel a connection file whose port is already held by another socket, as
happens when another process takes a port between jupyter_client choosing it and the kernel binding
it. ipykernel 7.4 exits on a taken shell, stdin or control port, and hangs forever on a taken IOPub
port; through the launcher it exits on every one of them, and a normal start still works.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from jupyter_client.ioloop import AsyncIOLoopKernelManager
from jupyter_client.manager import AsyncKernelManager
from jupyter_client.kernelspec import KernelSpecManager

from jupyterlab_junobench.launcher import LAUNCHER, launcher_argv, with_launcher

T = TypeVar("T")

PORTS = ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")


@pytest.fixture
def taken() -> Iterator[int]:
    """A loopback port held open (listening) for the whole test."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    try:
        yield holder.getsockname()[1]
    finally:
        holder.close()


def free_ports(n: int) -> list[int]:
    """``n`` distinct ports that were free a moment ago."""
    held = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        held.append(s)
    ports = [s.getsockname()[1] for s in held]
    for s in held:
        s.close()
    return ports


def connection_file(tmp_path: Path, **ports: int) -> Path:
    info: dict[str, object] = dict(zip(PORTS, free_ports(len(PORTS)), strict=True))
    info.update(ports)
    info.update(ip="127.0.0.1", key="k", transport="tcp", signature_scheme="hmac-sha256", kernel_name="python3")
    path = tmp_path / "kernel.json"
    path.write_text(json.dumps(info), "utf-8")
    return path


def run_kernel(argv: list[str], path: Path, cwd: Path, wait: float) -> tuple[int | None, str]:
    """Start a kernel; its exit code and stderr, or None when it still runs after ``wait`` s."""
    cmd = [a.replace("{connection_file}", str(path)) for a in argv]
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        code = proc.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None, ""
    return code, proc.stderr.read() if proc.stderr else ""


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` in a loop of its own, leaving the thread's current event loop as it was
    (``asyncio.run`` unsets it, which fails later tests that ask for it)."""
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.close()


def test_the_launcher_survives_jupyter_clients_substitution() -> None:
    # jupyter_client replaces every {name} in an argv item; the source must hold none.
    assert "{" not in LAUNCHER and "}" not in LAUNCHER
    assert launcher_argv("/py", ["-X", "frozen_modules=off"]) == [
        "/py",
        "-X",
        "frozen_modules=off",
        "-c",
        LAUNCHER,
        "-f",
        "{connection_file}",
    ]
    plain = ["/py", "-Xfrozen_modules=off", "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    assert with_launcher(plain) == ["/py", "-Xfrozen_modules=off", "-c", LAUNCHER, "-f", "{connection_file}"]
    # Not an IPython kernel: left alone.
    assert with_launcher(["/usr/bin/R", "--slave", "-f", "{connection_file}"]) == [
        "/usr/bin/R",
        "--slave",
        "-f",
        "{connection_file}",
    ]


@pytest.mark.parametrize("port", ["shell_port", "iopub_port", "stdin_port", "control_port"])
def test_a_kernel_whose_port_is_taken_exits(port: str, taken: int, tmp_path: Path) -> None:
    path = connection_file(tmp_path, **{port: taken})
    code, err = run_kernel(launcher_argv(sys.executable), path, tmp_path, wait=60)
    assert code is not None, f"the kernel with its {port} taken still ran after 60 s"
    assert code != 0
    assert "Address already in use" in err, err[-2000:]


def test_without_the_launcher_a_taken_iopub_port_hangs(taken: int, tmp_path: Path) -> None:
    """Why the launcher exists; when ipykernel fixes it, this says so and the launcher can go."""
    path = connection_file(tmp_path, iopub_port=taken)
    code, err = run_kernel([sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"], path, tmp_path, 15)
    if code is not None:
        pytest.skip(f"this ipykernel exits on a taken IOPub port (code {code}): the launcher is no longer needed")
    assert code is None


def test_a_normal_start_answers_and_imports_from_its_folder(tmp_path: Path) -> None:
    """Through the launcher the kernel runs as usual, with its working directory importable.

    As with ``ipykernel_launcher``, a notebook's folder holding a module named like one of the
    kernel's own (here ``zmq.py``) does not break the start: the folder joins sys.path later.
    """
    (tmp_path / "local_helper.py").write_text("VALUE = 42\n", "utf-8")
    (tmp_path / "zmq.py").write_text("raise ImportError('the notebook folder shadowed zmq')\n", "utf-8")
    spec_dir = tmp_path / "share" / "kernels" / "launched"
    spec_dir.mkdir(parents=True)
    (spec_dir / "kernel.json").write_text(
        json.dumps({"argv": launcher_argv(sys.executable), "display_name": "launched", "language": "python"}),
        "utf-8",
    )

    async def main() -> str:
        km = AsyncKernelManager(kernel_name="launched", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec_dir.parent)]))
        await km.start_kernel(cwd=str(tmp_path))
        kc = km.client()
        kc.start_channels()
        try:
            await kc.wait_for_ready(timeout=60)
            out: list[str] = []
            reply = await kc.execute_interactive(
                "import local_helper; print(local_helper.VALUE)",
                timeout=60,
                output_hook=lambda m: out.append(m["content"].get("text", "")) if m["msg_type"] == "stream" else None,
            )
            assert reply["content"]["status"] == "ok", reply["content"]
            return "".join(out).strip()
        finally:
            kc.stop_channels()
            await km.shutdown_kernel(now=True)

    started = time.monotonic()
    assert run_async(main()) == "42"
    assert time.monotonic() - started < 120


def test_the_restarter_brings_a_kernel_whose_iopub_port_was_taken_up_again(tmp_path: Path) -> None:
    """The whole chain, as in a server with jupyter_client's defaults: another process takes the IOPub
    port between jupyter_client choosing it and the kernel binding it, and lets go of it a moment
    later; the kernel exits, the restarter starts it again on the same ports (``cache_ports``), and
    it answers. Without the launcher the first kernel never exits, so nothing restarts it."""
    spec_dir = tmp_path / "kernels" / "launched"
    spec_dir.mkdir(parents=True)
    (spec_dir / "kernel.json").write_text(
        json.dumps({"argv": launcher_argv(sys.executable), "display_name": "launched", "language": "python"}),
        "utf-8",
    )
    holders: list[socket.socket] = []

    def let_go() -> None:
        for holder in holders:
            holder.close()

    async def main() -> tuple[list[int], int]:
        km = AsyncIOLoopKernelManager(
            kernel_name="launched", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec_dir.parent)])
        )
        written = km.write_connection_file

        def take_iopub_port(**kwargs: object) -> None:
            written(**kwargs)
            if not holders:
                holder = socket.socket()
                holder.bind((km.ip, km.iopub_port))
                holder.listen(1)
                holders.append(holder)

        km.write_connection_file = take_iopub_port  # type: ignore[method-assign]
        restarts: list[int] = []

        def restarting() -> None:
            # Called when the restarter found the kernel gone, before it starts it again.
            restarts.append(km.iopub_port)
            let_go()

        await km.start_kernel(cwd=str(tmp_path))
        km.start_restarter()
        km.add_restart_callback(restarting, "restart")
        try:
            deadline = time.monotonic() + 90
            while True:
                kc = km.client()
                kc.start_channels()
                try:
                    await kc.wait_for_ready(timeout=10)
                    return restarts, km.iopub_port
                except RuntimeError:
                    assert time.monotonic() < deadline, "the kernel did not come up within 90 s"
                finally:
                    kc.stop_channels()
        finally:
            km.stop_restarter()
            await km.shutdown_kernel(now=True)

    try:
        restarts, final = run_async(main())
    finally:
        let_go()
    assert holders, "the IOPub port was never taken"
    assert restarts, "the kernel answered without a restart: the taken port did not reach it"
    assert final == restarts[0], "restarted on other ports"
