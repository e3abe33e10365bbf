"""Kernels forked from a fork server behave as freshly started kernels (forkserver.py).

Every test starts real kernels through jupyter_client's kernel manager and a kernelspec whose
``metadata.kernel_provisioner`` names ``junobench-forking``, and compares what the code in them sees
with a kernel started the usual way where that matters: a fresh namespace, the working directory
and environment it was given, its own random state, interrupts, restarts, exits; and the cases in
which a kernel must not be forked (a folder shadowing a preloaded module, a fork server that died).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager

from jupyterlab_junobench.forkserver import (
    REGISTRY,
    ForkServer,
    launcher_command,
    provisioner_metadata,
    shadowed,
    shared_env,
)
from jupyterlab_junobench import forkserver
from jupyterlab_junobench.forkserver import main as forkserver_main
from jupyterlab_junobench.launcher import launcher_argv

T = TypeVar("T")

# What a cell prints about the kernel it runs in.
SELF_REPORT = (
    "import json as _j, os as _o, sys as _s\n"
    "print(_j.dumps({'names': sorted(k for k in globals() if not k.startswith('_')),"
    " 'cwd': _o.getcwd(), 'env': _o.environ.get('FORK_TEST_VALUE'), 'pid': _o.getpid(),"
    " 'pgid': _o.getpgid(0), 'path0': _s.path[0] if _s.path else None, 'hash': hash('junobench'),"
    " 'gc': __import__('gc').isenabled(), 'frozen': __import__('gc').get_freeze_count()}))"
)


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` in a loop of its own (``asyncio.run`` unsets the thread's loop for later tests)."""
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.close()


@pytest.fixture(autouse=True)
def no_fork_servers_left() -> Iterator[None]:
    REGISTRY.stop_all()
    yield
    REGISTRY.stop_all()


@pytest.fixture
def kernels(tmp_path: Path) -> KernelSpecManager:
    """Kernelspecs: ``forked`` (the provisioner, preloading numpy), ``forked-other-env`` (the same with
    another environment), ``plain`` (the launcher, no provisioner)."""
    root = tmp_path / "kernels"

    def spec(name: str, metadata: dict[str, Any], env: dict[str, str]) -> None:
        folder = root / name
        folder.mkdir(parents=True)
        body = {
            "argv": launcher_argv(sys.executable),
            "display_name": name,
            "language": "python",
            "env": env,
            "metadata": metadata,
        }
        (folder / "kernel.json").write_text(json.dumps(body), "utf-8")

    # numpy loads numpy.random when it is first used; pandas and scikit-learn load it at once.
    forking = {"kernel_provisioner": provisioner_metadata(["numpy", "numpy.random"])}
    spec("forked", forking, {"FORK_TEST_VALUE": "one"})
    spec("forked-other-env", forking, {"FORK_TEST_VALUE": "two"})
    spec("plain", {}, {"FORK_TEST_VALUE": "one"})
    return KernelSpecManager(kernel_dirs=[str(root)])


class Kernel:
    """A started kernel with its client."""

    def __init__(self, km: AsyncKernelManager):
        self.km = km
        self.kc = km.client()

    async def run(self, code: str, timeout: float = 60) -> tuple[str, str, str | None]:
        """Status, stdout and error name of ``code``."""
        out: list[str] = []
        errors: list[str] = []

        def hook(m: dict[str, Any]) -> None:
            if m["msg_type"] == "stream":
                out.append(m["content"]["text"])
            elif m["msg_type"] == "error":
                errors.append(m["content"]["ename"])

        reply = await self.kc.execute_interactive(code, timeout=timeout, output_hook=hook)
        return reply["content"]["status"], "".join(out), errors[0] if errors else None

    async def report(self) -> dict[str, Any]:
        status, out, error = await self.run(SELF_REPORT)
        assert status == "ok", error
        return json.loads(out.strip().splitlines()[-1])

    @property
    def forked(self) -> bool:
        return bool(getattr(self.km.provisioner, "forked", False))


