"""When, where and how a benchmark ran: the ``meta`` of its JSON output.

The docs' numbers page (docs/_ext/junobench_pages.py) prints each figure with this date, machine
and command, so that no figure is kept by hand.
"""

from __future__ import annotations

import json
import os
import platform
import shlex
import sys
from datetime import datetime, timezone
from pathlib import Path


def machine() -> str:
    """This machine in one line: cores, CPU model, memory, system."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kb / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    cpu = f"{os.cpu_count()} cores" + (f" ({model})" if model else "")
    return f"{cpu}{memory}, {platform.system()} {platform.release()}"


def meta(argv: list[str] | None = None, program: str = "python") -> dict[str, object]:
    """The date (UTC), the machine, its load average and the command that ran (``program`` and ``argv``)."""
    args = sys.argv if argv is None else argv
    try:
        load = [round(x, 1) for x in os.getloadavg()]
    except OSError:
        load = None
    return {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "load": load,
        "command": " ".join(shlex.quote(a) for a in [program, *args]),
    }


if __name__ == "__main__":
    # For a benchmark in another language: python scripts/bench_meta.py <program> <its arguments>...
    print(json.dumps(meta(sys.argv[2:], program=sys.argv[1])))
