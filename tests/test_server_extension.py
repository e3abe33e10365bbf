"""The JunoBench server extension, through a real Jupyter Server (pytest-jupyter).

Covers the ``/junobench/*`` REST handlers and that kernel websockets get
TCP_NODELAY on the server side (and do not when it is switched off).
"""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import uuid
from pathlib import Path
from typing import Any, TypeVar
from collections.abc import Coroutine

import pytest
from tornado.httpclient import HTTPClientError
from tornado.iostream import IOStream
from traitlets import TraitError

pytest.importorskip("pytest_jupyter", reason="needs pytest-jupyter[server]")

# Fixtures scoped to this module on purpose (see conftest.py).
from pytest_jupyter.jupyter_server import *  # noqa: F403

import jupyterlab_junobench
from jupyterlab_junobench import JunobenchExtension
from jupyterlab_junobench.casebook import DESCRIPTOR, bundled_casebook, count_cases

T = TypeVar("T")

CASES = ("case_crash_index", "case_crash_shape")


@pytest.fixture(autouse=True)
def _current_loop(jp_asyncio_loop: asyncio.AbstractEventLoop) -> None:
    """The server's loop as the thread's current one: tornado's client needs one when a request
    is made, and a test module run before (anyio's, jupyter_client's) may leave none (CI: "There
    is no current event loop in thread 'MainThread'")."""
    asyncio.set_event_loop(jp_asyncio_loop)


