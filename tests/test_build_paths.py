"""No path of the machine that built them in the demo casebook or the corpora copied from it.

Tracebacks and warnings recorded by scripts/build_demo.py (and scripts/make_fair_corpus.py
--record) name the files of the kernel's Python. They are written as the benchmark container's
(scripts/container_paths.py); this test reads every file of demo/ and of the corpora (the text of
notebooks, JSON, Markdown, CSV, and the XML inside the workbooks) and fails on anything that names
the building machine: a home folder (`/home/…`, `/Users/…`, IPython's `~/…`), `/root`, `/work`,
`/tmp` (ipykernel's own cell files, `/tmp/ipykernel_<pid>/<hash>.py`, aside: every kernel names
its cells so, in the container too), this repository's path, a `.venv` or `.pyenv`, or a Python
library folder other than the container's.
"""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

from container_paths import container_outputs, container_paths  # noqa: E402

FOLDERS = [REPO / "demo", REPO / "test" / "fair-corpus", REPO / "test" / "check-corpus"]

#: What names the building machine (its own regexes, not container_paths' one).
MACHINE = [
    re.compile(r"/(?:home|Users)/\w"),
    re.compile(r"(?<![\w.])~/"),
    re.compile(r"(?<![\w.])/root(?:/|\b)"),
    re.compile(r"(?<![\w.])/work/"),
    re.compile(r"(?<![\w.])/tmp/(?!ipykernel_\d+/\d+\.py)"),
    re.compile(r"\.venv\b|\.pyenv\b|\bvirtualenvs?/|\bconda/envs/"),
    re.compile(re.escape(str(REPO))),
    # A Python library folder that is not the container's venv or its base image's Python.
    re.compile(r"(?<!/opt/junobench)(?<!/usr/local)/lib/python3\.\d+/"),
]


def texts(path: Path) -> list[str]:
    """The text of a file: the XML parts of a workbook, else the file read as UTF-8."""
    if path.suffix == ".xlsx":
        with zipfile.ZipFile(path) as book:
            return [book.read(name).decode("utf-8") for name in book.namelist() if name.endswith(".xml")]
    try:
        return [path.read_text(encoding="utf-8")]
    except UnicodeDecodeError:
        return []


def machine_paths(text: str) -> list[str]:
    """Every piece of `text` that names the building machine, with some context."""
    found = []
    for pattern in MACHINE:
        for m in pattern.finditer(text):
            found.append(text[max(0, m.start() - 20) : m.end() + 40])
    return found


def files() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in folder.rglob("*") if p.is_file())


def test_the_folders_are_there() -> None:
    assert all(folder.is_dir() for folder in FOLDERS)
    assert len([p for p in files() if p.suffix == ".ipynb"]) > 100


def test_no_path_of_the_building_machine() -> None:
    found = {}
    for path in files():
        hits = [hit for text in texts(path) for hit in machine_paths(text)]
        if hits:
            found[str(path.relative_to(REPO))] = hits[:3]
    assert found == {}, "paths of the building machine (rewrite: scripts/build_demo.py --container-paths)"


@pytest.mark.parametrize(
    "planted",
    [
        "\x1b[0;32m/work/main/.venv/lib/python3.11/site-packages/pandas/core/frame.py:4102\x1b[0m",
        "File \x1b[0;32m~/.pyenv/versions/3.11.7/lib/python3.11/site-packages/sklearn/base.py:1\x1b[0m",
        "/home/ada/project/data.csv not found",
        "/Users/ada/venvs/x/lib/python3.12/site-packages/numpy/core.py:3: Warning",
        "[Errno 2] No such file or directory: '/tmp/pytest-of-root/data.csv'",
        "/root/.cache/x",
        "/usr/lib/python3.11/json/decoder.py",
        str(REPO / "demo" / "casebook"),
    ],
)
def test_the_scan_sees_a_planted_path(planted: str) -> None:
    assert machine_paths(f'{{"text": "{planted}"}}'), planted


@pytest.mark.parametrize(
    "kept",
    [
        "File \x1b[0;32m/opt/junobench/lib/python3.10/site-packages/sklearn/base.py:1\x1b[0m",
        "/usr/local/lib/python3.10/json/decoder.py",
        'File "/tmp/ipykernel_2527/1278812238.py", line 11, in grade',
        "Cell In[3], line 2",
    ],
)
def test_the_scan_keeps_the_containers_and_the_kernels_own(kept: str) -> None:
    assert machine_paths(kept) == []


@pytest.mark.parametrize(
    ("recorded", "written"),
    [
        (
            "\x1b[32m/work/main/.venv/lib/python3.11/site-packages/pandas/core/frame.py\x1b[39m",
            "\x1b[32m/opt/junobench/lib/python3.10/site-packages/pandas/core/frame.py\x1b[39m",
        ),
        (
            "\x1b[0;32m~/.pyenv/versions/3.11.7/lib/python3.11/site-packages/sklearn/base.py:9\x1b[0m",
            "\x1b[0;32m/opt/junobench/lib/python3.10/site-packages/sklearn/base.py:9\x1b[0m",
        ),
        ("/usr/lib/python3/dist-packages/numpy/x.py", "/usr/lib/python3/dist-packages/numpy/x.py"),
        ("/usr/lib/python3.11/dist-packages/numpy/x.py", "/opt/junobench/lib/python3.10/site-packages/numpy/x.py"),
        ("~/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py", "/usr/local/lib/python3.10/json/decoder.py"),
        (
            "/work/main/.venv/lib/python3.11/site-packages/a.py:3: UserWarning\n/x/lib/python3.9/b.py",
            "/opt/junobench/lib/python3.10/site-packages/a.py:3: UserWarning\n/usr/local/lib/python3.10/b.py",
        ),
        ('File "/tmp/ipykernel_7/1.py", line 1', 'File "/tmp/ipykernel_7/1.py", line 1'),
    ],
)
def test_container_paths(recorded: str, written: str) -> None:
    assert container_paths(recorded) == written
    assert container_paths(written) == written


def test_container_outputs_rewrites_every_kind_of_output() -> None:
    venv = "/work/main/.venv/lib/python3.11/site-packages/m.py"
    outputs = [
        {"output_type": "stream", "name": "stderr", "text": f"{venv}:1: Warning\n"},
        {"output_type": "stream", "name": "stdout", "text": [f"{venv}\n", "ok\n"]},
        {"output_type": "error", "ename": "E", "evalue": f"in {venv}", "traceback": [f"File {venv}:2"]},
        {"output_type": "execute_result", "data": {"text/plain": venv, "image/png": "AAAA"}, "metadata": {}},
    ]
    container_outputs(outputs)
    assert machine_paths(repr(outputs)) == []
    assert outputs[3]["data"]["image/png"] == "AAAA"
