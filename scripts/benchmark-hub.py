#!/usr/bin/env python3
"""How long learners wait on a local JupyterHub when a class starts at once.

Starts the JupyterHub of ``tests/hub/jupyterhub_config.py`` on 127.0.0.1
(ports 8925-8927 unless ``--port`` says otherwise) and, for each group size in
``--users`` (default 3, then 10), lets that many new users start together, each
in a thread of its own:

- spawn: ``POST /hub/api/users/<name>/server`` until the hub reports the
  single-user JupyterLab ready (process start, extension load, proxy route);
- open -> crash: ``POST /user/<name>/junobench/demo-casebook`` (the demo
  casebook copied into the user's home), a working copy of the case's
  reproduced notebook saved under ``junobench-work/`` through the contents API,
  a kernel session in the case folder (``POST /api/sessions``), then the
  recorded cells sent over the kernel websocket in recorded order
  (``[reexecute]`` cells twice) until the recorded crash comes back.

All requests go through the hub's proxy at ``/user/<name>/`` with a token per
user. Prints per-user latency percentiles (p50, p90, max); asserts nothing.
Between groups every server is stopped. Needs what ``tests/test_hub.py`` needs. ``--json FILE``
writes each group's figures with the date, machine and command (scripts/bench_meta.py), for the
docs' numbers page.

    python scripts/benchmark-hub.py [--users 3,10] [--case numpy_1] [--port 8925] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "hub"))

import junobench_hub as jh
from bench_meta import meta  # scripts/, on the path when run as python scripts/<this>.py

CASEBOOK = "JunoBench-demo"
REEXECUTE = re.compile(r"^\s*#?\s*\[re-?execute\]", re.IGNORECASE)


@dataclass
class Timing:
    """One user's timings in seconds (None when that step did not finish)."""

    name: str
    spawn: float | None = None
    open_to_crash: float | None = None
    steps: dict[str, float] = field(default_factory=dict)
    crash: str | None = None
    error: str | None = None


def recorded_cells(notebook: dict[str, Any]) -> list[str]:
    """Code cells with an execution count, by count then position; ``[reexecute]`` ones twice."""
    cells = [
        (c["execution_count"], i, "".join(c["source"]) if isinstance(c["source"], list) else c["source"])
        for i, c in enumerate(notebook["cells"])
        if c["cell_type"] == "code" and isinstance(c.get("execution_count"), int)
    ]
    plan: list[str] = []
    for _, _, source in sorted(cells):
        plan.extend([source, source] if REEXECUTE.match(source.split("\n", 1)[0]) else [source])
    return plan


async def replay_until_crash(user: jh.UserServer, kernel_id: str, cells: list[str], timeout: float) -> str | None:
    """Run cells over the kernel websocket; return 'EName: value' of the first error, or None."""
    ws_url = user.url.replace("http", "ws", 1) + f"api/kernels/{kernel_id}/channels"
    conn = await websocket_connect(HTTPRequest(ws_url, headers=user.headers()))
    session = uuid.uuid4().hex
    try:
        for code in cells:
            msg_id = uuid.uuid4().hex
            conn.write_message(
                json.dumps(
                    {
                        "header": {
                            "msg_id": msg_id,
                            "msg_type": "execute_request",
                            "username": user.name,
                            "session": session,
                            "version": "5.3",
                        },
                        "parent_header": {},
                        "metadata": {},
                        "content": {
                            "code": code,
                            "silent": False,
                            "store_history": True,
                            "user_expressions": {},
                            "allow_stdin": False,
                            "stop_on_error": True,
                        },
                        "channel": "shell",
                        "buffers": [],
                    }
                )
            )
            while True:
                raw = await asyncio.wait_for(conn.read_message(), timeout)
                if raw is None:
                    raise RuntimeError("the kernel websocket closed")
                msg = json.loads(raw)
                if msg.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                if msg.get("channel") == "shell" and msg.get("msg_type") == "execute_reply":
                    content = msg["content"]
                    if content.get("status") == "error":
                        return f"{content.get('ename')}: {content.get('evalue')}"
                    break
        return None
    finally:
        conn.close()


def one_learner(hub: jh.Hub, name: str, case: str, start: threading.Barrier, timeout: float) -> Timing:
    """Spawn, open the case and replay it to its crash, timing each part."""
    timing = Timing(name)
    try:
        start.wait()
        t0 = time.perf_counter()
        user = hub.spawn(name)
        timing.spawn = time.perf_counter() - t0

        t1 = time.perf_counter()
        jh.open_demo_casebook(user)
        t_copy = time.perf_counter()
        folder = f"{CASEBOOK}/benchmark/{case}"
        reproduced = json.loads((user.home / folder / f"{case}_reproduced.ipynb").read_text())
        work = f"junobench-work/{CASEBOOK}/{case}"
        jh.save_notebook(user, f"{work}/{case}-1.ipynb", reproduced)
        t_work = time.perf_counter()
        r = requests.post(
            f"{user.url}api/sessions",
            headers=user.headers(),
            json={"path": f"{folder}/{case}-benchmark.ipynb", "type": "notebook", "name": "", "kernel": {"name": "python3"}},
            timeout=timeout,
        )
        if r.status_code != 201:
            raise RuntimeError(f"POST api/sessions: HTTP {r.status_code} {r.text}")
        kernel_id = r.json()["kernel"]["id"]
        t_kernel = time.perf_counter()
        timing.crash = asyncio.run(replay_until_crash(user, kernel_id, recorded_cells(reproduced), timeout))
        t_end = time.perf_counter()
        timing.open_to_crash = t_end - t1
        timing.steps = {
            "demo casebook": t_copy - t1,
            "working copy": t_work - t_copy,
            "kernel session": t_kernel - t_work,
            "replay to crash": t_end - t_kernel,
        }
        requests.delete(f"{user.url}api/sessions/{r.json()['id']}", headers=user.headers(), timeout=timeout)
    except Exception as err:  # reported in the table
        timing.error = f"{type(err).__name__}: {err}"
    return timing


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def row(label: str, values: list[float]) -> str:
    if not values:
        return f"  {label:<22} (none)"
    return (
        f"  {label:<22} p50 {percentile(values, 0.5):6.1f} s   p90 {percentile(values, 0.9):6.1f} s"
        f"   max {max(values):6.1f} s   (n={len(values)})"
    )


