"""Several learners on one local JupyterHub at once (issue #5 "Multi-user").

A real JupyterHub (``tests/hub/jupyterhub_config.py``: configurable-http-proxy,
shared-password login, ``SimpleLocalProcessSpawner`` with a home per user under
a temporary folder) runs on 127.0.0.1. Three users are created through the
hub's REST API and, in three threads at once, each one:

1. has their single-user JupyterLab started through the hub API and gets a
   token of their own;
2. copies the demo casebook into their home (``POST /user/<name>/junobench/demo-casebook``);
3. replays a demo case headlessly with the real CLI through the hub's proxy
   (``junobench verify --server http://127.0.0.1:<port>/user/<name>/``);
4. saves a working copy under ``junobench-work/`` through the contents API
   (the case's fixed notebook: a correct repair) and runs ``junobench check``
   on it, again through the proxy;
5. saves their progress in the ``default`` workspace through the workspaces
   API, as JupyterLab's state DB does.

Then the tests check that every user's replay and check passed, that files
and progress landed in that user's own home, and that one user's token opens
neither another user's files nor their workspace.

Needs ``jupyterhub`` (requirements-dev.txt), ``configurable-http-proxy``
(``cd hub-tests && npm ci``), Node.js and the built CLI; the module is skipped,
saying which is missing, without them. ``JUNOBENCH_HUB_PORT`` moves the hub off
its default ports 8920-8922. About a minute and a half on an idle two-core machine.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "hub"))

import junobench_hub as jh

MISSING = jh.missing_requirements()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"no local JupyterHub: {MISSING}")

requests = pytest.importorskip("requests")

USERS = ["u1", "u2", "u3"]
CASEBOOK = "JunoBench-demo"
CASE = "numpy_1"
RECORDED = "ValueError"
WORK = f"junobench-work/{CASEBOOK}/{CASE}"
COPY = f"{WORK}/{CASE}-1.ipynb"
WORKSPACE = "default"
PROGRESS_KEY = f"jupyterlab-junobench:progress:{CASEBOOK}"
OWNER_KEY = "junobench-hub-test:owner"


@dataclass
class Outcome:
    """What one learner's session produced (or the error that stopped it)."""

    user: jh.UserServer | None = None
    demo: dict[str, Any] | None = None
    verify_rc: int | None = None
    verify_output: str = ""
    verify_report: dict[str, Any] | None = None
    check_rc: int | None = None
    check_output: str = ""
    check_report: dict[str, Any] | None = None
    workspace: dict[str, Any] | None = None
    error: str | None = None


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory):
    """A running local JupyterHub, stopped with all its servers afterwards."""
    first = int(os.environ.get("JUNOBENCH_HUB_PORT", "8920"))
    base = jh.pick_base_port([first, first + 3, first + 6])
    running = jh.new_hub(tmp_path_factory.mktemp("jupyterhub"), base)
    try:
        running.start()
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def outcomes(hub: jh.Hub, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """Every learner's whole session, run for all users at the same time."""
    hub.create_users(USERS)
    out = tmp_path_factory.mktemp("reports")
    with ThreadPoolExecutor(len(USERS)) as pool:
        done = dict(zip(USERS, pool.map(lambda name: _learner(hub, name, out), USERS), strict=True))
    return done


def _learner(hub: jh.Hub, name: str, out: Path) -> Outcome:
    outcome = Outcome()
    try:
        user = outcome.user = hub.spawn(name)
        outcome.demo = jh.open_demo_casebook(user)
        casebook = user.home / CASEBOOK

        report = out / f"verify-{name}.json"
        verify = jh.run_cli(
            ["verify", str(casebook), "--cases", CASE, "--timeout", "120", "--json", str(report), *jh.server_args(user)]
        )
        outcome.verify_rc = verify.returncode
        outcome.verify_output = verify.stdout + verify.stderr
        if report.is_file():
            outcome.verify_report = json.loads(report.read_text())

        _save_working_copy(user, casebook / "benchmark" / CASE / f"{CASE}_fixed.ipynb")
        check = jh.run_cli(
            ["check", str(casebook), CASE, str(user.home / COPY), "--json", "--timeout", "120", *jh.server_args(user)]
        )
        outcome.check_rc = check.returncode
        outcome.check_output = check.stdout + check.stderr
        if check.returncode in (0, 1):
            outcome.check_report = json.loads(check.stdout)

        outcome.workspace = _save_progress(user, outcome.check_report or {})
    except Exception as err:  # reported per user by the tests below
        outcome.error = f"{type(err).__name__}: {err}"
    return outcome


def _save_working_copy(user: jh.UserServer, fixed: Path) -> None:
    """The learner's working copy, holding a correct repair and marked with its owner."""
    notebook = json.loads(fixed.read_text())
    notebook.setdefault("metadata", {})[OWNER_KEY] = user.name
    jh.save_notebook(user, COPY, notebook, timeout=60)


def _save_progress(user: jh.UserServer, check: dict[str, Any]) -> dict[str, Any]:
    """Save a progress record in the user's workspace as the state DB would; return it."""
    attempt = {
        "at": datetime.now(timezone.utc).isoformat(),
        "passed": bool(check.get("passed")),
        "status": check.get("status"),
        "exception": (check.get("run") or {}).get("error"),
        "snapshotPath": None,
    }
    progress = {
        "version": 1,
        "cases": {
            CASE: {
                "status": "solved" if attempt["passed"] else "attempted",
                "attempts": [attempt],
                "hints": [],
                "prediction": None,
                "selfDiagnosis": None,
                "revealedAt": None,
                "timeSpentMs": int(check.get("durationMs") or 0),
            }
        },
    }
    data = {PROGRESS_KEY: progress, OWNER_KEY: user.name}
    url = f"{user.url}lab/api/workspaces/{WORKSPACE}"
    r = requests.put(url, headers=user.headers(), json={"data": data, "metadata": {"id": WORKSPACE}}, timeout=60)
    if r.status_code != 204:
        raise RuntimeError(f"{user.name}: PUT lab/api/workspaces/{WORKSPACE}: HTTP {r.status_code} {r.text}")
    return copy.deepcopy(data)


def _ok(hub: jh.Hub, outcomes: dict[str, Outcome], name: str) -> Outcome:
    outcome = outcomes[name]
    assert outcome.error is None, f"{name}'s session failed: {outcome.error}\n--- hub log ---\n{hub.log_tail()}"
    assert outcome.user is not None
    return outcome


@pytest.mark.parametrize("name", USERS)
def test_each_learner_replays_and_checks_on_their_own_server(hub, outcomes, name):
    outcome = _ok(hub, outcomes, name)
    demo_cases = len(list((Path(__file__).resolve().parent.parent / "demo" / "casebook" / "benchmark").iterdir()))
    assert outcome.demo == {"path": CASEBOOK, "created": True, "cases": demo_cases}
    assert (outcome.user.home / CASEBOOK / "benchmark_desc.xlsx").is_file()

    assert outcome.verify_rc == 0, f"{name}: junobench verify through the hub failed:\n{outcome.verify_output}"
    (report,) = outcome.verify_report["reports"]
    assert report["name"] == CASE
    assert report["verdict"] == "pass", report
    assert report["reproduced"]["verdict"] == "pass", report["reproduced"]
    assert RECORDED in json.dumps(report["reproduced"]["observed"]), report["reproduced"]

    assert outcome.check_rc == 0, f"{name}: junobench check through the hub failed:\n{outcome.check_output}"
    assert outcome.check_report["passed"] is True
    assert outcome.check_report["status"] == "solved"
    assert outcome.check_report["run"]["status"] == "completed"


@pytest.mark.parametrize("name", USERS)
def test_working_copy_and_progress_live_in_the_learners_home(hub, outcomes, name):
    outcome = _ok(hub, outcomes, name)
    user = outcome.user
    on_disk = json.loads((user.home / COPY).read_text())
    assert on_disk["metadata"][OWNER_KEY] == name

    r = requests.get(f"{user.url}lab/api/workspaces/{WORKSPACE}", headers=user.headers(), timeout=60)
    assert r.status_code == 200, r.text
    assert r.json()["data"] == outcome.workspace
    assert r.json()["data"][PROGRESS_KEY]["cases"][CASE]["status"] == "solved"
    # JupyterLab keeps workspaces under the user's ~/.jupyter (HOME is the user's home).
    saved = list((user.home / ".jupyter" / "lab" / "workspaces").glob("*.jupyterlab-workspace"))
    assert len(saved) == 1, saved
    assert json.loads(saved[0].read_text())["data"][OWNER_KEY] == name


@pytest.mark.parametrize("name", USERS)
def test_contents_listing_shows_only_the_learners_own_copies(hub, outcomes, name):
    user = _ok(hub, outcomes, name).user
    r = requests.get(f"{user.url}api/contents/{WORK}", headers=user.headers(), timeout=60)
    assert r.status_code == 200, r.text
    assert [item["path"] for item in r.json()["content"]] == [COPY]

    r = requests.get(f"{user.url}api/contents/{COPY}", headers=user.headers(), timeout=60)
    assert r.status_code == 200, r.text
    assert r.json()["content"]["metadata"][OWNER_KEY] == name

    r = requests.get(f"{user.url}api/contents/", headers=user.headers(), timeout=60)
    top = {item["name"] for item in r.json()["content"]}
    assert top == {CASEBOOK, "junobench-work"}, top


@pytest.mark.parametrize(("reader", "owner"), list(itertools.permutations(USERS, 2)))
def test_a_learner_cannot_read_another_learners_files_or_workspace(hub, outcomes, reader, owner):
    me = _ok(hub, outcomes, reader).user
    other = _ok(hub, outcomes, owner).user
    theirs = [
        f"{other.url}api/contents/{COPY}",
        f"{other.url}api/contents/{WORK}",
        f"{other.url}lab/api/workspaces/{WORKSPACE}",
        f"{other.url}junobench/info",
    ]
    for url in theirs:
        # The owner can (so the URLs are right) ...
        assert requests.get(url, headers=other.headers(), timeout=60).status_code == 200, url
        # ... the other learner cannot, with their token or with no credentials at all.
        for headers in (me.headers(), {}):
            r = requests.get(url, headers=headers, timeout=60, allow_redirects=False)
            assert r.status_code in (302, 403), f"GET {url} as {reader if headers else 'nobody'}: {r.status_code}"
            assert OWNER_KEY not in r.text, r.text[:300]
    r = requests.put(
        f"{other.url}api/contents/{WORK}/intruder.ipynb",
        headers=me.headers(),
        json={"type": "notebook", "format": "json", "content": {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}},
        timeout=60,
        allow_redirects=False,
    )
    assert r.status_code in (302, 403), r.status_code
    assert not (other.home / WORK / "intruder.ipynb").exists()
    # The hub does not hand out the other learner's model either.
    r = requests.get(f"{hub.url}hub/api/users/{owner}", headers=me.headers(), timeout=60)
    assert r.status_code in (403, 404), r.status_code


def test_learners_log_in_with_the_shared_password_only(hub, outcomes):
    session = requests.Session()
    assert session.get(f"{hub.url}hub/login", timeout=60).status_code == 200
    xsrf = session.cookies.get("_xsrf")
    wrong = session.post(
        f"{hub.url}hub/login",
        data={"username": "u1", "password": hub.password + "-wrong", "_xsrf": xsrf},
        allow_redirects=False,
        timeout=60,
    )
    assert wrong.status_code == 403
    right = session.post(
        f"{hub.url}hub/login",
        data={"username": "u1", "password": hub.password, "_xsrf": xsrf},
        allow_redirects=False,
        timeout=60,
    )
    assert right.status_code == 302, right.status_code
    # Logged in through the browser flow, u1 reaches their own JupyterLab.
    lab = session.get(f"{hub.url}user/u1/lab", timeout=60)
    assert lab.status_code == 200 and "jupyterlab-junobench" in lab.text, lab.url