def run(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on the server's loop (the fixtures here are synchronous)."""
    return loop.run_until_complete(coro)


@pytest.fixture
def fake_casebook(tmp_path: Path) -> Path:
    """A tiny casebook standing in for the bundled demo."""
    book = tmp_path / "source_casebook"
    (book / "benchmark").mkdir(parents=True)
    (book / DESCRIPTOR).write_bytes(b"descriptor-bytes")
    (book / "diagnoses.xlsx").write_bytes(b"diagnoses-bytes")
    for case in CASES:
        (book / "benchmark" / case).mkdir()
        (book / "benchmark" / case / "notebook.ipynb").write_text(json.dumps({"case": case}))
    (book / "benchmark" / CASES[0] / "data.csv").write_text("a,b\n1,2\n")
    return book


@pytest.fixture
def junobench_overrides() -> dict[str, Any]:
    """Extra ``c.JunobenchExtension`` settings; tests parametrize this to change them."""
    return {}


@pytest.fixture
def junobench_config(fake_casebook: Path, junobench_overrides: dict[str, Any]) -> dict[str, Any]:
    """``c.JunobenchExtension`` settings: the fake casebook plus the test's overrides."""
    return {"demo_source": str(fake_casebook), **junobench_overrides}


@pytest.fixture
def jp_server_config(junobench_config: dict[str, Any]) -> dict[str, Any]:
    """Enable our extension (the test environment hides installed config files)."""
    return {
        "ServerApp": {"jpserver_extensions": {"jupyterlab_junobench": True}},
        "JunobenchExtension": dict(junobench_config),
    }


def _get_json(loop: asyncio.AbstractEventLoop, jp_fetch: Any, *parts: str) -> Any:
    response = run(loop, jp_fetch(*parts, method="GET"))
    assert response.code == 200
    return json.loads(response.body.decode())


def _post_json(loop: asyncio.AbstractEventLoop, jp_fetch: Any, *parts: str) -> Any:
    response = run(loop, jp_fetch(*parts, method="POST", body=""))
    assert response.code == 200
    return json.loads(response.body.decode())


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


# --- demo casebook ----------------------------------------------------------------


def test_demo_casebook_is_copied_once_and_never_overwritten(
    jp_serverapp: Any, jp_fetch: Any, jp_root_dir: Path, fake_casebook: Path, jp_asyncio_loop: Any
) -> None:
    target = jp_root_dir / "JunoBench-demo"
    assert not target.exists()

    first = _post_json(jp_asyncio_loop, jp_fetch, "junobench", "demo-casebook")
    assert first == {"path": "JunoBench-demo", "created": True, "cases": len(CASES)}
    assert _tree(target) == _tree(fake_casebook)
    # Staging folders are cleaned up; only the copy is left in the root.
    assert [p.name for p in jp_root_dir.iterdir()] == ["JunoBench-demo"]

    # The user edits the copy (that is the point of a practice room) ...
    edited = target / "benchmark" / CASES[0] / "notebook.ipynb"
    edited.write_text("my repair")
    (target / "my-notes.txt").write_text("keep me")

    # ... and asking again changes nothing.
    second = _post_json(jp_asyncio_loop, jp_fetch, "junobench", "demo-casebook")
    assert second == {"path": "JunoBench-demo", "created": False, "cases": len(CASES)}
    assert edited.read_text() == "my repair"
    assert (target / "my-notes.txt").read_text() == "keep me"


def test_demo_casebook_get_writes_nothing(
    jp_serverapp: Any, jp_fetch: Any, jp_root_dir: Path, jp_asyncio_loop: Any
) -> None:
    # A GET can be triggered by a page elsewhere (an <img src>): it must not write.
    with pytest.raises(HTTPClientError) as info:
        run(jp_asyncio_loop, jp_fetch("junobench", "demo-casebook", method="GET"))
    assert info.value.code == 405
    assert list(jp_root_dir.iterdir()) == []


def test_demo_casebook_refuses_a_foreign_folder(
    jp_serverapp: Any, jp_fetch: Any, jp_root_dir: Path, jp_asyncio_loop: Any
) -> None:
    foreign = jp_root_dir / "JunoBench-demo"
    foreign.mkdir()
    (foreign / "thesis.tex").write_text("precious")

    with pytest.raises(HTTPClientError) as info:
        run(jp_asyncio_loop, jp_fetch("junobench", "demo-casebook", method="POST", body=""))
    assert info.value.code == 409
    body = json.loads(info.value.response.body.decode())
    assert body["code"] == "demo-folder-taken" and body["folder"] == "JunoBench-demo"
    assert "not a JunoBench casebook" in body["message"]
    assert _tree(foreign) == {"thesis.tex": b"precious"}
    assert [p.name for p in jp_root_dir.iterdir()] == ["JunoBench-demo"]


def test_demo_casebook_refuses_a_file_of_that_name(
    jp_serverapp: Any, jp_fetch: Any, jp_root_dir: Path, jp_asyncio_loop: Any
) -> None:
    (jp_root_dir / "JunoBench-demo").write_text("a file")
    with pytest.raises(HTTPClientError) as info:
        run(jp_asyncio_loop, jp_fetch("junobench", "demo-casebook", method="POST", body=""))
    assert info.value.code == 409
    assert json.loads(info.value.response.body.decode())["code"] == "demo-folder-taken"
    assert (jp_root_dir / "JunoBench-demo").read_text() == "a file"


@pytest.mark.parametrize("junobench_overrides", [{"demo_folder": "Practice Room"}])
def test_demo_folder_is_configurable(
    jp_serverapp: Any, jp_fetch: Any, jp_root_dir: Path, jp_asyncio_loop: Any
) -> None:
    folder = "Practice Room"
    assert _post_json(jp_asyncio_loop, jp_fetch, "junobench", "demo-casebook")["path"] == folder
    assert (jp_root_dir / folder / DESCRIPTOR).is_file()
    assert _get_json(jp_asyncio_loop, jp_fetch, "junobench", "info")["demo_folder"] == folder


@pytest.mark.parametrize("junobench_overrides", [{"demo_source": "/nonexistent/casebook"}])
def test_demo_casebook_missing_source_is_404(
    jp_serverapp: Any, jp_fetch: Any, jp_root_dir: Path, jp_asyncio_loop: Any
) -> None:
    with pytest.raises(HTTPClientError) as info:
        run(jp_asyncio_loop, jp_fetch("junobench", "demo-casebook", method="POST", body=""))
    assert info.value.code == 404
    body = json.loads(info.value.response.body.decode())
    assert body["code"] == "no-demo" and "No demo casebook" in body["message"]
    assert list(jp_root_dir.iterdir()) == []


@pytest.mark.parametrize("junobench_overrides", [{"demo_source": ""}])
def test_bundled_demo_casebook(
    jp_serverapp: Any, jp_fetch: Any, jp_root_dir: Path, jp_asyncio_loop: Any
) -> None:
    source = bundled_casebook()
    if source is None:
        pytest.skip("no demo casebook bundled (demo/casebook absent in this checkout)")
    result = _post_json(jp_asyncio_loop, jp_fetch, "junobench", "demo-casebook")
    assert result["created"] is True
    assert result["cases"] == count_cases(source) > 0
    assert (jp_root_dir / "JunoBench-demo" / DESCRIPTOR).is_file()


def test_demo_folder_must_be_one_name() -> None:
    for bad in ["", ".", "..", "a/b", "../escape", "/abs"]:
        with pytest.raises(TraitError):
            JunobenchExtension(demo_folder=bad)
    assert JunobenchExtension(demo_folder="My Demo").demo_folder == "My Demo"


def test_demo_handler_requires_authentication(
    jp_serverapp: Any, jp_fetch: Any, jp_root_dir: Path, jp_asyncio_loop: Any
) -> None:
    with pytest.raises(HTTPClientError) as info:
        run(
            jp_asyncio_loop,
            jp_fetch("junobench", "demo-casebook", method="POST", body="", headers={"Authorization": ""}),
        )
    assert info.value.code in (401, 403)
    assert list(jp_root_dir.iterdir()) == []


# --- tree ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path, status, refusal",
    [
        ("../secret", 400, {"code": "path-outside-root", "path": "../secret"}),
        ("book/.git", 400, {"code": "path-hidden", "path": "book/.git"}),
        ("nope", 404, {"code": "no-folder", "path": "nope"}),
    ],
)
def test_tree_refusals_are_codes(
    jp_serverapp: Any, jp_fetch: Any, jp_root_dir: Path, jp_asyncio_loop: Any,
    path: str, status: int, refusal: dict[str, Any],
) -> None:
    (jp_root_dir / "book" / ".git").mkdir(parents=True)
    with pytest.raises(HTTPClientError) as info:
        run(jp_asyncio_loop, jp_fetch("junobench", "tree", params={"path": path}, method="GET"))
    assert info.value.code == status
    body = json.loads(info.value.response.body.decode())
    assert {k: v for k, v in body.items() if k not in ("message", "reason")} == refusal
    assert body["message"]


