"""Sessions of the MCP server: one case each, in a folder and a kernel of its own.

A session's folder (under the work folder, never inside the casebook)::

    <work>/<case>-<session>/
        <case>.ipynb          the working copy of the case's _reproduced notebook
        trajectory.jsonl      one JSON line per action of the session
        benchmark/<case>/     the kernel's folder: the case folder without its answer key

The kernel's folder is made by the repair check's own scratch copy (``scratch.copy_case``: no
notebook, nothing named ``<case>_fixed*`` or ``<case>_reproduced*``, no casebook labels) minus the
case's README (the demo's READMEs explain the crash and the fix). No tool returns a file of the
casebook other than the reproduced notebook, which the session copies once, when it opens.

Every tool call of a session counts one step of its budget and its time counts against the
seconds; a call beyond either ends the session (its kernel stops) with a ``budget-exhausted``
error, and every later call gets the same error.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import secrets
import shutil
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from collections.abc import Awaitable, Callable
from typing import Any

from ..casebook import is_casebook
from ..names import describe_name_problem, name_problem
from ..scratch import copy_case
from . import plan
from .cli import Cli, CliError
from .kernel import (
    NAME,
    Execution,
    Kernel,
    KernelDied,
    KernelError,
    expression_value,
    installed_kernel,
    summary_expression,
    track_expression,
)

#: Text kept of one output (a longer one is cut, saying how much was left out).
MAX_TEXT = 4000
#: The trajectory file of a session, beside its working copy.
TRAJECTORY = "trajectory.jsonl"


class ToolError(Exception):
    """A refused or failed action: a code with parameters and an English message."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def to_json(self) -> dict[str, Any]:
        """``{"error": {"code", "message", ...parameters}}``."""
        return {"error": {"code": self.code, "message": str(self), **self.params}}


@dataclass(frozen=True)
class Options:
    """What every session of a server shares."""

    #: The casebook (absolute).
    casebook: Path
    #: Where session folders go (absolute, outside the casebook).
    work: Path
    #: Steps (tool calls) per session.
    max_steps: int = 200
    #: Seconds per session, from ``open_case`` on.
    max_seconds: float = 1800
    #: Seconds one cell may run.
    cell_timeout: float = 300
    #: Sessions open at once.
    max_sessions: int = 4
    #: The kernelspec (None: the best present, see ``kernel.choose_kernel``).
    kernel: str | None = None
    #: Where ``submit`` also copies the working copy, as ``<dir>/<case>/<case>.ipynb`` (the latest
    #: submission of a case wins: one notebook per case, as a report card counts them).
    submissions: Path | None = None
    #: Leave the labels (crash type, root cause, stage) out of ``list_cases``.
    hide_labels: bool = False


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _cut(text: str) -> str:
    if len(text) <= MAX_TEXT:
        return text
    return text[:MAX_TEXT] + f"\n... [{len(text) - MAX_TEXT} more characters]"


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def output_view(output: dict[str, Any]) -> dict[str, Any]:
    """An nbformat output as an agent reads it: text, the error without colour codes, and only
    the types of rich data."""
    kind = output.get("output_type")
    if kind == "stream":
        return {"type": "stream", "name": output.get("name"), "text": _cut(_text(output.get("text", "")))}
    if kind == "error":
        return {
            "type": "error",
            "ename": plan.strip_ansi(str(output.get("ename", ""))),
            "evalue": plan.strip_ansi(str(output.get("evalue", ""))),
            "traceback": _cut("\n".join(plan.strip_ansi(t) for t in output.get("traceback") or [])),
        }
    data = output.get("data") or {}
    view: dict[str, Any] = {"type": kind, "mimeTypes": sorted(data)}
    if "text/plain" in data:
        view["text"] = _cut(_text(data["text/plain"]))
    return view


def cell_view(index: int, cell: dict[str, Any]) -> dict[str, Any]:
    """A cell as the tools return it."""
    view: dict[str, Any] = {"index": index, "cellType": cell.get("cell_type"), "source": plan.source_text(cell)}
    if cell.get("cell_type") == "code":
        view["executionCount"] = cell.get("execution_count")
        view["outputs"] = [output_view(o) for o in cell.get("outputs") or []]
    return view


