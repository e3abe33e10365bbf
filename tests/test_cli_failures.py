"""``junobench check`` meets the failures it expects, and says them in its own words.

Each test plants one failure and runs the real command line (``node bin/junobench.js``) as a
subprocess on the demo casebook, with its own private Jupyter server:

- a repair whose added cell ends its own kernel (``os._exit(0)``, ``os.kill(os.getpid(), 9)``):
  the verdict is "not solved", naming the cell that was running, exit code 1;
- a reference fix whose kernel dies: "not checked", exit code 1;
- a file that is not a notebook (bad JSON, JSON that is not a notebook, nbformat 3): a message
  naming the file, exit code 2;
- SIGINT or SIGTERM while the check runs: one line, exit code 130 or 143;
- the private server killed while ``check`` or ``verify`` runs: one line, exit code 1;
- a full disk (``/dev/full``) under ``--json FILE`` or under standard output, and a report file in
  a folder that is not there: one line naming the file, exit code 2.

Every run must print no Node stack ("    at " frames, "Kernel connection disconnected", an
``Error:`` line) and leave no process behind: the command runs with a marker of this test's own
in its environment, which its server and the server's kernels inherit; after it exits no process
may carry that marker (``/proc/<pid>/environ``, so Linux only).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CLI = REPO / "bin" / "junobench.js"
BUILT_CLI = REPO / "lib-cli" / "cli" / "main.js"
DEMO = REPO / "demo" / "casebook"
FIXED = DEMO / "benchmark" / "numpy_1" / "numpy_1_fixed.ipynb"
MARK = "JUNOBENCH_TEST_CLI_MARK"

pytestmark = [
    pytest.mark.skipif(
        shutil.which("node") is None or not BUILT_CLI.exists(),
        reason="needs Node.js and the built CLI (jlpm build:lib)",
    ),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]

# What a Node stack or someone else's error looks like in the output.
STACK = [
    re.compile(r"^\s+at ", re.M),
    re.compile(r"Kernel connection disconnected"),
    re.compile(r"^(Uncaught )?\w*Error: ", re.M),
    re.compile(r"^Node\.js v\d+", re.M),
    re.compile(r"Connection lost, reconnecting"),
]


def marked(mark: str) -> list[tuple[int, str]]:
    """The live processes (not zombies) whose environment carries ``mark``, with their command."""
    needle = f"{MARK}={mark}\0".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if needle not in Path(f"/proc/{entry}/environ").read_bytes():
                continue
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if state != "Z":
            found.append((int(entry), command))
    return found


def kill_marked(mark: str) -> None:
    """Clean up after a failed test: kill what the command left behind."""
    for pid, _ in marked(mark):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def wait_for_kernel(mark: str, process: subprocess.Popen[str], seconds: float = 90) -> None:
    """Wait until the command has a kernel running (its server started one)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        if any("ipykernel" in command for _, command in marked(mark)):
            return
        time.sleep(0.1)
    pytest.fail("the check started no kernel")


