#!/usr/bin/env bash
# Install everything the extension needs into ./.venv and build it:
# Python packages, npm packages, the TypeScript library, the CLI and the
# prebuilt labextension; then install the extension (editable) into .venv.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "== creating .venv with $($PYTHON --version)"
  "$PYTHON" -m venv .venv
fi
# shellcheck disable=SC1091
. .venv/bin/activate
echo "== pip install (requirements-dev.txt)"
python -m pip install -q --upgrade pip
python -m pip install -q -r requirements-dev.txt

echo "== npm packages (jlpm install)"
jlpm install --silent >/dev/null 2>&1 || jlpm install
echo "== build (TypeScript, CLI, labextension)"
jlpm build:prod
echo "== install the extension into .venv"
# A previous `jupyter labextension develop` left a symlink that pip would follow.
link=.venv/share/jupyter/labextensions/jupyterlab-junobench
if [ -L "$link" ]; then rm "$link"; fi
HATCH_JUPYTER_BUILDER_SKIP_NPM=1 python -m pip install -q -e . --no-build-isolation
jupyter labextension develop . --overwrite >/dev/null
jupyter server extension enable jupyterlab_junobench --sys-prefix >/dev/null 2>&1 || true
jupyter labextension list 2>&1 | grep -i junobench || { echo "jupyterlab-junobench is not listed by jupyter labextension list" >&2; exit 1; }
