"""The kernel inside the JunoBench container: real podman (or docker), the real image, real kernels.

The image is built by ``python -m jupyterlab_junobench.container build`` (scripts/test.sh does it
before pytest). Without an engine or the image these tests skip, unless
``JUNOBENCH_CONTAINER_REQUIRED=1`` (set by scripts/test.sh once the image is built), when they fail.
The pure parts (mounts, owners, differences, the build key) run everywhere.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from jupyterlab_junobench import container
from jupyterlab_junobench.container import (
    Engine,
    benchmark_differences,
    build_key,
    mount_args,
    mounts_for,
    owner_alive,
    owner_label,
    session_case_folder,
)

from _lab import free_port

IMAGE = os.environ.get("JUNOBENCH_TEST_IMAGE", container.DEFAULT_IMAGE)
REQUIRED = os.environ.get("JUNOBENCH_CONTAINER_REQUIRED") == "1"


# ---------------------------------------------------------------------------
# Pure parts


def make_case(folder: Path, name: str) -> Path:
    """A case folder as the casebook ships it, plus what a learner's server may leave in it."""
    case = folder / name
    (case / "data").mkdir(parents=True)
    (case / "data" / "x.csv").write_text("a\n1\n")
    (case / "README.md").write_text("# case\n")
    for nb in (f"{name}.ipynb", f"{name}_reproduced.ipynb", f"{name}_fixed.ipynb"):
        (case / nb).write_text("{}")
    (case / f"{name}_fixed.py").write_text("# exported\n")
    (case / ".ipynb_checkpoints").mkdir()
    (case / "helpers.py").write_text("X = 1\n")
    return case


def test_only_the_case_folders_data_is_mounted_read_only_beside_the_working_folder(tmp_path: Path) -> None:
    book = tmp_path / "casebook"
    case = make_case(book / "benchmark", "pandas_1")
    (book / "diagnoses.xlsx").write_text("labels")
    work = tmp_path / "work" / "pandas_1"
    work.mkdir(parents=True)
    data = [(str(case / n), "ro") for n in ("README.md", "data", "helpers.py")]
    assert mounts_for(str(work), str(case)) == sorted([(str(work), "rw"), *data], key=lambda m: (len(m[0]), m[0]))
    # Neither notebook, nor the exported script, nor checkpoints, nor the diagnoses.
    mounted = {p for p, _ in mounts_for(str(work), str(case))}
    assert not any(p.endswith((".ipynb", "_fixed.py", ".ipynb_checkpoints", "diagnoses.xlsx")) for p in mounted)
    assert mounts_for(str(work), None) == [(str(work), "rw")]


def test_a_kernel_started_in_the_case_folder_gets_its_data_read_only_and_nothing_read_write(tmp_path: Path) -> None:
    # `junobench check` starts its kernels with the case folder as their working directory.
    case = make_case(tmp_path / "benchmark", "numpy_1")
    expected = [(str(case / n), "ro") for n in ("data", "README.md", "helpers.py")]
    assert mounts_for(str(case), None) == expected
    assert mounts_for(str(case), str(case)) == expected
    # A folder without the case's notebooks is an ordinary working folder.
    plain = tmp_path / "plain"
    plain.mkdir()
    assert mounts_for(str(plain), None) == [(str(plain), "rw")]


def test_answer_files_the_read_write_mount_would_show_are_masked(tmp_path: Path) -> None:
    # A server root that holds the casebook and the working copies alike.
    root = tmp_path / "root"
    case = make_case(root / "book" / "benchmark", "sklearn_1")
    (root / "book" / "diagnoses.xlsx").write_text("labels")
    (root / "book" / "benchmark_desc.xlsx").write_text("cases")
    mounts = dict(mounts_for(str(root), str(case)))
    assert mounts[str(root)] == "rw"
    for n in ("sklearn_1_fixed.ipynb", "sklearn_1_reproduced.ipynb", "sklearn_1.ipynb", "sklearn_1_fixed.py",
              ".ipynb_checkpoints"):
        assert mounts[str(case / n)] == "mask", n
    assert mounts[str(root / "book" / "diagnoses.xlsx")] == "mask"
    assert mounts[str(root / "book" / "benchmark_desc.xlsx")] == "mask"
    # The data stays readable and becomes read-only (mounted after its read-write parent).
    assert mounts[str(case / "data")] == "ro"
    order = [p for p, _ in mounts_for(str(root), str(case))]
    assert order.index(str(root)) < order.index(str(case / "data"))
    assert mount_args(str(case / "sklearn_1_fixed.ipynb"), "mask") == [
        "-v", f"/dev/null:{case / 'sklearn_1_fixed.ipynb'}:ro"]
    assert mount_args(str(case / ".ipynb_checkpoints"), "mask") == ["--tmpfs", f"{case / '.ipynb_checkpoints'}:ro"]
    assert mount_args(str(case / "data"), "ro") == ["-v", f"{case / 'data'}:{case / 'data'}:ro"]