async def start(specs: KernelSpecManager, name: str, cwd: Path) -> Kernel:
    km = AsyncKernelManager(kernel_name=name, kernel_spec_manager=specs)
    await km.start_kernel(cwd=str(cwd))
    kernel = Kernel(km)
    kernel.kc.start_channels()
    await kernel.kc.wait_for_ready(timeout=120)
    return kernel


async def stop(kernel: Kernel) -> None:
    kernel.kc.stop_channels()
    await kernel.km.shutdown_kernel(now=True)


def test_the_launcher_argv_is_recognised_and_the_per_kernel_variables_do_not_count() -> None:
    assert launcher_command(launcher_argv("/py", ["-X", "frozen_modules=off"])) == (
        ["/py", "-X", "frozen_modules=off"],
        ["-f", "{connection_file}"],
    )
    assert launcher_command(["/py", "-m", "ipykernel_launcher", "-f", "{connection_file}"]) is None
    assert launcher_command(["/py", "-c", "print(1)", "-f", "x"]) is None
    assert shared_env({"JPY_SESSION_NAME": "a.ipynb", "JPY_PARENT_PID": "1", "PATH": "/bin"}) == {"PATH": "/bin"}


def test_a_folder_shadowing_a_preloaded_module_is_found(tmp_path: Path) -> None:
    assert shadowed(tmp_path, ["numpy", "sklearn.linear_model"]) == []
    (tmp_path / "numpy.py").write_text("", "utf-8")
    (tmp_path / "sklearn").mkdir()
    (tmp_path / "tornado.py").write_text("", "utf-8")  # the kernel's own libraries count too
    assert shadowed(tmp_path, ["numpy", "sklearn.linear_model"]) == ["numpy", "sklearn", "tornado"]


def test_a_forked_kernel_sees_what_a_fresh_kernel_sees(kernels: KernelSpecManager, tmp_path: Path) -> None:
    """The namespace, working directory, environment, sys.path and a session of its own are those of
    a kernel started the usual way; numpy's and random's states differ from one kernel to the next;
    a module of the kernel's folder imports."""
    (tmp_path / "local_helper.py").write_text("VALUE = 42\n", "utf-8")
    draw = "import random, numpy; print(numpy.random.rand(), random.random())"

    async def main() -> tuple[list[dict[str, Any]], dict[str, Any], list[str], list[str]]:
        plain = await start(kernels, "plain", tmp_path)
        first = await start(kernels, "forked", tmp_path)
        second = await start(kernels, "forked", tmp_path)
        third = await start(kernels, "forked", tmp_path)
        try:
            assert not plain.forked and first.forked and second.forked and third.forked
            reports = [await k.report() for k in (first, second, third)]
            expected = await plain.report()
            draws = [(await k.run(draw))[1] for k in (first, second)]
            status, out, error = await first.run("import local_helper; print(local_helper.VALUE)")
            assert (status, out.strip(), error) == ("ok", "42", None)
            backends = [(await k.run("import matplotlib; print(matplotlib.get_backend())"))[1] for k in (plain, first)]
            return reports, expected, draws, backends
        finally:
            for k in (plain, first, second, third):
                await stop(k)

    reports, expected, draws, backends = run_async(main())
    for report in reports:
        assert report["names"] == expected["names"]
        assert report["cwd"] == expected["cwd"] == str(tmp_path)
        assert report["env"] == "one"
        assert report["path0"] == expected["path0"]
        assert report["pgid"] == report["pid"], "a forked kernel leads its own process group"
        # Collections on, as in a fresh kernel; what the fork server loaded is frozen, so that they
        # neither walk nor copy it.
        assert report["gc"] is expected["gc"] is True
        assert report["frozen"] > 10_000 and expected["frozen"] == 0
    assert len({r["pid"] for r in reports}) == 3
    numpy_draws, random_draws = zip(*(d.split() for d in draws), strict=True)
    assert numpy_draws[0] != numpy_draws[1], "two forked kernels drew the same numbers from numpy.random"
    assert random_draws[0] != random_draws[1], "two forked kernels drew the same numbers from random"
    assert backends[0] == backends[1]
    if "PYTHONHASHSEED" not in os.environ:
        # Two fresh kernels hash strings with two seeds; so do two consecutive forks in one folder
        # (a check's two reference runs), which come from the two fork servers of their kernelspec.
        assert reports[0]["hash"] != reports[1]["hash"], "two forked kernels in one folder share a hash seed"
        assert reports[2]["hash"] == reports[0]["hash"], "a third kernel started a third fork server"
    assert len(REGISTRY.servers()) == 2


