"""REST handlers of the JunoBench server extension, under ``<base_url>junobench/``.

The server says what is wrong as a code with parameters and leaves the words
to the client (``renderServerProblem`` in src/model/serverProblems.ts, which
JupyterLab translates): an error body is ``{"code", ...params, "message"}``,
``message`` being English for logs and ``curl``; the reason ``fetch-source``
gives is the same shape.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado import web

from . import authoring
from .casebook import DemoFolderConflict, bundled_casebook, ensure_demo_copy
from .names import describe_name_problem, name_problem
from .sparse import FetchError, Progress, fetch_cases, find_copy, read_marker
from .tree import TreeError, list_tree

if TYPE_CHECKING:
    from tornado.web import Application

    from .config import JunobenchExtension


class Refusal(web.HTTPError):
    """An HTTP error the client words itself: a code and its parameters, with English for logs."""

    def __init__(self, status: int, code: str, message: str, **params: Any) -> None:
        # The English goes to Tornado's log as an argument, never as a format.
        super().__init__(status, "%s", message)
        self.code = code
        self.params = params
        self.message = message

    def to_json(self) -> dict[str, Any]:
        """The error body: ``{"code", ...params, "message"}``."""
        return {"code": self.code, **self.params, "message": self.message}


def _authoring_refusal(err: authoring.AuthoringError) -> Refusal:
    """A writer's refusal as a 400 (code ``authoring``, the writer's own code in ``problem``)."""
    return Refusal(400, "authoring", str(err), problem=err.problem)


class _JunobenchHandler(APIHandler):
    """Base handler holding the extension's settings object."""

    extension: JunobenchExtension

    def initialize(self, extension: JunobenchExtension) -> None:
        """Keep the extension settings passed at registration."""
        self.extension = extension

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """A :class:`Refusal` as its JSON body (``reason`` kept, as jupyter_server writes it)."""
        exc_info = kwargs.get("exc_info")
        err = exc_info[1] if exc_info else None
        if not isinstance(err, Refusal):
            super().write_error(status_code, **kwargs)
            return
        self.set_header("Content-Type", "application/json")
        self.log.warning("wrote error: %r", err.message)
        self.finish(json.dumps({**err.to_json(), "reason": err.reason}))

    def local_root(self) -> Path:
        """The server's contents root on disk; 404 when the contents are not on a local disk."""
        manager = self.contents_manager
        root_dir = getattr(manager, "root_dir", None)
        if not root_dir or not getattr(manager, "_get_os_path", None):
            raise Refusal(404, "no-local-root", "This server's contents are not on a local disk.")
        return Path(root_dir).expanduser().resolve()


class InfoHandler(_JunobenchHandler):
    """``GET /junobench/info``: version and effective settings."""

    @web.authenticated
    def get(self) -> None:
        """Return ``{"version", "tcp_nodelay", "demo_folder", "demo_available", "fetch_allowed"}``."""
        from . import __version__

        ext = self.extension
        self.finish(
            json.dumps(
                {
                    "version": __version__,
                    "tcp_nodelay": bool(ext.nodelay_active),
                    "demo_folder": ext.demo_folder,
                    "demo_available": bundled_casebook(ext.demo_source) is not None,
                    "fetch_allowed": bool(ext.allow_fetch),
                }
            )
        )


class DemoCasebookHandler(_JunobenchHandler):
    """``POST /junobench/demo-casebook``: ensure the demo copy exists under the root.

    A write is a POST (XSRF-checked); a GET, which a page elsewhere can trigger,
    is refused by Tornado with 405 and writes nothing.
    """

    auth_resource = "contents"

    @web.authenticated
    @authorized("write", resource="contents")
    async def post(self) -> None:
        """Copy the bundled casebook if absent; return ``{"path", "created", "cases"}``."""
        ext = self.extension
        source = bundled_casebook(ext.demo_source)
        if source is None:
            raise Refusal(404, "no-demo", "No demo casebook is bundled with jupyterlab_junobench.")
        root = Path(getattr(self.contents_manager, "root_dir", None) or self.settings["server_root_dir"])
        loop = asyncio.get_running_loop()
        try:
            copy = await loop.run_in_executor(
                None, ensure_demo_copy, source, root.expanduser(), ext.demo_folder
            )
        except DemoFolderConflict as err:
            raise Refusal(409, err.code, str(err), folder=err.folder) from err
        except OSError as err:
            raise Refusal(
                500,
                "demo-copy-failed",
                f"Could not copy the demo casebook into the server root: {err}",
                detail=str(err),
            ) from err
        self.finish(json.dumps({"path": copy.path, "created": copy.created, "cases": copy.cases}))


