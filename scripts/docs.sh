#!/usr/bin/env bash
# Build the documentation (Sphinx, MyST, the PyData theme) from docs/ into docs/_build/html.
# Warnings are errors and every internal link is checked: a page, a heading anchor (`page.md#a-title`)
# or a file that does not exist fails the build (-n and MyST's cross-reference checks; a link to a
# folder of the repository by docs/_ext/junobench_docs.py). External URLs are not fetched: Sphinx's
# linkcheck would only fetch those (it leaves this site's own links unchecked), and CI has no
# network to spare. The CLI reference, the settings reference and
# the numbers are generated from the built CLI, schema/ and the benchmarks' JSON
# (docs/_ext/junobench_pages.py). Needs .venv with docs/requirements.txt and a built CLI
# (bash scripts/setup.sh; pip install -r docs/requirements.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
[ -z "${VIRTUAL_ENV:-}" ] && [ -f .venv/bin/activate ] && . .venv/bin/activate
python -c 'import sphinx, myst_parser, pydata_sphinx_theme' 2>/dev/null \
  || python -m pip install -q -r docs/requirements.txt
[ -f lib-cli/cli/main.js ] || jlpm build:cli
started=$SECONDS
# -E: every page read again, so that a warning is never hidden by an earlier build.
python -m sphinx -b html -E -W --keep-going -n -q docs docs/_build/html
echo "docs: built into docs/_build/html in $((SECONDS - started)) s"
