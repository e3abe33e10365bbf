"""Jupyter server configuration for the jupyterlab-junobench Galata UI tests.

Never use this configuration outside tests: it disables every security protection.
"""

import json
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

# The specs run in the server's own Python, as before the container existed: a
# container kernel per case would slow every spec down. Only container.spec.ts
# asks for the container (through its own mocked settings). A default setting
# override in a labconfig folder of our own, seen by the settings API at each
# request through JUPYTER_CONFIG_PATH.
_labconfig = Path(mkdtemp(prefix="junobench-ui-tests-config-"))
(_labconfig / "labconfig").mkdir()
(_labconfig / "labconfig" / "default_setting_overrides.json").write_text(
    json.dumps({"jupyterlab-junobench:replay": {"environment": "server"}}), encoding="utf-8"
)
os.environ["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
    p for p in (str(_labconfig), os.environ.get("JUPYTER_CONFIG_PATH", "")) if p
)

# The browser benchmark runs once with TCP_NODELAY on (default) and once off.
if os.environ.get("JUNOBENCH_TCP_NODELAY") == "0":
    c.JunobenchExtension.tcp_nodelay = False