def working_copy(path: Path, case_folder: str) -> Path:
    """A notebook with the working-copy metadata the replay writes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    nb = {
        "cells": [],
        "metadata": {"junobench": {"version": 1, "case": "c", "casebook": "b", "caseFolder": case_folder}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb), "utf-8")
    return path


def test_the_case_folder_comes_from_the_working_copy_and_stays_inside_the_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "book" / "case1").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    nb = working_copy(root / "work" / "case1-1.ipynb", "book/case1")
    assert session_case_folder(str(nb), str(root)) == str(root / "book" / "case1")
    # Out of the root (by .. or an absolute path): not mounted.
    escape = working_copy(root / "work" / "escape.ipynb", "../outside")
    assert session_case_folder(str(escape), str(root)) is None
    absolute = working_copy(root / "work" / "abs.ipynb", str(tmp_path / "outside"))
    assert session_case_folder(str(absolute), str(root)) is None
    # Not a working copy, not a notebook, no file, a missing folder: nothing.
    plain = root / "plain.ipynb"
    plain.write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    assert session_case_folder(str(plain), str(root)) is None
    (root / "junk.ipynb").write_text("not json")
    assert session_case_folder(str(root / "junk.ipynb"), str(root)) is None
    assert session_case_folder(str(root / "missing.ipynb"), str(root)) is None
    gone = working_copy(root / "work" / "gone.ipynb", "book/nope")
    assert session_case_folder(str(gone), str(root)) is None
    assert session_case_folder(None, str(root)) is None


def test_an_owner_label_tells_a_live_server_from_a_dead_one() -> None:
    assert owner_alive(owner_label())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    label = owner_label(child.pid)
    child.wait()
    assert not owner_alive(label)
    # The same pid started again later is another process.
    pid, host = os.getpid(), owner_label().split("/")[0]
    assert not owner_alive(f"{host}/{pid}/1")
    # Another host's containers are not ours to judge; a malformed label is an orphan.
    assert owner_alive(f"not-{host}/1/1")
    assert not owner_alive("garbage")


def test_the_differences_from_the_benchmark_name_base_python_and_libraries() -> None:
    pins = container.load_pins()
    from jupyterlab_junobench.kernel import pins_for

    exact = {d: p.pinned for p in pins_for(pins, minimal=False) for d in p.distributions[:1]}
    same = {"python": pins["python"]["pinned"] + ".14", "versions": exact}
    assert benchmark_differences(same, container.UPSTREAM_BASE, pins) == []
    other = {"python": "3.11.2", "versions": {**exact, "numpy": "2.0.0", "torch": None}}
    lines = benchmark_differences(other, container.DEBIAN_BASE, pins)
    assert any(line.startswith("base: ") for line in lines)
    assert any("Python 3.11.2" in line for line in lines)
    assert "numpy: 2.0.0 (pinned 1.26.4)" in lines
    assert any(line.startswith("torch: not installed") for line in lines)


def test_the_build_key_changes_with_each_input() -> None:
    base = build_key("FROM x", ["a==1"], "sha256:1", [])
    assert base == build_key("FROM x", ["a==1"], "sha256:1", [])
    assert base != build_key("FROM y", ["a==1"], "sha256:1", [])
    assert base != build_key("FROM x", ["a==2"], "sha256:1", [])
    assert base != build_key("FROM x", ["a==1"], "sha256:2", [])
    assert base != build_key("FROM x", ["a==1"], "sha256:1", ["/wheels"])


def test_the_provisioner_info_names_the_container_so_a_restarted_server_finds_it() -> None:
    from jupyter_client.kernelspec import KernelSpec

    def provisioner() -> container.ContainerProvisioner:
        spec = KernelSpec(argv=["python"], display_name="JunoBench (container)")
        return container.ContainerProvisioner(kernel_id="0123456789", kernel_spec=spec, parent=None)

    before = provisioner()
    before.container_name = "junobench-01234567-abcdef"
    info = asyncio.run(before.get_provisioner_info())
    assert info["container_name"] == "junobench-01234567-abcdef" and info["kernel_id"] == "0123456789"
    after = provisioner()
    asyncio.run(after.load_provisioner_info(info))
    assert after.container_name == "junobench-01234567-abcdef"


# ---------------------------------------------------------------------------
# Real containers


def the_engine() -> Engine:
    """The engine with the image, or a skip (a failure when the image is required)."""
    try:
        engine = container.pick_engine(os.environ.get("JUNOBENCH_ENGINE"), container.engine_env_from())
    except container.ContainerError as e:
        if REQUIRED:
            pytest.fail(str(e))
        pytest.skip(str(e))
    if engine.image_id(IMAGE) is None:
        message = f"the image {IMAGE} is not built (python -m jupyterlab_junobench.container build)"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    return engine


@pytest.fixture(scope="module")
def engine() -> Engine:
    return the_engine()


@pytest.fixture
def kernel_path(tmp_path: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Jupyter path holding only the container kernelspec."""
    prefix = tmp_path / "prefix"
    where = container.install_kernelspec(IMAGE, engine, prefix=str(prefix))
    assert (where / "kernel.json").is_file()
    share = prefix / "share" / "jupyter"
    monkeypatch.setenv("JUPYTER_PATH", str(share))
    return share