def error_view(error: dict[str, Any] | None) -> dict[str, Any] | None:
    """A kernel error as the tools return it (no colour codes)."""
    if not error:
        return None
    return {
        "ename": plan.strip_ansi(str(error.get("ename") or "")),
        "evalue": plan.strip_ansi(str(error.get("evalue") or "")),
        "traceback": [plan.strip_ansi(t) for t in error.get("traceback") or []],
    }


def _summary(result: dict[str, Any]) -> dict[str, Any]:
    """The short scalars of a result, for the trajectory (the full result goes to the agent)."""
    short = (bool, int, float, type(None))
    return {k: v for k, v in result.items() if isinstance(v, short) or (isinstance(v, str) and len(v) < 200)}


def _new_cell(nb: dict[str, Any], cell_type: str, source: str) -> dict[str, Any]:
    cell: dict[str, Any] = {"cell_type": cell_type, "metadata": {}, "source": source}
    if (nb.get("nbformat"), nb.get("nbformat_minor", 0)) >= (4, 5):  # cell ids came with nbformat 4.5
        cell["id"] = secrets.token_hex(4)
    if cell_type == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


class Session:
    """One case in a folder and a kernel of its own, with its budget and its trajectory."""

    def __init__(self, options: Options, case: str, session_id: str, kernel_name: str, environment: str) -> None:
        self.options = options
        self.case = case
        self.id = session_id
        self.folder = options.work / f"{case}-{session_id}"
        self.kernel_folder = self.folder / "benchmark" / case
        self.notebook_path = self.folder / f"{case}.ipynb"
        self.trajectory_path = self.folder / TRAJECTORY
        self.kernel_name = kernel_name
        self.environment = environment
        self.kernel = Kernel(kernel_name, str(self.kernel_folder), str(self.folder / "kernel.log"))
        self.nb: dict[str, Any] = {}
        self.recorded: dict[str, Any] | None = None
        self.started = time.monotonic()
        self.steps = 0
        self.ended: ToolError | None = None
        self.fresh = True  # the next track() call starts a new baseline
        self.timeline: list[dict[str, Any]] = []
        self.lock = asyncio.Lock()

    # -- set-up ---------------------------------------------------------------------------------
    def make_folder(self) -> None:
        """The working copy and the kernel's folder (see the module's docstring)."""
        source = self.options.casebook / "benchmark" / self.case
        self.kernel_folder.parent.mkdir(parents=True)
        copy_case(str(source), str(self.kernel_folder), self.case)
        for entry in self.kernel_folder.iterdir():
            if entry.name.lower().startswith("readme"):
                entry.unlink() if entry.is_file() else shutil.rmtree(entry)
        with open(source / f"{self.case}_reproduced.ipynb", encoding="utf-8") as f:
            self.nb = json.load(f)
        self.recorded = plan.recorded_error(self.nb)
        self.save()

    def save(self) -> None:
        """Write the working copy (after every change, so the folder always shows the session)."""
        tmp = self.notebook_path.with_suffix(".ipynb.tmp")
        tmp.write_text(json.dumps(self.nb, indent=1, ensure_ascii=False) + "\n", "utf-8")
        os.replace(tmp, self.notebook_path)

    # -- budget and trajectory ------------------------------------------------------------------
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def remaining(self) -> float:
        return self.options.max_seconds - self.elapsed()

    def budget(self) -> dict[str, Any]:
        """What is left of the budget."""
        return {
            "steps": self.steps,
            "maxSteps": self.options.max_steps,
            "seconds": round(self.elapsed(), 1),
            "maxSeconds": self.options.max_seconds,
        }

    def charge(self) -> None:
        """Count one step (refused ones too: one trajectory line each); raise (and end the session)
        when the budget is spent."""
        self.steps += 1
        if self.ended is not None:
            raise self.ended
        if self.steps > self.options.max_steps:
            self.ended = self._exhausted("steps")
        elif self.remaining() <= 0:
            self.ended = self._exhausted("seconds")
        if self.ended is not None:
            raise self.ended

    def _exhausted(self, kind: str) -> ToolError:
        limit = self.options.max_steps if kind == "steps" else self.options.max_seconds
        return ToolError(
            "budget-exhausted",
            f"the session used its {limit:g} {kind}; it has ended and its kernel is stopped",
            kind=kind,
            limit=limit,
        )

    def log(self, tool: str, args: dict[str, Any], started: float, result: dict[str, Any]) -> None:
        """One trajectory line."""
        line = {
            "step": self.steps,
            "time": _now(),
            "elapsed": round(self.elapsed(), 3),
            "ms": round((time.monotonic() - started) * 1000, 1),
            "tool": tool,
            "args": args,
            "result": _summary(result) if "error" not in result else result,
        }
        with open(self.trajectory_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")

    # -- cells ----------------------------------------------------------------------------------
    def cell(self, index: Any, code: bool = False) -> dict[str, Any]:
        cells = self.nb["cells"]
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(cells):
            raise ToolError("no-such-cell", f"there is no cell {index!r} (the notebook has {len(cells)}, from 0)", index=index)
        if code and cells[index].get("cell_type") != "code":
            raise ToolError("not-code", f"cell {index} is a {cells[index].get('cell_type')} cell", index=index)
        return cells[index]

    def cells(self) -> list[dict[str, Any]]:
        return [cell_view(i, c) for i, c in enumerate(self.nb["cells"])]

    # -- kernel ---------------------------------------------------------------------------------
    def _timeout(self) -> float:
        left = self.remaining()
        if left <= 0:
            self.ended = self._exhausted("seconds")
            raise self.ended
        return min(self.options.cell_timeout, left)

    async def run(self, index: int) -> dict[str, Any]:
        """Run a code cell in the kernel, keep its outputs in the working copy, note what it changed."""
        cell = self.cell(index, code=True)
        code = plan.source_text(cell)
        # What the cell changed comes back with its reply (one round trip); IPython evaluates no
        # expression after a failed cell, so then it is asked for separately.
        reset, self.fresh = self.fresh, False
        track = {"t": track_expression(reset)}
        try:
            result = await self.execute(code, f"cell {index}", user_expressions=track, timeout=self._timeout())
        except (asyncio.TimeoutError, TimeoutError):
            if self.remaining() <= 0:
                self.ended = self._exhausted("seconds")
                raise self.ended from None
            raise ToolError("timeout", f"cell {index} did not finish in time; the kernel was interrupted", index=index) from None
        cell["outputs"] = result.outputs
        cell["execution_count"] = result.execution_count
        tracked = result.user_expressions.get("t")
        if tracked is None:
            try:
                again = await self.execute("", "the probe", silent=True, user_expressions=track, timeout=60)
                tracked = again.user_expressions.get("t")
            except (asyncio.TimeoutError, TimeoutError):
                pass
        value, _ = expression_value(tracked or {})
        changes = value.get("changes", {}) if isinstance(value, dict) else {}
        self.timeline.append({"index": index, "executionCount": result.execution_count, "changes": changes})
        self.save()
        return {
            "index": index,
            "status": result.status,
            "executionCount": result.execution_count,
            "outputs": [output_view(o) for o in result.outputs],
            "error": error_view(result.error),
            "changed": {name: change.get("change") for name, change in changes.items()},
        }

    async def execute(self, code: str, what: str, **options: Any) -> Execution:
        """Execute code in the kernel; a kernel that dies meanwhile is restarted (as Jupyter does)
        and the action refused with ``kernel-died``."""
        try:
            return await self.kernel.execute(code, **options)
        except KernelDied:
            await self.restart()
            raise ToolError("kernel-died", f"the kernel died while {what} ran; it was restarted (its state is gone)") from None

    async def restart(self) -> None:
        try:
            await self.kernel.restart()
        except KernelError as e:
            raise ToolError("kernel", str(e)) from None
        self.fresh = True
        self.timeline.append({"restart": True})

    async def replay(self) -> dict[str, Any]:
        """Run the recorded plan until the first error (the crash)."""
        steps = []
        crash = None
        for step in plan.recorded_plan(self.nb):
            result = await self.run(step.index)
            steps.append({"index": step.index, "recordedCount": step.count, "run": step.run, "status": result["status"]})
            if result["status"] != "ok":
                crash = {"index": step.index, **(result["error"] or {})}
                break
        matches = None
        if crash and self.recorded:
            matches = {
                "cell": crash["index"] == self.recorded["index"],
                "exception": plan.normalise_ename(crash["ename"]) == plan.normalise_ename(self.recorded["ename"]),
            }
        return {"steps": steps, "crashed": crash is not None, "crash": crash, "matchesRecorded": matches}


class Room:
    """The sessions of one server and the tools' logic (the MCP wiring is in server.py)."""

    def __init__(self, options: Options, cli: Cli | None = None) -> None:
        self.options = options
        self.cli = cli or Cli()
        self.sessions: dict[str, Session] = {}
        self._cases: list[dict[str, Any]] | None = None

    # -- cases ----------------------------------------------------------------------------------
    async def cases(self) -> list[dict[str, Any]]:
        if self._cases is None:
            try:
                self._cases = await self.cli.list_cases(str(self.options.casebook))
            except CliError as e:
                raise ToolError("cli", str(e)) from None
        return self._cases

    async def list_cases(self, filters: dict[str, Any]) -> dict[str, Any]:
        """The casebook's cases matching the panel's filters (each a list: any value matches)."""
        facets = {"library": "library", "crash_type": "crashType", "root_cause": "rootCause", "stage": "pipelineStage"}
        if self.options.hide_labels:
            asked = [k for k in ("crash_type", "root_cause", "stage") if filters.get(k)]
            if asked:
                raise ToolError("labels-hidden", "this server hides the cases' labels", filters=asked)
        out = []
        for case in await self.cases():
            if filters.get("runnable_only", True) and not case.get("runnable"):
                continue
            specific = filters.get("notebook_specific")
            if specific is not None and bool(case.get("notebookSpecific")) != specific:
                continue
            wanted = [(key, [str(v).lower() for v in filters.get(arg) or []]) for arg, key in facets.items()]
            if any(values and str(case.get(key) or "").lower() not in values for key, values in wanted):
                continue
            text = str(filters.get("text") or "").lower().split()
            entry = {
                "case": case["name"],
                "library": case.get("library"),
                "notebookSpecific": bool(case.get("notebookSpecific")),
                "runnable": bool(case.get("runnable")),
                "ename": case.get("ename"),
                "evalue": case.get("evalue"),
            }
            if not self.options.hide_labels:
                entry.update(crashType=case.get("crashType"), rootCause=case.get("rootCause"), stage=case.get("pipelineStage"))
            haystack = json.dumps(entry).lower()
            if all(term in haystack for term in text):
                out.append(entry)
        # No path of the casebook: the agent's code runs in a kernel that needs none.
        return {"count": len(out), "cases": out}

    # -- sessions -------------------------------------------------------------------------------
    async def open_case(self, case: Any) -> dict[str, Any]:
        """A new session on a case: working copy, kernel, replay to the crash."""
        problem = name_problem(case)
        if problem is not None:
            raise ToolError("bad-case-name", f"not a case name: {describe_name_problem(problem)}", problem=problem)
        known = {c["name"]: c for c in await self.cases()}
        if case not in known:
            raise ToolError("no-such-case", f"the casebook has no case {case!r}", case=case)
        if not known[case].get("runnable"):
            raise ToolError("not-runnable", f"{case} cannot be replayed here", case=case, missing=known[case].get("missing"))
        live = [s for s in self.sessions.values() if s.ended is None]
        if len(live) >= self.options.max_sessions:
            limit = self.options.max_sessions
            raise ToolError("too-many-sessions", f"{len(live)} sessions are open; close one first", limit=limit)
        name, environment = installed_kernel(self.options.kernel)
        session = Session(self.options, case, secrets.token_hex(6), name, environment)
        started = time.monotonic()
        session.make_folder()
        self.sessions[session.id] = session
        async with session.lock:
            session.charge()
            try:
                await session.kernel.start(timeout=min(120, session._timeout()))
                replay = await session.replay()
            except (KernelError, ToolError) as e:
                err = e if isinstance(e, ToolError) else ToolError("kernel", str(e))
                await self._end(session, err)
                session.log("open_case", {"case": case}, started, err.to_json())
                raise err from None
            result = {
                "session": session.id,
                "case": case,
                "kernel": name,
                "environment": environment,
                "folder": str(session.folder),
                "notebook": str(session.notebook_path),
                "cells": session.cells(),
                "recorded": session.recorded,
                "replayed": replay,
                "budget": session.budget(),
            }
            session.log("open_case", {"case": case}, started, result)
        return result

    def session(self, session_id: Any) -> Session:
        found = self.sessions.get(session_id) if isinstance(session_id, str) else None
        if found is None:
            raise ToolError("no-such-session", f"there is no session {session_id!r}: open a case first", session=session_id)
        return found

    async def act(
        self, tool: str, session_id: Any, args: dict[str, Any], action: Callable[[Session], Awaitable[dict[str, Any]]]
    ) -> dict[str, Any]:
        """Run one action of a session: one step of its budget, one line of its trajectory."""
        session = self.session(session_id)
        async with session.lock:
            started = time.monotonic()
            try:
                session.charge()
                result = await action(session)
            except ToolError as e:
                if e.code == "budget-exhausted":
                    await self._end(session, e)
                session.log(tool, args, started, e.to_json())
                raise
            session.log(tool, args, started, result)
            return {**result, "budget": session.budget()}

    async def _end(self, session: Session, reason: ToolError) -> None:
        session.ended = session.ended or reason
        await session.kernel.shutdown()

    async def close(self, session_id: Any) -> dict[str, Any]:
        """End a session: its kernel stops; its folder and trajectory stay."""

        async def action(s: Session) -> dict[str, Any]:
            await self._end(s, ToolError("session-closed", "the session was closed"))
            return {"closed": True, "folder": str(s.folder)}

        return await self.act("close_case", session_id, {}, action)

    async def shutdown(self) -> None:
        """Stop every kernel (the server is stopping)."""
        for session in list(self.sessions.values()):
            await self._end(session, ToolError("session-closed", "the server stopped"))

    # -- the tools of a session -----------------------------------------------------------------
    async def get_notebook(self, session_id: Any) -> dict[str, Any]:
        async def action(s: Session) -> dict[str, Any]:
            return {"case": s.case, "cells": s.cells()}

        return await self.act("get_notebook", session_id, {}, action)

    async def edit_cell(self, session_id: Any, index: Any, source: str) -> dict[str, Any]:
        async def action(s: Session) -> dict[str, Any]:
            s.cell(index)["source"] = source
            s.save()
            return {"index": index, "cell": cell_view(index, s.cell(index))}

        return await self.act("edit_cell", session_id, {"index": index, "source": source}, action)

    async def insert_cell(self, session_id: Any, index: Any, source: str, cell_type: str) -> dict[str, Any]:
        async def action(s: Session) -> dict[str, Any]:
            cells = s.nb["cells"]
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= len(cells):
                raise ToolError("no-such-cell", f"cannot insert at {index!r} (0 to {len(cells)})", index=index)
            if cell_type not in ("code", "markdown"):
                raise ToolError("bad-cell-type", "a cell is code or markdown", cellType=cell_type)
            cells.insert(index, _new_cell(s.nb, cell_type, source))
            s.save()
            return {"index": index, "cells": len(cells)}

        return await self.act("insert_cell", session_id, {"index": index, "source": source, "cellType": cell_type}, action)

    async def delete_cell(self, session_id: Any, index: Any) -> dict[str, Any]:
        async def action(s: Session) -> dict[str, Any]:
            s.cell(index)
            del s.nb["cells"][index]
            s.save()
            return {"index": index, "cells": len(s.nb["cells"])}

        return await self.act("delete_cell", session_id, {"index": index}, action)

    async def run_cell(self, session_id: Any, index: Any) -> dict[str, Any]:
        return await self.act("run_cell", session_id, {"index": index}, lambda s: s.run(index))

    async def run_all(self, session_id: Any, restart: bool) -> dict[str, Any]:
        async def action(s: Session) -> dict[str, Any]:
            if restart:
                await s.restart()
            ran = []
            error = None
            for i, c in enumerate(s.nb["cells"]):
                if c.get("cell_type") != "code":
                    continue
                result = await s.run(i)
                ran.append({"index": i, "status": result["status"], "executionCount": result["executionCount"]})
                if result["status"] != "ok":
                    error = {"index": i, **(result["error"] or {})}
                    break
            return {"restarted": restart, "ran": ran, "status": "error" if error else "ok", "error": error}

        return await self.act("run_all", session_id, {"restart": restart}, action)

    async def inspect(self, session_id: Any, name: Any) -> dict[str, Any]:
        async def action(s: Session) -> dict[str, Any]:
            if not isinstance(name, str) or not NAME.fullmatch(name):
                raise ToolError("bad-name", "inspect takes a variable name, optionally with attributes (a.b)", name=name)
            try:
                expressions = {"summary": summary_expression(name), "repr": name}
                reply = await s.execute("", f"inspect {name}", silent=True, user_expressions=expressions, timeout=s._timeout())
            except (asyncio.TimeoutError, TimeoutError):
                raise ToolError("timeout", f"inspecting {name} took too long; the kernel was interrupted") from None
            summary, error = expression_value(reply.user_expressions.get("summary") or {})
            text, _ = expression_value(reply.user_expressions.get("repr") or {})
            if error:
                raise ToolError("no-such-name", f"{name} could not be read in the kernel ({error})", name=name)
            return {"name": name, "summary": summary, "repr": _cut(str(text)) if text is not None else None}

        return await self.act("inspect", session_id, {"name": name}, action)

    async def state_timeline(self, session_id: Any, name: str | None) -> dict[str, Any]:
        async def action(s: Session) -> dict[str, Any]:
            steps = []
            for i, entry in enumerate(s.timeline):
                if "restart" in entry:
                    steps.append({"step": i, "restart": True})
                    continue
                changes = entry["changes"]
                if name:
                    changes = {k: v for k, v in changes.items() if k == name}
                    if not changes:
                        continue
                steps.append({"step": i, "index": entry["index"], "executionCount": entry["executionCount"], "changes": changes})
            return {"name": name, "steps": steps}

        return await self.act("state_timeline", session_id, {"name": name}, action)

    async def submit(self, session_id: Any) -> dict[str, Any]:
        async def action(s: Session) -> dict[str, Any]:
            s.save()
            try:
                report = await self.cli.check(
                    str(self.options.casebook), s.case, str(s.notebook_path), s.kernel_name, timeout=max(60.0, s._timeout())
                )
            except CliError as e:
                raise ToolError("check-failed", str(e)) from None
            if self.options.submissions is not None:
                target = self.options.submissions / s.case / f"{s.case}.ipynb"
                target.parent.mkdir(parents=True, exist_ok=True)
                tmp = target.with_suffix(".ipynb.tmp")
                shutil.copyfile(s.notebook_path, tmp)
                os.replace(tmp, target)
            return {key: copy.deepcopy(report.get(key)) for key in ("passed", "status", "grade", "headline", "reasons")}

        return await self.act("submit", session_id, {}, action)


def check_work_folder(casebook: Path, work: Path) -> None:
    """Refuse a work folder inside the casebook (or a casebook inside it)."""
    book, folder = casebook.resolve(), work.resolve()
    if not is_casebook(book):
        raise ValueError(f"{casebook} is not a casebook (no benchmark_desc.xlsx)")
    if folder == book or book in folder.parents or folder in book.parents:
        raise ValueError(f"the work folder {work} must lie outside the casebook {casebook}")