class TreeHandler(_JunobenchHandler):
    """``GET /junobench/tree?path=<server path>``: a casebook folder, several levels deep."""

    auth_resource = "contents"

    @web.authenticated
    @authorized("read", resource="contents")
    async def get(self) -> None:
        """Return the listing of :func:`list_tree`; 404 when the server has no local root."""
        manager = self.contents_manager
        root_dir = self.local_root()
        path = self.get_query_argument("path", "")
        loop = asyncio.get_running_loop()
        try:
            tree = await loop.run_in_executor(
                None,
                lambda: list_tree(
                    root_dir, path, allow_hidden=bool(getattr(manager, "allow_hidden", False))
                ),
            )
        except TreeError as err:
            raise Refusal(400, err.code, str(err), path=err.path) from err
        except FileNotFoundError as err:
            raise Refusal(404, "no-folder", str(err), path=path) from err
        self.finish(json.dumps(tree))


class _AuthoringHandler(_JunobenchHandler):
    """Base of the ``POST /junobench/authoring/*`` handlers: server paths inside the root only."""

    auth_resource = "contents"

    def local_path(self, server_path: object, field: str) -> Path:
        """A server path (``a/b``, '' for the root) as a local path that stays inside the root.

        ``field`` names the path in a refusal (``casebook``, ``notebook-folder``).
        """
        if not isinstance(server_path, str):
            raise Refusal(400, "not-a-server-path", f"the {field} must be a server path (text)", field=field)
        root = self.local_root()
        if server_path.strip("/") == "":
            return root
        try:
            rel = authoring.relative_part(server_path.strip("/"), field)
            return authoring.inside(root, rel)
        except authoring.AuthoringError as err:
            raise _authoring_refusal(err) from err

    def body(self) -> dict[str, Any]:
        """The JSON body of the request, as an object."""
        return _json_body(self.request.body)

    def writer_call(self, body: dict[str, Any]) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """The writer function and its arguments for a request body (each route's own)."""
        raise NotImplementedError

    @web.authenticated
    @authorized("write", resource="contents")
    async def post(self) -> None:
        """Run the route's writer off the event loop; an AuthoringError is a 400 naming what is wrong."""
        fn, args = self.writer_call(self.body())
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(None, fn, *args)
        except authoring.AuthoringError as err:
            raise _authoring_refusal(err) from err
        except OSError as err:
            failed = authoring.write_failed(err)
            raise Refusal(500, "authoring", str(failed), problem=failed.problem) from err
        answer = result.to_json() if isinstance(result, authoring.WriteResult) else {"draft": result}
        self.finish(json.dumps({"ok": True, **answer}))


class NewCasebookHandler(_AuthoringHandler):
    """``POST /junobench/authoring/casebook`` ``{"path"}``: create an empty casebook folder."""

    def writer_call(self, body: dict[str, Any]) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """Create the folder, ``benchmark/`` and the two descriptor workbooks."""
        path = self.local_path(body.get("path"), "casebook")
        if path == self.local_root():
            raise Refusal(
                400, "casebook-is-root", "a new casebook needs a folder of its own, not the server root"
            )
        return authoring.new_casebook, (path,)


class CaseHandler(_AuthoringHandler):
    """``POST /junobench/authoring/case`` ``{"casebook", "dataRoot", "spec"}``: write a case."""

    def writer_call(self, body: dict[str, Any]) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """Write the case folder and its rows (see :func:`authoring.write_case`)."""
        casebook = self.local_path(body.get("casebook"), "casebook")
        data_root = self.local_path(body.get("dataRoot", ""), "notebook-folder")
        return authoring.write_case, (body.get("spec"), casebook, data_root)


class FixedHandler(_AuthoringHandler):
    """``POST /junobench/authoring/fixed`` ``{"casebook", "case", "notebook"}``: the reference fix."""

    def writer_call(self, body: dict[str, Any]) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """Write ``<case>_fixed.ipynb``."""
        casebook = self.local_path(body.get("casebook"), "casebook")
        return authoring.write_fixed, (casebook, body.get("case"), body.get("notebook"))


