"""``python -m jupyterlab_junobench.kernel``: the junobench kernel environment.

The install test builds a real virtual environment with the minimal pins
(a few minutes the first time; pip's cache makes later runs fast) once per
session (tests/_junobench_venv.py) and runs a real kernel from it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from jupyter_client.manager import KernelManager

from _junobench_venv import minimal_kernel_env
from jupyterlab_junobench import kernel as jk
from jupyterlab_junobench.launcher import LAUNCHER

PINS = jk.load_pins()
NUMPY_PIN = next(lib["pinned"] for lib in PINS["libraries"] if lib["name"] == "numpy")


def test_requirements_follow_the_pins() -> None:
    minimal = jk.requirements(PINS, minimal=True)
    full = jk.requirements(PINS, minimal=False)
    assert f"numpy=={NUMPY_PIN}" in minimal
    assert minimal[-1] == "ipykernel"
    assert not any(r.startswith(("tensorflow", "torch", "keras")) for r in minimal)
    # The documented local substitutes, not the container's builds.
    assert "tensorflow-cpu==2.17.0" in full and "torch==2.13.0" in full
    assert not any(r.startswith("torchvision") for r in full)
    # Every library that differs locally says why.
    for lib in PINS["libraries"]:
        if "local" in lib:
            assert len(lib["local"]["reason"]) > 20, lib["name"]


@pytest.mark.parametrize(
    "output, package",
    [
        (["ERROR: Could not find a version that satisfies the requirement numpy==0.0.1 (from versions: 1.0)",
          "ERROR: No matching distribution found for numpy==0.0.1"], "numpy==0.0.1"),
        (["ERROR: Cannot install pandas==2.1.4 and numpy==1.0 because these package versions have conflicting dependencies."],
         "pandas==2.1.4 and numpy==1.0"),
        (["  ERROR: Failed building wheel for fasttext", "Failed to build fasttext"], "fasttext"),
        (["ERROR: something else entirely"], None),
    ],
)
def test_failed_package_is_named(output: list[str], package: str | None) -> None:
    assert jk.failed_package(output) == package


def test_a_pip_failure_names_the_package(tmp_path: Path) -> None:
    py = jk.make_venv(sys.executable, tmp_path / "venv")
    with pytest.raises(jk.KernelEnvError) as info:
        jk.pip_install(py, ["junobench-no-such-package-xyz==1.0"])
    assert "could not install junobench-no-such-package-xyz==1.0" in info.value.args[0]


def test_bad_arguments_get_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert jk.main(["install", "--python", "no-such-python-3.99"]) == 2
    assert "--python no-such-python-3.99: no such interpreter" in capsys.readouterr().err
    occupied = tmp_path / "occupied"
    occupied.mkdir()
    (occupied / "notes.txt").write_text("mine")
    assert jk.main(["install", "--minimal", "--prefix", str(occupied), "--kernel-prefix", str(tmp_path)]) == 2
    assert "is not empty and is not a virtual environment" in capsys.readouterr().err
    assert jk.main(["check", "--prefix", str(tmp_path / "none")]) == 2
    assert "no junobench environment" in capsys.readouterr().err


@pytest.mark.kernel_env
def test_minimal_install_registers_a_working_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    env = minimal_kernel_env()
    assert "Registered the kernelspec 'junobench'" in env.install_output, env.install_output[-2000:]

    monkeypatch.setenv("JUPYTER_PATH", str(env.jupyter_path))
    listed = subprocess.run(
        [sys.executable, "-m", "jupyter", "kernelspec", "list", "--json"],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "JUPYTER_PATH": str(env.jupyter_path)},
    )
    specs = json.loads(listed.stdout)["kernelspecs"]
    assert "junobench" in specs, sorted(specs)
    spec = specs["junobench"]["spec"]
    assert spec["display_name"] == "JunoBench (benchmark pins)"
    # argv[0] is the venv's own python (a symlink to the base one: not resolved).
    assert Path(spec["argv"][0]).parent.parent == env.venv, spec["argv"]
    assert spec["metadata"]["junobench"]["pins"] == "minimal"
    # Started through the launcher (a kernel whose IOPub port was taken exits): it must work in the venv.
    assert spec["argv"][-4:] == ["-c", LAUNCHER, "-f", "{connection_file}"], spec["argv"][:3]

    # Its kernels are forks of a fork server that has loaded the heavy libraries (forkserver.py).
    assert spec["metadata"]["kernel_provisioner"]["provisioner_name"] == "junobench-forking"

    km = KernelManager(kernel_name="junobench")
    km.start_kernel()
    try:
        assert km.provisioner is not None and km.provisioner.forked
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=120)
        out: list[str] = []
        reply = kc.execute_interactive(
            "import sys, numpy, sklearn; print(numpy.__version__, sklearn.__version__, sys.prefix)",
            timeout=120,
            output_hook=lambda m: out.append(m["content"].get("text", "")) if m["msg_type"] == "stream" else None,
        )
        kc.stop_channels()
    finally:
        km.shutdown_kernel(now=True)
    assert reply["content"]["status"] == "ok"
    numpy_version, sklearn_version, prefix = "".join(out).split()
    assert numpy_version == NUMPY_PIN
    assert sklearn_version == "1.2.2"
    assert Path(prefix).resolve() == env.venv

    # The check subcommand agrees: every minimal library is at its local pin.
    checked = subprocess.run(
        [sys.executable, "-m", "jupyterlab_junobench.kernel", "check", "--minimal", "--prefix", str(env.venv)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "0 difference(s) from the local pins." in checked.stdout
