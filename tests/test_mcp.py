"""The MCP server for agents (python -m jupyterlab_junobench.mcp), driven through the official MCP
client over stdio and streamable HTTP, on the demo casebook, with real kernels.

A scripted agent opens numpy_1, sees it crash where the recording did, repairs the crashing cell
with the source of the case's own _fixed notebook (read here, never through the server), runs
everything and submits: solved. An unfixed notebook and a cheat (the crash swallowed by
``try/except``) are not. Two sessions share neither folder nor kernel; budgets end sessions; no
tool reaches the answer key. Every server's kernels are gone when its client has left.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (pip install 'jupyterlab-junobench[mcp]')")

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from jupyterlab_junobench.mcp.kernel import choose_kernel
from jupyterlab_junobench.mcp.plan import recorded_plan

ROOT = Path(__file__).resolve().parents[1]
CASEBOOK = ROOT / "demo" / "casebook"
CLI = ROOT / "bin" / "junobench.js"
PLAN_JS = ROOT / "lib-cli" / "replay" / "plan.js"

needs_cli = pytest.mark.skipif(
    shutil.which("node") is None or not PLAN_JS.is_file(),
    reason="node or the built command line (lib-cli/, jlpm build:lib) is missing",
)
pytestmark = [pytest.mark.anyio, needs_cli]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _notebook(case: str, kind: str) -> dict[str, Any]:
    return json.loads((CASEBOOK / "benchmark" / case / f"{case}_{kind}.ipynb").read_text("utf-8"))


def _source(cell: dict[str, Any]) -> str:
    s = cell["source"]
    return "".join(s) if isinstance(s, list) else s


def _crash_cell(nb: dict[str, Any]) -> tuple[int, str]:
    """The recorded crash, read here: the first code cell with an error output, and its exception."""
    for i, cell in enumerate(nb["cells"]):
        for out in cell.get("outputs") or []:
            if out["output_type"] == "error":
                return i, out["ename"]
    raise AssertionError("no recorded crash")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (not yet reaped) is gone too.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def _parent(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().split(")")[-1].split()[1])


def _wait_gone(pids: list[int], timeout: float = 15) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = [p for p in pids if _alive(p)]
        if not alive:
            return []
        time.sleep(0.2)
    return alive


class Agent:
    """The official client, with a JSON answer per tool call."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.calls: dict[str, int] = {}

    async def call(self, tool: str, **args: Any) -> tuple[bool, dict[str, Any]]:
        result = await self.client.call_tool(tool, args)
        if "session" in args:
            self.calls[args["session"]] = self.calls.get(args["session"], 0) + 1
        payload = json.loads(result.content[0].text)
        assert result.structured_content == payload
        return not result.is_error, payload

    async def ok(self, tool: str, **args: Any) -> dict[str, Any]:
        ok, payload = await self.call(tool, **args)
        assert ok, payload
        return payload

    async def refused(self, tool: str, code: str, **args: Any) -> dict[str, Any]:
        ok, payload = await self.call(tool, **args)
        assert not ok, payload
        assert payload["error"]["code"] == code, payload
        return payload["error"]

    async def opened(self, case: str) -> dict[str, Any]:
        opened = await self.ok("open_case", case=case)
        self.calls[opened["session"]] = 1
        return opened

    async def kernel_pid(self, session: str) -> int:
        """The kernel's process id, asked of the kernel (a cell appended and run)."""
        n = len((await self.ok("get_notebook", session=session))["cells"])
        await self.ok("insert_cell", session=session, index=n, source="import os; os.getpid()")
        ran = await self.ok("run_cell", session=session, index=n)
        await self.ok("delete_cell", session=session, index=n)
        return int(ran["outputs"][0]["text"])