class DraftHandler(_AuthoringHandler):
    """``POST /junobench/authoring/draft`` ``{"casebook", "case", "reason"}``: draft or verified."""

    def writer_call(self, body: dict[str, Any]) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """Write DRAFT.md with the reason, or remove it when the reason is null."""
        casebook = self.local_path(body.get("casebook"), "casebook")
        return authoring.set_draft, (casebook, body.get("case"), body.get("reason"))


def _json_body(raw: bytes | None) -> dict[str, Any]:
    """A request body as a JSON object; 400 (``body-not-json``, ``body-not-object``) otherwise."""
    try:
        value = json.loads(raw or b"{}")
    except ValueError as err:
        raise Refusal(400, "body-not-json", f"the request body is not JSON: {err}", detail=str(err)) from err
    if not isinstance(value, dict):
        raise Refusal(400, "body-not-object", "the request body must be a JSON object")
    return value


def _casebook_copy(root: Path, path: str) -> tuple[Path, Path | None]:
    """The casebook folder for a server path and the sparse copy holding it (or None).

    Refuses (400) a path that leaves the server root, by ``..``, an absolute
    path or a symbolic link.
    """
    parts = PurePosixPath(path.strip("/")).parts if path.strip("/") else ()
    leaves = Refusal(
        400, "path-outside-root", f"Refusing the casebook path {json.dumps(path)}: it leaves the server root.", path=path
    )
    if any(p in {"..", "."} for p in parts) or "\\" in path:
        raise leaves
    folder = root.joinpath(*parts).resolve()
    if folder != root and root not in folder.parents:
        raise leaves
    if not folder.is_dir():
        raise Refusal(404, "no-folder", f"No casebook folder {json.dumps(path)} under the server root.", path=path)
    copy = find_copy(folder, root)
    if copy is not None and folder not in {copy, copy / "JunoBench"}:
        copy = None
    return folder, copy


def _fetch_off() -> Refusal:
    """Fetching is off (``c.JunobenchExtension.allow_fetch``)."""
    return Refusal(403, "fetch-off", "Fetching cases is turned off on this server (c.JunobenchExtension.allow_fetch).")


def _not_fetched_copy(path: str) -> Refusal:
    """The casebook at ``path`` is not a copy made by ``junobench fetch --cases``."""
    return Refusal(
        409,
        "not-fetched-copy",
        f"The casebook {json.dumps(path)} was not made by `junobench fetch --cases`, so the panel cannot fetch its "
        "missing cases; fetch them with `junobench fetch <folder> --cases ...`.",
        path=path,
    )


class FetchSourceHandler(_JunobenchHandler):
    """``GET /junobench/fetch-source?path=<casebook>``: can cases be fetched into this casebook?"""

    auth_resource = "contents"

    @web.authenticated
    @authorized("read", resource="contents")
    def get(self) -> None:
        """Return ``{"allowed", "fetchable", "source", "cases", "reason"}``.

        ``reason`` is null, or why not as ``{"code", ...params, "message"}``:
        ``fetch-off``, or ``not-fetched-copy`` with the ``path``.
        """
        root = self.local_root()
        path = self.get_query_argument("path", "")
        _folder, copy = _casebook_copy(root, path)
        marker = read_marker(copy) if copy is not None else None
        reason = None
        if not self.extension.allow_fetch:
            reason = _fetch_off().to_json()
        elif marker is None:
            reason = _not_fetched_copy(path).to_json()
        self.finish(
            json.dumps(
                {
                    "allowed": bool(self.extension.allow_fetch),
                    "fetchable": reason is None,
                    "source": marker.get("source") if marker else None,
                    "cases": marker.get("cases", []) if marker else [],
                    "reason": reason,
                }
            )
        )


