"""Sparse fetch of JunoBench cases against a local repository laid out like the dataset.

The fixture (``scripts/make_fetch_fixture.py``) holds the 10 demo cases under
``JunoBench/``; data files go through git-lfs when it is installed (both ways
are tested when it is). The tests count what reached the copy: the blobs of
case folders that were not asked for must be absent from its object store,
and only the chosen cases' Git LFS objects may be there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from _fetch_fixture import FIXTURE
from jupyterlab_junobench.sparse import (
    GIT_STEPS,
    FetchError,
    Progress,
    describe_progress,
    fetch_cases,
    find_copy,
    read_marker,
)

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


LFS_CHOICES = [False, True] if FIXTURE.has_git_lfs() else [False]


@pytest.fixture(scope="module", params=LFS_CHOICES, ids=lambda lfs: "lfs" if lfs else "plain")
def source(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A JunoBench-like repository (10 cases), with its blob and LFS ids per case."""
    return FIXTURE.build(tmp_path_factory.mktemp("src") / "JunoBench-src", data_kb=64, lfs=request.param)


def _local_objects(copy: Path) -> set[str]:
    """The object ids in the copy's own store (listing them never fetches from the promisor remote)."""
    done = subprocess.run(
        ["git", "-C", str(copy), "cat-file", "--batch-all-objects", "--batch-check=%(objectname)"],
        capture_output=True, text=True, check=True,
    )
    return set(done.stdout.split())


def _has_object(copy: Path, sha: str) -> bool:
    return sha in _local_objects(copy)


def _lfs_oids(copy: Path) -> set[str]:
    root = copy / ".git" / "lfs" / "objects"
    return {p.name for p in root.rglob("*") if p.is_file()} if root.exists() else set()


def _case_folders(copy: Path) -> list[str]:
    bench = copy / "JunoBench" / "benchmark"
    return sorted(p.name for p in bench.iterdir()) if bench.exists() else []


