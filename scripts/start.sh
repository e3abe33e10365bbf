#!/usr/bin/env bash
# Set everything up on a fresh machine and start JupyterLab with the
# JunoBench panel open on the bundled demo casebook.
#
# Cases open in the benchmark environment: the minimal pinned `junobench`
# kernel (installed on the first start, 22 to 45 s; reused afterwards).
#   scripts/start.sh --container   also builds the JunoBench container image
#                                  (podman or docker; offline from Debian's
#                                  packages where no image registry is reached)
#                                  and opens cases in the kernel inside it.
# Other arguments go to `jupyter lab`. docs/environment.md explains both.
set -euo pipefail
cd "$(dirname "$0")/.."
use_container=0
lab_args=()
for arg in "$@"; do
  if [ "$arg" = "--container" ]; then use_container=1; else lab_args+=("$arg"); fi
done
bash scripts/setup.sh
# shellcheck disable=SC1091
. .venv/bin/activate

# The pinned kernel: kept when it is at its pins, installed (or repaired) otherwise.
if python -m jupyterlab_junobench.kernel check --minimal >/dev/null 2>&1 \
  && jupyter kernelspec list 2>/dev/null | grep -qE '^\s*junobench\s'; then
  echo "== the pinned junobench kernel is installed"
else
  echo "== installing the minimal pinned junobench kernel (python -m jupyterlab_junobench.kernel install --minimal)"
  python -m jupyterlab_junobench.kernel install --minimal \
    || echo "the pinned kernel could not be installed: cases open in the server's Python (see above)" >&2
fi

if [ "$use_container" = "1" ]; then
  if ! command -v podman >/dev/null 2>&1 && ! command -v docker >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ]; then
      echo "== apt-get install podman runc mmdebstrap"
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc mmdebstrap >/dev/null
    else
      echo "--container needs podman (or docker): sudo apt-get install -y podman runc mmdebstrap" >&2
      exit 2
    fi
  fi
  # shellcheck disable=SC1091
  . scripts/container-env.sh
  echo "== the JunoBench container image (python -m jupyterlab_junobench.container build --minimal)"
  python -m jupyterlab_junobench.container build --minimal
  python -m jupyterlab_junobench.kernel install --container
fi

HOME_DIR=${JUNOBENCH_HOME:-$PWD/junobench-home}
mkdir -p "$HOME_DIR"
extra=()
if [ "$(id -u)" = "0" ]; then extra+=(--allow-root); fi
# The demo server's own settings overrides (demo/lab-settings/overrides.json): JupyterLab's
# "get notified about official Jupyter news?" question is answered "no", so no toast covers
# the case header on first start.
SETTINGS_DIR=$PWD/demo/lab-settings
echo "== starting JupyterLab in $HOME_DIR (the demo casebook appears there as JunoBench-demo/)"
exec jupyter lab --ServerApp.root_dir="$HOME_DIR" --LabApp.app_settings_dir="$SETTINGS_DIR" "${extra[@]}" ${lab_args[@]+"${lab_args[@]}"}