class Run:
    """One run of ``junobench check``: its exit code, output and what it left behind."""

    def __init__(
        self,
        args: list[str],
        cache: Path | None,
        act: Callable[[str, subprocess.Popen[str]], None] | None = None,
        command: str = "check",
        stdout: Path | None = None,
    ) -> None:
        """Run ``junobench <command> <args>`` (its output to ``stdout`` when given); ``act(mark,
        process)`` is done while it runs."""
        self.mark = uuid.uuid4().hex
        env = {**os.environ, MARK: self.mark}
        env.pop("JUNOBENCH_DEBUG", None)
        cached = ["--cache-dir", str(cache)] if cache else []
        sink = stdout.open("w") if stdout else None
        process = subprocess.Popen(
            ["node", str(CLI), command, *args, "--kernel", "python3", *cached],
            cwd=REPO,
            env=env,
            stdout=sink or subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            if act:
                act(self.mark, process)
            self.out, self.err = process.communicate(timeout=240)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
            left = marked(self.mark)
            kill_marked(self.mark)
            pytest.fail(f"the check ran for more than 240 s; running: {left}\nstdout:\n{out}\nstderr:\n{err}")
        except BaseException:
            process.kill()
            process.communicate()
            kill_marked(self.mark)
            raise
        finally:
            if sink:
                sink.close()
        self.out = self.out or ""
        self.code = process.returncode
        # Whatever the command stopped is gone by the time it exits; a killed process may take a
        # moment to be reaped by init.
        deadline = time.monotonic() + 2
        self.left = marked(self.mark)
        while self.left and time.monotonic() < deadline:
            time.sleep(0.1)
            self.left = marked(self.mark)
        kill_marked(self.mark)

    def assert_clean(self) -> None:
        """No stack in the output and nothing left running."""
        for pattern in STACK:
            assert not pattern.search(self.out), f"{pattern.pattern!r} on stdout:\n{self.out}"
            assert not pattern.search(self.err), f"{pattern.pattern!r} on stderr:\n{self.err}"
        assert self.left == [], f"left running: {[(pid, command[:160]) for pid, command in self.left]}"


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A reference cache shared by the checks of this module (the reference runs once)."""
    return tmp_path_factory.mktemp("reference-cache")


def repair_with(tmp_path: Path, code: str) -> Path:
    """numpy_1's reference fix, as a learner ran it, with one more cell at the end running ``code``."""
    nb = json.loads(FIXED.read_text())
    nb["cells"].append(
        {
            "cell_type": "code",
            "id": "ends-its-kernel",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": code,
        }
    )
    path = tmp_path / "repair.ipynb"
    path.write_text(json.dumps(nb))
    return path


def casebook_with(tmp_path: Path, notebook: str, edit: Callable[[str], str]) -> Path:
    """A copy of the demo casebook whose numpy_1 ``notebook`` has its first code cell's source
    passed through ``edit``."""
    book = tmp_path / "casebook"
    shutil.copytree(DEMO, book)
    path = book / "benchmark" / "numpy_1" / notebook
    nb = json.loads(path.read_text())
    first = next(c for c in nb["cells"] if c["cell_type"] == "code")
    first["source"] = edit("".join(first["source"]))
    path.write_text(json.dumps(nb))
    return book


@pytest.mark.parametrize(
    "code",
    ["import os\nos._exit(0)", "import os\nos.kill(os.getpid(), 9)"],
    ids=["os._exit", "SIGKILL"],
)
def test_a_kernel_that_dies_is_a_verdict(tmp_path: Path, cache: Path, code: str) -> None:
    notebook = repair_with(tmp_path, code)
    cell = len(json.loads(notebook.read_text())["cells"])
    run = Run([str(DEMO), "numpy_1", str(notebook)], cache)
    assert run.code == 1, run.out + run.err
    assert "numpy_1: FAIL (fails-fresh)" in run.out
    assert "Not solved: the notebook still fails from a fresh kernel." in run.out
    assert f"From a fresh kernel, the kernel died while cell {cell} [ ] ran" in run.out
    run.assert_clean()


def test_a_kernel_that_dies_in_the_json_report(tmp_path: Path, cache: Path) -> None:
    notebook = repair_with(tmp_path, "import os\nos._exit(0)")
    run = Run([str(DEMO), "numpy_1", str(notebook), "--json"], cache)
    assert run.code == 1, run.out + run.err
    report = json.loads(run.out)
    assert (report["passed"], report["status"], report["grade"]) == (False, "fails-fresh", "not-solved")
    assert report["findings"][0]["code"] == "kernel-died"
    assert report["findings"][0]["run"] == "fresh"
    assert report["run"]["status"] == "kernel-died"
    run.assert_clean()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"cells": [', "is not valid JSON"),
        ("not a notebook at all\n", "is not valid JSON"),
        ('{"nbformat": 3, "nbformat_minor": 0, "worksheets": []}', "is not an nbformat 4 notebook"),
        ('{"name": "a JSON file", "version": 1}', "is not an nbformat 4 notebook"),
        ("[1, 2, 3]", "is not an nbformat 4 notebook"),
    ],
    ids=["truncated", "text", "nbformat-3", "json-object", "json-list"],
)
def test_a_file_that_is_not_a_notebook(tmp_path: Path, cache: Path, text: str, message: str) -> None:
    path = tmp_path / "submission.ipynb"
    path.write_text(text)
    run = Run([str(DEMO), "numpy_1", str(path)], cache)
    assert run.code == 2
    assert run.out == ""
    assert run.err.startswith(f"junobench check: {path}: {message}"), run.err
    run.assert_clean()


