"""The package's imports point one way: no module imports, even inside a function, one that imports it back.

The import graph is read from the source (every ``import`` statement, wherever it stands), so a cycle
hidden in a function body counts. Importing ``a.b.c`` runs ``a.b``'s ``__init__`` too: that edge is
counted for importers outside ``a.b``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = "jupyterlab_junobench"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE


def module_name(path: Path) -> str:
    parts = [PACKAGE, *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in ROOT.rglob("*.py")}


def imports_of(name: str, is_package: bool, source: str, known: set[str]) -> set[str]:
    """The package's modules ``name`` imports (and the packages whose ``__init__`` that runs)."""
    package = name if is_package else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets.add(base)
            targets |= {f"{base}.{alias.name}" for alias in node.names}
    found: set[str] = set()
    for target in targets:
        parts = target.split(".")
        for i in range(1, len(parts) + 1):
            prefix = ".".join(parts[:i])
            # An importer inside a package does not run that package's __init__ by importing a sibling.
            if prefix in known and prefix != name and not name.startswith(prefix + "."):
                found.add(prefix)
    return found


def graph() -> dict[str, set[str]]:
    mods = modules()
    return {name: imports_of(name, path.name == "__init__.py", path.read_text("utf-8"), set(mods)) for name, path in mods.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def reaches(edges: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        if node not in seen:
            seen.add(node)
            todo += edges.get(node, ())
    return False


def test_the_graph_reader_sees_imports_inside_functions_and_through_packages() -> None:
    known = {PACKAGE, f"{PACKAGE}.a", f"{PACKAGE}.b", f"{PACKAGE}.sub", f"{PACKAGE}.sub.c", f"{PACKAGE}.sub.d"}
    found = imports_of(f"{PACKAGE}.a", False, "def f():\n    from .sub.c import x\n    from . import b\n", known)
    assert found == {f"{PACKAGE}.b", f"{PACKAGE}.sub", f"{PACKAGE}.sub.c"}
    # Inside a package, a sibling's import does not count as one of the package's __init__.
    sibling = imports_of(f"{PACKAGE}.sub.c", False, "from . import d\nfrom .. import b\n", known)
    assert sibling == {f"{PACKAGE}.sub.d", f"{PACKAGE}.b"}
    assert find_cycle({"x": {"y"}, "y": {"x"}}) == ["x", "y", "x"]
    assert find_cycle({"x": {"y"}, "y": set()}) is None


def test_the_package_has_no_import_cycle() -> None:
    assert find_cycle(graph()) is None


def test_the_container_never_imports_the_pinned_kernel_module() -> None:
    edges = graph()
    container = [name for name in edges if name == f"{PACKAGE}.container" or name.startswith(f"{PACKAGE}.container.")]
    assert container
    assert [name for name in container if reaches(edges, name, f"{PACKAGE}.kernel")] == []
    # What both need is below both.
    assert reaches(edges, f"{PACKAGE}.container", f"{PACKAGE}.pins")
    assert reaches(edges, f"{PACKAGE}.kernel", f"{PACKAGE}.pins")
    assert not reaches(edges, f"{PACKAGE}.pins", f"{PACKAGE}.kernel")
    assert not reaches(edges, f"{PACKAGE}.pins", f"{PACKAGE}.container")


def test_the_container_imports_in_a_fresh_interpreter_where_the_pinned_kernel_module_cannot_be_imported() -> None:
    code = (
        "import sys, importlib.abc\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name == '{PACKAGE}.kernel':\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        f"import {PACKAGE}.container as c\n"
        "assert c.ContainerProvisioner and c.build and c.main and c.recognise_refusal\n"
        f"assert '{PACKAGE}.kernel' not in sys.modules\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
