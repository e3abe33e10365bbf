"""REST handlers of the JunoBench server extension, under ``<base_url>junobench/``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado import web

from . import authoring
from .casebook import DemoFolderConflict, bundled_casebook, ensure_demo_copy
from .tree import TreeError, list_tree

if TYPE_CHECKING:
    from tornado.web import Application

    from .config import JunobenchExtension


class _JunobenchHandler(APIHandler):
    """Base handler holding the extension's settings object."""

    extension: JunobenchExtension

    def initialize(self, extension: JunobenchExtension) -> None:  # type: ignore[override]
        """Keep the extension settings passed at registration."""
        self.extension = extension


class InfoHandler(_JunobenchHandler):
    """``GET /junobench/info``: version and effective settings."""

    @web.authenticated
    def get(self) -> None:
        """Return ``{"version", "tcp_nodelay", "demo_folder", "demo_available"}``."""
        from . import __version__

        ext = self.extension
        self.finish(
            json.dumps(
                {
                    "version": __version__,
                    "tcp_nodelay": bool(ext.nodelay_active),
                    "demo_folder": ext.demo_folder,
                    "demo_available": bundled_casebook(ext.demo_source) is not None,
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
            raise web.HTTPError(404, "No demo casebook is bundled with jupyterlab_junobench.")
        root = Path(getattr(self.contents_manager, "root_dir", None) or self.settings["server_root_dir"])
        loop = asyncio.get_running_loop()
        try:
            copy = await loop.run_in_executor(
                None, ensure_demo_copy, source, root.expanduser(), ext.demo_folder
            )
        except DemoFolderConflict as err:
            raise web.HTTPError(409, str(err)) from err
        except OSError as err:
            raise web.HTTPError(
                500, f"Could not copy the demo casebook into the server root: {err}"
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
        root_dir = getattr(manager, "root_dir", None)
        if not root_dir or not getattr(manager, "_get_os_path", None):
            raise web.HTTPError(404, "This server's contents are not on a local disk.")
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
            raise web.HTTPError(400, str(err)) from err
        except FileNotFoundError as err:
            raise web.HTTPError(404, str(err)) from err
        self.finish(json.dumps(tree))


class _AuthoringHandler(_JunobenchHandler):
    """Base of the ``POST /junobench/authoring/*`` handlers: server paths inside the root only."""

    auth_resource = "contents"

    def local_root(self) -> Path:
        """The server's contents root on disk; 404 when contents are not on a local disk."""
        manager = self.contents_manager
        root_dir = getattr(manager, "root_dir", None)
        if not root_dir or not getattr(manager, "_get_os_path", None):
            raise web.HTTPError(404, "This server's contents are not on a local disk.")
        return Path(root_dir).expanduser().resolve()

    def local_path(self, server_path: object, what: str) -> Path:
        """A server path (``a/b``, '' for the root) as a local path that stays inside the root."""
        if not isinstance(server_path, str):
            raise web.HTTPError(400, f"{what} must be a server path (text)")
        root = self.local_root()
        if server_path.strip("/") == "":
            return root
        try:
            rel = authoring.relative_part(server_path.strip("/"), what)
            return authoring.inside(root, rel)
        except authoring.AuthoringError as err:
            raise web.HTTPError(400, str(err)) from err

    def body(self) -> dict[str, Any]:
        """The JSON body of the request, as an object."""
        try:
            value = json.loads(self.request.body or b"{}")
        except ValueError as err:
            raise web.HTTPError(400, f"the request body is not JSON: {err}") from err
        if not isinstance(value, dict):
            raise web.HTTPError(400, "the request body must be a JSON object")
        return value

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
            raise web.HTTPError(400, str(err)) from err
        except OSError as err:
            raise web.HTTPError(500, f"could not write: {err}") from err
        answer = result.to_json() if isinstance(result, authoring.WriteResult) else {"draft": result}
        self.finish(json.dumps({"ok": True, **answer}))


class NewCasebookHandler(_AuthoringHandler):
    """``POST /junobench/authoring/casebook`` ``{"path"}``: create an empty casebook folder."""

    def writer_call(self, body: dict[str, Any]) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """Create the folder, ``benchmark/`` and the two descriptor workbooks."""
        path = self.local_path(body.get("path"), "casebook path")
        if path == self.local_root():
            raise web.HTTPError(400, "a new casebook needs a folder of its own, not the server root")
        return authoring.new_casebook, (path,)


class CaseHandler(_AuthoringHandler):
    """``POST /junobench/authoring/case`` ``{"casebook", "dataRoot", "spec"}``: write a case."""

    def writer_call(self, body: dict[str, Any]) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """Write the case folder and its rows (see :func:`authoring.write_case`)."""
        casebook = self.local_path(body.get("casebook"), "casebook path")
        data_root = self.local_path(body.get("dataRoot", ""), "notebook folder")
        return authoring.write_case, (body.get("spec"), casebook, data_root)


class FixedHandler(_AuthoringHandler):
    """``POST /junobench/authoring/fixed`` ``{"casebook", "case", "notebook"}``: the reference fix."""

    def writer_call(self, body: dict[str, Any]) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """Write ``<case>_fixed.ipynb``."""
        casebook = self.local_path(body.get("casebook"), "casebook path")
        return authoring.write_fixed, (casebook, body.get("case"), body.get("notebook"))


class DraftHandler(_AuthoringHandler):
    """``POST /junobench/authoring/draft`` ``{"casebook", "case", "reason"}``: draft or verified."""

    def writer_call(self, body: dict[str, Any]) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """Write DRAFT.md with the reason, or remove it when the reason is null."""
        casebook = self.local_path(body.get("casebook"), "casebook path")
        return authoring.set_draft, (casebook, body.get("case"), body.get("reason"))


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
            (url_path_join(base_url, "junobench", "authoring", "casebook"), NewCasebookHandler, kwargs),
            (url_path_join(base_url, "junobench", "authoring", "case"), CaseHandler, kwargs),
            (url_path_join(base_url, "junobench", "authoring", "fixed"), FixedHandler, kwargs),
            (url_path_join(base_url, "junobench", "authoring", "draft"), DraftHandler, kwargs),
        ],
    )
