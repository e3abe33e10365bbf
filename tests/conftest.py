"""Shared pytest setup for the Python tests.

The pytest-jupyter server fixtures (``jp_serverapp``, ``jp_fetch``, ...) are
imported by ``test_server_extension.py`` itself rather than registered here with
``pytest_plugins``: that plugin adds autouse fixtures and a test-call hook to
*every* test, which the plain jupyter_client tests beside it do not need.
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Register this suite's markers."""
    config.addinivalue_line(
        "markers",
        "wheel: installs a built wheel (env JUNOBENCH_WHEEL) into a fresh venv without Node.js",
    )
    config.addinivalue_line(
        "markers",
        "kernel_env: builds the minimal junobench kernel environment (once per session, tests/_junobench_venv.py)",
    )
