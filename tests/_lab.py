"""A real JupyterLab server for tests that need what it serves (not a test module)."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from collections.abc import Callable

import requests


def free_port() -> int:
    """A local TCP port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def running_lab(tmp_path: Path, extra: list[str]) -> Iterator[Callable[[str], Any]]:
    """Start ``jupyter lab`` with ``extra`` arguments in its own folders; yield a GET helper."""
    (tmp_path / "root").mkdir(exist_ok=True)
    port, token = free_port(), secrets.token_hex(16)
    args = [
        "jupyter", "lab", "--no-browser", f"--port={port}", "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={tmp_path / 'root'}",
        f"--LabApp.user_settings_dir={tmp_path / 'user-settings'}",
        f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
        *extra,
    ]
    if os.geteuid() == 0:
        args.append("--allow-root")
    log_path = tmp_path / "lab.log"
    log = log_path.open("wb")
    server = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    headers = {"Authorization": f"token {token}"}
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert server.poll() is None, log_path.read_text()
            try:
                if requests.get(f"{base}api/status", headers=headers, timeout=5).ok:
                    break
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.3)
        yield lambda path: requests.get(f"{base}{path}", headers=headers, timeout=30)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
