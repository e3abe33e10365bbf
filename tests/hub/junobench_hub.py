"""Run a local JupyterHub (``jupyterhub_config.py`` beside this file) and drive it by REST.

Shared by ``tests/test_hub.py`` and ``scripts/benchmark-hub.py``. Everything
listens on 127.0.0.1; users are created through the hub's REST API with the
token of the ``junobench-test`` service, their servers are started by
``SimpleLocalProcessSpawner`` in ``<state>/home/<name>``, and each user gets an
API token of its own, which is what the requests through the proxy at
``/user/<name>/`` carry.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CONFIG = HERE / "jupyterhub_config.py"
LOCAL_PROXY = REPO / "hub-tests" / "node_modules" / ".bin" / "configurable-http-proxy"
CLI = REPO / "bin" / "junobench.js"


def find_proxy() -> str | None:
    """The ``configurable-http-proxy`` executable: ``hub-tests/`` first, then PATH."""
    if os.access(LOCAL_PROXY, os.X_OK):
        return str(LOCAL_PROXY)
    return shutil.which("configurable-http-proxy")


def missing_requirements() -> str | None:
    """Why a hub cannot run here, or None when it can."""
    if shutil.which("jupyterhub") is None:
        return "jupyterhub is not on PATH (pip install -r requirements-dev.txt)"
    if find_proxy() is None:
        return "configurable-http-proxy is not installed (cd hub-tests && npm ci)"
    if shutil.which("jupyterhub-singleuser") is None:
        return "jupyterhub-singleuser is not on PATH"
    if shutil.which("node") is None:
        return "node is not on PATH (the junobench CLI needs it)"
    if not (REPO / "lib-cli" / "cli" / "main.js").is_file():
        return "the junobench CLI is not built (jlpm build:lib)"
    return None


def ports_free(base: int, count: int = 3) -> bool:
    """Whether ``base`` .. ``base + count - 1`` are all free on 127.0.0.1."""
    for port in range(base, base + count):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                return False
    return True


def pick_base_port(candidates: list[int]) -> int:
    """The first candidate base port with its three ports free."""
    for base in candidates:
        if ports_free(base):
            return base
    raise RuntimeError(f"no free set of three ports starting at any of {candidates} on 127.0.0.1")


@dataclass
class UserServer:
    """A user's running single-user server, as seen through the proxy."""

    name: str
    token: str
    url: str  # ends with '/'
    home: Path

    def headers(self) -> dict[str, str]:
        """Headers authenticating as this user."""
        return {"Authorization": f"token {self.token}"}