@asynccontextmanager
async def stdio_agent(work: Path, *options: str):
    """A server over stdio with its own work folder; on the way out, every kernel it started
    must be gone."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "jupyterlab_junobench.mcp", "--casebook", str(CASEBOOK), "--work-dir", str(work), *options],
        cwd=str(ROOT),
    )
    pids: list[int] = []
    async with Client(params) as client:
        agent = Agent(client)
        agent.pids = pids  # type: ignore[attr-defined]
        yield agent
    assert _wait_gone(pids) == [], "kernels outlived their server"


def _answer_files(folder: Path, case: str) -> list[str]:
    """Files of a session folder that belong to the answer key or explain the case."""
    bad = []
    for path in folder.rglob("*"):
        name = path.name.lower()
        if (
            name.startswith((f"{case}_fixed".lower(), f"{case}_reproduced".lower(), "readme"))
            or name in ("diagnoses.xlsx", "benchmark_desc.xlsx")
            or (name.endswith(".ipynb") and path.parent != folder)
        ):
            bad.append(str(path.relative_to(folder)))
    return bad


def _trajectory(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "trajectory.jsonl").read_text("utf-8").splitlines()]


def test_recorded_order_matches_typescript() -> None:
    """The Python replay order is recordedPlan of src/replay/plan.ts, on every demo case and on
    notebooks shaped to trip it: ties, a crash without a count, markers, odd counts."""
    cell = lambda src, count=None, error=False: {  # noqa: E731
        "cell_type": "code",
        "source": src,
        "execution_count": count,
        "outputs": [{"output_type": "error", "ename": "E", "evalue": "", "traceback": []}] if error else [],
    }
    made = {
        "ties": {"cells": [cell("a", 2), cell("b", 1), cell("c", 2), cell("d", 1, True)]},
        "crash-without-count": {"cells": [cell("a", 3), cell("b", None, True), cell("c", 1), cell("d")]},
        "markers": {"cells": [cell("# [Re-Execute]\nx", 1), cell("y\n# [reexecute]", 2), cell(["# [reexecute", "]"], 3)]},
        "no-crash": {"cells": [{"cell_type": "markdown", "source": "m"}, cell("a", 5), cell("b", 4)]},
        "odd-counts": {"cells": [cell("a", 2.0), cell("b", True), cell("c", "3"), cell("d", 1, True)]},
    }
    notebooks = {p.parent.name: json.loads(p.read_text("utf-8")) for p in CASEBOOK.glob("benchmark/*/*_reproduced.ipynb")}
    notebooks.update(made)
    script = (
        "const {recordedPlan} = require(process.argv[1]);"
        "const nbs = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const out = {};"
        "for (const [k, nb] of Object.entries(nbs)) out[k] = recordedPlan(nb).steps.map(s => [s.cellIndex, s.run, s.isTarget]);"
        "console.log(JSON.stringify(out));"
    )
    node = subprocess.run(["node", "-e", script, str(PLAN_JS)], input=json.dumps(notebooks), capture_output=True, text=True)
    assert node.returncode == 0, node.stderr
    ts = json.loads(node.stdout)
    py = {k: [[s.index, s.run, s.is_target] for s in recorded_plan(nb)] for k, nb in notebooks.items()}
    assert py == ts
    assert len(notebooks) == 15
    # The demo cases exercise the parts of the rule: cells out of document order, markers.
    assert py["NBspecific_1"] != sorted(py["NBspecific_1"])
    assert any(run == 2 for steps in py.values() for _, run, _ in steps)


def test_kernel_choice_matches_typescript() -> None:
    """The session's kernel is the one chooseEnvironment of src/kernel/environment.ts picks:
    the container, else the pinned kernel, else the server's Python; markers over names."""
    container = {"metadata": {"junobench": {"environment": "container"}}}
    pinned_env = {"env": {"JUNOBENCH_ENVIRONMENT": "pinned"}}
    tables = {
        "none": {"python3": {}},
        "pinned-by-name": {"python3": {}, "junobench": {}},
        "pinned-by-env": {"python3": {}, "zz-pins": pinned_env},
        "container-wins": {"junobench": {}, "b-box": container, "a-box": container},
        "default-name-wins": {"a-box": container, "junobench-container": container},
        "marker-over-name": {"junobench": container, "other": pinned_env},
        "odd-markers": {"x": {"metadata": {"junobench": "container"}}, "y": {"env": {"JUNOBENCH_ENVIRONMENT": "server"}}},
    }
    script = (
        "const {chooseEnvironment} = require(process.argv[1]);"
        "const tables = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const out = {};"
        "for (const [k, specs] of Object.entries(tables)) {"
        "  const c = chooseEnvironment({default: 'python3', kernelspecs: Object.fromEntries("
        "    Object.entries(specs).map(([n, s]) => [n, {name: n, ...s}]))});"
        "  out[k] = [c.kernel ?? 'python3', c.environment];"
        "}"
        "console.log(JSON.stringify(out));"
    )
    environment_js = str(ROOT / "lib-cli" / "kernel" / "environment.js")
    node = subprocess.run(["node", "-e", script, environment_js], input=json.dumps(tables), capture_output=True, text=True)
    assert node.returncode == 0, node.stderr
    py = {k: list(choose_kernel({n: {"spec": s} for n, s in specs.items()})) for k, specs in tables.items()}
    assert py == json.loads(node.stdout)
    assert py["container-wins"] == ["a-box", "container"] and py["none"] == ["python3", "server"]


