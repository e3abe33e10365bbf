"""``python -m jupyterlab_junobench.container build|status|sweep``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from .engine import ContainerError, engine_env_from, pick_engine, recognise_refusal, short_id
from .image import DEFAULT_IMAGE, UPSTREAM_BASE, build
from .sweep import kernel_containers, owner_alive, sweep_orphans


def parser() -> argparse.ArgumentParser:
    """The command line."""
    p = argparse.ArgumentParser(
        prog="python -m jupyterlab_junobench.container",
        description="Build the JunoBench container image and manage kernel containers.",
    )
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the image from pins.json (idempotent)")
    b.add_argument("--engine", choices=["podman", "docker"], help="container engine (default: podman, else docker)")
    b.add_argument(
        "--base",
        default="auto",
        help=f"auto ({UPSTREAM_BASE} when it can be had, else debian), debian (offline, from Debian's packages) or an image",
    )
    b.add_argument("--minimal", action="store_true", help="only the light libraries (numpy, pandas, scikit-learn, ...)")
    b.add_argument("--tag", default=DEFAULT_IMAGE, help=f"the tag to give the image (default: {DEFAULT_IMAGE})")
    b.add_argument(
        "--find-links",
        action="append",
        default=None,
        help="a folder of wheels pip may use inside the build (podman; default: $PIP_FIND_LINKS when it is a folder)",
    )
    b.add_argument(
        "--ca-bundle",
        default="/etc/ssl/certs/ca-certificates.crt",
        help="the host's CA bundle, mounted for pip (podman)",
    )
    b.add_argument("--json", action="store_true", help="print the result as JSON")
    for name, text in (
        ("status", "list the kernel containers and the image"),
        ("sweep", "remove kernel containers whose server is gone"),
    ):
        s = sub.add_parser(name, help=text)
        s.add_argument("--engine", choices=["podman", "docker"])
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = parser().parse_args(argv)
    try:
        engine = pick_engine(args.engine, engine_env_from())
        if args.command == "build":
            links = args.find_links
            if links is None:
                links = [d for d in os.environ.get("PIP_FIND_LINKS", "").split() if Path(d).is_dir()]
            result = build(
                engine,
                base=args.base,
                minimal=args.minimal,
                tag=args.tag,
                find_links=links,
                ca_bundle=args.ca_bundle,
                progress=(lambda *_: None) if args.json else print,
            )
            if args.json:
                print(json.dumps(result.__dict__, indent=1))
                return 0
            print(f"image: {result.image} ({short_id(result.image_id)}){'' if result.built else ', already built'}")
            if result.differences:
                print(f"differs from the JunoBench container in {len(result.differences)} way(s):")
                for line in result.differences:
                    print(f"  {line}")
            else:
                print("same base, Python and library versions as the JunoBench container")
            return 0
        if args.command == "sweep":
            removed = sweep_orphans(engine)
            print(f"removed {len(removed)} orphan kernel container(s){': ' + ', '.join(removed) if removed else ''}")
            return 0
        image_id = engine.image_id(DEFAULT_IMAGE)
        print(f"image {DEFAULT_IMAGE}: {short_id(image_id) if image_id else 'not built'}")
        rows = kernel_containers(engine)
        for row in rows:
            alive = "server running" if owner_alive(row["owner"]) else "orphan"
            print(f"  {row['name'].lstrip('/')}  kernel {row['kernel']}  {row['state']}  ({alive})")
        print(f"{len(rows)} kernel container(s)")
        return 0
    except ContainerError as e:
        print(f"junobench container: error: {e}", file=sys.stderr)
        refusal = recognise_refusal(str(e))
        if refusal is not None:
            print(f"junobench container: {refusal.meaning}. To fix it: {refusal.fix}", file=sys.stderr)
        return 2