def figures(values: list[float]) -> dict[str, float] | None:
    """p50, p90 and max of some seconds, as `row` prints them (None when there are none)."""
    if not values:
        return None
    return {"p50": percentile(values, 0.5), "p90": percentile(values, 0.9), "max": max(values), "n": len(values)}


def group_figures(n: int, wall: float, results: list[Timing], ok: list[Timing]) -> dict[str, object]:
    """One group's figures for the JSON output: what the printed rows show."""
    rows = {
        "spawn": figures([t.spawn for t in results if t.spawn is not None]),
        "open -> crash": figures([t.open_to_crash for t in ok if t.open_to_crash is not None]),
    }
    for step in ("demo casebook", "working copy", "kernel session", "replay to crash"):
        rows[step] = figures([t.steps[step] for t in ok if step in t.steps])
    return {
        "users": n,
        "reached_crash": len(ok),
        "wall_s": wall,
        "rows": rows,
        "errors": [f"{t.name}: {t.error or 'no crash'}" for t in results if t.error or not t.crash],
    }


def stop_all(hub: jh.Hub, names: list[str], timeout: float = 120) -> None:
    """Stop the users' servers and wait until the hub says they are gone."""
    for name in names:
        hub.api("DELETE", f"users/{name}/server")
    deadline = time.monotonic() + timeout
    for name in names:
        while time.monotonic() < deadline:
            model = hub.api("GET", f"users/{name}").json()
            if not model.get("servers") and not model.get("pending"):
                break
            time.sleep(0.5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", default="3,10", help="group sizes, run one after the other (default 3,10)")
    parser.add_argument("--case", default="numpy_1", help="demo case to replay (default numpy_1)")
    parser.add_argument("--port", type=int, default=8925, help="hub public port; the next two are used too")
    parser.add_argument("--timeout", type=float, default=300, help="seconds allowed per step")
    parser.add_argument("--json", help="also write each group's figures, with date, machine and command, to this file")
    args = parser.parse_args()
    missing = jh.missing_requirements()
    if missing:
        print(f"benchmark-hub: cannot run a local JupyterHub: {missing}", file=sys.stderr)
        return 2
    sizes = [int(s) for s in args.users.split(",") if s.strip()]
    groups: list[dict[str, object]] = []

    with tempfile.TemporaryDirectory(prefix="junobench-hub-bench-") as state:
        hub = jh.new_hub(Path(state), jh.pick_base_port([args.port]))
        hub.start()
        try:
            print(f"Local JupyterHub at {hub.url} ({os.cpu_count()} CPUs), case {args.case}")
            for n in sizes:
                names = [f"b{n}u{i + 1}" for i in range(n)]
                hub.create_users(names)
                barrier = threading.Barrier(n)
                results: list[Timing] = [Timing(name) for name in names]

                def run(i: int, name: str, results: list[Timing], barrier: threading.Barrier) -> None:
                    results[i] = one_learner(hub, name, args.case, barrier, args.timeout)

                started = time.perf_counter()
                threads = [threading.Thread(target=run, args=(i, name, results, barrier)) for i, name in enumerate(names)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                wall = time.perf_counter() - started

                ok = [t for t in results if t.error is None and t.crash]
                print(f"\n{n} simultaneous users: {len(ok)}/{n} reached the crash, {wall:.1f} s wall")
                print(row("spawn", [t.spawn for t in results if t.spawn is not None]))
                print(row("open -> crash", [t.open_to_crash for t in ok if t.open_to_crash is not None]))
                for step in ("demo casebook", "working copy", "kernel session", "replay to crash"):
                    print(row(f"  {step}", [t.steps[step] for t in ok if step in t.steps]))
                crashes = sorted({t.crash for t in ok if t.crash})
                print(f"  crash seen: {'; '.join(c.splitlines()[0][:80] for c in crashes)}")
                for t in results:
                    if t.error or not t.crash:
                        print(f"  {t.name}: {t.error or 'no crash'}")
                groups.append(group_figures(n, wall, results, ok))
                stop_all(hub, names)
        finally:
            hub.stop()
    if args.json:
        Path(args.json).write_text(json.dumps({"meta": meta(), "case": args.case, "groups": groups}, indent=1))
        print(f"(written to {args.json})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
