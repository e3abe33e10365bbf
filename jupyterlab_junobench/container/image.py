"""The JunoBench image: built from ``pins.json`` and the ``Containerfile`` beside the package, once per inputs."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..pins import drift, drift_line, load_pins, pins_for, probe_code, probe_result, requirements
from .engine import ContainerError, Engine, short_id

# The image's repository name and the tag `build` moves to the newest build.
IMAGE_REPOSITORY = "junobench"
DEFAULT_IMAGE = f"{IMAGE_REPOSITORY}:latest"
# The offline base made from Debian's packages (`--base debian`).
DEBIAN_BASE = f"{IMAGE_REPOSITORY}-base:bookworm"
DEBIAN_SUITE = "bookworm"
DEBIAN_PACKAGES = ("python3", "python3-venv", "ca-certificates")
# The base of the JunoBench construction repository's docker/Dockerfile.
UPSTREAM_BASE = "python:3.10-slim"

# Labels on images (set by the Containerfile).
LABEL_KEY = "org.junobench.key"
LABEL_PINS = "org.junobench.pins"

# The Python inside the image (the Containerfile's venv).
IMAGE_PYTHON = "/opt/junobench/bin/python"


def containerfile_text() -> str:
    """The Containerfile shipped with the package."""
    return resources.files("jupyterlab_junobench").joinpath("Containerfile").read_text("utf-8")


def image_requirements(pins: dict[str, Any], minimal: bool) -> list[str]:
    """The pip requirements of the image: the kernel's, from pins.json."""
    return requirements(pins, minimal)


def build_key(containerfile: str, reqs: Sequence[str], base_id: str, find_links: Sequence[str]) -> str:
    """What makes two builds the same: the Containerfile, the requirements, the base and the wheels offered."""
    digest = hashlib.sha256()
    for part in (containerfile, "\n".join(reqs), base_id, "\n".join(sorted(find_links))):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def debian_base(engine: Engine, progress: Any = print) -> str:
    """The offline base image (mmdebstrap of Debian's python3, imported); built once, then reused."""
    found = engine.image_id(DEBIAN_BASE)
    if found:
        progress(f"base: {DEBIAN_BASE} is present ({short_id(found)})")
        return DEBIAN_BASE
    if not shutil.which("mmdebstrap"):
        raise ContainerError(
            "the offline base needs mmdebstrap (on Debian: apt-get install mmdebstrap), "
            f"or pass --base with an image that has python3 and venv (the benchmark's is {UPSTREAM_BASE})"
        )
    with tempfile.TemporaryDirectory(prefix="junobench-base-") as tmp:
        tar = Path(tmp) / "base.tar"
        progress(f"base: mmdebstrap {DEBIAN_SUITE} with {', '.join(DEBIAN_PACKAGES)} (about a minute)")
        argv = [
            "mmdebstrap",
            "--variant=minbase",
            f"--include={','.join(DEBIAN_PACKAGES)}",
            DEBIAN_SUITE,
            str(tar),
        ]
        started = time.monotonic()
        out = subprocess.run(argv, capture_output=True, text=True)
        if out.returncode != 0:
            raise ContainerError(f"mmdebstrap failed (exit code {out.returncode}): {out.stderr.strip()[-800:]}")
        progress(f"base: made in {time.monotonic() - started:.0f} s; importing as {DEBIAN_BASE}")
        engine.run(["import", str(tar), DEBIAN_BASE], timeout=600)
    return DEBIAN_BASE


def choose_base(engine: Engine, base: str, progress: Any = print) -> str:
    """The base image: ``debian`` (offline), an image reference, or ``auto`` (the benchmark's if it can be had)."""
    if base == "debian":
        return debian_base(engine, progress)
    if base != "auto":
        if engine.image_id(base) is None:
            progress(f"base: pulling {base}")
            engine.stream(["pull", base], f"pulling {base}")
        return base
    if engine.image_id(UPSTREAM_BASE) is not None:
        return UPSTREAM_BASE
    pulled = engine.run(["pull", UPSTREAM_BASE], check=False, timeout=900)
    if pulled.returncode == 0:
        return UPSTREAM_BASE
    reason = (pulled.stderr.strip().splitlines() or ["no registry"])[-1][:200]
    progress(f"base: {UPSTREAM_BASE} cannot be pulled here ({reason}); using the offline Debian base")
    return debian_base(engine, progress)


