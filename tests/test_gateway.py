"""A case replayed through a Jupyter server whose kernels live in a Kernel Gateway.

The gateway runs with the junobench kernel environment of
tests/_junobench_venv.py (its kernelspec's argv is that venv's python), the
server with no kernels of its own (``--gateway-url``). ``junobench verify``
replays ``numpy_1`` through the server; its environment probe must report the
venv's ``sys.prefix``, which only a gateway kernel can have, and the case must
reproduce although the gateway starts kernels in its own working directory
(the server root), not in the notebook's folder.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from _junobench_venv import minimal_kernel_env

REPO = Path(__file__).resolve().parent.parent
CLI = REPO / "bin" / "junobench.js"
BUILT_CLI = REPO / "lib-cli" / "cli" / "main.js"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, token: str, proc: subprocess.Popen[bytes], what: str, log: Path) -> None:
    """Poll ``url`` until it answers 200; fail with the process log if it exits or takes too long."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"{what} exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            request = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
            with urllib.request.urlopen(request, timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    pytest.fail(f"{what} did not answer at {url}:\n{log.read_text()[-3000:]}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a process this test started."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.mark.kernel_env
def test_a_case_replays_in_a_gateway_kernel(tmp_path: Path) -> None:
    if shutil.which("node") is None or not BUILT_CLI.exists():
        pytest.skip("needs Node.js and the built CLI (jlpm build:lib)")
    env = minimal_kernel_env()

    # The server root and the gateway's working directory are the same folder.
    root = tmp_path / "root"
    shutil.copytree(REPO / "demo" / "casebook", root / "casebook")

    gateway_port = free_port()
    gateway_token = secrets.token_hex(16)
    gateway_log = tmp_path / "gateway.log"
    gateway_env = {**os.environ, "JUPYTER_PATH": str(env.jupyter_path)}
    with gateway_log.open("wb") as out:
        gateway = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "jupyter",
                "kernelgateway",
                "--KernelGatewayApp.ip=127.0.0.1",
                f"--KernelGatewayApp.port={gateway_port}",
                "--KernelGatewayApp.port_retries=0",
                f"--KernelGatewayApp.auth_token={gateway_token}",
                "--JupyterWebsocketPersonality.list_kernels=True",
            ],
            cwd=root,
            env=gateway_env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    server_port = free_port()
    server_token = secrets.token_hex(16)
    server_log = tmp_path / "server.log"
    # The server itself sees no junobench kernelspec: only the gateway has one.
    server_env = {k: v for k, v in os.environ.items() if k != "JUPYTER_PATH"}
    try:
        wait_for(
            f"http://127.0.0.1:{gateway_port}/api/kernelspecs", gateway_token, gateway, "the kernel gateway", gateway_log
        )
        with server_log.open("wb") as out:
            server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "jupyter",
                    "server",
                    "--no-browser",
                    f"--ServerApp.root_dir={root}",
                    "--ServerApp.ip=127.0.0.1",
                    f"--ServerApp.port={server_port}",
                    "--ServerApp.port_retries=0",
                    f"--IdentityProvider.token={server_token}",
                    "--ServerApp.allow_root=True",
                    f"--gateway-url=http://127.0.0.1:{gateway_port}",
                    f"--GatewayClient.auth_token={gateway_token}",
                    "--GatewayClient.request_timeout=120",
                ],
                cwd=tmp_path,
                env=server_env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            server_url = f"http://127.0.0.1:{server_port}/"
            wait_for(f"{server_url}api/kernelspecs", server_token, server, "jupyter server", server_log)
            with urllib.request.urlopen(
                urllib.request.Request(
                    f"{server_url}api/kernelspecs", headers={"Authorization": f"token {server_token}"}
                )
            ) as response:
                specs = json.load(response)["kernelspecs"]
            assert "junobench" in specs, f"the server does not list the gateway's kernelspecs: {sorted(specs)}"

            report = tmp_path / "verify.json"
            # jupyter_server's gateway websocket can lose a kernel connection that is opened
            # twice at once ("Replacing stale connection"; the kernel then never answers): a
            # race outside this project, seen once in CI. Only that failure is run again, once.
            for _attempt in range(2):
                result = subprocess.run(
                    [
                        "node",
                        str(CLI),
                        "verify",
                        str(root / "casebook"),
                        "--cases",
                        "numpy_1",
                        "--kernel",
                        "junobench",
                        "--server",
                        server_url,
                        "--token",
                        server_token,
                        "--server-root",
                        str(root),
                        "--json",
                        str(report),
                    ],
                    capture_output=True,
                    text=True,
                    timeout=600,
                )
                if "did not answer within" not in result.stdout + result.stderr:
                    break
        finally:
            stop(server)
    finally:
        stop(gateway)
    output = result.stdout + result.stderr
    logs = (
        f"{output}\n--- server log ---\n{server_log.read_text()[-2000:]}"
        f"\n--- gateway log ---\n{gateway_log.read_text()[-2000:]}"
    )
    assert result.returncode == 0, logs
    data = json.loads(report.read_text())
    assert data["reports"][0]["verdict"] == "pass", logs
    assert data["reports"][0]["reproduced"]["observed"].startswith("ValueError: operands could not be broadcast"), logs

    environment = data["environment"]
    probe = environment["probe"]
    # The kernel that ran is the gateway's: the junobench venv, not the server's Python.
    assert Path(probe["prefix"]).resolve() == env.venv, probe
    assert Path(probe["prefix"]).resolve() != Path(sys.prefix).resolve()
    assert probe["versions"]["numpy"] == "1.26.4"
    # It started in the gateway's working directory (the server root), and
    # verify changed into each notebook's folder relative to it.
    assert Path(probe["cwd"]).resolve() == root.resolve()
    assert environment["kernelCwd"] == "elsewhere"
    assert "kernels start in" in output and "warning:" not in output, output
    assert any(line.startswith("environment: ") for line in result.stdout.splitlines())
