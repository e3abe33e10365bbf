"""A JupyterHub on loopback for the multi-user test and benchmark.

Used by ``tests/test_hub.py`` and ``scripts/benchmark-hub.py``, which set the
environment below and run ``jupyterhub -f tests/hub/jupyterhub_config.py`` in
the state folder. Each user gets a single-user JupyterLab (with this
extension, from the same Python environment) started by
``SimpleLocalProcessSpawner`` in its own home folder under the state folder,
so no system users are needed.

Environment:

- ``JUNOBENCH_HUB_DIR``: state folder (database, cookie secret, homes under ``home/``).
- ``JUNOBENCH_HUB_PORT``: the proxy's public port (default 8920); the hub's
  own API listens on the next port and the proxy's REST API on the one after.
- ``JUNOBENCH_HUB_API_TOKEN``: token of the ``junobench-test`` service, which
  may manage users, servers and tokens.
- ``JUNOBENCH_HUB_PASSWORD``: the shared password every user logs in with.
- ``JUNOBENCH_HUB_PROXY``: the ``configurable-http-proxy`` executable
  (default: the one installed by ``npm ci`` in ``hub-tests/``).
"""

from __future__ import annotations

import os
from pathlib import Path

c = get_config()  # type: ignore[name-defined]  # noqa: F821 (provided by JupyterHub)


def _need(name: str) -> str:
    value = os.environ.get(name, "")
    if not value:
        raise SystemExit(f"tests/hub/jupyterhub_config.py: set {name} (see the module docstring)")
    return value


STATE = Path(_need("JUNOBENCH_HUB_DIR")).resolve()
PORT = int(os.environ.get("JUNOBENCH_HUB_PORT", "8920"))
REPO = Path(__file__).resolve().parents[2]
PROXY = os.environ.get(
    "JUNOBENCH_HUB_PROXY", str(REPO / "hub-tests" / "node_modules" / ".bin" / "configurable-http-proxy")
)

# Everything on loopback: the proxy (public), the hub API and the proxy API.
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = PORT
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = PORT + 1
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{PORT + 2}"
c.ConfigurableHTTPProxy.command = [PROXY]
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
c.ConfigurableHTTPProxy.should_start = True
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True

c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")

# Users log in with one shared password (DummyAuthenticator.password is
# deprecated since JupyterHub 5.3 in favour of this authenticator).
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = _need("JUNOBENCH_HUB_PASSWORD")
c.Authenticator.allow_all = True

# One single-user JupyterLab per user, as a local process in its own home.
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "home" / "{username}")
c.Spawner.cmd = ["jupyterhub-singleuser"]
c.Spawner.default_url = "/lab"
c.Spawner.args = ["--allow-root"] if os.geteuid() == 0 else []
c.Spawner.environment = {"MPLBACKEND": "Agg"}
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180
c.JupyterHub.concurrent_spawn_limit = 0
c.JupyterHub.active_server_limit = 0

# The test's own service: creates users, starts and stops their servers and
# issues a token per user.
c.JupyterHub.services = [{"name": "junobench-test", "api_token": _need("JUNOBENCH_HUB_API_TOKEN")}]
c.JupyterHub.load_roles = [
    {
        "name": "junobench-test",
        "scopes": ["admin:users", "admin:servers", "tokens", "list:users", "read:users"],
        "services": ["junobench-test"],
    }
]
