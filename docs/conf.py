"""Sphinx configuration of the jupyterlab-junobench docs (MyST Markdown, the PyData theme JupyterLab's docs use).

Built by ``bash scripts/docs.sh`` into ``docs/_build/html``, warnings as errors. The CLI reference,
the settings reference and the numbers are generated before the build (``_ext/junobench_pages.py``);
the researchers' pages that other work adds (``scoring.md``, ``agents.md``) join the toctree when
they exist.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

import junobench_pages  # noqa: E402

project = "jupyterlab-junobench"
author = "jupyterlab-junobench developers"
copyright = "jupyterlab-junobench developers, BSD-3-Clause"
release = json.loads((DOCS.parent / "package.json").read_text("utf-8"))["version"]

extensions = ["myst_parser", "junobench_docs"]
source_suffix = {".md": "markdown"}
root_doc = "index"
# _generated/numbers.md is included by numbers.md, not a page of its own.
exclude_patterns = ["_build", "requirements.txt", "README.md", "_generated/numbers.md"]
# Heading anchors, so that `page.md#a-section` links resolve (and are checked).
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence", "deflist"]
# Internal links are checked (`-n`); a link to a file of the repository outside docs/ is
# rewritten by _ext/junobench_docs.py and checked there.
nitpicky = True

html_theme = "pydata_sphinx_theme"
html_title = "JunoBench for JupyterLab"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_with_keys": True,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
}

# The pages that are generated, so that none can drift from the code and the benchmarks.
junobench_pages.write_all(DOCS, Path(os.environ["JUNOBENCH_NUMBERS_DIR"]) if os.environ.get("JUNOBENCH_NUMBERS_DIR") else None)

# Researchers' pages written elsewhere: in the toctree when they exist, not an error while they do not.
junobench_optional_pages = [
    ("scoring", "Scoring agents and tools on JunoBench: `junobench score`"),
    ("agents", "Agents in the practice room: the MCP server"),
]
