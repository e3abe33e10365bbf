"""A small Sphinx extension for these docs.

- ``{junobench-optional-pages}``: a line in a page, replaced by a link and a toctree entry for each
  page of ``junobench_optional_pages`` that exists, and by a sentence for each that does not yet;
- a link to a folder of the repository outside ``docs/`` (``../deploy/podman/``) becomes its path in
  code, after checking that it exists; links to files are MyST's downloads, checked by MyST.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

MARKER = "{junobench-optional-pages}"
_FOLDER_LINK = re.compile(r"\[([^\]]+)\]\((\.\./[^)\s#]*/)\)")


def optional_pages(app: Sphinx) -> tuple[list[str], list[str]]:
    """The optional pages that exist (docnames) and the lines that list them."""
    here, lines = [], []
    for name, title in app.config.junobench_optional_pages:
        if (Path(app.srcdir) / f"{name}.md").is_file():
            here.append(name)
            lines.append(f"- [{title}]({name}.md)")
        else:
            lines.append(f"- {title}: not written yet (`docs/{name}.md`).")
    return here, lines


def on_source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    """Fill the optional pages' marker; turn links to repository folders into checked paths."""
    text = source[0]
    if MARKER in text:
        here, lines = optional_pages(app)
        toctree = ["", "```{toctree}", ":hidden:", "", *here, "```", ""] if here else []
        text = text.replace(MARKER, "\n".join([*lines, *toctree]))

    def folder(match: re.Match[str]) -> str:
        label, target = match.group(1), match.group(2)
        doc_dir = Path(app.env.doc2path(docname)).parent
        if not (doc_dir / target).is_dir():
            logger.warning(f"{docname}: link to a missing folder {target}", location=docname)
        # The path from the repository's root, as written (symbolic links are not followed).
        path = os.path.relpath(os.path.normpath(doc_dir / target), Path(app.srcdir).parent)
        return f"{label} (`{path}/`)" if label.strip("`") != f"{path}/" else f"`{path}/`"

    source[0] = _FOLDER_LINK.sub(folder, text)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the config value and the hook."""
    app.add_config_value("junobench_optional_pages", [], "env")
    app.connect("source-read", on_source_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
