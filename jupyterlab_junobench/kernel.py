"""Create a ``junobench`` Jupyter kernel with the JunoBench benchmark pins.

One command builds a virtual environment with the closest pins this Python
can install (``pins.json``; the differences from the JunoBench container are
explained in docs/environment.md) and registers it as the kernelspec
``junobench`` ("JunoBench (benchmark pins)"), which the replay prefers::

    python -m jupyterlab_junobench.kernel install [--prefix DIR] [--minimal] [--python PY]
    python -m jupyterlab_junobench.kernel install --container [IMAGE] [--engine podman|docker]
    python -m jupyterlab_junobench.kernel check [--prefix DIR] [--minimal]
    python -m jupyterlab_junobench.kernel requirements [--minimal]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from collections import deque
from pathlib import Path
from typing import Any
from collections.abc import Iterable, Sequence

from . import container
from .forkserver import provisioner_metadata
from .launcher import with_launcher
from .pins import Pin, drift, drift_line, load_pins, pins_for, probe_code, probe_result, requirements

KERNEL_NAME = "junobench"
DISPLAY_NAME = "JunoBench (benchmark pins)"
# The marker written into the environment: which pins it was built with.
MARKER = "junobench-kernel.json"


class KernelEnvError(RuntimeError):
    """A step of building or registering the kernel failed; the message says which."""


def default_prefix() -> Path:
    """Where the environment goes unless ``--prefix`` says: the user's Jupyter data dir."""
    from jupyter_core.paths import jupyter_data_dir

    return Path(jupyter_data_dir()) / "junobench" / "venv"


def venv_python(prefix: Path) -> Path:
    """The interpreter of a virtual environment."""
    if os.name == "nt":
        return prefix / "Scripts" / "python.exe"
    return prefix / "bin" / "python"


def resolve_python(python: str | None) -> str:
    """The base interpreter for the venv: ``--python`` (a path or a name on PATH) or this one."""
    if not python:
        return sys.executable
    found = python if os.path.sep in python else shutil.which(python)
    if not found or not os.path.exists(found):
        raise KernelEnvError(f"--python {python}: no such interpreter (not a file, not on PATH)")
    return found


def python_version(python: str) -> str:
    """``X.Y.Z`` of an interpreter."""
    try:
        out = subprocess.run(
            [python, "-c", "import sys; print('.'.join(map(str, sys.version_info[:3])))"],
            check=True,
            capture_output=True,
            text=True,
        )
    except (OSError, subprocess.CalledProcessError) as e:
        raise KernelEnvError(f"{python} does not run: {e}") from e
    return out.stdout.strip()