def test_interrupt_restart_and_exit(kernels: KernelSpecManager, tmp_path: Path) -> None:
    async def main() -> None:
        kernel = await start(kernels, "forked", tmp_path)
        try:
            assert kernel.forked
            # Interrupt: a long sleep ends with KeyboardInterrupt.
            running = asyncio.ensure_future(kernel.run("import time; time.sleep(60)", timeout=90))
            await asyncio.sleep(2)
            started = time.monotonic()
            await kernel.km.interrupt_kernel()
            status, _, error = await running
            assert (status, error) == ("error", "KeyboardInterrupt")
            assert time.monotonic() - started < 20
            # Restart: a new forked process, with nothing of the old namespace.
            await kernel.run("kept = 1")
            before = (await kernel.report())["pid"]
            await kernel.km.restart_kernel(now=True)
            await kernel.kc.wait_for_ready(timeout=120)
            assert kernel.forked
            assert (await kernel.report())["pid"] != before
            status, _, error = await kernel.run("kept")
            assert (status, error) == ("error", "NameError")
            # Exit: the kernel's own exit code comes back through its fork server.
            kernel.kc.execute("import os; os._exit(3)")
            deadline = time.monotonic() + 30
            while await kernel.km.is_alive() and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert not await kernel.km.is_alive()
            assert await kernel.km.provisioner.poll() == 3  # type: ignore[union-attr]
        finally:
            await stop(kernel)

    run_async(main())