def containers_of(engine: Engine, kernel_id: str | None = None, owner: str | None = None) -> list[dict[str, str]]:
    rows = container.kernel_containers(engine)
    return [
        r for r in rows if (kernel_id is None or r["kernel"] == kernel_id) and (owner is None or r["owner"] == owner)
    ]


def wait_until(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        time.sleep(0.3)


async def run_code(kc: Any, code: str, timeout: float = 60) -> dict[str, Any]:
    """Execute code; returns the reply content plus the stream text."""
    out: list[str] = []

    def hook(msg: dict[str, Any]) -> None:
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])

    reply = await kc.execute_interactive(code, output_hook=hook, timeout=timeout)
    return {**reply["content"], "stdout": "".join(out)}


def test_a_container_kernel_runs_isolated_and_leaves_nothing_behind(
    tmp_path: Path, engine: Engine, kernel_path: Path
) -> None:
    from jupyter_client.manager import AsyncKernelManager

    work = tmp_path / "work"
    work.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("host only")

    async def scenario() -> None:
        km = AsyncKernelManager(kernel_name=container.KERNEL_NAME)
        started = time.monotonic()
        await km.start_kernel(cwd=str(work))
        kc = km.client()
        kc.start_channels()
        try:
            await kc.wait_for_ready(timeout=120)
            print(f"container kernel ready in {time.monotonic() - started:.1f} s")
            assert len(containers_of(engine, km.kernel_id)) == 1
            reply = await run_code(
                kc,
                "import os, sys, pathlib\n"
                "print(sys.executable, os.environ.get('JUNOBENCH_ENVIRONMENT'), os.environ.get('JUNOBENCH_IMAGE'))\n"
                "print(os.getcwd())\n"
                f"print(pathlib.Path({str(secret)!r}).exists(), pathlib.Path({str(Path.cwd())!r}).exists())\n"
                "pathlib.Path('written.txt').write_text('from the kernel')\n",
            )
            assert reply["status"] == "ok", reply
            lines = reply["stdout"].splitlines()
            assert lines[0].startswith(f"{container.IMAGE_PYTHON} container {IMAGE}@"), lines
            assert lines[1] == str(work.resolve())
            # Nothing of the host beyond the mounted folder: not a file beside it, not this checkout.
            assert lines[2] == "False False", lines
            assert (work / "written.txt").read_text() == "from the kernel"

            # Interrupt: a long cell ends with KeyboardInterrupt, the kernel lives on. (Without
            # stop_on_error=False, ipykernel aborts for a moment what arrives after the error: under
            # load, the next request could land in that moment and come back "aborted".)
            msg_id = kc.execute("import time; time.sleep(120)", stop_on_error=False)
            await asyncio.sleep(1.5)
            await km.interrupt_kernel()
            deadline = time.monotonic() + 30
            while True:
                msg = await kc.get_shell_msg(timeout=max(0.1, deadline - time.monotonic()))
                if msg["parent_header"].get("msg_id") == msg_id:
                    break
            assert msg["content"]["status"] == "error"
            assert msg["content"]["ename"] == "KeyboardInterrupt"
            after_interrupt = await run_code(kc, "print(6 * 7)")
            assert after_interrupt["stdout"].strip() == "42", after_interrupt

            # Restart: one container for the kernel, never two.
            before = {r["id"] for r in containers_of(engine, km.kernel_id)}
            await km.restart_kernel(now=False)
            await kc.wait_for_ready(timeout=120)
            after = containers_of(engine, km.kernel_id)
            assert len(after) == 1 and after[0]["id"] not in before, after
            assert (await run_code(kc, "print('again')"))["stdout"].strip() == "again"
        finally:
            kc.stop_channels()
            await km.shutdown_kernel(now=False)
        assert containers_of(engine, km.kernel_id) == []

        # A kernel killed at once (as when a server ends hard) also leaves nothing.
        km2 = AsyncKernelManager(kernel_name=container.KERNEL_NAME)
        await km2.start_kernel(cwd=str(work))
        await asyncio.to_thread(
            wait_until, lambda: len(containers_of(engine, km2.kernel_id)) == 1, 60, "the container is up"
        )
        await km2.shutdown_kernel(now=True)
        assert containers_of(engine, km2.kernel_id) == []

        # Killed while the engine is still making the container: nothing either, now or later.
        km3 = AsyncKernelManager(kernel_name=container.KERNEL_NAME)
        await km3.start_kernel(cwd=str(work))
        await km3.shutdown_kernel(now=True)
        assert containers_of(engine, km3.kernel_id) == []
        await asyncio.sleep(3)
        assert containers_of(engine, km3.kernel_id) == []

    asyncio.run(scenario())


