#!/usr/bin/env bash
# Set everything up on a fresh machine and start JupyterLab with the
# JunoBench panel open on the bundled demo casebook.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# shellcheck disable=SC1091
. .venv/bin/activate
HOME_DIR=${JUNOBENCH_HOME:-$PWD/junobench-home}
mkdir -p "$HOME_DIR"
extra=()
if [ "$(id -u)" = "0" ]; then extra+=(--allow-root); fi
# The demo server's own settings overrides (demo/lab-settings/overrides.json): JupyterLab's
# "get notified about official Jupyter news?" question is answered "no", so no toast covers
# the case header on first start.
SETTINGS_DIR=$PWD/demo/lab-settings
echo "== starting JupyterLab in $HOME_DIR (the demo casebook appears there as JunoBench-demo/)"
exec jupyter lab --ServerApp.root_dir="$HOME_DIR" --LabApp.app_settings_dir="$SETTINGS_DIR" "${extra[@]}" "$@"
