"""The case writer (``jupyterlab_junobench.authoring``) and its REST handlers on a real Jupyter Server."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, TypeVar
from collections.abc import Coroutine

import pytest
from tornado.httpclient import HTTPClientError

pytest.importorskip("pytest_jupyter", reason="needs pytest-jupyter[server]")
openpyxl = pytest.importorskip("openpyxl")

from pytest_jupyter.jupyter_server import *  # noqa: E402,F403

from jupyterlab_junobench import authoring  # noqa: E402
from jupyterlab_junobench.names import describe_name_problem  # noqa: E402

T = TypeVar("T")


def run(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on the server's loop."""
    return loop.run_until_complete(coro)


@pytest.fixture
def jp_server_config() -> dict[str, Any]:
    """Enable our extension (the test environment hides installed config files)."""
    return {"ServerApp": {"jpserver_extensions": {"jupyterlab_junobench": True}}}


def post(loop: asyncio.AbstractEventLoop, jp_fetch: Any, what: str, body: dict[str, Any]) -> Any:
    response = run(loop, jp_fetch("junobench", "authoring", what, method="POST", body=json.dumps(body)))
    assert response.code == 200
    return json.loads(response.body.decode())


def post_error(loop: asyncio.AbstractEventLoop, jp_fetch: Any, what: str, body: Any) -> tuple[int, dict[str, Any]]:
    """The status and the JSON body of a refused POST (a ``str`` body is sent as it is)."""
    with pytest.raises(HTTPClientError) as info:
        run(loop, jp_fetch("junobench", "authoring", what, method="POST",
                           body=body if isinstance(body, str) else json.dumps(body)))
    assert info.value.response is not None
    return info.value.code, json.loads(info.value.response.body.decode())