def test_a_kernel_whose_container_is_killed_from_outside_dies_like_any_kernel(
    tmp_path: Path, engine: Engine, kernel_path: Path
) -> None:
    from jupyter_client.manager import AsyncKernelManager

    async def scenario() -> None:
        km = AsyncKernelManager(kernel_name=container.KERNEL_NAME)
        await km.start_kernel(cwd=str(tmp_path))
        kc = km.client()
        kc.start_channels()
        try:
            await kc.wait_for_ready(timeout=120)
            assert await km.is_alive()
            [row] = containers_of(engine, km.kernel_id)
            engine.run(["kill", "--signal", "KILL", row["id"]])
            deadline = time.monotonic() + 30
            while await km.is_alive():
                assert time.monotonic() < deadline, "the kernel still counts as alive after its container was killed"
                await asyncio.sleep(0.2)
        finally:
            kc.stop_channels()
            await km.shutdown_kernel(now=True)
        assert containers_of(engine, km.kernel_id) == []

    asyncio.run(scenario())


def test_the_case_folder_is_read_only_and_a_killed_server_leaves_no_orphan_after_a_restart(
    tmp_path: Path, engine: Engine, kernel_path: Path
) -> None:
    import requests

    root = tmp_path / "root"
    case = root / "book" / "case1"
    case.mkdir(parents=True)
    (case / "data.csv").write_text("a\n1\n")
    (case / "case1_fixed.ipynb").write_text("{}")
    nb = working_copy(root / "junobench-work" / "book" / "case1" / "case1-1.ipynb", "book/case1")

    def start_server(log_name: str) -> tuple[subprocess.Popen[bytes], str, dict[str, str]]:
        port, token = free_port(), "t" + os.urandom(8).hex()
        args = [
            sys.executable,
            "-m",
            "jupyter_server",
            "--no-browser",
            f"--port={port}",
            "--ServerApp.port_retries=0",
            "--ServerApp.ip=127.0.0.1",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={root}",
        ]
        if os.geteuid() == 0:
            args.append("--allow-root")
        log = (tmp_path / log_name).open("wb")
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}/"
        headers = {"Authorization": f"token {token}"}
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None, (tmp_path / log_name).read_text()
            try:
                if requests.get(f"{base}api/status", headers=headers, timeout=5).ok:
                    break
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, (tmp_path / log_name).read_text()
            time.sleep(0.3)
        return proc, base, headers

    first, base, headers = start_server("server1.log")
    try:
        rel = nb.relative_to(root).as_posix()
        made = requests.post(
            f"{base}api/sessions",
            headers=headers,
            json={"path": rel, "name": nb.name, "type": "notebook", "kernel": {"name": container.KERNEL_NAME}},
            timeout=180,
        )
        assert made.status_code == 201, made.text
        kernel_id = made.json()["kernel"]["id"]
        wait_until(lambda: len(containers_of(engine, kernel_id)) == 1, 60, "the kernel's container runs")
        row = containers_of(engine, kernel_id)[0]
        mounts = json.loads(engine.run(["inspect", "--format", "{{json .Mounts}}", row["id"]]).stdout)
        by_path = {m["Destination"]: m for m in mounts}
        data = str((case / "data.csv").resolve())
        assert by_path[data]["RW"] is False, by_path
        assert by_path[str(nb.parent.resolve())]["RW"] is True, by_path
        assert by_path[data]["Source"] == data
        # The answer key is not mounted at all.
        assert str((case / "case1_fixed.ipynb").resolve()) not in by_path, by_path
        # Only the working folder, the case's data and the connection file come from the host.
        assert len([m for m in mounts if m.get("Type") == "bind"]) == 3, mounts
        owner = row["owner"]
        assert owner.split("/")[1] == str(first.pid)
    finally:
        # The server is killed: it cannot shut its kernels down.
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    assert containers_of(engine, owner=owner), "the killed server's container outlived it (as it would in real life)"

    second, _, _ = start_server("server2.log")
    try:
        wait_until(lambda: not containers_of(engine, owner=owner), 60, "the next server removed the orphan")
        wait_until(
            lambda: "left by a server that is gone" in (tmp_path / "server2.log").read_text(),
            10,
            "the server says it removed a container",
        )
    finally:
        second.terminate()
        second.wait(timeout=60)
    assert containers_of(engine, kernel_id) == []
