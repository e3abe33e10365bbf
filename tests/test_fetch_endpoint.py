"""The "Fetch this case" endpoint of the server extension, against a local JunoBench-like repository.

``POST /junobench/fetch-case`` fetches one case folder into a sparse copy under
the server root (made by ``junobench fetch --cases``), from the source recorded
in that copy; ``GET /junobench/fetch-jobs/<id>`` follows it. It is off when
``allow_fetch`` is off and refuses paths outside the root, copies it did not
make, bad case names and GETs.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from tornado.httpclient import HTTPClientError

pytest.importorskip("pytest_jupyter", reason="needs pytest-jupyter[server]")
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

from pytest_jupyter.jupyter_server import *  # noqa: E402,F403

from _fetch_fixture import FIXTURE  # noqa: E402
from jupyterlab_junobench.sparse import fetch_cases  # noqa: E402





@pytest.fixture
def allow_fetch() -> bool:
    """``c.JunobenchExtension.allow_fetch``; tests parametrize it."""
    return True


@pytest.fixture
def jp_server_config(allow_fetch: bool) -> dict[str, Any]:
    """Enable our extension with the test's allow_fetch."""
    return {
        "ServerApp": {"jpserver_extensions": {"jupyterlab_junobench": True}},
        "JunobenchExtension": {"allow_fetch": allow_fetch},
    }


@pytest.fixture
def sparse_copy(jp_root_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sparse copy of the fixture under the server root, with only sklearn_1."""
    source = FIXTURE.build(tmp_path_factory.mktemp("src") / "JunoBench-src")
    copy = jp_root_dir / "real"
    fetch_cases(copy, ["sklearn_1"], source["path"])
    return copy


def run(loop: asyncio.AbstractEventLoop, coro: Any) -> Any:
    """Run ``coro`` on the server's loop."""
    return loop.run_until_complete(coro)


def _post(loop: Any, jp_fetch: Any, body: Any) -> Any:
    return run(loop, jp_fetch("junobench", "fetch-case", method="POST", body=json.dumps(body)))


def _error(loop: Any, jp_fetch: Any, body: Any) -> HTTPClientError:
    with pytest.raises(HTTPClientError) as info:
        _post(loop, jp_fetch, body)
    return info.value


def _wait(loop: Any, jp_fetch: Any, job_id: str) -> dict[str, Any]:
    for _ in range(600):
        response = run(loop, jp_fetch("junobench", "fetch-jobs", job_id, method="GET"))
        job = json.loads(response.body.decode())
        if job["state"] != "running":
            return job
        run(loop, asyncio.sleep(0.05))
    raise AssertionError("the fetch did not finish in 30 s")


def test_fetch_this_case_adds_the_folder(
    jp_serverapp: Any, jp_fetch: Any, jp_asyncio_loop: Any, sparse_copy: Path
) -> None:
    source = json.loads(
        run(jp_asyncio_loop, jp_fetch("junobench", "fetch-source", params={"path": "real/JunoBench"})).body
    )
    assert source["fetchable"] is True and source["cases"] == ["sklearn_1"]
    response = _post(jp_asyncio_loop, jp_fetch, {"path": "real/JunoBench", "case": "NBspecific_1"})
    assert response.code == 202
    job = _wait(jp_asyncio_loop, jp_fetch, json.loads(response.body)["id"])
    assert job["state"] == "done", job
    assert job["summary"]["added"] == ["NBspecific_1"]
    case = sparse_copy / "JunoBench" / "benchmark" / "NBspecific_1"
    assert (case / "NBspecific_1_reproduced.ipynb").is_file()
    assert sorted(p.name for p in (sparse_copy / "JunoBench" / "benchmark").iterdir()) == ["NBspecific_1", "sklearn_1"]
    assert "copy" not in job, "the job does not tell the client server-side paths"


def test_an_unknown_case_fails_with_its_name(
    jp_serverapp: Any, jp_fetch: Any, jp_asyncio_loop: Any, sparse_copy: Path
) -> None:
    response = _post(jp_asyncio_loop, jp_fetch, {"path": "real/JunoBench", "case": "sklearn_99"})
    job = _wait(jp_asyncio_loop, jp_fetch, json.loads(response.body)["id"])
    assert job["state"] == "failed" and "no case folder sklearn_99" in job["error"]


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"path": "../outside", "case": "sklearn_2"}, 400, "leaves the server root"),
        ({"path": "real/../../x", "case": "sklearn_2"}, 400, "leaves the server root"),
        ({"path": "real/JunoBench", "case": "../sklearn_2"}, 400, "is not a case name"),
        ({"path": "real/JunoBench", "case": ".git"}, 400, "is not a case name"),
        ({"path": "real/JunoBench"}, 400, "Expected"),
        ({"path": "nowhere", "case": "sklearn_2"}, 404, "No casebook folder"),
        ({"path": "plain", "case": "sklearn_2"}, 409, "was not made by `junobench fetch --cases`"),
        ({"path": "real/JunoBench/benchmark", "case": "sklearn_2"}, 409, "was not made by"),
    ],
)
def test_bad_requests_are_refused_and_write_nothing(
    jp_serverapp: Any,
    jp_fetch: Any,
    jp_asyncio_loop: Any,
    jp_root_dir: Path,
    sparse_copy: Path,
    body: dict[str, str],
    code: int,
    words: str,
) -> None:
    (jp_root_dir / "plain").mkdir()
    error = _error(jp_asyncio_loop, jp_fetch, body)
    assert error.code == code
    assert words in error.response.body.decode()
    assert sorted(p.name for p in (sparse_copy / "JunoBench" / "benchmark").iterdir()) == ["sklearn_1"]


def test_a_symlink_out_of_the_root_is_refused(
    jp_serverapp: Any, jp_fetch: Any, jp_asyncio_loop: Any, jp_root_dir: Path, sparse_copy: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside-copy"
    shutil.copytree(sparse_copy, outside, symlinks=True)
    (jp_root_dir / "link").symlink_to(outside)
    error = _error(jp_asyncio_loop, jp_fetch, {"path": "link/JunoBench", "case": "sklearn_2"})
    assert error.code == 400
    assert not (outside / "JunoBench" / "benchmark" / "sklearn_2").exists()


def test_get_on_fetch_case_writes_nothing(
    jp_serverapp: Any, jp_fetch: Any, jp_asyncio_loop: Any, sparse_copy: Path
) -> None:
    with pytest.raises(HTTPClientError) as info:
        run(jp_asyncio_loop, jp_fetch("junobench", "fetch-case", method="GET"))
    assert info.value.code == 405


@pytest.mark.parametrize("allow_fetch", [False])
def test_off_when_the_setting_is_off(
    jp_serverapp: Any, jp_fetch: Any, jp_asyncio_loop: Any, sparse_copy: Path
) -> None:
    error = _error(jp_asyncio_loop, jp_fetch, {"path": "real/JunoBench", "case": "sklearn_2"})
    assert error.code == 403 and "turned off" in error.response.body.decode()
    source = json.loads(
        run(jp_asyncio_loop, jp_fetch("junobench", "fetch-source", params={"path": "real/JunoBench"})).body
    )
    assert source["allowed"] is False and source["fetchable"] is False and "turned off" in source["reason"]
    info = json.loads(run(jp_asyncio_loop, jp_fetch("junobench", "info")).body)
    assert info["fetch_allowed"] is False
    assert not (sparse_copy / "JunoBench" / "benchmark" / "sklearn_2").exists()
