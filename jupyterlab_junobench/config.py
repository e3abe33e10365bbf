"""Configuration of the JunoBench server extension."""

from __future__ import annotations

from pathlib import PurePosixPath, PureWindowsPath

from traitlets import Bool, Dict, TraitError, Unicode, validate
from traitlets.config import Configurable


class JunobenchExtension(Configurable):
    """Settings of the JunoBench server extension (``c.JunobenchExtension.*``)."""

    tcp_nodelay = Bool(
        True,
        config=True,
        help=(
            "Disable Nagle's algorithm (set TCP_NODELAY) on the server side of kernel "
            "websockets. With Nagle on, every small kernel message round trip can wait "
            "~40 ms for a delayed ACK; replaying a notebook cell by cell pays that per cell."
        ),
    )

    demo_folder = Unicode(
        "JunoBench-demo",
        config=True,
        help=(
            "Name of the folder, directly under the server's contents root, that "
            "receives a copy of the bundled demo casebook."
        ),
    )

    demo_source = Unicode(
        "",
        config=True,
        help=(
            "Casebook folder to copy as the demo (must hold benchmark_desc.xlsx). "
            "Empty: the casebook bundled with the package (or the source checkout's "
            "demo/casebook in an editable install)."
        ),
    )

    allow_fetch = Bool(
        True,
        config=True,
        help=(
            "Let the JunoBench panel fetch a missing case folder (\"Fetch this case\") into a "
            "casebook that `junobench fetch --cases` made under the server's root: the server "
            "runs git against the source recorded in that copy. Turn it off on shared servers "
            "where learners must not download data."
        ),
    )

    fetch_jobs = Dict(help="Fetches started by the panel, by id (runtime state, not config).")

    nodelay_active = Bool(
        False, help="Whether TCP_NODELAY was actually installed on kernel websockets."
    )

    @validate("demo_folder")
    def _check_demo_folder(self, proposal: dict[str, object]) -> str:
        """Accept only one plain path component, so the copy stays inside the root."""
        value = str(proposal["value"])
        parts = {PurePosixPath(value).name, PureWindowsPath(value).name}
        if not value or parts != {value} or value in {".", ".."}:
            raise TraitError(f"demo_folder must be a single folder name, got {value!r}")
        return value
