"""The docs' pages that are generated at build time, so that none can drift from what they describe.

- ``_generated/cli.md``: the command line's own ``--help``, the whole usage and each subcommand's;
- ``_generated/settings.md``: the JupyterLab settings from ``schema/*.json`` and the server's
  ``c.JunobenchExtension`` options from their traitlets;
- ``_generated/numbers.md``: the figures in the benchmark scripts' JSON output, each with the date,
  machine and command its JSON records.

``docs/conf.py`` calls :func:`write_all` before Sphinx reads the sources.
"""

from __future__ import annotations

import importlib.util
import json
import re
import statistics
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from collections.abc import Callable
from typing import Any

REPO = Path(__file__).resolve().parents[2]
GENERATED = "_generated"


class PageError(RuntimeError):
    """A generated page could not be made; the build fails with this message."""


# ---------------------------------------------------------------------------
# The command line


def _help(args: list[str]) -> str:
    cli = REPO / "bin" / "junobench.js"
    try:
        out = subprocess.run(["node", str(cli), *args], capture_output=True, text=True, timeout=60, cwd=REPO)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise PageError(f"node bin/junobench.js {' '.join(args)}: {e} (build the CLI: jlpm build:lib)") from e
    if out.returncode != 0 or not out.stdout.strip():
        raise PageError(
            f"node bin/junobench.js {' '.join(args)} exited {out.returncode}: {out.stderr.strip()[-400:]}"
            " (build the CLI: jlpm build:lib)"
        )
    return out.stdout.rstrip()


def subcommands(usage: str) -> list[str]:
    """The subcommands a usage text lists, in order, once each."""
    seen: list[str] = []
    for name in re.findall(r"^ {2}junobench (\w+)", usage, re.MULTILINE):
        if name not in seen:
            seen.append(name)
    return seen


