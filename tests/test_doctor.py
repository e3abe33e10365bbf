"""``junobench doctor`` on this machine, and the container engines' refusals it and ``container build`` explain.

The first test runs the real command (``node bin/junobench.js doctor --json``) and reads its report:
its shape, and findings that hold on any machine where the test suite runs (the server extension
that scripts/setup.sh enabled, the demo casebook's ten runnable cases, the engine's verdict agreeing
with its attempts). The others feed the messages podman, crun, runc and docker print on machines
like ours through :func:`container.recognise_refusal` and the build command's error path.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jupyterlab_junobench import container

REPO = Path(__file__).resolve().parent.parent
CLI = REPO / "bin" / "junobench.js"
DEMO = REPO / "demo" / "casebook"


@pytest.fixture(scope="module")
def report() -> dict:
    if not (REPO / "lib-cli" / "cli" / "doctor.js").exists() or not shutil.which("node"):
        pytest.skip("the CLI is not built (jlpm build:cli)")
    started = time.monotonic()
    out = subprocess.run(
        ["node", str(CLI), "doctor", "--json", "--python", sys.executable, str(DEMO)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert out.returncode in (0, 1), out.stderr
    data = json.loads(out.stdout)
    data["_wall"] = time.monotonic() - started
    data["_rc"] = out.returncode
    return data


def test_the_report_has_one_check_per_thing_each_with_a_status_and_a_fix_when_not_ok(report: dict) -> None:
    assert report["version"] == 1
    ids = [c["id"] for c in report["checks"]]
    assert ids == [
        "server-extension",
        "pinned-kernel",
        "container-engine",
        "container-kernel",
        f"casebook:{DEMO}",
        "datasets",
    ]
    for c in report["checks"]:
        assert c["status"] in ("ok", "warn", "fail")
        assert c["title"] and isinstance(c["details"], list)
        assert (c["fix"] is None) == (c["status"] == "ok"), c
    assert report["_rc"] == (1 if any(c["status"] == "fail" for c in report["checks"]) else 0)
    assert report["facts"]["python"]["python"]["executable"] == sys.executable
    # What doctor takes here: the Python side, one container start at most twice, the casebook.
    assert report["seconds"] < 60


def test_it_finds_this_environments_server_extension_and_the_demos_ten_runnable_cases(report: dict) -> None:
    checks = {c["id"]: c for c in report["checks"]}
    assert checks["server-extension"]["status"] == "ok"
    assert checks[f"casebook:{DEMO}"]["status"] == "ok"
    assert checks[f"casebook:{DEMO}"]["details"][0] == "10 case(s), 10 can run here"
    book = report["facts"]["casebooks"][0]
    assert len(book["runnable"]) == 10 and book["blocked"] == [] and book["missingData"] == []
    assert checks["datasets"]["status"] == "ok"


def test_the_engines_verdict_follows_its_real_attempts(report: dict) -> None:
    engine = report["facts"]["python"]["container"]
    check = next(c for c in report["checks"] if c["id"] == "container-engine")
    if engine["engine"] is None:
        assert check["status"] == "warn" and "podman" in check["fix"]
        return
    attempts = engine["attempts"]
    assert attempts and all(a["settings"] in ("kernelspec", "current", "container-env") for a in attempts)
    if attempts[0]["started"]:
        assert check["status"] == "ok"
    elif len(attempts) > 1 and attempts[1]["started"]:
        assert check["status"] == "warn" and check["fix"].startswith(". scripts/container-env.sh")
    else:
        assert check["status"] in ("warn", "fail")


# What engines print on machines like ours, and the refusal each is.
REFUSALS = [
    (
        "Error: crun: error setting rlimit type 7: operation not permitted: OCI permission denied",
        "rlimit",
    ),
    ("Error: runc: setrlimit RLIMIT_NOFILE: operation not permitted", "rlimit"),
    (
        'level=error msg="cgroupv2 manager is set to systemd but there is no systemd user session available"',
        "cgroups",
    ),
    ("Error: crun: mkdir `/sys/fs/cgroup/libpod_parent`: Read-only file system: OCI runtime error", "cgroups"),
    (
        "Error: 'overlay' is not supported over overlayfs, a mount_program is required: "
        "backing file system is unsupported for this graph driver",
        "storage",
    ),
    (
        'Error: database storage temporary directory (runroot) "/run/containers/storage" does not match '
        'our storage temporary directory (runroot) "/run/x": database configuration mismatch',
        "storage",
    ),
    ("Error: writing blob: storing blob to file: write /var/tmp/x: no space left on device", "storage"),
    ('Error: default OCI runtime "crun" not found: invalid argument', "runtime"),
    ("cannot find UID/GID for user root: no subuid ranges found for user \"root\" in /etc/subuid", "user-namespace"),
    (
        "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?",
        "no-daemon",
    ),
    ("Error: OCI runtime error: runc: open /proc/self/fd: permission denied", "permission"),
]


@pytest.mark.parametrize(("message", "code"), REFUSALS)
def test_each_known_refusal_is_recognised_with_what_to_set(message: str, code: str) -> None:
    refusal = container.recognise_refusal(message)
    assert refusal is not None and refusal.code == code
    assert refusal.meaning and refusal.fix


@pytest.mark.parametrize(
    "message", ["Error: short-name resolution enforced but cannot prompt without a TTY", "exit code 3"]
)
def test_an_unknown_failure_is_not_dressed_as_a_known_one(message: str) -> None:
    assert container.recognise_refusal(message) is None


def test_the_build_command_says_what_to_set_after_the_engines_words(monkeypatch, capsys) -> None:
    def refuse(*_args, **_kwargs):
        raise container.ContainerError(
            "podman run --rm failed (exit code 126): Error: crun: error setting rlimit type 7: "
            "operation not permitted: OCI permission denied"
        )

    # Patched where the command line looks them up (container/cli.py).
    monkeypatch.setattr(container.cli, "pick_engine", lambda *_: container.Engine("podman"))
    monkeypatch.setattr(container.cli, "build", refuse)
    assert container.main(["build", "--minimal"]) == 2
    err = capsys.readouterr().err
    assert "error setting rlimit type 7" in err
    assert "does not let a container raise its resource limits" in err
    assert ". scripts/container-env.sh" in err and "default_ulimits = []" in err