class FetchCaseHandler(_JunobenchHandler):
    """``POST /junobench/fetch-case`` ``{"path", "case"}``: fetch one case folder into a casebook.

    The fetch runs in the background (``202 {"id"}``); ``GET
    /junobench/fetch-jobs/<id>`` follows it. Off when ``allow_fetch`` is off;
    only into a sparse copy under the server root, from the source recorded in
    that copy (a request never names a source).
    """

    auth_resource = "contents"

    @web.authenticated
    @authorized("write", resource="contents")
    async def post(self) -> None:
        """Start the fetch; 403 when off, 400 for a bad request, 409 when not possible here."""
        ext = self.extension
        if not ext.allow_fetch:
            raise _fetch_off()
        body = _json_body(self.request.body)
        path, case = body.get("path"), body.get("case")
        if not isinstance(path, str) or not isinstance(case, str):
            raise Refusal(400, "fetch-request", 'Expected {"path": <casebook path>, "case": <case name>}.')
        problem = name_problem(case)
        if problem is not None:
            raise Refusal(
                400,
                "bad-case-name",
                f"{json.dumps(case, ensure_ascii=False)} is not a case name: {describe_name_problem(problem)}.",
                name=case,
                problem=problem,
            )
        root = self.local_root()
        _folder, copy = _casebook_copy(root, path)
        if copy is None:
            raise _not_fetched_copy(path)
        jobs = ext.fetch_jobs
        for other in jobs.values():
            if other["copy"] == str(copy) and other["state"] == "running":
                raise Refusal(
                    409,
                    "fetch-running",
                    f"A fetch of {other['case']} is still running in this casebook; wait for it.",
                    case=other["case"],
                )
        job_id = uuid.uuid4().hex
        job: dict[str, Any] = {
            "id": job_id,
            "path": path,
            "case": case,
            "copy": str(copy),
            "state": "running",
            "phase": "start",
            "percent": None,
            "progress": None,
            "error": None,
            "summary": None,
        }
        for old_id in [k for k, v in jobs.items() if v["state"] != "running"][:-20]:
            del jobs[old_id]
        jobs[job_id] = job

        def report(p: Progress) -> None:
            job.update(phase=p.phase, percent=p.percent, progress=p.to_json())

        def work() -> None:
            try:
                summary = fetch_cases(copy, [case], progress=report)
            except FetchError as err:
                job.update(state="failed", error=err.to_json())
            except Exception as err:  # the panel must hear of any failure
                self.log.exception("junobench: fetching %s failed", case)
                detail = f"{type(err).__name__}: {err}"
                job.update(state="failed", error={"code": "unexpected", "detail": detail, "message": detail})
            else:
                data = summary.to_json()
                job.update(
                    state="done",
                    summary={k: data[k] for k in ("cases", "added", "disk_bytes", "lfs_pointers", "seconds")},
                )

        loop = asyncio.get_running_loop()
        loop.run_in_executor(None, work)
        self.set_status(202)
        self.finish(json.dumps({"id": job_id}))


class FetchJobHandler(_JunobenchHandler):
    """``GET /junobench/fetch-jobs/<id>``: how a fetch started by the panel stands.

    A running job's ``progress`` is null or ``{"code", ...params,
    "message"}``: the fetcher's progress code (``fetch-list``, ``checkout``,
    ``lfs-files``, …). A failed job's ``error`` is the same shape: the
    fetcher's code (``unknown-case``, ``busy``, ``source-unreachable``, …) or
    ``unexpected``. ``message`` is English for logs; the panel words the codes.
    """

    auth_resource = "contents"

    @web.authenticated
    @authorized("read", resource="contents")
    def get(self, job_id: str) -> None:
        """Return the job (state, phase, percent, progress, error, summary); 404 when unknown."""
        job = self.extension.fetch_jobs.get(job_id)
        if job is None:
            raise Refusal(404, "no-fetch-job", f"No fetch {job_id!r} on this server.", id=job_id)
        self.finish(json.dumps({k: v for k, v in job.items() if k != "copy"}))


def setup_handlers(web_app: Application, extension: JunobenchExtension) -> None:
    """Register the ``junobench/*`` routes under the server's base URL."""
    base_url: str = web_app.settings.get("base_url", "/")
    kwargs: dict[str, Any] = {"extension": extension}
    web_app.add_handlers(
        ".*$",
        [
            (url_path_join(base_url, "junobench", "info"), InfoHandler, kwargs),
            (url_path_join(base_url, "junobench", "demo-casebook"), DemoCasebookHandler, kwargs),
            (url_path_join(base_url, "junobench", "tree"), TreeHandler, kwargs),
            (url_path_join(base_url, "junobench", "fetch-source"), FetchSourceHandler, kwargs),
            (url_path_join(base_url, "junobench", "fetch-case"), FetchCaseHandler, kwargs),
            (url_path_join(base_url, "junobench", "fetch-jobs", r"([0-9a-f]{32})"), FetchJobHandler, kwargs),
            (url_path_join(base_url, "junobench", "authoring", "casebook"), NewCasebookHandler, kwargs),
            (url_path_join(base_url, "junobench", "authoring", "case"), CaseHandler, kwargs),
            (url_path_join(base_url, "junobench", "authoring", "fixed"), FixedHandler, kwargs),
            (url_path_join(base_url, "junobench", "authoring", "draft"), DraftHandler, kwargs),
        ],
    )
