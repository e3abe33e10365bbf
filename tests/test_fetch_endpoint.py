"""The "Fetch this case" endpoint of the server extension, against a local JunoBench-like repository.

``POST /junobench/fetch-case`` fetches one case folder into a sparse copy under
the server root (made by ``junobench fetch --cases``), from the source recorded
in that copy; ``GET /junobench/fetch-jobs/<id>`` follows it. It is off when
``allow_fetch`` is off and refuses paths outside the root, copies it did not
make, bad case names and GETs. Each refusal, a job's progress and its failure
are codes with their parameters (the panel words them); ``message`` is English
for logs and ``curl``.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
from tornado.httpclient import HTTPClientError

pytest.importorskip("pytest_jupyter", reason="needs pytest-jupyter[server]")
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

from pytest_jupyter.jupyter_server import *  # noqa: E402,F403

from _fetch_fixture import FIXTURE  # noqa: E402
from jupyterlab_junobench import handlers  # noqa: E402
from jupyterlab_junobench.sparse import Progress, fetch_cases  # noqa: E402


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


def _refusal(error: HTTPClientError) -> dict[str, Any]:
    """The code and parameters of a refusal's body (its English ``message`` checked and left out)."""
    reply = json.loads(error.response.body.decode())
    message = reply.pop("message")
    assert isinstance(message, str) and message, "English for logs and curl"
    reply.pop("reason", None)  # the HTTP reason phrase jupyter_server adds
    return reply


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
    assert job["progress"] == {"code": "done", "message": "done"}
    assert "detail" not in job, "what the job is doing is a code, not words"
    case = sparse_copy / "JunoBench" / "benchmark" / "NBspecific_1"
    assert (case / "NBspecific_1_reproduced.ipynb").is_file()
    assert sorted(p.name for p in (sparse_copy / "JunoBench" / "benchmark").iterdir()) == ["NBspecific_1", "sklearn_1"]
    assert "copy" not in job, "the job does not tell the client server-side paths"