@pytest.mark.parametrize(
    ("sig", "code", "word"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
    ids=["SIGINT", "SIGTERM"],
)
def test_a_signal_stops_the_server_and_its_kernels(
    tmp_path: Path, cache: Path, sig: signal.Signals, code: int, word: str
) -> None:
    notebook = repair_with(tmp_path, "import time\ntime.sleep(60)")

    def interrupt(mark: str, process: subprocess.Popen[str]) -> None:
        wait_for_kernel(mark, process)
        process.send_signal(sig)

    run = Run([str(DEMO), "numpy_1", str(notebook)], cache, interrupt)
    assert run.code == code, run.out + run.err
    assert run.out == ""
    assert run.err == f"junobench: {word}; stopping the kernels and the Jupyter server it started\n"
    run.assert_clean()


def kill_its_server(mark: str, process: subprocess.Popen[str]) -> None:
    """Once the command has a kernel, SIGKILL the private Jupyter server it started."""
    wait_for_kernel(mark, process)
    for pid, command in marked(mark):
        if "jupyter-server" in command or "jupyter server" in command:
            os.kill(pid, signal.SIGKILL)


def test_a_server_that_goes_away(tmp_path: Path, cache: Path) -> None:
    notebook = repair_with(tmp_path, "import time\ntime.sleep(60)")
    run = Run([str(DEMO), "numpy_1", str(notebook)], cache, kill_its_server)
    assert run.code == 1, run.out + run.err
    assert run.out == ""
    assert re.fullmatch(
        r"junobench check: the Jupyter server it started \(http://127\.0\.0\.1:\d+/\) stopped on signal "
        r"SIGKILL while it ran; the repair was not checked\n",
        run.err,
    ), run.err
    run.assert_clean()


def test_a_reference_whose_kernel_dies_leaves_the_repair_not_checked(tmp_path: Path) -> None:
    book = casebook_with(tmp_path, "numpy_1_fixed.ipynb", lambda source: source + "\nimport os\nos._exit(0)")
    # The learner's notebook is the case's own fix, untouched: it runs; the reference does not.
    run = Run([str(book), "numpy_1", str(FIXED)], tmp_path / "cache")
    assert run.code == 1, run.out + run.err
    assert "numpy_1: FAIL (no-reference)" in run.out
    assert "Not checked: the reference fix does not run here" in run.out
    assert "The reference fix did not run here: its kernel died while cell 2 [1] ran" in run.out
    run.assert_clean()


def test_a_server_that_goes_away_while_verify_runs(tmp_path: Path) -> None:
    book = casebook_with(tmp_path, "numpy_1_reproduced.ipynb", lambda source: "import time\ntime.sleep(60)\n" + source)
    run = Run([str(book), "--cases", "numpy_1"], None, kill_its_server, command="verify")
    assert run.code == 1, run.out + run.err
    assert re.search(
        r"^junobench verify: the Jupyter server it started \(http://127\.0\.0\.1:\d+/\) stopped on signal "
        r"SIGKILL while it ran; the casebook was not verified$",
        run.err,
        re.M,
    ), run.err
    run.assert_clean()


def test_a_full_disk_under_the_json_report(tmp_path: Path) -> None:
    run = Run([str(DEMO), "--cases", "numpy_1", "--json", "/dev/full"], None, command="verify")
    assert run.code == 2, run.out + run.err
    assert run.err.endswith("junobench: cannot write the JSON report to /dev/full: the disk is full (ENOSPC)\n"), run.err
    run.assert_clean()


def test_a_report_in_a_folder_that_is_not_there(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "report.json"
    run = Run([str(DEMO), "--cases", "numpy_1", "--json", str(missing)], None, command="verify")
    assert run.code == 2, run.out + run.err
    assert run.err.endswith(f"junobench: cannot write the JSON report to {missing}: its folder does not exist (ENOENT)\n")
    run.assert_clean()


def test_a_full_disk_under_standard_output(tmp_path: Path, cache: Path) -> None:
    # A check that passes, its JSON report printed to a full disk: not a pass (exit code 0).
    run = Run([str(DEMO), "numpy_1", str(FIXED), "--json"], cache, stdout=Path("/dev/full"))
    assert run.code == 2, run.err
    assert run.err == ("junobench: cannot write to standard output: the disk is full (ENOSPC); the output is incomplete\n"), (
        run.err
    )
    run.assert_clean()


def test_a_report_longer_than_a_pipe_holds_arrives_whole(cache: Path) -> None:
    """A JSON report read through a pipe by a slow reader is not cut at the pipe's 64 KiB (the
    process used to end before its output was written: the hub test, on a busy machine, read
    65,534 characters). The reader here takes 4 KiB every 0.2 s."""
    process = subprocess.Popen(
        ["node", str(CLI), "check", str(DEMO), "numpy_1", str(FIXED), "--json", "--kernel", "python3",
         "--cache-dir", str(cache)],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    assert process.stdout is not None
    out = b""
    try:
        time.sleep(3)  # the report is written while nothing is read yet
        while chunk := process.stdout.read1(4096):
            out += chunk
            time.sleep(0.2)
        assert process.wait(timeout=240) == 0
    finally:
        process.kill()
    assert len(out) > 65536, "the report is too short to tell"
    assert json.loads(out)["passed"] is True
