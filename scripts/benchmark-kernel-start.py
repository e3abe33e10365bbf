"""Fresh kernels of the pinned kernelspec, forked from a fork server and started as usual, side by side.

    python scripts/benchmark-kernel-start.py [--starts 8] [--json FILE]

For the `junobench` kernelspec of `.pinned-kernel/` (installed first when missing, its environment
in $JUNOBENCH_TEST_VENV or .junobench-venv, as scripts/benchmark-container.py does) and for the same kernelspec without its
`metadata.kernel_provisioner` (a copy in a temporary folder), starts --starts kernels one after the
other, each running the imports of a typical case (`import numpy, pandas, sklearn`) as its first
cell, and prints per kernel: the time from the start request to that cell's reply (median and
slowest) and the machine's CPU-seconds (all processes, from /proc/stat). The first forked kernel
also pays for its fork server; the table says so. A benchmark prints numbers; it does not pass or
fail on them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_meta import meta  # scripts/, on the path when run as python scripts/<this>.py

REPO = Path(__file__).resolve().parent.parent
CELL = "import numpy, pandas, sklearn"
# The table it prints, per kind of kernel: (label, key in the JSON); the docs' numbers page shows the same.
ROWS = [
    ("first kernel (s)", "first_s"),
    ("first kernel (machine CPU-s)", "first_cpu_s"),
    ("later kernels, median (s)", "median_s"),
    ("later kernels, slowest (s)", "slowest_s"),
    ("later kernels, median (machine CPU-s)", "median_cpu_s"),
]


def machine_cpu() -> float:
    """CPU-seconds the machine has spent (every process, every core) since it started."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


async def starts(name: str, n: int, cwd: Path) -> list[tuple[float, float]]:
    """(seconds, machine CPU-seconds) of each of ``n`` kernels: start, first cell, shutdown."""
    from jupyter_client.manager import AsyncKernelManager

    out = []
    for _ in range(n):
        km = AsyncKernelManager(kernel_name=name)
        cpu0, t0 = machine_cpu(), time.perf_counter()
        await km.start_kernel(cwd=str(cwd), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kc = km.client()
        kc.start_channels()
        try:
            await kc.wait_for_ready(timeout=180)
            reply = await kc.execute_interactive(CELL, timeout=180)
            if reply["content"]["status"] != "ok":
                raise RuntimeError(f"{name}: {CELL!r} failed in the kernel: {reply['content']}")
            elapsed = time.perf_counter() - t0
        finally:
            kc.stop_channels()
            await km.shutdown_kernel(now=False)
        out.append((elapsed, machine_cpu() - cpu0))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=8)
    parser.add_argument("--json", default=str(REPO / "junobench-bench-kernel-start.json"))
    args = parser.parse_args()
    pinned = REPO / ".pinned-kernel" / "share" / "jupyter"
    if not (pinned / "kernels" / "junobench" / "kernel.json").is_file():
        venv = os.environ.get("JUNOBENCH_TEST_VENV") or str(REPO / ".junobench-venv")
        install = [sys.executable, "-m", "jupyterlab_junobench.kernel", "install", "--minimal"]
        subprocess.run([*install, "--prefix", venv, "--kernel-prefix", str(REPO / ".pinned-kernel")], check=True)
    plain = Path(tempfile.mkdtemp(prefix="junobench-plain-kernel-"))
    try:
        shutil.copytree(pinned / "kernels" / "junobench", plain / "kernels" / "junobench-plain")
        spec_file = plain / "kernels" / "junobench-plain" / "kernel.json"
        spec = json.loads(spec_file.read_text())
        provisioner = spec.get("metadata", {}).pop("kernel_provisioner", None)
        if provisioner is None:
            print(f"{pinned}: the kernelspec names no provisioner; nothing to compare", file=sys.stderr)
            return 1
        spec_file.write_text(json.dumps(spec))
        os.environ["JUPYTER_PATH"] = os.pathsep.join([str(pinned), str(plain), os.environ.get("JUPYTER_PATH", "")])
        results = {}
        for label, name in (("started as usual", "junobench-plain"), ("forked", "junobench")):
            runs = asyncio.run(starts(name, args.starts, REPO))
            results[label] = {
                "first_s": runs[0][0],
                "first_cpu_s": runs[0][1],
                "median_s": statistics.median(r[0] for r in runs[1:]),
                "slowest_s": max(r[0] for r in runs[1:]),
                "median_cpu_s": statistics.median(r[1] for r in runs[1:]),
            }
    finally:
        from jupyterlab_junobench.forkserver import REGISTRY

        REGISTRY.stop_all()
        shutil.rmtree(plain, ignore_errors=True)
    print(f"\nstart, `{CELL}`, shutdown; {args.starts} kernels each (the first forked one starts its fork server)")
    print(f"{'':40}" + "".join(f"{label:>20}" for label in results))
    for title, key in ROWS:
        print(f"{title:40}" + "".join(f"{results[label][key]:>20.2f}" for label in results))
    # When, where and how: the docs' numbers page prints each figure with them.
    Path(args.json).write_text(json.dumps({**results, "meta": meta()}, indent=1))
    print(f"(written to {args.json})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