@dataclass
class Hub:
    """A JupyterHub process on loopback and what is needed to talk to it."""

    state: Path
    port: int
    api_token: str
    password: str
    process: subprocess.Popen[bytes] | None = None
    pids: set[int] = field(default_factory=set)

    @property
    def url(self) -> str:
        """The public (proxy) URL, ending with '/'."""
        return f"http://127.0.0.1:{self.port}/"

    @property
    def log(self) -> Path:
        """The hub's log, which also has the single-user servers' output."""
        return self.state / "jupyterhub.log"

    def log_tail(self, lines: int = 60) -> str:
        """The end of the hub log, for error messages."""
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no hub log)"

    def home(self, name: str) -> Path:
        """A user's home folder (their server root)."""
        return self.state / "home" / name

    # -- process ----------------------------------------------------------

    def start(self, timeout: float = 90) -> None:
        """Start the hub and wait until its REST API answers."""
        self.state.mkdir(parents=True, exist_ok=True)
        env = {
            **os.environ,
            "JUNOBENCH_HUB_DIR": str(self.state),
            "JUNOBENCH_HUB_PORT": str(self.port),
            "JUNOBENCH_HUB_API_TOKEN": self.api_token,
            "JUNOBENCH_HUB_PASSWORD": self.password,
            "JUNOBENCH_HUB_PROXY": find_proxy() or "configurable-http-proxy",
            "MPLBACKEND": "Agg",
        }
        log = self.log.open("ab")
        self.process = subprocess.Popen(
            ["jupyterhub", "-f", str(CONFIG)],
            cwd=self.state,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"jupyterhub exited with code {self.process.returncode}:\n{self.log_tail()}")
            try:
                if self.api("GET", "").ok:
                    return
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"jupyterhub did not answer within {timeout} s:\n{self.log_tail()}")
            time.sleep(0.3)

    def stop(self) -> None:
        """Stop the hub (which stops the servers and the proxy it started), then anything left."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        # Single-user servers the hub could not stop, and the proxy's group.
        for pid in self.pids:
            _kill(pid)
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        self.process = None

    # -- REST -------------------------------------------------------------

    def api(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        """A request to ``/hub/api/<path>`` with the service token."""
        headers = {"Authorization": f"token {self.api_token}", **kwargs.pop("headers", {})}
        return requests.request(
            method, f"{self.url}hub/api/{path}", headers=headers, timeout=kwargs.pop("timeout", 60), **kwargs
        )

    def create_users(self, names: list[str]) -> None:
        """Create users (all at once)."""
        r = self.api("POST", "users", json={"usernames": names})
        if r.status_code != 201:
            raise RuntimeError(f"creating users {names}: HTTP {r.status_code} {r.text}")

    def spawn(self, name: str, timeout: float = 240) -> UserServer:
        """Start a user's server, wait until it is ready, and issue a token for the user."""
        r = self.api("POST", f"users/{name}/server", timeout=timeout)
        if r.status_code not in (201, 202):
            raise RuntimeError(f"starting {name}'s server: HTTP {r.status_code} {r.text}\n{self.log_tail()}")
        deadline = time.monotonic() + timeout
        while True:
            model = self.api("GET", f"users/{name}").json()
            server = model.get("servers", {}).get("")
            if server and server.get("ready"):
                pid = (server.get("state") or {}).get("pid")
                if isinstance(pid, int):
                    self.pids.add(pid)
                break
            if server is None and not model.get("pending"):
                raise RuntimeError(f"{name}'s server stopped while starting:\n{self.log_tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name}'s server was not ready within {timeout} s:\n{self.log_tail()}")
            time.sleep(0.25)
        token = self.api("POST", f"users/{name}/tokens", json={"note": "junobench hub test", "expires_in": 3600})
        if token.status_code != 201:
            raise RuntimeError(f"issuing a token for {name}: HTTP {token.status_code} {token.text}")
        return UserServer(name=name, token=token.json()["token"], url=f"{self.url}user/{name}/", home=self.home(name))


def new_hub(state: Path, port: int) -> Hub:
    """A hub description with fresh secrets (not started)."""
    return Hub(state=state, port=port, api_token=secrets.token_hex(24), password=secrets.token_urlsafe(12))


def open_demo_casebook(user: UserServer) -> dict[str, Any]:
    """``POST /junobench/demo-casebook`` as the user: the demo casebook in their root."""
    r = requests.post(f"{user.url}junobench/demo-casebook", headers=user.headers(), timeout=120)
    if r.status_code != 200:
        raise RuntimeError(f"{user.name}: POST junobench/demo-casebook: HTTP {r.status_code} {r.text}")
    return r.json()


def save_notebook(user: UserServer, path: str, notebook: dict[str, Any], timeout: float = 120) -> None:
    """Save a notebook in the user's server through the contents API, creating its folders first."""
    parts = path.split("/")[:-1]
    for depth in range(1, len(parts) + 1):
        _put(user, "/".join(parts[:depth]), {"type": "directory"}, timeout)
    _put(user, path, {"type": "notebook", "format": "json", "content": notebook}, timeout)


def _put(user: UserServer, path: str, model: dict[str, Any], timeout: float) -> None:
    r = requests.put(f"{user.url}api/contents/{path}", headers=user.headers(), json=model, timeout=timeout)
    if r.status_code not in (200, 201):
        raise RuntimeError(f"{user.name}: PUT api/contents/{path}: HTTP {r.status_code} {r.text}")


def run_cli(args: list[str], timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run ``node bin/junobench.js <args>`` and capture its output."""
    return subprocess.run(
        ["node", str(CLI), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "MPLBACKEND": "Agg"},
        check=False,
    )


def server_args(user: UserServer) -> list[str]:
    """The CLI options that point it at a user's server through the hub."""
    return ["--server", user.url, "--token", user.token, "--server-root", str(user.home)]


def _kill(pid: int) -> None:
    """Stop a single-user server by pid, if that pid is still one."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return
    if b"jupyterhub-singleuser" not in cmdline:
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        pass