@dataclass
class BuildResult:
    """What `build` made or found."""

    image: str
    image_id: str
    base: str
    built: bool
    key: str
    differences: list[str]


def probe_image(engine: Engine, image: str) -> dict[str, Any]:
    """Python version and installed versions of the pinned distributions inside the image."""
    code = probe_code(pins_for(load_pins(), minimal=False))
    out = engine.run(["run", "--rm", "--network", "none", image, IMAGE_PYTHON, "-c", code], timeout=300)
    return probe_result(out.stdout)


def benchmark_differences(found: dict[str, Any], base: str, pins: dict[str, Any]) -> list[str]:
    """Lines saying how an image differs from the JunoBench container (base, Python, each library)."""
    lines: list[str] = []
    if base != UPSTREAM_BASE:
        lines.append(f"base: {base} (the benchmark's is {UPSTREAM_BASE})")
    pinned_python = pins["python"]["pinned"]
    if not str(found.get("python", "")).startswith(pinned_python + "."):
        lines.append(f"Python {found.get('python')} (the benchmark's is {pinned_python})")
    versions = found.get("versions", {})
    lines += [drift_line(d, "pinned") for d in drift(versions, pins_for(pins, minimal=False), benchmark=True)]
    return lines


def build(
    engine: Engine,
    base: str = "auto",
    minimal: bool = False,
    tag: str = DEFAULT_IMAGE,
    find_links: Sequence[str] = (),
    ca_bundle: str | None = None,
    progress: Any = print,
) -> BuildResult:
    """Build the image, or find the one built from the same inputs; returns what it made or found."""
    pins = load_pins()
    reqs = image_requirements(pins, minimal)
    progress(f"[1/3] base image ({base})")
    base_ref = choose_base(engine, base, progress)
    base_id = engine.image_id(base_ref) or base_ref
    text = containerfile_text()
    links = [str(Path(d).resolve()) for d in find_links if d and Path(d).is_dir()]
    key = build_key(text, reqs, base_id, links)
    keyed = f"{IMAGE_REPOSITORY}:{key}"
    existing = engine.image_id(keyed)
    built = False
    if existing and engine.image_labels(keyed).get(LABEL_KEY) == key:
        progress(f"[2/3] image {keyed} is up to date ({short_id(existing)}): nothing to build")
    else:
        progress(
            f"[2/3] building {keyed} on {base_ref} with {len(reqs)} requirements ({'minimal' if minimal else 'full'} pins)"
        )
        with tempfile.TemporaryDirectory(prefix="junobench-image-") as ctx:
            Path(ctx, "Containerfile").write_text(text, "utf-8")
            Path(ctx, "requirements.txt").write_text("\n".join(reqs) + "\n", "utf-8")
            argv = [
                "build",
                "--network",
                "host",
                "-f",
                str(Path(ctx, "Containerfile")),
                "--build-arg",
                f"BASE={base_ref}",
                "--build-arg",
                f"JUNOBENCH_KEY={key}",
                "--build-arg",
                f"JUNOBENCH_PINS={'minimal' if minimal else 'full'}",
                "-t",
                keyed,
            ]
            if engine.name == "podman":
                # pip inside the build trusts the host's certificate authorities (a proxy's included).
                if ca_bundle and Path(ca_bundle).is_file():
                    argv += ["-v", f"{ca_bundle}:/etc/ssl/certs/ca-certificates.crt:ro"]
                for i, folder in enumerate(links):
                    argv += ["-v", f"{folder}:/wheels/{i}:ro"]
                if links:
                    argv += ["--build-arg", "FIND_LINKS=" + " ".join(f"/wheels/{i}" for i in range(len(links)))]
            elif links:
                progress("note: docker builds cannot mount wheel folders; --find-links is ignored")
            argv.append(ctx)
            started = time.monotonic()
            engine.stream(argv, f"building {keyed}")
            progress(f"built in {time.monotonic() - started:.0f} s")
        built = True
    engine.run(["tag", keyed, tag])
    image_id = engine.image_id(tag) or ""
    progress(f"[3/3] checking the libraries inside {tag}")
    found = probe_image(engine, tag)
    diffs = benchmark_differences(found, base_ref, pins)
    return BuildResult(image=tag, image_id=image_id, base=base_ref, built=built, key=key, differences=diffs)