# --- info ---------------------------------------------------------------------------


def test_info(jp_serverapp: Any, jp_fetch: Any, jp_asyncio_loop: Any) -> None:
    info = _get_json(jp_asyncio_loop, jp_fetch, "junobench", "info")
    assert info == {
        "version": jupyterlab_junobench.__version__,
        "tcp_nodelay": True,
        "demo_folder": "JunoBench-demo",
        "demo_available": True,
        "fetch_allowed": True,
    }


# --- TCP_NODELAY on kernel websockets -----------------------------------------------


def _server_side_stream(client_sockname: tuple[Any, ...]) -> IOStream:
    """Find the server's IOStream whose peer is the given client socket address."""
    matches = []
    for obj in gc.get_objects():
        if isinstance(obj, IOStream) and obj.socket is not None:
            try:
                peer = obj.socket.getpeername()
            except OSError:
                continue
            if tuple(peer[:2]) == tuple(client_sockname[:2]) and obj.socket.getsockname() != peer:
                matches.append(obj)
    assert len(matches) == 1, f"expected one server-side stream, found {len(matches)}"
    return matches[0]


async def _kernel_info_round_trip(ws: Any) -> None:
    session = uuid.uuid4().hex
    msg_id = uuid.uuid4().hex
    await ws.write_message(
        json.dumps(
            {
                "header": {
                    "msg_id": msg_id,
                    "msg_type": "kernel_info_request",
                    "username": "test",
                    "session": session,
                    "version": "5.3",
                    "date": "2024-01-01T00:00:00.000000Z",
                },
                "parent_header": {},
                "metadata": {},
                "content": {},
                "channel": "shell",
                "buffers": [],
            }
        )
    )
    while True:
        raw = await asyncio.wait_for(ws.read_message(), timeout=60)
        assert raw is not None, "kernel websocket closed"
        if isinstance(raw, bytes):
            continue
        msg = json.loads(raw)
        if msg.get("parent_header", {}).get("msg_id") == msg_id and msg["channel"] == "shell":
            assert msg["header"]["msg_type"] == "kernel_info_reply"
            return