def _run(args: Sequence[str | Path], what: str, echo: bool = True) -> list[str]:
    """Run a command, echoing its output; returns its last lines; raises naming ``what``."""
    print(f"$ {' '.join(str(a) for a in args)}", flush=True)
    tail: deque[str] = deque(maxlen=200)
    try:
        proc = subprocess.Popen(
            [str(a) for a in args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
    except OSError as e:
        raise KernelEnvError(f"{what}: cannot run {args[0]}: {e}") from e
    assert proc.stdout is not None
    for line in proc.stdout:
        tail.append(line.rstrip("\n"))
        if echo:
            print(line, end="", flush=True)
    code = proc.wait()
    if code != 0:
        raise KernelEnvError(f"{what} failed (exit code {code})", list(tail))
    return list(tail)


_PIP_PACKAGE_PATTERNS = [
    re.compile(r"No matching distribution found for ([^\s;]+)"),
    re.compile(r"Could not find a version that satisfies the requirement ([^\s;]+)"),
    re.compile(r"Cannot install (.+?) because these package versions have conflicting"),
    re.compile(r"Failed building wheel for ([^\s;]+)"),
    re.compile(r"Could not build wheels for ([^\s,;]+)"),
    re.compile(r"Failed to build ([^\n]+)"),
]


def failed_package(pip_output: Iterable[str]) -> str | None:
    """The package pip names in its failure output, if it names one."""
    text = "\n".join(pip_output)
    for pattern in _PIP_PACKAGE_PATTERNS:
        match = pattern.search(text)
        if match:
            return match.group(1).strip()
    return None


def pip_install(python: Path, reqs: list[str]) -> None:
    """``pip install`` the requirements; a failure names the package pip could not install."""
    try:
        _run([python, "-m", "pip", "install", "--progress-bar", "off", *reqs], "pip install")
    except KernelEnvError as e:
        tail = e.args[1] if len(e.args) > 1 else []
        package = failed_package(tail)
        last = "\n".join(line for line in tail[-15:] if line.strip())
        culprit = f"could not install {package}" if package else "failed"
        raise KernelEnvError(
            f"pip install {culprit} (requirements: {' '.join(reqs)}).\n"
            f"Last lines of pip's output:\n{last}"
        ) from None


def make_venv(base_python: str, prefix: Path) -> Path:
    """Create (or reuse) the virtual environment at ``prefix``; returns its python."""
    py = venv_python(prefix)
    if py.exists():
        print(f"Reusing the environment at {prefix}", flush=True)
        return py
    if prefix.exists() and any(prefix.iterdir()):
        raise KernelEnvError(
            f"--prefix {prefix}: the folder exists, is not empty and is not a virtual environment"
        )
    _run([base_python, "-m", "venv", prefix], f"creating the virtual environment {prefix}")
    if not py.exists():
        raise KernelEnvError(f"{base_python} -m venv {prefix} made no {py}")
    return py


def kernelspec_target(args: argparse.Namespace) -> list[str]:
    """The ``ipykernel install`` location flags: user dir, or a prefix (default: this environment)."""
    if args.user:
        return ["--user"]
    return ["--prefix", str(Path(args.kernel_prefix).resolve() if args.kernel_prefix else sys.prefix)]


def register_kernelspec(py: Path, prefix: Path, args: argparse.Namespace, minimal: bool) -> Path:
    """Register the environment's ipykernel as the ``junobench`` kernelspec; returns its folder."""
    tail = _run(
        [
            py,
            "-m",
            "ipykernel",
            "install",
            "--name",
            args.name,
            "--display-name",
            args.display_name,
            *kernelspec_target(args),
        ],
        "registering the kernelspec",
    )
    match = re.search(r"Installed kernelspec \S+ in (.+)$", "\n".join(tail), re.M)
    if not match:
        raise KernelEnvError("ipykernel install did not say where it put the kernelspec")
    spec_dir = Path(match.group(1).strip())
    spec_file = spec_dir / "kernel.json"
    spec = json.loads(spec_file.read_text("utf-8"))
    # ipykernel_launcher, but a kernel whose IOPub port was taken exits instead of hanging (launcher.py).
    spec["argv"] = with_launcher(spec["argv"])
    # Matplotlib must not look for a display in a headless replay.
    spec.setdefault("env", {}).setdefault("MPLBACKEND", "Agg")
    # The probe reports which environment ran a case (container, pinned kernel or server Python).
    spec["env"]["JUNOBENCH_ENVIRONMENT"] = "pinned"
    # Fresh kernels are forks of a process that has loaded ipykernel, numpy, pandas and scikit-learn
    # once (forkserver.py); any kernel that cannot be forked starts as usual.
    spec.setdefault("metadata", {})["kernel_provisioner"] = provisioner_metadata()
    spec["metadata"]["junobench"] = {
        "environment": "pinned",
        "venv": str(prefix),
        "pins": "minimal" if minimal else "full",
    }
    spec_file.write_text(json.dumps(spec, indent=1), "utf-8")
    return spec_dir


def probe(py: Path, pins: list[Pin]) -> dict[str, Any]:
    """Python version, prefix and installed versions of the pinned distributions in ``py``."""
    out = subprocess.run([str(py), "-c", probe_code(pins)], capture_output=True, text=True)
    if out.returncode != 0:
        raise KernelEnvError(f"{py} could not report its versions: {out.stderr.strip()}")
    return probe_result(out.stdout)


def differences(found: dict[str, Any], pins: list[Pin]) -> list[str]:
    """Lines for the libraries whose installed version is not the local pin."""
    return [drift_line(d, "local pin") for d in drift(found["versions"], pins)]


def install_container(args: argparse.Namespace) -> int:
    """``install --container``: the kernelspec of a kernel inside the JunoBench image."""
    try:
        engine = container.pick_engine(args.engine, container.engine_env_from())
        where = container.install_kernelspec(
            args.container,
            engine,
            prefix=None if args.user else (str(Path(args.kernel_prefix).resolve()) if args.kernel_prefix else sys.prefix),
            user=args.user,
            name=args.name or container.KERNEL_NAME,
            display_name=args.display_name or container.DISPLAY_NAME,
        )
    except container.ContainerError as e:
        raise KernelEnvError(str(e)) from None
    name = args.name or container.KERNEL_NAME
    print(f"Registered the kernelspec {name!r} ({args.display_name or container.DISPLAY_NAME}) in {where}")
    print(f"Its kernels run in the image {args.container} on {engine.name}.")
    return 0


def install(args: argparse.Namespace) -> int:
    """``install``: venv, pip install, kernelspec, then a check of the versions."""
    if args.container:
        return install_container(args)
    args.name = args.name or KERNEL_NAME
    args.display_name = args.display_name or DISPLAY_NAME
    pins = load_pins()
    minimal = args.minimal
    base = resolve_python(args.python)
    version = python_version(base)
    local_minor = pins["python"]["local"]
    if not version.startswith((local_minor + ".", pins["python"]["pinned"] + ".")):
        print(
            f"warning: {base} is Python {version}; the pins were chosen for Python "
            f"{pins['python']['pinned']} (the benchmark) and {local_minor} (local): "
            "some may have no wheel for it.",
            file=sys.stderr,
        )
    prefix = Path(args.prefix).resolve() if args.prefix else default_prefix()
    prefix.parent.mkdir(parents=True, exist_ok=True)
    reqs = requirements(pins, minimal)
    print(
        f"Building the {'minimal ' if minimal else ''}junobench kernel environment at {prefix}"
        f" with Python {version} ({base})",
        flush=True,
    )
    py = make_venv(base, prefix)
    pip_install(py, reqs)
    selected = pins_for(pins, minimal)
    skipped = [p for p in selected if not p.requirement]
    for p in skipped:
        print(f"not installed: {p.name} {p.pinned}: {p.reason}", file=sys.stderr)
    found = probe(py, selected)
    (prefix / MARKER).write_text(
        json.dumps(
            {"pins": "minimal" if minimal else "full", "requirements": reqs, "found": found}, indent=1
        ),
        "utf-8",
    )
    spec_dir = register_kernelspec(py, prefix, args, minimal)
    drift = differences(found, selected)
    print(f"Registered the kernelspec {args.name!r} ({args.display_name}) in {spec_dir}")
    print(f"Its Python: {py} (Python {found['python']})")
    if drift:
        print("These versions differ from the local pins:\n  " + "\n  ".join(drift))
        return 1
    print(f"All {len(selected) - len(skipped)} pinned libraries are at their local pins.")
    return 0


def check(args: argparse.Namespace) -> int:
    """``check``: compare an existing environment with the local pins."""
    prefix = Path(args.prefix).resolve() if args.prefix else default_prefix()
    py = venv_python(prefix)
    if not py.exists():
        raise KernelEnvError(f"no junobench environment at {prefix} (run the install command first)")
    selected = pins_for(load_pins(), args.minimal)
    found = probe(py, selected)
    drift = differences(found, selected)
    print(f"{prefix}: Python {found['python']}")
    for line in drift:
        print(f"  {line}")
    print(f"{len(drift)} difference(s) from the local pins.")
    return 1 if drift else 0


def parser() -> argparse.ArgumentParser:
    """The command line."""
    p = argparse.ArgumentParser(
        prog="python -m jupyterlab_junobench.kernel",
        description="Build and register the 'junobench' kernel with the JunoBench benchmark pins.",
    )
    sub = p.add_subparsers(dest="command", required=True)
    inst = sub.add_parser("install", help="create the environment and register the kernelspec")
    inst.add_argument("--prefix", help="the virtual environment's folder (default: <jupyter data dir>/junobench/venv)")
    inst.add_argument(
        "--minimal",
        action="store_true",
        help="only the light libraries (numpy, pandas, scikit-learn, matplotlib, seaborn, statsmodels, lightgbm, ...)",
    )
    inst.add_argument("--python", help="base interpreter for the environment (default: this one)")
    where = inst.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="register the kernelspec for the user")
    where.add_argument("--sys-prefix", action="store_true", help="register it in this environment (the default)")
    where.add_argument("--kernel-prefix", help="register it under this prefix (<prefix>/share/jupyter/kernels)")
    inst.add_argument(
        "--container",
        nargs="?",
        const=container.DEFAULT_IMAGE,
        default=None,
        metavar="IMAGE",
        help="register a kernel inside the JunoBench image instead (default image: junobench:latest, made by "
        "python -m jupyterlab_junobench.container build); no environment is built",
    )
    inst.add_argument(
        "--engine", choices=["podman", "docker"], help="with --container: the engine (default: podman, else docker)"
    )
    inst.add_argument(
        "--name", default=None, help=f"kernelspec name (default: {KERNEL_NAME}, or junobench-container with --container)"
    )
    inst.add_argument("--display-name", default=None, help="kernelspec display name")
    chk = sub.add_parser("check", help="compare an existing environment with the local pins")
    chk.add_argument("--prefix", help="the virtual environment's folder")
    chk.add_argument("--minimal", action="store_true", help="only check the light libraries")
    req = sub.add_parser("requirements", help="print the pip requirements the install uses")
    req.add_argument("--minimal", action="store_true")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = parser().parse_args(argv)
    try:
        if args.command == "install":
            return install(args)
        if args.command == "check":
            return check(args)
        print("\n".join(requirements(load_pins(), args.minimal)))
        return 0
    except KernelEnvError as e:
        print(f"junobench kernel: error: {e.args[0]}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
