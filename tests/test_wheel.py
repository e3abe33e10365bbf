"""The built wheel installs and works on a machine without Node.js.

Opt-in (it creates a virtualenv and installs JupyterLab from the package index):

    JUNOBENCH_WHEEL=/path/to/jupyterlab_junobench-X-py3-none-any.whl \
        python -m pytest tests/test_wheel.py -q -rs

``JUNOBENCH_WHEEL_JUPYTERLAB`` may name the JupyterLab requirement to install
beside it (default: this interpreter's JupyterLab version, else ``jupyterlab>=4.6,<5``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.wheel

NODE_TOOLS = ("node", "nodejs", "npm", "npx", "yarn", "jlpm")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _wheel() -> Path:
    value = os.environ.get("JUNOBENCH_WHEEL", "")
    if not value:
        pytest.skip("JUNOBENCH_WHEEL is not set to a built jupyterlab_junobench wheel")
    wheel = Path(value).expanduser().resolve()
    assert wheel.is_file() and wheel.suffix == ".whl", f"not a wheel file: {wheel}"
    return wheel


def _jupyterlab_requirement() -> str:
    explicit = os.environ.get("JUNOBENCH_WHEEL_JUPYTERLAB")
    if explicit:
        return explicit
    try:
        from importlib.metadata import version

        return f"jupyterlab=={version('jupyterlab')}"
    except Exception:
        return "jupyterlab>=4.6,<5"


def _path_without_node(venv_bin: Path) -> str:
    """PATH with the venv first and every folder holding a Node.js tool removed."""
    kept = [
        folder
        for folder in os.environ.get("PATH", "").split(os.pathsep)
        if folder and not any((Path(folder) / tool).exists() for tool in NODE_TOOLS)
    ]
    return os.pathsep.join([str(venv_bin), *kept])


def _clean_env(tmp_path: Path, venv: Path) -> dict[str, str]:
    """An environment that sees only the venv: no node, no user Jupyter dirs."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("JUPYTER", "PYTHON", "VIRTUAL_ENV", "CONDA", "PIP_"))
    }
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    home = tmp_path / "home"
    home.mkdir()
    env.update(
        PATH=_path_without_node(bindir),
        HOME=str(home),
        USERPROFILE=str(home),
        VIRTUAL_ENV=str(venv),
        JUPYTER_PLATFORM_DIRS="1",
        JUPYTER_CONFIG_DIR=str(home / "jupyter-config"),
        JUPYTER_DATA_DIR=str(home / "jupyter-data"),
        # Keep the real pip cache so repeated runs do not download JupyterLab again.
        PIP_CACHE_DIR=os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    return env


def _run(args: list[str], env: dict[str, str], cwd: Path) -> str:
    result = subprocess.run(
        args, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert result.returncode == 0, f"{' '.join(args)} failed:\n{result.stdout}"
    return ANSI.sub("", result.stdout)


def test_wheel_installs_and_enables_without_node(tmp_path: Path) -> None:
    wheel = _wheel()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = _clean_env(tmp_path, venv)
    bindir = Path(env["PATH"].split(os.pathsep)[0])
    for tool in NODE_TOOLS:
        assert shutil.which(tool, path=env["PATH"]) is None, f"{tool} still on PATH"
    python = str(bindir / "python")
    jupyter = str(bindir / "jupyter")
    work = tmp_path / "cwd"  # never the checkout: its sources must not be importable
    work.mkdir()

    _run([python, "-m", "pip", "install", str(wheel), _jupyterlab_requirement()], env, work)

    labextensions = _run([jupyter, "labextension", "list"], env, work)
    print(labextensions)
    assert re.search(
        r"jupyterlab-junobench v\S+ enabled OK \(python, jupyterlab-junobench\)",
        labextensions,
    ), labextensions

    server_extensions = _run([jupyter, "server", "extension", "list"], env, work)
    print(server_extensions)
    assert re.search(r"jupyterlab_junobench\s+enabled", server_extensions), server_extensions
    assert re.search(r"jupyterlab_junobench\s+\S+\s+OK", server_extensions), server_extensions

    # The package found is the installed one, and it carries the demo casebook.
    probe = _run(
        [
            python,
            "-c",
            "import json, jupyterlab_junobench as j, jupyterlab_junobench.casebook as c;"
            "b = c.bundled_casebook();"
            "print(json.dumps({'module': j.__file__, 'version': j.__version__,"
            " 'casebook': str(b) if b else None, 'cases': c.count_cases(b) if b else 0}))",
        ],
        env,
        work,
    )
    found = json.loads(probe.strip().splitlines()[-1])
    assert Path(found["module"]).is_relative_to(venv), found
    assert found["version"] != "dev", found
    assert found["casebook"] is not None, "demo casebook missing from the wheel"
    assert Path(found["casebook"]).name == "demo_casebook", found
    assert Path(found["casebook"]).is_relative_to(venv), found
    assert found["cases"] > 0, found

    # The container build and its kernel provisioner come with the wheel: the Containerfile, the
    # requirements from pins.json, and the provisioner registered for jupyter_client.
    container = _run(
        [
            python,
            "-c",
            "import json, jupyterlab_junobench.container as c, importlib.metadata as md;"
            "eps = {e.name: e.value for e in md.entry_points(group='jupyter_client.kernel_provisioners')};"
            "print(json.dumps({'from': c.containerfile_text().splitlines()[-1] and 'FROM ${BASE}' in"
            " c.containerfile_text(), 'reqs': c.image_requirements(c.load_pins(), True),"
            " 'provisioner': eps.get('junobench-container'), 'forking': eps.get('junobench-forking')}))",
        ],
        env,
        work,
    )
    found = json.loads(container.strip().splitlines()[-1])
    assert found["from"] is True, found
    assert "numpy==1.26.4" in found["reqs"] and found["reqs"][-1] == "ipykernel", found
    assert found["provisioner"] == "jupyterlab_junobench.container:ContainerProvisioner", found
    # So does the provisioner that forks the pinned kernel's kernels (forkserver.py).
    assert found["forking"] == "jupyterlab_junobench.forkserver:ForkingProvisioner", found

    # Finally the installed server, with only the installed config, serves our routes.
    _serve_and_check(jupyter, env, tmp_path)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve_and_check(jupyter: str, env: dict[str, str], tmp_path: Path) -> None:
    import time
    import urllib.request

    root = tmp_path / "root"
    root.mkdir()
    port, token = _free_port(), "junobench-wheel-test"
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [
            jupyter,
            "server",
            "--no-browser",
            "--allow-root",
            f"--port={port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={root}",
        ],
        env=env,
        cwd=root,
        stdout=log,
        stderr=subprocess.STDOUT,
    )

    def get(route: str, method: str = "GET") -> dict[str, object]:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/{route}",
            headers={"Authorization": f"token {token}"},
            method=method,
            data=b"" if method == "POST" else None,
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read().decode())

    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                get("api/status")
                break
            except OSError:
                assert server.poll() is None, (tmp_path / "server.log").read_text()
                assert time.monotonic() < deadline, (tmp_path / "server.log").read_text()
                time.sleep(0.3)
        info = get("junobench/info")
        assert info["tcp_nodelay"] is True and info["demo_available"] is True, info
        demo = get("junobench/demo-casebook", method="POST")
        assert demo["created"] is True and demo["cases"] > 0, demo
        assert (root / str(demo["path"]) / "benchmark_desc.xlsx").is_file()
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
