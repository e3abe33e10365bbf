"""An MCP ``run_cell`` against a direct kernel execute of the same cell, as a ratio (issue #38).

    python scripts/benchmark-mcp.py [--case numpy_1] [--repeats 20] [--json FILE]

Opens the case through the MCP server (python -m jupyterlab_junobench.mcp, the official client over
stdio) and, beside it, starts a kernel of the same kernelspec with jupyter_client in a copy of the
case folder that has run the same cells. Then, in turns, runs each code cell that ran before the
crash --repeats times both ways and prints per cell the median time of a direct execute (request
to reply, outputs collected) and of a ``run_cell`` call seen by the MCP client (JSON-RPC over
stdio, the execute, the probe's note of what changed, the working copy saved), their ratio, and
the server's own time per call (from the session's trajectory, without the MCP transport). A
benchmark prints numbers; it does not pass or fail on them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_meta import meta  # scripts/, on the path when run as python scripts/<this>.py
from mcp import Client
from mcp.client.stdio import StdioServerParameters

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from jupyterlab_junobench.mcp.kernel import Kernel  # noqa: E402
from jupyterlab_junobench.scratch import copy_case  # noqa: E402


async def run(case: str, repeats: int, casebook: Path) -> dict:
    work = Path(tempfile.mkdtemp(prefix="junobench-bench-mcp-"))
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "jupyterlab_junobench.mcp", "--casebook", str(casebook), "--work-dir", str(work / "runs")],
        cwd=str(REPO),
    )
    direct = None
    try:
        async with Client(params) as client:

            async def call(tool: str, **args: object) -> dict:
                result = await client.call_tool(tool, args)
                payload = json.loads(result.content[0].text)
                if result.is_error:
                    raise RuntimeError(payload)
                return payload

            opened = await call("open_case", case=case)
            session = opened["session"]
            cells = [s["index"] for s in opened["replayed"]["steps"] if s["status"] == "ok"]
            sources = {c["index"]: c["source"] for c in opened["cells"]}
            folder = work / "direct" / "benchmark" / case
            folder.parent.mkdir(parents=True)
            copy_case(str(casebook / "benchmark" / case), str(folder), case)
            direct = Kernel(opened["kernel"], str(folder), str(work / "direct.log"))
            await direct.start()
            for index in cells:
                await direct.execute(sources[index])
            rows = []
            for index in cells:
                times: dict[str, list[float]] = {"direct": [], "mcp": []}
                for _ in range(repeats):
                    t = time.perf_counter()
                    await direct.execute(sources[index])
                    times["direct"].append(time.perf_counter() - t)
                    t = time.perf_counter()
                    await call("run_cell", session=session, index=index)
                    times["mcp"].append(time.perf_counter() - t)
                d, m = statistics.median(times["direct"]), statistics.median(times["mcp"])
                row = {"index": index, "directMs": round(d * 1000, 2), "mcpMs": round(m * 1000, 2)}
                rows.append({**row, "ratio": round(m / d, 2)})
            await call("close_case", session=session)
            # The server's own time per run_cell (execute, the probe's note, the save), from the trajectory.
            lines = [json.loads(x) for x in (Path(opened["folder"]) / "trajectory.jsonl").read_text().splitlines()]
            for row in rows:
                ms = [x["ms"] for x in lines if x["tool"] == "run_cell" and x["args"]["index"] == row["index"]]
                row["serverMs"] = round(statistics.median(ms), 2)
    finally:
        if direct is not None:
            await direct.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    total_direct = sum(r["directMs"] for r in rows)
    total_mcp = sum(r["mcpMs"] for r in rows)
    total_server = sum(r["serverMs"] for r in rows)
    return {
        "meta": meta(),
        "case": case,
        "repeats": repeats,
        "kernel": opened["kernel"],
        "cells": rows,
        "directMs": round(total_direct, 2),
        "mcpMs": round(total_mcp, 2),
        "serverMs": round(total_server, 2),
        "ratio": round(total_mcp / total_direct, 2),
        "serverRatio": round(total_server / total_direct, 2),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--case", default="numpy_1")
    p.add_argument("--casebook", default=str(REPO / "demo" / "casebook"))
    p.add_argument("--repeats", type=int, default=20)
    p.add_argument("--json", help="write the figures to this file")
    args = p.parse_args()
    report = asyncio.run(run(args.case, args.repeats, Path(args.casebook).resolve()))
    print(f"{args.case}, kernel {report['kernel']}, median of {args.repeats} runs per cell:")
    print(f"{'cell':>6} {'direct ms':>10} {'run_cell ms':>12} {'ratio':>6} {'in server ms':>13} {'ratio':>6}")
    for r in report["cells"]:
        print(
            f"{r['index']:>6} {r['directMs']:>10.2f} {r['mcpMs']:>12.2f} {r['ratio']:>6.2f}"
            f" {r['serverMs']:>13.2f} {r['serverMs'] / r['directMs']:>6.2f}"
        )
    print(
        f"{'all':>6} {report['directMs']:>10.2f} {report['mcpMs']:>12.2f} {report['ratio']:>6.2f}"
        f" {report['serverMs']:>13.2f} {report['serverRatio']:>6.2f}"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