def cli_page() -> str:
    """The CLI reference: `junobench --help`, then each `junobench <command> --help`."""
    usage = _help(["--help"])
    lines = [
        "# Command line reference",
        "",
        "Generated when the docs are built from the command line's own `--help` "
        "(`node bin/junobench.js <command> --help`), so it says what the built CLI says. "
        "[The command line](../command-line.md) explains what each command does.",
        "",
    ]
    for name in subcommands(usage):
        lines += [f"## `junobench {name}`", "", "```text", _help([name, "--help"]), "```", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Settings


def _cell(text: Any) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def settings_page(schema_dir: Path | None = None) -> str:
    """The settings reference from the JSON schemas and the server extension's traitlets."""
    schema_dir = schema_dir or REPO / "schema"
    lines = [
        "# Settings reference",
        "",
        "Generated when the docs are built, from `schema/*.json` (Settings → Settings Editor → JunoBench) "
        "and from the server extension's configurable options, so neither can drift.",
        "",
    ]
    for path in sorted(schema_dir.glob("*.json")):
        schema = json.loads(path.read_text("utf-8"))
        lines += [f"## {schema.get('title', path.stem)}", "", f"{schema.get('description', '')} (`schema/{path.name}`)", ""]
        props = schema.get("properties") or {}
        if props:
            lines += ["| setting | type | default | meaning |", "|---|---|---|---|"]
            for name, prop in props.items():
                meaning = f"**{prop.get('title', '')}**. {prop.get('description', '')}"
                if "enum" in prop:
                    meaning += " One of " + ", ".join(f"`{v}`" for v in prop["enum"]) + "."
                if "minimum" in prop:
                    meaning += f" At least {prop['minimum']}."
                default = json.dumps(prop.get("default")) if "default" in prop else ""
                lines.append(f"| `{name}` | {prop.get('type', '')} | `{_cell(default)}` | {_cell(meaning)} |")
            lines.append("")
        shortcuts = schema.get("jupyter.lab.shortcuts") or []
        if shortcuts:
            lines += ["| shortcut | command |", "|---|---|"]
            lines += [f"| {_cell(' then '.join(s['keys']))} | `{s['command']}` |" for s in shortcuts]
            lines.append("")
    lines += server_options()
    return "\n".join(lines)


def server_options() -> list[str]:
    """The `c.JunobenchExtension.*` options, from the traitlets themselves."""
    sys.path.insert(0, str(REPO))
    try:
        from jupyterlab_junobench.config import JunobenchExtension
    finally:
        sys.path.pop(0)
    lines = [
        "## The server extension (`jupyter_server_config.py`)",
        "",
        "Set as `c.JunobenchExtension.<option> = ...` in a Jupyter server config file, or "
        "`--JunobenchExtension.<option>=...` on the command line.",
        "",
        "| option | type | default | meaning |",
        "|---|---|---|---|",
    ]
    for name, trait in sorted(JunobenchExtension.class_traits(config=True).items()):
        default = json.dumps(trait.default_value)
        lines.append(f"| `{name}` | {type(trait).__name__} | `{_cell(default)}` | {_cell(trait.help)} |")
    return [*lines, ""]


# ---------------------------------------------------------------------------
# Numbers


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _script_rows(script: str) -> list[tuple[str, ...]]:
    """The ``ROWS`` a benchmark script prints its table with, so that the page shows the same figures."""
    path = REPO / "scripts" / script
    spec = importlib.util.spec_from_file_location(path.stem.replace("-", "_"), path)
    if spec is None or spec.loader is None:
        raise PageError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.pop(0)
    return module.ROWS


def _table(data: dict[str, Any], rows: list[tuple[str, ...]]) -> list[str]:
    """One column per measured kind (every key but ``meta``), one row per ``(label, key[, format])``."""
    kinds = [k for k in data if k != "meta"]
    out = ["| | " + " | ".join(kinds) + " |", "|---|" + "---|" * len(kinds)]
    for label, key, *fmt in rows:
        shown = fmt[0] if fmt else "{:.2f}"
        out.append(f"| {label} | " + " | ".join(shown.format(data[k][key]) for k in kinds) + " |")
    return out


def _kernel_start(data: dict[str, Any]) -> list[str]:
    return _table(data, _script_rows("benchmark-kernel-start.py"))


def _container(data: dict[str, Any]) -> list[str]:
    kernels = [k for k in data if k != "meta"]
    passed = [f"{int(data[k]['verify_passed'])}/{int(data[k]['verify_cases'])}" for k in kernels]
    return [*_table(data, _script_rows("benchmark-container.py")), "| verify: cases passed | " + " | ".join(passed) + " |"]


def _corpus(report: dict[str, Any] | list[dict[str, Any]]) -> list[str]:
    # {meta, results}; a file written before the JSON recorded its meta is the list of results.
    data = report["results"] if isinstance(report, dict) else report
    def agrees(r: dict[str, Any]) -> bool:
        # The same rule as scripts/check-corpus.js: exact statuses for the mutation corpus, pass or fail otherwise.
        if r.get("expectStatus") and r.get("corpus") == "mutation":
            return r.get("got") == r["expectStatus"]
        return r.get("passed") == r.get("expectPass")

    out = ["| corpus | repairs | agree | false passes | false fails | check, median (ms) |", "|---|---|---|---|---|---|"]
    corpora = sorted({r.get("corpus", "?") for r in data})
    for corpus in [*corpora, "all"]:
        rows = [r for r in data if corpus in ("all", r.get("corpus"))]
        fp = sum(1 for r in rows if r.get("passed") and not r.get("expectPass"))
        ff = sum(1 for r in rows if not r.get("passed") and r.get("expectPass"))
        ms = _median([r["ms"] for r in rows if isinstance(r.get("ms"), (int, float))])
        agree = sum(1 for r in rows if agrees(r))
        out.append(f"| {corpus} | {len(rows)} | {agree} | {fp} | {ff} | {ms:.0f} |")
    return out


def _verify(data: dict[str, Any]) -> list[str]:
    reports = data.get("reports") or []
    passed = sum(1 for r in reports if r.get("verdict") == "pass")
    missing = sum(1 for r in reports if r.get("verdict") == "missing")
    environment = data.get("environment") or {}
    drifted = len(((environment.get("drift") or {}).get("differences")) or [])
    env = (
        f"kernel `{environment.get('kernel')}` ({environment.get('environment')}), "
        f"{drifted} of the pinned libraries differ from the benchmark's"
        if environment
        else ""
    )
    out = [
        "| casebook | cases | passed | failed | not verifiable here | jobs | time (s) |",
        "|---|---|---|---|---|---|---|",
        f"| {data.get('casebook')} | {len(reports)} | {passed} | {len(reports) - passed - missing} | {missing}"
        f" | {data.get('jobs')} | {data.get('seconds')} |",
    ]
    if env:
        out += ["", f"Environment: {_cell(env)}"]
    return out


def _mcp(data: dict[str, Any]) -> list[str]:
    out = [
        f"Case {data['case']}, kernel `{data['kernel']}`, median of {data['repeats']} runs per cell.",
        "",
        "| cell | direct execute (ms) | MCP run_cell (ms) | ratio | inside the server (ms) |",
        "|---|---|---|---|---|",
    ]
    out += [
        f"| {r['index']} | {r['directMs']:.2f} | {r['mcpMs']:.2f} | {r['ratio']:.2f} | {r['serverMs']:.2f} |"
        for r in data["cells"]
    ]
    out.append(
        f"| all | {data['directMs']:.2f} | {data['mcpMs']:.2f} | {data['ratio']:.2f} | {data['serverMs']:.2f} |"
    )
    return out


# What each benchmark JSON is, the command that writes it, and how to show it.
BENCHMARKS: list[tuple[str, str, str, Callable[[Any], list[str]]]] = [
    (
        "junobench-check-corpus.json",
        "The repair check against its three corpora (mutation, fair, agents)",
        "node scripts/check-corpus.js --jobs 2 --json junobench-check-corpus.json",
        _corpus,
    ),
    (
        "junobench-bench-kernel-start.json",
        "Pinned kernels forked from a fork server against kernels started as usual",
        "python scripts/benchmark-kernel-start.py --starts 6",
        _kernel_start,
    ),
    (
        "junobench-bench-container.json",
        "The kernel inside the JunoBench container against the pinned kernel",
        "python scripts/benchmark-container.py --starts 3 --cells 200",
        _container,
    ),
    (
        "junobench-bench-mcp.json",
        "An agent's run_cell through the MCP server against a direct kernel execute",
        "python scripts/benchmark-mcp.py --case numpy_1 --json junobench-bench-mcp.json",
        _mcp,
    ),
    (
        "junobench-verify-demo.json",
        "`junobench verify` of the demo casebook",
        "node bin/junobench.js verify demo/casebook --jobs 2 --json junobench-verify-demo.json",
        _verify,
    ),
    (
        "junobench-verify-container.json",
        "`junobench verify` of the demo casebook in the container kernel",
        "node bin/junobench.js verify demo/casebook --kernel junobench-container --jobs 2 --json junobench-verify-container.json",
        _verify,
    ),
    (
        "junobench-verify-real.json",
        "`junobench verify` of the real JunoBench cases in ../shared (informative)",
        "node bin/junobench.js verify ../shared/junobench --cases <the folders there> --jobs 2 --json junobench-verify-real.json",
        _verify,
    ),
]


def _when_where(path: Path, data: Any, command: str) -> list[str]:
    """The date, machine and command of one JSON: its own ``meta`` when it records one."""
    meta = data.get("meta") if isinstance(data, dict) else None
    if meta:
        load = f", load average {' / '.join(map(str, meta['load']))}" if meta.get("load") else ""
        return [
            f"- date: {meta['date']}",
            f"- machine: {meta['machine']}{load}",
            f"- command: `{meta['command']}`",
        ]
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        from bench_meta import machine
    finally:
        sys.path.pop(0)
    date = datetime.fromtimestamp(path.stat().st_mtime, timezone.utc).isoformat(timespec="seconds")
    return [
        f"- date: {date} (the file's modification time; this JSON does not record its date)",
        f"- machine: {machine()} (the machine that built these docs, where `scripts/test.sh` writes it;"
        " this JSON does not record its machine)",
        f"- command: `{command}` (as `scripts/test.sh` runs it; this JSON does not record its command)",
    ]


def numbers_page(folder: Path | None = None) -> str:
    """The figures of every benchmark JSON found in ``folder`` (default: the repository's root)."""
    folder = folder or REPO
    lines = [
        "## Figures from the last runs here",
        "",
        f"Generated when the docs were built from the benchmark JSON files in `{_shown(folder)}` "
        "(`JUNOBENCH_NUMBERS_DIR` names another folder). `bash scripts/test.sh` writes all of them; "
        "each command below writes its own.",
        "",
    ]
    absent = []
    for name, title, command, render in BENCHMARKS:
        path = folder / name
        if not path.is_file():
            absent.append((name, title, command))
            continue
        try:
            data = json.loads(path.read_text("utf-8"))
            table = render(data)
        except (ValueError, KeyError, TypeError) as e:
            raise PageError(f"{path}: not the JSON {command} writes ({e})") from e
        lines += [f"### {title}", "", *_when_where(path, data, command), "", *table, ""]
    if absent:
        lines += [
            "### Not measured here yet",
            "",
            "No JSON for these; the command makes it (from the repository's root, inside `.venv`):",
            "",
            *[f"- {title}: `{command}` (writes `{name}`)" for name, title, command in absent],
            "",
        ]
    return "\n".join(lines)


def _shown(folder: Path) -> str:
    try:
        return str(folder.resolve().relative_to(REPO)) or "."
    except ValueError:
        return str(folder)


# ---------------------------------------------------------------------------


def write_all(docs: Path, numbers_dir: Path | None = None) -> list[Path]:
    """Write the generated pages under ``docs/_generated``; only a page whose text changed is rewritten."""
    out = docs / GENERATED
    out.mkdir(exist_ok=True)
    written = []
    for name, text in (
        ("cli.md", cli_page()),
        ("settings.md", settings_page()),
        ("numbers.md", numbers_page(numbers_dir)),
    ):
        path = out / name
        if not path.exists() or path.read_text("utf-8") != text:
            path.write_text(text, "utf-8")
        written.append(path)
    return written