def notebook(crash: bool = True) -> dict[str, Any]:
    outputs = [{"output_type": "error", "ename": "NameError", "evalue": "name 'x' is not defined",
                "traceback": ["\x1b[0;31mNameError\x1b[0m: name 'x' is not defined"]}] if crash else []
    return {"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "source": "print(x)", "execution_count": 1, "outputs": outputs}]}


def spec(case: str, **extra: Any) -> dict[str, Any]:
    return {
        "case": case,
        "notebooks": {"original": notebook(), "reproduced": notebook(), "fixed": None},
        "row": {"ename": "nameerror", "evalue": "name 'x' is not defined",
                "traceback": ["NameError: name 'x' is not defined"], "label_root_cause": "NB specific",
                "datasets": [{"title": "Données", "license": "CC0", "url": ""}]},
        "diagnosis": "x is defined in a later cell.",
        "draft": "not verified yet",
        **extra,
    }


def rows(path: Path) -> list[tuple[Any, ...]]:
    wb = openpyxl.load_workbook(path)
    return [tuple(r) for r in wb.worksheets[0].iter_rows(values_only=True)]


def test_new_casebook_then_case_fix_and_draft(jp_serverapp: Any, jp_fetch: Any, jp_root_dir: Path,
                                              jp_asyncio_loop: Any) -> None:
    created = post(jp_asyncio_loop, jp_fetch, "casebook", {"path": "courses/mine"})
    book = jp_root_dir / "courses" / "mine"
    assert created["ok"] is True
    assert (book / "benchmark_desc.xlsx").is_file() and (book / "benchmark").is_dir()
    assert rows(book / "benchmark_desc.xlsx") == [tuple(authoring.DESCRIPTOR_COLUMNS)]

    (jp_root_dir / "work" / "data").mkdir(parents=True)
    (jp_root_dir / "work" / "data" / "in.csv").write_text("a\n1\n")
    written = post(jp_asyncio_loop, jp_fetch, "case", {
        "casebook": "courses/mine", "dataRoot": "work", "spec": spec("NBspecific_1", data=["data/in.csv"])})
    folder = book / "benchmark" / "NBspecific_1"
    assert "benchmark/NBspecific_1/data/in.csv" in written["files"]
    assert (folder / "data" / "in.csv").read_text() == "a\n1\n"
    assert "draft" in (folder / "DRAFT.md").read_text().lower()
    table = rows(book / "benchmark_desc.xlsx")
    assert table[1][0] == "NBspecific_1" and table[1][2] == "nameerror"
    assert table[1][4] == repr(["NameError: name 'x' is not defined"])
    assert table[1][9] == "Données"

    post(jp_asyncio_loop, jp_fetch, "fixed", {"casebook": "courses/mine", "case": "NBspecific_1",
                                              "notebook": notebook(crash=False)})
    assert json.loads((folder / "NBspecific_1_fixed.ipynb").read_text())["cells"][0]["outputs"] == []
    post(jp_asyncio_loop, jp_fetch, "draft", {"casebook": "courses/mine", "case": "NBspecific_1", "reason": None})
    assert not (folder / "DRAFT.md").exists()


@pytest.mark.parametrize(
    "what, body, refusal, message",
    [
        ("casebook", {"path": "../outside"},
         {"code": "authoring", "problem": {"code": "path-dot-dot", "field": "casebook", "path": "../outside"}},
         'casebook path "../outside" has a ".." segment'),
        ("casebook", {"path": ""}, {"code": "casebook-is-root"}, "not the server root"),
        ("casebook", {"path": 3}, {"code": "not-a-server-path", "field": "casebook"}, "server path"),
        ("casebook", "{", {"code": "body-not-json"}, "not JSON"),
        ("casebook", "[1]", {"code": "body-not-object"}, "JSON object"),
        ("case", {"casebook": "a/../../etc", "spec": {}},
         {"code": "authoring", "problem": {"code": "path-dot-dot", "field": "casebook", "path": "a/../../etc"}},
         'has a ".." segment'),
        ("case", {"casebook": "book", "dataRoot": "a\\b", "spec": {}},
         {"code": "authoring", "problem": {"code": "path-backslash", "field": "notebook-folder", "path": "a\\b"}},
         "notebook folder"),
        ("case", {"casebook": "book", "spec": {}},
         {"code": "authoring", "problem": {"code": "bad-case-name", "name": None, "problem": {"code": "empty"}}},
         "case name null cannot be used: it is empty"),
        ("case", {"casebook": "book", "spec": spec("../evil")},
         {"code": "authoring",
          "problem": {"code": "bad-case-name", "name": "../evil", "problem": {"code": "dot-dot-segment"}}},
         'case name "../evil" cannot be used: it has a ".." segment'),
        ("case", {"casebook": "book", "dataRoot": "", "spec": spec("ok_1", data=["../x"])},
         {"code": "authoring",
          "problem": {"code": "path-dot-dot", "field": "data", "path": "../x", "case": "ok_1"}},
         'case ok_1: data path "../x" has a ".." segment'),
        ("case", {"casebook": "book", "spec": spec("NBspecific_1")},
         {"code": "authoring", "problem": {"code": "case-exists", "case": "NBspecific_1", "row": 2,
                                           "file": "benchmark_desc.xlsx", "folder": "benchmark/NBspecific_1"}},
         "case NBspecific_1 already exists"),
        ("case", {"casebook": "book", "spec": {**spec("ok_2"), "notebooks": {"reproduced": {"cells": 3}}}},
         {"code": "authoring", "problem": {"code": "nbformat", "file": "ok_2_reproduced.ipynb", "nbformat": None}},
         "ok_2_reproduced.ipynb: nbformat null is not 4"),
        ("fixed", {"casebook": "book", "case": "nope_1", "notebook": notebook()},
         {"code": "authoring", "problem": {"code": "no-case-folder", "case": "nope_1", "folder": "benchmark/nope_1"}},
         "case nope_1 has no folder"),
    ],
)
def test_bad_input_is_refused_with_a_code(jp_serverapp: Any, jp_fetch: Any, jp_root_dir: Path,
                                          jp_asyncio_loop: Any, what: str, body: Any,
                                          refusal: dict[str, Any], message: str) -> None:
    post(jp_asyncio_loop, jp_fetch, "casebook", {"path": "book"})
    post(jp_asyncio_loop, jp_fetch, "case", {"casebook": "book", "spec": spec("NBspecific_1")})
    before = (jp_root_dir / "book" / "benchmark_desc.xlsx").read_bytes()
    code, reply = post_error(jp_asyncio_loop, jp_fetch, what, body)
    assert code == 400
    # The code and its parameters (server paths in them left out here), and English for logs.
    assert reply["code"] == refusal["code"]
    for key, value in refusal.items():
        if key == "problem":
            assert {k: reply["problem"][k] for k in value} == value
            assert "message" not in reply["problem"]
        else:
            assert reply[key] == value
    assert message in reply["message"]
    assert (jp_root_dir / "book" / "benchmark_desc.xlsx").read_bytes() == before
    assert not (jp_root_dir.parent / "outside").exists()
    assert not (jp_root_dir / "evil").exists()


def test_a_get_writes_nothing_and_anonymous_posts_are_refused(jp_serverapp: Any, jp_fetch: Any,
                                                              jp_root_dir: Path, jp_asyncio_loop: Any) -> None:
    for what in ("casebook", "case", "fixed", "draft"):
        with pytest.raises(HTTPClientError) as info:
            run(jp_asyncio_loop, jp_fetch("junobench", "authoring", what, method="GET"))
        assert info.value.code == 405
    with pytest.raises(HTTPClientError) as info:
        run(jp_asyncio_loop, jp_fetch("junobench", "authoring", "casebook", method="POST",
                                      body=json.dumps({"path": "x"}), headers={"Authorization": ""}))
    assert info.value.code in (401, 403)
    assert list(jp_root_dir.iterdir()) == []


@pytest.mark.parametrize("name, problem, english", [
    ("pandas_1", None, None), ("a.b-c_1", None, None), ("", {"code": "empty"}, "it is empty"),
    ("..", {"code": "dot-dot-segment"}, 'it has a ".." segment'),
    ("a..b", {"code": "dot-dot"}, 'it contains ".."'), ("a/b", {"code": "slash"}, 'it contains "/"'),
    ("/abs", {"code": "absolute"}, "it is an absolute path"),
    ("a\\b", {"code": "backslash"}, "it contains a backslash"), (".", {"code": "dot"}, 'it is "."'),
    (".git", {"code": "hidden"}, 'it starts with "."'), ("a\0b", {"code": "nul"}, "it contains a NUL byte"),
    ("é", {"code": "character", "char": "é"}, 'it contains the character "é"'),
    ("x" * 256, {"code": "too-long", "limit": 255}, "it is longer than 255 characters"),
])
def test_name_rules_match_the_loader(name: str, problem: Any, english: Any) -> None:
    # The same codes as src/casebook/paths.ts nameProblem (test/authoring/writer.spec.ts compares them).
    assert authoring.name_problem(name) == problem
    if problem is not None:
        assert describe_name_problem(problem) == english


def test_a_symlinked_case_folder_out_of_the_casebook_is_refused(tmp_path: Path) -> None:
    book = tmp_path / "book"
    authoring.new_casebook(book)
    outside = tmp_path / "outside"
    outside.mkdir()
    (book / "benchmark" / "pandas_1").symlink_to(outside)
    with pytest.raises(authoring.AuthoringError, match="outside"):
        authoring.write_case(spec("pandas_1", update=True), book, None)
    assert list(outside.iterdir()) == []


def test_simultaneous_writes_keep_every_row(tmp_path: Path) -> None:
    # The server writes on executor threads and `junobench add` runs in its own
    # process: without the casebook lock, two read-modify-writes lose a row.
    import concurrent.futures

    book = tmp_path / "book"
    authoring.new_casebook(book)
    names = [f"pandas_{i}" for i in range(1, 9)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda name: authoring.write_case(spec(name), book, None), names))
    written = [row[0] for row in rows(book / "benchmark_desc.xlsx")[1:]]
    assert sorted(written) == sorted(names)
    wb = openpyxl.load_workbook(book / "diagnoses.xlsx")
    instances = [r[1] for r in wb.worksheets[0].iter_rows(min_row=2, values_only=True)]
    assert sorted(i for i in instances if i.endswith("_reproduced")) == sorted(f"{n}_reproduced" for n in names)


@pytest.mark.parametrize("broken, code, message", [
    ("diagnoses", "not-xlsx", "diagnoses.xlsx is not a readable .xlsx file"),
    ("dataset", "cell-too-long", "the dataset title of this case is 40000 characters long"),
])
def test_nothing_is_written_when_a_late_part_is_bad(tmp_path: Path, broken: str, code: str, message: str) -> None:
    book = tmp_path / "book"
    authoring.new_casebook(book)
    bad = spec("pandas_1")
    if broken == "diagnoses":
        (book / "diagnoses.xlsx").write_text("not a workbook")
    else:
        bad["row"]["datasets"] = [{"title": "t" * 40000}]
    before = (book / "benchmark_desc.xlsx").read_bytes()
    with pytest.raises(authoring.AuthoringError, match=message) as info:
        authoring.write_case(bad, book, None)
    assert info.value.code == code
    assert (book / "benchmark_desc.xlsx").read_bytes() == before
    assert not (book / "benchmark" / "pandas_1").exists()