async def test_agent_repairs_numpy_1(tmp_path: Path) -> None:
    """Open, crash at the recorded cell, inspect, repair with the reference's own source, run
    all, submit: solved; the folder holds no answer file; one trajectory line per action; the
    submission, graded in a batch by `junobench check --submissions`, passes too."""
    reproduced = _notebook("numpy_1", "reproduced")
    crash_index, crash_ename = _crash_cell(reproduced)
    fixed = {c.get("id"): c for c in _notebook("numpy_1", "fixed")["cells"]}
    repair = _source(fixed[reproduced["cells"][crash_index]["id"]])
    submissions = tmp_path / "submissions"
    async with stdio_agent(tmp_path / "runs", "--submissions", str(submissions)) as agent:
        listed = await agent.ok("list_cases", library=["numpy"])
        assert {c["case"] for c in listed["cases"]} == {"numpy_1", "numpy_2"}
        assert {c["case"] for c in (await agent.ok("list_cases", notebook_specific=True))["cases"]} == {
            "NBspecific_1",
            "NBspecific_2",
            "NBspecific_3",
        }

        opened = await agent.opened("numpy_1")
        session = opened["session"]
        folder = Path(opened["folder"])
        agent.pids.append(await agent.kernel_pid(session))  # type: ignore[attr-defined]
        replayed = opened["replayed"]
        assert replayed["crashed"] is True
        assert replayed["crash"]["index"] == crash_index == opened["recorded"]["index"]
        assert replayed["crash"]["ename"] == crash_ename
        assert replayed["matchesRecorded"] == {"cell": True, "exception": True}
        assert [s["index"] for s in replayed["steps"]][-1] == crash_index
        assert opened["cells"][crash_index]["source"] == _source(reproduced["cells"][crash_index])
        assert folder.parent == tmp_path / "runs" and _answer_files(folder, "numpy_1") == []
        assert (folder / "benchmark" / "numpy_1" / "data" / "flowers.csv").is_file()
        assert str(CASEBOOK.resolve()) not in json.dumps([listed, opened])

        value = await agent.ok("inspect", session=session, name="data")
        assert value["summary"]["shape"] == [150, 4]
        timeline = await agent.ok("state_timeline", session=session, name="df")
        assert [s["changes"]["df"]["change"] for s in timeline["steps"]] == ["created"]

        # A kernel that writes to its own stdout cannot break the stdio protocol.
        n = len(opened["cells"])
        await agent.ok("insert_cell", session=session, index=n, source="import os; os.write(1, b'{not json}\\n' * 50)")
        await agent.ok("run_cell", session=session, index=n)
        await agent.ok("delete_cell", session=session, index=n)

        edited = await agent.ok("edit_cell", session=session, index=crash_index, source=repair)
        assert edited["cell"]["source"] == repair
        ran = await agent.ok("run_cell", session=session, index=crash_index)
        assert ran["status"] == "ok" and "Z" in ran["changed"]
        everything = await agent.ok("run_all", session=session)
        assert everything["status"] == "ok" and everything["restarted"] is True
        agent.pids.append(await agent.kernel_pid(session))  # type: ignore[attr-defined]
        verdict = await agent.ok("submit", session=session)
        assert {k: verdict[k] for k in ("passed", "status", "grade")} == {"passed": True, "status": "solved", "grade": "solved"}
        assert verdict["reasons"] and all(isinstance(r, str) for r in verdict["reasons"])
        assert "evidence" not in verdict

        saved = json.loads((folder / "numpy_1.ipynb").read_text("utf-8"))
        assert _source(saved["cells"][crash_index]) == repair
        lines = _trajectory(folder)
        assert len(lines) == agent.calls[session]
        assert [line["step"] for line in lines] == list(range(1, len(lines) + 1))
        assert lines[0]["tool"] == "open_case" and lines[-1]["tool"] == "submit"
        assert lines[-1]["result"]["passed"] is True

    submitted = submissions / "numpy_1" / "numpy_1.ipynb"
    assert json.loads(submitted.read_text("utf-8")) == saved
    batch = subprocess.run(
        ["node", str(CLI), "check", str(CASEBOOK), "--submissions", str(submissions), "--json", str(tmp_path / "repairs.json")],
        capture_output=True,
        text=True,
    )
    assert batch.returncode == 0, batch.stdout + batch.stderr
    report = json.loads((tmp_path / "repairs.json").read_text("utf-8"))
    assert [(r["case"], r["report"]["passed"]) for r in report["results"]] == [("numpy_1", True)]


