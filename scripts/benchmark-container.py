"""The kernel in the JunoBench container against the local pinned kernel, side by side.

    python scripts/benchmark-container.py [--starts 3] [--cells 200] [--json FILE]
                                          [--reuse-verify NAME=REPORT.json]

Measures, for each kernelspec, on real kernels:
  * kernel start: from the start request to the first answered kernel_info (median of --starts);
  * per-cell overhead: the round trip of a trivial cell (`pass`), median and p90 over --cells;
  * restart: one restart until the kernel answers again;
  * verify: `junobench verify demo/casebook --kernel NAME --jobs 2`, wall time and cases passed
    (or, with --reuse-verify NAME=FILE, the time and verdicts of that command's report already run,
    as scripts/test.sh's container verify step does, so the demo is not verified twice).

The kernelspecs come from `.container-kernel/` (python -m jupyterlab_junobench.kernel install
--container --kernel-prefix .container-kernel) and `.pinned-kernel/` (install --minimal
--kernel-prefix .pinned-kernel); a missing one is installed first (the pinned environment goes to
$JUNOBENCH_TEST_VENV or .junobench-venv). A benchmark prints numbers; it does not pass or fail on them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_meta import meta  # scripts/, on the path when run as python scripts/<this>.py

REPO = Path(__file__).resolve().parent.parent
# The table it prints, per kernel: (label, key in the JSON, format); the docs' numbers page shows the same.
ROWS = [
    ("kernel start (median, s)", "start_s", "{:.2f}"),
    ("per trivial cell (median, ms)", "cell_ms", "{:.2f}"),
    ("per trivial cell (p90, ms)", "cell_p90_ms", "{:.2f}"),
    ("restart (s)", "restart_s", "{:.2f}"),
    ("verify demo/casebook, --jobs 2 (s)", "verify_s", "{:.1f}"),
]


def ensure_kernelspecs() -> dict[str, Path]:
    """The Jupyter data folders of the two kernelspecs, installing what is missing."""
    container_dir = REPO / ".container-kernel"
    pinned_dir = REPO / ".pinned-kernel"
    if not (container_dir / "share/jupyter/kernels/junobench-container/kernel.json").is_file():
        subprocess.run(
            [
                sys.executable,
                "-m",
                "jupyterlab_junobench.kernel",
                "install",
                "--container",
                "--kernel-prefix",
                str(container_dir),
            ],
            check=True,
        )
    if not (pinned_dir / "share/jupyter/kernels/junobench/kernel.json").is_file():
        venv = os.environ.get("JUNOBENCH_TEST_VENV") or str(REPO / ".junobench-venv")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "jupyterlab_junobench.kernel",
                "install",
                "--minimal",
                "--prefix",
                venv,
                "--kernel-prefix",
                str(pinned_dir),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return {"junobench-container": container_dir / "share/jupyter", "junobench": pinned_dir / "share/jupyter"}


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]


async def kernel_numbers(name: str, starts: int, cells: int, cwd: Path) -> dict[str, float]:
    """Start, per-cell and restart times of one kernelspec."""
    from jupyter_client.manager import AsyncKernelManager

    start_times: list[float] = []
    per_cell: list[float] = []
    restart = 0.0
    for i in range(starts):
        km = AsyncKernelManager(kernel_name=name)
        started = time.perf_counter()
        await km.start_kernel(cwd=str(cwd), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kc = km.client()
        kc.start_channels()
        try:
            await kc.wait_for_ready(timeout=180)
            start_times.append(time.perf_counter() - started)
            if i == 0:
                for _ in range(10):  # warm-up
                    await kc.execute_interactive("pass", timeout=60)
                for _ in range(cells):
                    t0 = time.perf_counter()
                    await kc.execute_interactive("pass", timeout=60)
                    per_cell.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                await km.restart_kernel(now=False)
                await kc.wait_for_ready(timeout=180)
                restart = time.perf_counter() - t0
        finally:
            kc.stop_channels()
            await km.shutdown_kernel(now=False)
    return {
        "start_s": statistics.median(start_times),
        "cell_ms": statistics.median(per_cell) * 1000,
        "cell_p90_ms": p90(per_cell) * 1000,
        "restart_s": restart,
    }


def verify_numbers(name: str, out: Path) -> dict[str, float]:
    """`junobench verify demo/casebook` with one kernel: wall time and cases passed."""
    started = time.perf_counter()
    run = subprocess.run(
        [
            "node",
            str(REPO / "bin/junobench.js"),
            "verify",
            str(REPO / "demo/casebook"),
            "--kernel",
            name,
            "--jobs",
            "2",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    passed = total = 0
    try:
        report = json.loads(out.read_text())
        cases = report.get("reports", [])
        total = len(cases)
        passed = sum(1 for c in cases if c.get("verdict") == "pass")
    except (OSError, ValueError):
        print(run.stdout[-2000:], run.stderr[-2000:], file=sys.stderr)
    return {"verify_s": wall, "verify_passed": passed, "verify_cases": total, "verify_exit": run.returncode}


def reused_verify_numbers(report_path: Path) -> dict[str, float]:
    """The numbers of a `junobench verify --json` report already written: its time and verdicts."""
    report = json.loads(report_path.read_text())
    cases = report.get("reports", [])
    return {
        "verify_s": float(report["seconds"]),
        "verify_passed": sum(1 for c in cases if c.get("verdict") == "pass"),
        "verify_cases": len(cases),
        "verify_exit": 0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--cells", type=int, default=200)
    parser.add_argument("--json", default=str(REPO / "junobench-bench-container.json"))
    parser.add_argument(
        "--reuse-verify",
        action="append",
        default=[],
        metavar="NAME=REPORT",
        help="take kernel NAME's verify numbers from this `junobench verify --json` report (same command)",
    )
    args = parser.parse_args()
    reuse: dict[str, Path] = {}
    for item in args.reuse_verify:
        name, sep, report = item.partition("=")
        if not sep or not Path(report).is_file():
            parser.error(f"--reuse-verify {item!r}: expected NAME=REPORT with an existing report file")
        reuse[name] = Path(report)
    paths = ensure_kernelspecs()
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        [str(p) for p in paths.values()] + [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    )
    work = REPO / ".bench-container-work"
    work.mkdir(exist_ok=True)
    results: dict[str, dict[str, float]] = {}
    for name in paths:
        numbers = asyncio.run(kernel_numbers(name, args.starts, args.cells, work))
        if name in reuse:
            numbers.update(reused_verify_numbers(reuse[name]))
        else:
            numbers.update(verify_numbers(name, work / f"verify-{name}.json"))
        results[name] = numbers
    names = list(results)
    print()
    print(f"{'':38}" + "".join(f"{n:>22}" for n in names))
    for label, key, fmt in ROWS:
        print(f"{label:38}" + "".join(f"{fmt.format(results[n][key]):>22}" for n in names))
    print(
        f"{'verify: cases passed':38}"
        + "".join(
            f"{str(int(results[n]['verify_passed'])) + '/' + str(int(results[n]['verify_cases'])):>22}" for n in names
        )
    )
    # When, where and how: the docs' numbers page prints each figure with them.
    Path(args.json).write_text(json.dumps({**results, "meta": meta()}, indent=1))
    for name, report in reuse.items():
        print(f"(verify numbers of {name} from {report}, the same command run by the test steps)")
    print(f"(written to {args.json})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
