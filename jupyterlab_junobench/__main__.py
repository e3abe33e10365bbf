"""``python -m jupyterlab_junobench fetch ...``: the fetch (full clone or sparse).

From a terminal or the Node CLI (see :mod:`.fetch`).
"""

from __future__ import annotations

import sys

from .fetch import main


def run(argv: list[str]) -> int:
    """Dispatch the one subcommand there is."""
    if not argv or argv[0] != "fetch":
        print(
            "usage: python -m jupyterlab_junobench fetch <dest> [--source S] [--cases a,b] [--sparse] [--json | --json-lines]",
            file=sys.stderr,
        )
        return 2
    return main(argv[1:])


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run(sys.argv[1:]))