async def test_sessions_apart_cheat_and_answer_key(tmp_path: Path) -> None:
    """Two sessions on one case at once: own folders, own kernels, own names. The unfixed
    notebook and a cheat are not passed. No tool argument reaches the answer key. A kernel that
    dies is restarted; SIGTERM stops the kernels with the server."""
    reproduced = _notebook("numpy_1", "reproduced")
    crash_index, _ = _crash_cell(reproduced)
    async with stdio_agent(tmp_path) as agent:
        a = await agent.opened("numpy_1")
        b = await agent.opened("numpy_1")
        assert a["session"] != b["session"] and a["folder"] != b["folder"]
        pa, pb = await agent.kernel_pid(a["session"]), await agent.kernel_pid(b["session"])
        agent.pids += [pa, pb]  # type: ignore[attr-defined]
        assert pa != pb
        n = len(a["cells"])
        await agent.ok("insert_cell", session=a["session"], index=n, source="only_in_a = 1\nimport os; os.getcwd()")
        cwd = (await agent.ok("run_cell", session=a["session"], index=n))["outputs"][0]["text"].strip("'")
        assert Path(cwd) == Path(a["folder"]) / "benchmark" / "numpy_1"
        await agent.refused("inspect", "no-such-name", session=b["session"], name="only_in_a")
        assert len((await agent.ok("get_notebook", session=b["session"]))["cells"]) == n

        verdict = await agent.ok("submit", session=b["session"])
        assert verdict["passed"] is False and verdict["status"] != "solved"

        # The cheat: the crash swallowed, the data left unscaled so that the rest runs.
        body = _source(reproduced["cells"][crash_index]).replace("\n", "\n    ")
        cheat = f"try:\n    {body}\nexcept Exception:\n    Z = data"
        await agent.ok("edit_cell", session=b["session"], index=crash_index, source=cheat)
        assert (await agent.ok("run_all", session=b["session"]))["status"] == "ok"
        verdict = await agent.ok("submit", session=b["session"])
        assert verdict["passed"] is False and verdict["status"] != "solved"

        # The answer key is no case, no session and no name.
        for case in ("numpy_1_fixed", "../numpy_1", "numpy_1/../numpy_1", "benchmark/numpy_1", "/etc", "", "diagnoses.xlsx"):
            ok, payload = await agent.call("open_case", case=case)
            assert not ok and payload["error"]["code"] in ("bad-case-name", "no-such-case"), (case, payload)
        for session in ("../" + a["session"], a["session"] + "/../numpy_1_fixed.ipynb", "numpy_1_fixed"):
            await agent.refused("get_notebook", "no-such-session", session=session)
        for name in ("open('../../diagnoses.xlsx').read()", "__import__('os')", "a[0]", "x; y"):
            await agent.refused("inspect", "bad-name", session=a["session"], name=name)
        await agent.refused("edit_cell", "no-such-cell", session=a["session"], index=-1, source="")
        await agent.refused("run_cell", "not-code", session=a["session"], index=0)
        for opened in (a, b):
            assert _answer_files(Path(opened["folder"]), "numpy_1") == []
        for line in (Path(a["folder"]) / "trajectory.jsonl").read_text("utf-8").splitlines():
            assert "error" in line or "_fixed" not in line

        # A kernel that dies is noticed at once (not at the cell timeout) and restarted.
        n = len((await agent.ok("get_notebook", session=a["session"]))["cells"])
        await agent.ok("insert_cell", session=a["session"], index=n, source="import os; os._exit(1)")
        started = time.monotonic()
        await agent.refused("run_cell", "kernel-died", session=a["session"], index=n)
        assert time.monotonic() - started < 10 and _wait_gone([pa]) == []
        await agent.ok("delete_cell", session=a["session"], index=n)
        await agent.refused("inspect", "no-such-name", session=a["session"], name="only_in_a")
        pa = await agent.kernel_pid(a["session"])
        agent.pids.append(pa)  # type: ignore[attr-defined]

        # SIGTERM: the server stops both kernels before it exits (b's is a new one since run_all).
        pb = await agent.kernel_pid(b["session"])
        agent.pids.append(pb)  # type: ignore[attr-defined]
        server = _parent(pa)
        assert server == _parent(pb) and "jupyterlab_junobench.mcp" in Path(f"/proc/{server}/cmdline").read_text()
        os.kill(server, signal.SIGTERM)
        assert _wait_gone([pa, pb, server], timeout=10) == []