def _server_nodelay_of_kernel_websocket(jp_fetch: Any, jp_ws_fetch: Any, loop: Any) -> int:
    async def scenario() -> int:
        response = await jp_fetch(
            "api", "kernels", method="POST", body=json.dumps({"name": "python3"})
        )
        kernel_id = json.loads(response.body.decode())["id"]
        ws = await jp_ws_fetch(
            "api", "kernels", kernel_id, "channels", params={"session_id": uuid.uuid4().hex}
        )
        try:
            await _kernel_info_round_trip(ws)
            client = ws.stream.socket
            assert client.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) is not None
            server_stream = _server_side_stream(client.getsockname())
            return server_stream.socket.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        finally:
            ws.close()
            await jp_fetch("api", "kernels", kernel_id, method="DELETE")

    return run(loop, scenario())


def test_kernel_websocket_has_tcp_nodelay(
    jp_serverapp: Any, jp_fetch: Any, jp_ws_fetch: Any, jp_asyncio_loop: Any
) -> None:
    assert _server_nodelay_of_kernel_websocket(jp_fetch, jp_ws_fetch, jp_asyncio_loop) != 0


@pytest.mark.parametrize("junobench_overrides", [{"tcp_nodelay": False}])
def test_kernel_websocket_keeps_nagle_when_disabled(
    jp_serverapp: Any, jp_fetch: Any, jp_ws_fetch: Any, jp_asyncio_loop: Any
) -> None:
    assert _server_nodelay_of_kernel_websocket(jp_fetch, jp_ws_fetch, jp_asyncio_loop) == 0
    assert _get_json(jp_asyncio_loop, jp_fetch, "junobench", "info")["tcp_nodelay"] is False


def test_tree_lists_the_casebook_as_the_contents_api_does(
    jp_serverapp: Any, jp_fetch: Any, jp_root_dir: Path, jp_asyncio_loop: Any
) -> None:
    _post_json(jp_asyncio_loop, jp_fetch, "junobench", "demo-casebook")
    response = run(
        jp_asyncio_loop,
        jp_fetch("junobench", "tree", method="GET", params={"path": "JunoBench-demo"}),
    )
    tree = json.loads(response.body)
    assert tree["complete"] is True
    for folder, entries in tree["folders"].items():
        server_path = "/".join(p for p in ("JunoBench-demo", folder) if p)
        model = _get_json(jp_asyncio_loop, jp_fetch, "api", "contents", *server_path.split("/"))
        # The source sees notebooks as files, as the loader's Contents source does.
        expected = sorted(
            (c["name"], "directory", None)
            if c["type"] == "directory"
            else (c["name"], "file", c["size"])
            for c in model["content"]
        )
        got = sorted((e["name"], e["type"], e.get("size")) for e in entries)
        assert got == expected, folder
    assert set(tree["folders"]) >= {"", "benchmark"}


@pytest.mark.parametrize("path, status", [("../etc", 400), ("no-such-folder", 404)])
def test_tree_refuses_bad_paths(
    jp_serverapp: Any, jp_fetch: Any, jp_asyncio_loop: Any, path: str, status: int
) -> None:
    with pytest.raises(HTTPClientError) as err:
        run(jp_asyncio_loop, jp_fetch("junobench", "tree", method="GET", params={"path": path}))
    assert err.value.code == status
