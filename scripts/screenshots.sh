#!/usr/bin/env bash
# Refresh the docs' screenshots from one Galata run (Chromium, the test JupyterLab of ui-tests/):
#   docs/panel.png  the panel on the demo casebook beside a checked working copy of numpy_1, 1280×720
#                   (ui-tests/tests/layout.spec.ts, "the case header is slim")
#   docs/state.png  the State view of NBspecific_2 (ui-tests/tests/state.spec.ts)
# The tests take each picture where they have checked the layout it shows. Needs what
# scripts/test.sh installs (chromium, ui-tests/node_modules); run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
[ -f .venv/bin/activate ] && . .venv/bin/activate
before=$(stat -c %Y docs/panel.png docs/state.png 2>/dev/null | paste -sd' ' || true)
JUNOBENCH_PANEL_SHOT=$PWD/docs/panel.png JUNOBENCH_STATE_SHOT=$PWD/docs/state.png \
  bash scripts/ui-tests.sh tests/layout.spec.ts tests/state.spec.ts -g "the case header is slim|NBspecific_2"
after=$(stat -c %Y docs/panel.png docs/state.png | paste -sd' ')
if [ "$before" = "$after" ]; then
  echo "screenshots: the tests ran but wrote no picture (did their titles change?)" >&2
  exit 1
fi
echo "screenshots: docs/panel.png and docs/state.png refreshed"