async def test_budgets_end_sessions(tmp_path: Path) -> None:
    """Past its steps the session ends: a clear error, its kernel stopped, the same error after;
    a cell running past the seconds ends it too."""
    async with stdio_agent(tmp_path, "--max-steps", "6", "--max-seconds", "8") as agent:
        opened = await agent.opened("numpy_1")
        session = opened["session"]
        pid = await agent.kernel_pid(session)  # steps 2 to 5
        agent.pids.append(pid)  # type: ignore[attr-defined]
        await agent.ok("get_notebook", session=session)  # step 6
        error = await agent.refused("get_notebook", "budget-exhausted", session=session)
        assert error["kind"] == "steps" and error["limit"] == 6
        assert _wait_gone([pid]) == []
        await agent.refused("run_cell", "budget-exhausted", session=session, index=1)
        lines = _trajectory(Path(opened["folder"]))
        assert [line["step"] for line in lines] == list(range(1, 9))
        assert [line["result"].get("error", {}).get("code") for line in lines[-2:]] == ["budget-exhausted"] * 2

        other = await agent.opened("numpy_2")
        index = next(i for i, c in enumerate(other["cells"]) if c["cellType"] == "code")
        await agent.ok("edit_cell", session=other["session"], index=index, source="import time\ntime.sleep(60)")
        started = time.monotonic()
        error = await agent.refused("run_cell", "budget-exhausted", session=other["session"], index=index)
        assert error["kind"] == "seconds" and time.monotonic() - started < 10


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post(url: str, headers: dict[str, str]) -> int:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}).encode()
    request = urllib.request.Request(
        url, body, {"content-type": "application/json", "accept": "application/json, text/event-stream", **headers}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as e:
        return e.code


async def test_http_needs_the_token(tmp_path: Path) -> None:
    """Streamable HTTP: no token or a wrong one is refused (401); the official client with the
    token (given through the environment) lists the cases."""
    import httpx2

    port = _free_port()
    env = {**os.environ, "JUNOBENCH_MCP_TOKEN": "s3cret-token"}
    args = ["-m", "jupyterlab_junobench.mcp", "--casebook", str(CASEBOOK), "--work-dir", str(tmp_path), "--http", str(port)]
    server = subprocess.Popen([sys.executable, *args], cwd=ROOT, env=env, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, server.stderr.read().decode()
                time.sleep(0.2)
        assert _post(url, {}) == 401
        assert _post(url, {"authorization": "Bearer wrong"}) == 401
        assert _post(url, {"authorization": "s3cret-token"}) == 401
        async with httpx2.AsyncClient(headers={"authorization": "Bearer s3cret-token"}) as http:
            async with Client(streamable_http_client(url, http_client=http)) as client:
                agent = Agent(client)
                listed = await agent.ok("list_cases")
                assert listed["count"] == 10
        with pytest.raises(Exception):  # noqa: B017 - whichever error the client raises
            async with httpx2.AsyncClient(headers={"authorization": "Bearer wrong"}) as http:
                async with Client(streamable_http_client(url, http_client=http)) as client:
                    await client.list_tools()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)


def test_http_without_a_token_does_not_start(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "JUNOBENCH_MCP_TOKEN"}
    args = ["-m", "jupyterlab_junobench.mcp", "--work-dir", str(tmp_path), "--http", str(_free_port())]
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "token" in done.stderr
    inside = ["-m", "jupyterlab_junobench.mcp", "--casebook", str(CASEBOOK), "--work-dir", str(CASEBOOK / "runs")]
    done = subprocess.run([sys.executable, *inside], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "outside the casebook" in done.stderr
    assert not (CASEBOOK / "runs").exists()
