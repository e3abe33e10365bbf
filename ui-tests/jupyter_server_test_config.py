"""Jupyter server configuration for the jupyterlab-junobench Galata UI tests.

Never use this configuration outside tests: it disables every security protection.
"""

import os
from pathlib import Path
from tempfile import mkdtemp

from jupyterlab.galata import configure_jupyter_server

c = get_config()  # noqa: F821  (injected by traitlets when loading a config file)

# A fresh, empty contents root for every server start (JUPYTERLAB_GALATA_ROOT_DIR
# still wins when set); the server extension copies the demo casebook into it as
# JunoBench-demo/ on request.
os.environ.setdefault("JUPYTERLAB_GALATA_ROOT_DIR", mkdtemp(prefix="junobench-ui-tests-"))
configure_jupyter_server(c)

# CI and the dev containers run as root.
c.ServerApp.allow_root = True
c.ServerApp.open_browser = False
# Same variable as playwright.config.js, for running beside another server on 8888.
c.ServerApp.port = int(os.environ.get("JUNOBENCH_UI_PORT", "8888"))
# No news feed or update check: the tests have no network and want no pop-ups.
c.LabApp.news_url = None
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"

# Copy the repository's own demo casebook, whatever way the package was installed.
_demo = Path(__file__).resolve().parent.parent / "demo" / "casebook"
if (_demo / "benchmark_desc.xlsx").is_file():
    c.JunobenchExtension.demo_source = str(_demo)

# The browser benchmark runs once with TCP_NODELAY on (default) and once off.
if os.environ.get("JUNOBENCH_TCP_NODELAY") == "0":
    c.JunobenchExtension.tcp_nodelay = False