def test_two_cases_check_out_only_their_folders_and_objects(source: dict[str, Any], tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    phases: list[str] = []
    summary = fetch_cases(copy, ["sklearn_1", "numpy_2"], source["path"], progress=lambda p: phases.append(p.phase))
    assert summary.cases == ["numpy_2", "sklearn_1"]
    assert summary.added == ["numpy_2", "sklearn_1"]
    assert summary.resumed is False
    assert summary.casebook == str(copy.resolve() / "JunoBench")
    assert len(summary.available) == 10
    assert _case_folders(copy) == ["numpy_2", "sklearn_1"]
    assert (copy / "JunoBench" / "benchmark_desc.xlsx").stat().st_size > 1024
    assert (copy / "JunoBench" / "diagnoses.xlsx").is_file()
    cases = source["cases"]
    for name, entry in cases.items():
        present = [_has_object(copy, sha) for sha in entry["blobs"]]
        if name in {"sklearn_1", "numpy_2"}:
            assert all(present), f"{name}: blobs missing"
        else:
            assert not any(present), f"{name}: blobs of a case not asked for were transferred"
    wanted_lfs = set(cases["sklearn_1"]["lfs"]) | set(cases["numpy_2"]["lfs"])
    assert _lfs_oids(copy) == wanted_lfs
    if source["lfs"]:
        assert wanted_lfs and summary.lfs_pointers == []
        extra = copy / "JunoBench" / "benchmark" / "sklearn_1" / "data" / "extra.bin"
        assert extra.stat().st_size == 64 * 1024
    assert phases[0] == "fetch" and "checkout" in phases and phases[-1] == "done"
    assert summary.disk_bytes > 0


def test_a_second_fetch_adds_a_case_without_fetching_the_commit_again(source: dict[str, Any], tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    fetch_cases(copy, ["sklearn_1", "numpy_2"], source["path"])
    phases: list[str] = []
    summary = fetch_cases(copy, ["NBspecific_2"], progress=lambda p: phases.append(p.phase))
    assert summary.resumed is True
    assert summary.added == ["NBspecific_2"]
    assert summary.cases == ["NBspecific_2", "numpy_2", "sklearn_1"]
    assert _case_folders(copy) == ["NBspecific_2", "numpy_2", "sklearn_1"]
    assert "fetch" not in phases
    assert all(_has_object(copy, sha) for sha in source["cases"]["NBspecific_2"]["blobs"])
    assert not any(_has_object(copy, sha) for sha in source["cases"]["pandas_1"]["blobs"])
    assert read_marker(copy)["cases"] == ["NBspecific_2", "numpy_2", "sklearn_1"]


@pytest.mark.parametrize("stop_at", ["checkout", "lfs"])
def test_an_interrupted_fetch_resumes(source: dict[str, Any], tmp_path: Path, stop_at: str) -> None:
    if stop_at == "lfs" and not source["lfs"]:
        pytest.skip("the plain fixture has no git-lfs phase")
    copy = tmp_path / "copy"

    def interrupt(p: Progress) -> None:
        if p.phase == stop_at:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        fetch_cases(copy, ["pandas_2"], source["path"], progress=interrupt)
    assert not (copy / ".git" / "junobench-fetch.lock").exists()
    phases: list[str] = []
    summary = fetch_cases(copy, ["pandas_2"], progress=lambda p: phases.append(p.phase))
    assert summary.resumed is True
    assert "fetch" not in phases, "the commit was fetched before the interruption and must not be fetched again"
    assert _case_folders(copy) == ["pandas_2"]
    assert summary.lfs_pointers == []
    assert _lfs_oids(copy) == set(source["cases"]["pandas_2"]["lfs"])


def test_a_fetch_killed_while_transferring_resumes(source: dict[str, Any], tmp_path: Path) -> None:
    """A process killed outright (no cleanup at all) leaves a copy the next run completes."""
    copy = tmp_path / "copy"
    script = (
        "import os, sys\n"
        "from jupyterlab_junobench.sparse import fetch_cases\n"
        "def stop(p):\n"
        "    if p.phase == 'checkout':\n"
        "        os._exit(9)\n"
        f"fetch_cases({str(copy)!r}, ['numpy_1'], {source['path']!r}, progress=stop)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 9, done.stderr
    assert (copy / ".git" / "junobench-fetch.lock").exists(), "the killed process left its lock"
    summary = fetch_cases(copy, ["numpy_1"])
    assert summary.resumed and _case_folders(copy) == ["numpy_1"]


@pytest.mark.parametrize(
    ("cases", "message", "problem"),
    [
        (["no_such_case"], "has no case folder no_such_case", {"code": "unknown-case", "cases": ["no_such_case"]}),
        (["../JunoBench"], "is not a case name",
         {"code": "bad-case-name", "name": "../JunoBench", "problem": {"code": "dot-dot-segment"}}),
        (["sklearn_1/../../x"], "is not a case name", {"code": "bad-case-name", "problem": {"code": "dot-dot-segment"}}),
        ([".git"], "is not a case name", {"code": "bad-case-name", "problem": {"code": "hidden"}}),
        (["x" * 256], "is not a case name", {"code": "bad-case-name", "problem": {"code": "too-long", "limit": 255}}),
        # The one rule (jupyterlab_junobench.names): 200 characters is a name, just not one the source has.
        (["x" * 200], "has no case folder", {"code": "unknown-case"}),
    ],
)
def test_bad_case_names_are_refused_before_anything_is_written(
    source: dict[str, Any], tmp_path: Path, cases: list[str], message: str, problem: dict[str, Any]
) -> None:
    copy = tmp_path / "copy"
    with pytest.raises(FetchError, match=message.replace("(", r"\(")) as info:
        fetch_cases(copy, cases, source["path"])
    # A code with its parameters, for the panel to word.
    error = info.value.to_json()
    assert {k: error[k] for k in problem} == problem
    if message.startswith("is not"):
        assert not copy.exists()


def test_destinations_that_are_not_copies_are_refused(source: dict[str, Any], tmp_path: Path) -> None:
    full = tmp_path / "full"
    full.mkdir()
    (full / "notes.txt").write_text("mine")
    with pytest.raises(FetchError, match="is not empty") as info:
        fetch_cases(full, ["sklearn_1"], source["path"])
    assert info.value.to_json()["code"] == "dest-not-empty"
    assert [p.name for p in full.iterdir()] == ["notes.txt"]
    with pytest.raises(FetchError, match="give the source") as info:
        fetch_cases(tmp_path / "new", ["sklearn_1"])
    assert info.value.code == "no-source"
    with pytest.raises(FetchError, match="does not exist") as info:
        fetch_cases(tmp_path / "new2", ["sklearn_1"], str(tmp_path / "nowhere"))
    assert info.value.params == {"source": str(tmp_path / "nowhere")} and info.value.code == "source-missing"


def test_a_copy_keeps_its_source(source: dict[str, Any], tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    fetch_cases(copy, ["numpy_1"], source["path"])
    other = FIXTURE.build(tmp_path / "other", lfs=False)
    with pytest.raises(FetchError, match="is a copy of") as info:
        fetch_cases(copy, ["numpy_2"], other["path"])
    assert info.value.code == "other-source" and info.value.params["source"] == other["path"]
    assert _case_folders(copy) == ["numpy_1"]


def test_a_source_that_is_not_junobench_is_named(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "hello.txt").write_text("hi")
    FIXTURE.git(repo, "init", "--quiet")
    FIXTURE.git(repo, "add", "-A")
    FIXTURE.git(repo, "commit", "--quiet", "-m", "x")
    with pytest.raises(FetchError, match="is not a JunoBench layout"):
        fetch_cases(tmp_path / "copy", [], str(repo))


def test_find_copy_stops_at_the_root(source: dict[str, Any], tmp_path: Path) -> None:
    copy = tmp_path / "root" / "copy"
    fetch_cases(copy, [], source["path"])
    assert _case_folders(copy) == []
    assert (copy / "JunoBench" / "benchmark_desc.xlsx").is_file()
    assert find_copy(copy / "JunoBench", tmp_path / "root") == copy.resolve()
    assert find_copy(copy / "JunoBench", copy / "JunoBench") is None


def test_command_line_prints_plain_progress_and_json(source: dict[str, Any], tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    done = subprocess.run(
        [sys.executable, "-m", "jupyterlab_junobench", "fetch", str(copy), "--source", source["path"],
         "--cases", "matplotlib_1", "--json"],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["cases"] == ["matplotlib_1"]
    assert "checking out the descriptor files and 1 case folder(s): matplotlib_1" in done.stderr
    assert "\r" not in done.stderr, "no terminal: plain lines, no bar"
    bad = subprocess.run(
        [sys.executable, "-m", "jupyterlab_junobench", "fetch", str(copy), "--cases", "nope"],
        capture_output=True, text=True,
    )
    assert bad.returncode == 1 and "has no case folder nope" in bad.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_command_line_draws_a_bar_on_a_terminal(source: dict[str, Any], tmp_path: Path) -> None:
    import pty

    main_fd, child_fd = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "jupyterlab_junobench", "fetch", str(tmp_path / "copy"),
             "--source", source["path"], "--cases", "numpy_1"],
            stdout=subprocess.PIPE, stderr=child_fd, timeout=120,
        )
        os.close(child_fd)
        chunks = []
        while True:
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(main_fd)
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert done.returncode == 0
    assert "\r\x1b[K[" in shown and "] 100%" in shown, shown[-500:]
    assert "disk used:" in done.stdout.decode()


def _json_lines(args: list[str]) -> tuple[int, list[dict[str, Any]]]:
    """The exit code and JSON lines of ``python -m jupyterlab_junobench fetch --json-lines <args>``."""
    done = subprocess.run(
        [sys.executable, "-m", "jupyterlab_junobench", "fetch", *args, "--json-lines"], capture_output=True, text=True
    )
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


def test_json_lines_say_progress_and_errors_as_codes_with_parameters(source: dict[str, Any], tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    code, lines = _json_lines([str(copy), "--source", source["path"], "--cases", "numpy_1"])
    assert code == 0 and lines[-1]["event"] == "summary"
    progress = [line for line in lines if line["event"] == "progress"]
    assert progress[0] == {
        "event": "progress",
        "phase": "fetch",
        "percent": None,
        "code": "fetch-list",
        "source": source["path"],
        "message": f"fetching the file list of {source['path']}",
    }
    checkout = [line for line in progress if line["code"] == "checkout"]
    assert [line["cases"] for line in checkout] == [["numpy_1"]]
    steps = {line["code"] for line in progress if line["phase"] == "fetch" and line["percent"] is not None}
    assert steps and steps <= set(GIT_STEPS.values()), "git's steps are codes, not git's words"
    lfs = [(line["done"], line["total"]) for line in progress if line["code"] == "lfs-files"]
    assert bool(lfs) == source["lfs"]
    if lfs:
        assert lfs[0][0] == 0 and lfs[-1][0] == lfs[-1][1] > 0
    assert progress[-1]["code"] == "done"
    for line in progress:
        # Only the code's own parameters beside it, and English for logs.
        params = {k: v for k, v in line.items() if k not in {"event", "phase", "percent", "code", "message"}}
        assert line["message"] == describe_progress(line["code"], params)
    # An error line: the code and its parameters, as a fetch job's error.
    code, lines = _json_lines([str(copy), "--cases", "nope"])
    assert code == 1
    message = lines[-1].pop("message")
    assert "has no case folder nope" in message
    assert lines[-1] == {
        "event": "error",
        "code": "unknown-case",
        "source": source["path"],
        "cases": ["nope"],
        "available": 10,
        "folder": "JunoBench/benchmark/",
    }


def test_the_command_line_error_lines_without_a_fetch_carry_their_parameters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from jupyterlab_junobench import fetch

    dest = tmp_path / "not-a-copy"
    assert fetch.main([str(dest), "--json-lines"]) == 1
    line = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert line.pop("message").endswith("give the source to fetch from.")
    assert line == {"event": "error", "code": "no-source", "dest": str(dest.resolve()), "marker": ".git/junobench-fetch.json"}

    def interrupted(*_args: Any, **_kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(fetch, "fetch_cases", interrupted)
    assert fetch.main([str(dest), "--cases", "numpy_1", "--json-lines"]) == 130
    line = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert line.pop("message").startswith("interrupted; run the same command again")
    assert line == {"event": "error", "code": "interrupted", "dest": str(dest)}


def test_without_json_lines_an_error_is_one_sentence_on_stderr_and_nothing_on_stdout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from jupyterlab_junobench import fetch

    dest = tmp_path / "not-a-copy"
    assert fetch.main([str(dest)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("junobench fetch: ") and err.rstrip().endswith("give the source to fetch from.")
    assert len(err.strip().splitlines()) == 1

    def interrupted(*_args: Any, **_kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(fetch, "fetch_cases", interrupted)
    assert fetch.main([str(dest), "--cases", "numpy_1"]) == 130
    out, err = capsys.readouterr()
    assert out == ""
    # Below the ^C a terminal shows, on a line of its own.
    assert err.startswith(f"\njunobench fetch: interrupted; run the same command again to resume in {dest}.")


def test_a_warning_line_carries_its_failure_as_a_code() -> None:
    import io

    from jupyterlab_junobench.fetch import _Lines

    out = io.StringIO()
    failure = FetchError("git lfs pull did not finish within 60 s.", "unfinished", step="git lfs pull", seconds=60)
    _Lines(out)(Progress("warning", None, "lfs-pull-failed", {"problem": failure.to_json()}))
    _Lines(out)(Progress("warning", None, "no-git-lfs"))
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["problem"] == {
        "code": "unfinished",
        "step": "git lfs pull",
        "seconds": 60,
        "message": "git lfs pull did not finish within 60 s.",
    }
    assert first["message"] == (
        "warning: git lfs pull failed (git lfs pull did not finish within 60 s.); large files may be Git LFS pointers."
    )
    assert {k: v for k, v in second.items() if k != "message"} == {"event": "warning", "code": "no-git-lfs"}


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/JunoBench.git", "file:///nonexistent/JunoBench-src"])
def test_an_unreachable_source_names_the_git_command_that_failed(tmp_path: Path, url: str) -> None:
    """The failure's ``step`` is the git command (the panel shows it untranslated), not English words."""
    with pytest.raises(FetchError) as info:
        fetch_cases(tmp_path / "copy", ["numpy_1"], url, timeout=60)
    failure = info.value.to_json()
    assert failure["code"] == "source-unreachable", failure
    assert failure["step"] == f"git fetch {url}", failure
    assert failure["detail"], failure
