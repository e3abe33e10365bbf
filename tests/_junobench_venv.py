"""The minimal ``junobench`` kernel environment, built once per test session.

Both tests/test_kernel_env.py and tests/test_gateway.py use it, so a pytest
run installs it once: ``python -m jupyterlab_junobench.kernel install --minimal``
into a temporary folder (or into ``$JUNOBENCH_TEST_VENV`` when set, which a
later run reuses), with its kernelspec under a temporary prefix so the test
never touches the real Jupyter paths.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class KernelEnv:
    """Where the test kernel environment and its kernelspec live."""

    venv: Path
    kernel_prefix: Path
    install_output: str

    @property
    def jupyter_path(self) -> Path:
        """The Jupyter data folder holding ``kernels/junobench``."""
        return self.kernel_prefix / "share" / "jupyter"

    @property
    def python(self) -> Path:
        """The environment's interpreter."""
        return self.venv / "bin" / "python"


_built: KernelEnv | None = None


def minimal_kernel_env() -> KernelEnv:
    """Build (once per process) the minimal junobench environment and kernelspec."""
    global _built
    if _built is not None:
        return _built
    work = Path(tempfile.mkdtemp(prefix="junobench-kernel-"))
    atexit.register(shutil.rmtree, work, True)
    venv = Path(os.environ["JUNOBENCH_TEST_VENV"]) if os.environ.get("JUNOBENCH_TEST_VENV") else work / "venv"
    kernel_prefix = work / "kernel-prefix"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "jupyterlab_junobench.kernel",
            "install",
            "--minimal",
            "--prefix",
            str(venv),
            "--kernel-prefix",
            str(kernel_prefix),
        ],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    output = result.stdout + result.stderr
    if result.returncode != 0:
        raise AssertionError(f"the minimal kernel install failed (exit {result.returncode}):\n{output[-4000:]}")
    _built = KernelEnv(venv=venv.resolve(), kernel_prefix=kernel_prefix, install_output=output)
    return _built