@pytest.mark.parametrize(
    ("launcher", "code", "says"),
    [
        ("import sys\nsys.exit(3)", 3, None),
        ("kept = 1", 0, None),
        ("raise KeyboardInterrupt", 1, "KeyboardInterrupt"),
        ("import os, json, signal, sys\ndel os, json, signal, sys", 0, None),
        (
            "import sys\nclass C:\n    def __del__(self):\n        sys.stderr.write('finalised\\n')\n"
            "c = C()\nc.me = c\ndel c",
            0,
            "finalised",
        ),
    ],
    ids=["sys.exit(3)", "returns", "interrupted", "drops-its-imports", "leaves-a-cycle"],
)
def test_a_fork_ends_with_its_own_exit_code_and_only_its_own_words(
    launcher: str, code: int, says: str | None, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # A kernel ends by returning, sys.exit or an exception (a restart's interrupt before ipykernel
    # took SIGINT over): each time the fork leaves with that code, without a word of the fork server.
    server = ForkServer([sys.executable], [], shared_env(dict(os.environ)))
    server.start(timeout=60)
    try:
        process = server.spawn([], dict(os.environ), str(tmp_path), launcher)
        assert process.wait(timeout=30) == code
    finally:
        server.stop()
    err = capfd.readouterr().err
    assert "Error" not in err.replace("KeyboardInterrupt", ""), err
    assert (says is not None and says in err) or (says is None and "Traceback" not in err), err


def test_a_forked_kernel_asked_to_shut_down_exits_with_code_0(
    kernels: KernelSpecManager, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    async def main() -> int | None:
        kernel = await start(kernels, "forked", tmp_path)
        try:
            assert kernel.forked
            kernel.kc.shutdown()
            deadline = time.monotonic() + 30
            while await kernel.km.is_alive() and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            return await kernel.km.provisioner.poll()  # type: ignore[union-attr]
        finally:
            await stop(kernel)

    assert run_async(main()) == 0
    err = capfd.readouterr().err
    assert "Traceback" not in err, err


def test_kernels_with_another_environment_get_another_fork_server(kernels: KernelSpecManager, tmp_path: Path) -> None:
    async def main() -> list[str | None]:
        one = await start(kernels, "forked", tmp_path)
        two = await start(kernels, "forked-other-env", tmp_path)
        try:
            assert one.forked and two.forked
            return [(await k.report())["env"] for k in (one, two)]
        finally:
            await stop(one)
            await stop(two)

    assert run_async(main()) == ["one", "two"]
    assert len(REGISTRY.servers()) == 2


def test_a_folder_shadowing_a_preloaded_module_gets_a_kernel_started_as_usual(kernels: KernelSpecManager, tmp_path: Path) -> None:
    """In a fresh kernel the folder's numpy.py is what `import numpy` finds; a fork has the real one."""
    (tmp_path / "numpy.py").write_text("WHO = 'the folder'\n", "utf-8")

    async def main() -> tuple[bool, str]:
        kernel = await start(kernels, "forked", tmp_path)
        try:
            status, out, error = await kernel.run("import numpy; print(numpy.WHO)")
            assert status == "ok", error
            return kernel.forked, out.strip()
        finally:
            await stop(kernel)

    assert run_async(main()) == (False, "the folder")


def test_a_dead_fork_server_takes_its_kernels_and_is_replaced(kernels: KernelSpecManager, tmp_path: Path) -> None:
    """Kernels end with their fork server (as with their Jupyter server); the next kernel gets a new
    fork server."""

    async def main() -> None:
        kernel = await start(kernels, "forked", tmp_path)
        try:
            assert kernel.forked
            (server,) = REGISTRY.servers()
            assert server.pid is not None
            os.kill(server.pid, signal.SIGKILL)
            deadline = time.monotonic() + 30
            while await kernel.km.is_alive() and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            assert not await kernel.km.is_alive(), "the kernel outlived its fork server by 30 s"
        finally:
            await stop(kernel)
        again = await start(kernels, "forked", tmp_path)
        try:
            assert again.forked
            assert (await again.run("print(1)"))[:2] == ("ok", "1\n")
            (new,) = REGISTRY.servers()
            assert new.pid != server.pid
        finally:
            await stop(again)

    run_async(main())


def test_a_module_that_cannot_be_preloaded_is_left_to_the_kernel(tmp_path: Path) -> None:
    folder = tmp_path / "kernels" / "odd"
    folder.mkdir(parents=True)
    body = {
        "argv": launcher_argv(sys.executable),
        "display_name": "odd",
        "language": "python",
        "metadata": {"kernel_provisioner": provisioner_metadata(["no_such_module_here", "json"])},
    }
    (folder / "kernel.json").write_text(json.dumps(body), "utf-8")
    specs = KernelSpecManager(kernel_dirs=[str(folder.parent)])

    async def main() -> tuple[str, str, str | None]:
        kernel = await start(specs, "odd", tmp_path)
        try:
            assert kernel.forked
            return await kernel.run("import no_such_module_here")
        finally:
            await stop(kernel)

    status, _, error = run_async(main())
    assert (status, error) == ("error", "ModuleNotFoundError")
    (server,) = REGISTRY.servers()
    assert server.loaded == ["json"]
    assert "no_such_module_here" in server.failed


def test_an_argv_without_the_launcher_starts_as_usual(tmp_path: Path) -> None:
    folder = tmp_path / "kernels" / "classic"
    folder.mkdir(parents=True)
    body = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "classic",
        "language": "python",
        "metadata": {"kernel_provisioner": provisioner_metadata(["json"])},
    }
    (folder / "kernel.json").write_text(json.dumps(body), "utf-8")
    specs = KernelSpecManager(kernel_dirs=[str(folder.parent)])

    async def main() -> tuple[bool, tuple[str, str, str | None]]:
        kernel = await start(specs, "classic", tmp_path)
        try:
            return kernel.forked, await kernel.run("print(2)")
        finally:
            await stop(kernel)

    assert run_async(main()) == (False, ("ok", "2\n", None))
    assert REGISTRY.servers() == []


def test_the_python3_command_writes_a_forked_kernelspec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert forkserver_main(["python3", str(tmp_path / "data"), "--preload", "json"]) == 0
    spec = json.loads((tmp_path / "data" / "kernels" / "python3" / "kernel.json").read_text("utf-8"))
    assert launcher_command(spec["argv"]) == ([sys.executable], ["-f", "{connection_file}"])
    assert spec["metadata"]["kernel_provisioner"] == provisioner_metadata(["json"])
    specs = KernelSpecManager(kernel_dirs=[str(tmp_path / "data" / "kernels")])

    async def main() -> tuple[bool, tuple[str, str, str | None]]:
        kernel = await start(specs, "python3", tmp_path)
        try:
            return kernel.forked, await kernel.run("print(3)")
        finally:
            await stop(kernel)

    assert run_async(main()) == (True, ("ok", "3\n", None))
    # A folder it cannot write: exit code 2 and the folder named.
    (tmp_path / "file").write_text("", "utf-8")
    with pytest.raises(SystemExit) as ended:
        forkserver_main(["python3", str(tmp_path / "file")])
    assert ended.value.code == 2
    assert str(tmp_path / "file" / "kernels" / "python3") in capsys.readouterr().err


def test_a_forked_kernel_whose_iopub_port_is_taken_exits(kernels: KernelSpecManager, tmp_path: Path) -> None:
    """The fork runs the launcher, so it ends as a kernel started the usual way does (launcher.py),
    with the bind's error as its exit code, and does not hang."""
    holders: list[socket.socket] = []

    async def main() -> tuple[bool, int | None]:
        km = AsyncKernelManager(kernel_name="forked", kernel_spec_manager=kernels)
        written = km.write_connection_file

        def take_iopub_port(**kwargs: object) -> None:
            written(**kwargs)
            holder = socket.socket()
            holder.bind((km.ip, km.iopub_port))
            holder.listen(1)
            holders.append(holder)

        km.write_connection_file = take_iopub_port  # type: ignore[method-assign]
        await km.start_kernel(cwd=str(tmp_path))
        try:
            deadline = time.monotonic() + 60
            while await km.is_alive() and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            return bool(getattr(km.provisioner, "forked", False)), await km.provisioner.poll()  # type: ignore[union-attr]
        finally:
            await km.shutdown_kernel(now=True)

    try:
        forked, code = run_async(main())
    finally:
        for holder in holders:
            holder.close()
    assert holders, "the IOPub port was never taken"
    assert forked
    assert code not in (None, 0), f"the forked kernel with its IOPub port taken: exit code {code}"


def test_fork_servers_let_go_of_keep_their_kernels_until_these_end(
    kernels: KernelSpecManager, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With room for one pair, a kernel of another environment takes the place of the first pair;
    the first kernel keeps running until it is shut down, and then its fork server stops."""
    monkeypatch.setattr(forkserver, "MAX_SERVERS", 1)

    async def main() -> None:
        first = await start(kernels, "forked", tmp_path)
        try:
            (server,) = REGISTRY.servers()
            other = await start(kernels, "forked-other-env", tmp_path)
            try:
                assert first.forked and other.forked
                assert (await first.run("print('still here')"))[:2] == ("ok", "still here\n")
                assert server.running
            finally:
                await stop(other)
        finally:
            await stop(first)
        # The next start stops what was let go of and has no kernel left.
        again = await start(kernels, "forked-other-env", tmp_path)
        try:
            assert not server.running
        finally:
            await stop(again)

    run_async(main())