def test_a_running_job_says_what_it_does_as_a_code_with_parameters(
    jp_serverapp: Any, jp_fetch: Any, jp_asyncio_loop: Any, sparse_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reported, release = threading.Event(), threading.Event()

    def fetching(_copy: Path, cases: list[str], *, progress: Any) -> Any:
        progress(Progress("lfs", 50.0, "lfs-files", {"done": 1, "total": 2}))
        progress(Progress("checkout", None, "checkout", {"cases": ["sklearn_1", *cases]}))
        reported.set()
        release.wait(30)
        return fetch_cases(_copy, cases)

    monkeypatch.setattr(handlers, "fetch_cases", fetching)
    response = _post(jp_asyncio_loop, jp_fetch, {"path": "real/JunoBench", "case": "numpy_1"})
    job_id = json.loads(response.body)["id"]
    try:
        assert reported.wait(30)
        job = json.loads(run(jp_asyncio_loop, jp_fetch("junobench", "fetch-jobs", job_id, method="GET")).body)
        assert job["state"] == "running"
        assert (job["phase"], job["percent"]) == ("checkout", None)
        assert job["progress"] == {
            "code": "checkout",
            "cases": ["sklearn_1", "numpy_1"],
            "message": "checking out the descriptor files and 2 case folder(s): sklearn_1, numpy_1",
        }
    finally:
        release.set()
    assert _wait(jp_asyncio_loop, jp_fetch, job_id)["state"] == "done"


def test_an_unknown_case_fails_with_its_name(
    jp_serverapp: Any, jp_fetch: Any, jp_asyncio_loop: Any, sparse_copy: Path
) -> None:
    response = _post(jp_asyncio_loop, jp_fetch, {"path": "real/JunoBench", "case": "sklearn_99"})
    job = _wait(jp_asyncio_loop, jp_fetch, json.loads(response.body)["id"])
    assert job["state"] == "failed"
    error = job["error"]
    assert "no case folder sklearn_99" in error.pop("message")
    assert error == {
        "code": "unknown-case",
        "source": error["source"],
        "cases": ["sklearn_99"],
        "available": 10,
        "folder": "JunoBench/benchmark/",
    }


@pytest.mark.parametrize(
    ("body", "status", "refusal"),
    [
        ({"path": "../outside", "case": "sklearn_2"}, 400, {"code": "path-outside-root", "path": "../outside"}),
        ({"path": "real/../../x", "case": "sklearn_2"}, 400, {"code": "path-outside-root", "path": "real/../../x"}),
        (
            {"path": "real/JunoBench", "case": "../sklearn_2"},
            400,
            {"code": "bad-case-name", "name": "../sklearn_2", "problem": {"code": "dot-dot-segment"}},
        ),
        (
            {"path": "real/JunoBench", "case": ".git"},
            400,
            {"code": "bad-case-name", "name": ".git", "problem": {"code": "hidden"}},
        ),
        ({"path": "real/JunoBench"}, 400, {"code": "fetch-request"}),
        ({"path": "nowhere", "case": "sklearn_2"}, 404, {"code": "no-folder", "path": "nowhere"}),
        ({"path": "plain", "case": "sklearn_2"}, 409, {"code": "not-fetched-copy", "path": "plain"}),
        (
            {"path": "real/JunoBench/benchmark", "case": "sklearn_2"},
            409,
            {"code": "not-fetched-copy", "path": "real/JunoBench/benchmark"},
        ),
    ],
)
def test_bad_requests_are_refused_with_a_code_and_write_nothing(
    jp_serverapp: Any,
    jp_fetch: Any,
    jp_asyncio_loop: Any,
    jp_root_dir: Path,
    sparse_copy: Path,
    body: dict[str, str],
    status: int,
    refusal: dict[str, Any],
) -> None:
    (jp_root_dir / "plain").mkdir()
    error = _error(jp_asyncio_loop, jp_fetch, body)
    assert error.code == status
    assert _refusal(error) == refusal
    assert sorted(p.name for p in (sparse_copy / "JunoBench" / "benchmark").iterdir()) == ["sklearn_1"]


@pytest.mark.parametrize(("raw", "code", "params"), [("{", "body-not-json", ["detail"]), ("[]", "body-not-object", [])])
def test_a_body_that_is_not_an_object_is_refused_with_a_code(
    jp_serverapp: Any, jp_fetch: Any, jp_asyncio_loop: Any, raw: str, code: str, params: list[str]
) -> None:
    with pytest.raises(HTTPClientError) as info:
        run(jp_asyncio_loop, jp_fetch("junobench", "fetch-case", method="POST", body=raw))
    assert info.value.code == 400
    reply = _refusal(info.value)
    assert reply["code"] == code and sorted(reply) == sorted(["code", *params])


def test_an_unknown_job_is_a_code_with_its_id(jp_serverapp: Any, jp_fetch: Any, jp_asyncio_loop: Any) -> None:
    job_id = "0123456789abcdef0123456789abcdef"
    with pytest.raises(HTTPClientError) as info:
        run(jp_asyncio_loop, jp_fetch("junobench", "fetch-jobs", job_id, method="GET"))
    assert info.value.code == 404
    assert _refusal(info.value) == {"code": "no-fetch-job", "id": job_id}


def test_a_casebook_not_made_by_a_sparse_fetch_says_why_as_a_code(
    jp_serverapp: Any, jp_fetch: Any, jp_asyncio_loop: Any, jp_root_dir: Path
) -> None:
    (jp_root_dir / "plain").mkdir()
    source = json.loads(run(jp_asyncio_loop, jp_fetch("junobench", "fetch-source", params={"path": "plain"})).body)
    assert source["fetchable"] is False and source["source"] is None
    assert source["reason"]["code"] == "not-fetched-copy" and source["reason"]["path"] == "plain"
    assert "junobench fetch" in source["reason"]["message"]


def test_a_symlink_out_of_the_root_is_refused(
    jp_serverapp: Any, jp_fetch: Any, jp_asyncio_loop: Any, jp_root_dir: Path, sparse_copy: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside-copy"
    shutil.copytree(sparse_copy, outside, symlinks=True)
    (jp_root_dir / "link").symlink_to(outside)
    error = _error(jp_asyncio_loop, jp_fetch, {"path": "link/JunoBench", "case": "sklearn_2"})
    assert error.code == 400
    assert _refusal(error) == {"code": "path-outside-root", "path": "link/JunoBench"}
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
    assert error.code == 403 and _refusal(error) == {"code": "fetch-off"}
    source = json.loads(
        run(jp_asyncio_loop, jp_fetch("junobench", "fetch-source", params={"path": "real/JunoBench"})).body
    )
    assert source["allowed"] is False and source["fetchable"] is False
    assert source["reason"] == {
        "code": "fetch-off",
        "message": "Fetching cases is turned off on this server (c.JunobenchExtension.allow_fetch).",
    }
    info = json.loads(run(jp_asyncio_loop, jp_fetch("junobench", "info")).body)
    assert info["fetch_allowed"] is False
    assert not (sparse_copy / "JunoBench" / "benchmark" / "sklearn_2").exists()
