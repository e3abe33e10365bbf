"""``list_tree``: a casebook folder listed several levels deep in one pass."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jupyterlab_junobench.tree import TreeError, list_tree


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A server root with a small casebook and a secret outside it."""
    server = tmp_path / "root"
    book = server / "book"
    (book / "benchmark" / "a_1" / "data" / "deep" / "deeper").mkdir(parents=True)
    (book / "benchmark" / "b_2").mkdir(parents=True)
    (book / "benchmark_desc.xlsx").write_bytes(b"x" * 10)
    (book / "benchmark" / "a_1" / "a_1_reproduced.ipynb").write_text("{}")
    (book / "benchmark" / "a_1" / "data" / "train.csv").write_text("a,b\n")
    (book / "benchmark" / "a_1" / "data" / "deep" / "deeper" / "x.csv").write_text("")
    (book / ".hidden").write_text("no")
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "answers.txt").write_text("42")
    return server


def names(tree: dict, folder: str) -> list[str]:
    """The entry names of one listed folder."""
    return [e["name"] for e in tree["folders"][folder]]


def test_lists_every_level_with_types_and_sizes(root: Path) -> None:
    tree = list_tree(root, "book")
    assert tree["complete"] is True
    assert names(tree, "") == ["benchmark", "benchmark_desc.xlsx"]
    assert tree["folders"][""][1] == {"name": "benchmark_desc.xlsx", "type": "file", "size": 10}
    assert names(tree, "benchmark") == ["a_1", "b_2"]
    assert names(tree, "benchmark/a_1") == ["a_1_reproduced.ipynb", "data"]
    assert names(tree, "benchmark/a_1/data") == ["deep", "train.csv"]
    assert names(tree, "benchmark/b_2") == []


def test_stops_at_the_depth_limit(root: Path) -> None:
    tree = list_tree(root, "book", max_depth=3)
    assert "benchmark/a_1/data" in tree["folders"]
    assert "benchmark/a_1/data/deep" not in tree["folders"]
    deeper = list_tree(root, "book", max_depth=4)
    assert names(deeper, "benchmark/a_1/data/deep") == ["deeper"]
    assert "benchmark/a_1/data/deep/deeper" not in deeper["folders"]


def test_leaves_out_hidden_entries_unless_allowed(root: Path) -> None:
    assert ".hidden" not in names(list_tree(root, "book"), "")
    assert ".hidden" in names(list_tree(root, "book", allow_hidden=True), "")
    with pytest.raises(TreeError, match="hidden") as info:
        list_tree(root, "book/.git")
    assert (info.value.code, info.value.path) == ("path-hidden", "book/.git")


def test_never_follows_a_link_out_of_the_root(root: Path, tmp_path: Path) -> None:
    case = root / "book" / "benchmark" / "b_2"
    os.symlink(tmp_path / "secret", case / "data")
    os.symlink(tmp_path / "secret" / "answers.txt", case / "b_2_fixed.ipynb")
    os.symlink(root / "book" / "benchmark" / "a_1" / "data", case / "shared_data")
    tree = list_tree(root, "book")
    assert names(tree, "benchmark/b_2") == ["shared_data"]
    assert names(tree, "benchmark/b_2/shared_data") == ["deep", "train.csv"]
    assert all("secret" not in folder for folder in tree["folders"])


@pytest.mark.parametrize(
    "path, error",
    [("../secret", TreeError), ("book/../../secret", TreeError), ("nope", FileNotFoundError)],
)
def test_refuses_paths_outside_or_missing(root: Path, path: str, error: type) -> None:
    with pytest.raises(error) as info:
        list_tree(root, path)
    if error is TreeError:
        assert (info.value.code, info.value.path) == ("path-outside-root", path)


def test_refuses_a_link_out_of_the_root_as_outside(root: Path, tmp_path: Path) -> None:
    os.symlink(tmp_path, root / "away")
    with pytest.raises(TreeError) as info:
        list_tree(root, "away")
    assert (info.value.code, info.value.path) == ("path-outside-root", "away")


def test_an_entry_limit_marks_the_answer_incomplete(root: Path) -> None:
    tree = list_tree(root, "book", max_entries=3)
    assert tree["complete"] is False
    assert "benchmark/a_1/data" not in tree["folders"]
