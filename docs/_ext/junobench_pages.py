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


def _corpus_bench(report: dict[str, Any]) -> list[str]:
    """The check against the plain check (``--bench``), per class of repair, and the time per attempt."""
    data = [r for r in report["results"] if "plainPassed" in r]
    if not data:
        raise KeyError("plainPassed (the JSON of a run without --bench)")
    out = [
        "| class | repairs | check: false pass / false fail | plain check: false pass / false fail |",
        "|---|---|---|---|",
    ]
    for cls in sorted({r.get("class", "?") for r in data}):
        rows = [r for r in data if r.get("class", "?") == cls]
        fp = sum(1 for r in rows if r.get("passed") and not r.get("expectPass"))
        ff = sum(1 for r in rows if not r.get("passed") and r.get("expectPass"))
        pfp = sum(1 for r in rows if r.get("plainPassed") and not r.get("expectPass"))
        pff = sum(1 for r in rows if not r.get("plainPassed") and r.get("expectPass"))
        out.append(f"| {_cell(cls)} | {len(rows)} | {fp} / {ff} | {pfp} / {pff} |")
    cached = [r for r in data if ((r.get("evidence") or {}).get("reference") or {}).get("cached")]
    first = [r for r in data if r.get("evidence") and r not in cached]
    if cached:
        ratios = sorted(r["ms"] / r["runAllMs"] for r in cached)
        p90 = ratios[max(0, -(-9 * len(ratios) // 10) - 1)]
        out += [
            "",
            f"Time per attempt with the reference cached ({len(cached)} attempts, a fresh kernel and session each):"
            f" the check's median {_median([r['ms'] for r in cached]) / 1000:.2f} s, the plain check's"
            f" {_median([r['plainMs'] for r in cached]) / 1000:.2f} s, restart-and-run-all's"
            f" {_median([r['runAllMs'] for r in cached]) / 1000:.2f} s; check / restart-and-run-all median"
            f" {_median(ratios):.2f} (p90 {p90:.2f}).",
        ]
    if first:
        out += [
            "",
            "The first check of a case (the reference fix run twice too):"
            f" median {_median([r['ms'] for r in first]) / 1000:.1f} s.",
        ]
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


def _bytes(n: float) -> str:
    for unit, size in (("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} B"


def _fetch(data: dict[str, Any]) -> list[str]:
    out = [
        f"Fetch fixture: 10 cases, {data['data_kb']} kB of data added per case; a sparse fetch of"
        f" {data['cases']} cases against a full clone, median of {data['runs']} runs.",
        "",
        "| data files | fetch | seconds | transferred | disk |",
        "|---|---|---|---|---|",
    ]
    out += [
        f"| {r['data_files']} | {r['fetch']} | {r['seconds']:.2f} | {_bytes(r['transferred_bytes'])}"
        f" | {_bytes(r['disk_bytes'])} |"
        for r in data["rows"]
    ]
    return out


def _hub(data: dict[str, Any]) -> list[str]:
    out = [
        f"Case {data['case']}; per user, in seconds: p50 / p90 / max.",
        "",
        "| users at once | reached the crash | wall (s) | spawn | open → crash | replay to crash |",
        "|---|---|---|---|---|---|",
    ]

    def shown(figures: dict[str, float] | None) -> str:
        return "–" if not figures else f"{figures['p50']:.1f} / {figures['p90']:.1f} / {figures['max']:.1f}"

    for g in data["groups"]:
        rows = g["rows"]
        out.append(
            f"| {g['users']} | {g['reached_crash']}/{g['users']} | {g['wall_s']:.1f} | {shown(rows['spawn'])}"
            f" | {shown(rows['open -> crash'])} | {shown(rows['replay to crash'])} |"
        )
    return out


def _state(data: dict[str, Any]) -> list[str]:
    out = [
        f"Each demo case replayed in the recorded order from a fresh kernel, with and without the state"
        f" probe after every step, median of {data['repeats']} runs each.",
        "",
        "| case | steps | tracked (s) | untracked (s) | overhead | probe payload per step, median / max |",
        "|---|---|---|---|---|---|",
    ]
    out += [
        f"| {c['name']} | {c['steps']} | {c['trackedMs'] / 1000:.2f} | {c['untrackedMs'] / 1000:.2f}"
        f" | {100 * (c['trackedMs'] / c['untrackedMs'] - 1):.1f}% | {c['payloadMedianBytes']} B / {c['payloadMaxBytes']} B |"
        for c in data["cases"]
    ]
    out.append(f"| all | | | | {100 * (data['ratio'] - 1):.1f}% | |")
    return out


def _bench(data: dict[str, Any]) -> list[str]:
    per = data["perCell"]
    out = [
        f"Per cell, {per['cells']} trivial cells replayed by the Node runner and by nbclient:",
        "",
        "| runner | ms per cell |",
        "|---|---|",
        f"| ours, TCP_NODELAY on | {per['nodelayOnMs']:.2f} |",
        f"| ours, TCP_NODELAY off | {per['nodelayOffMs']:.2f} |",
        f"| nbclient | {per['nbclientMs']:.2f} |",
        "",
    ]
    if data.get("descriptor"):
        d = data["descriptor"]
        out += [f"Loading the real descriptor ({d['cases']} cases, Node): median {d['medianMs']:.1f} ms.", ""]
    if data.get("bundle"):
        b = data["bundle"]
        kind = "development" if b["dev"] else "production"
        out += [f"Bundle: {b['total'] / 1024:.1f} KiB in {b['files']} JS files ({kind} build).", ""]
    out += ["| case | new session → crash (s) | kernel start (s) | cells | ended |", "|---|---|---|---|---|"]
    out += [
        f"| {r['name']} | {r['totalMs'] / 1000:.2f} | {r['kernelStartMs'] / 1000:.2f} | {r['cells']}"
        f" | {r['status']}{' ' + r['ename'] if r.get('ename') else ''} |"
        for r in data["openToCrash"]
    ]
    out += [
        "",
        f"\"Check my fix\" on each fixed notebook against restart-and-run-all, median of {data['checkRepeats']}:",
        "",
        "| case | check (ms) | run-all (ms) | ratio | check says |",
        "|---|---|---|---|---|",
    ]
    out += [
        f"| {r['name']} | {r['checkMs']:.0f} | {r['runAllMs']:.0f} | {r['ratio']:.2f} | {_cell(r['check'])} |"
        for r in data["checkVsRunAll"]
    ]
    return out


def _ratios(data: dict[str, Any]) -> list[str]:
    per, v = data["perCell"], data["verify"]
    m = v["medianMs"]
    return [
        f"Per cell, {per['cells']} trivial cells: ours {per['oursMs']:.2f} ms, nbclient {per['nbclientMs']:.2f} ms"
        f" (ratio {per['oursMs'] / per['nbclientMs']:.2f}).",
        "",
        f"The demo casebook verified (reproduced to the crash, fixed in full), median of {v['repeats']}:",
        "",
        "| run | s | against nbclient | against papermill |",
        "|---|---|---|---|",
        *(
            f"| {label} | {m[key] / 1000:.1f} | {m[key] / m['nbclient']:.2f} | {m[key] / m['papermill']:.2f} |"
            for key, label in (("jobs1", "verify --jobs 1"), ("jobs2", "verify --jobs 2"),
                               ("nbclient", "nbclient loop"), ("papermill", "papermill loop"))
        ),
    ]


def _browser(data: dict[str, Any]) -> list[str]:
    out = ["| measure | value |", "|---|---|"]
    out += [f"| {_cell(r['measure'])} | {_cell(r['value'])} |" for r in data["lines"]]
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
        "junobench-check-corpus-bench.json",
        "The repair check against the plain check (fresh run and static guard) and restart-and-run-all",
        "node scripts/check-corpus.js --bench --jobs 1 --corpora fair,agents"
        " --cases numpy_1,numpy_2,pandas_2,sklearn_2,matplotlib_1,NBspecific_2,NBspecific_3,sklearn_3,sklearn_5"
        " --json junobench-check-corpus-bench.json",
        _corpus_bench,
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
        "junobench-bench-fetch.json",
        "A sparse fetch of 2 cases against a full clone of the fetch fixture",
        "python scripts/benchmark-fetch.py --json junobench-bench-fetch.json",
        _fetch,
    ),
    (
        "junobench-bench.json",
        "The Node runner against nbclient, a new session to the crash, Check my fix against run-all",
        "node scripts/benchmark.js --json junobench-bench.json",
        _bench,
    ),
    (
        "junobench-bench-state.json",
        "Replaying with and without tracking the hidden state",
        "node scripts/benchmark-state.js --json junobench-bench-state.json",
        _state,
    ),
    (
        "junobench-bench-browser.json",
        "In Chromium through Galata: per-cell round trip, open to crash, the 10,000-case casebook, the warm kernel",
        "bash scripts/benchmark-browser.sh --json junobench-bench-browser.json",
        _browser,
    ),
    (
        "junobench-bench-hub.json",
        "Learners starting at once on a local JupyterHub",
        "python scripts/benchmark-hub.py --json junobench-bench-hub.json",
        _hub,
    ),
    (
        "junobench-bench-ratios.json",
        "Our runner and `junobench verify` against nbclient and papermill",
        "node scripts/benchmark-ratios.js --json junobench-bench-ratios.json",
        _ratios,
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
