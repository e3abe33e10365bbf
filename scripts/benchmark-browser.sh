#!/usr/bin/env bash
# Browser numbers (Chromium through Galata): per-cell round trip with the
# server extension's TCP_NODELAY on and off, open-case-to-crash for each demo
# case, and loading the real JunoBench descriptor. Prints BENCH lines.
# Run after scripts/setup.sh, inside .venv.
set -euo pipefail
cd "$(dirname "$0")/../ui-tests"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 CI=1
export JUNOBENCH_UI_PORT=${JUNOBENCH_UI_PORT:-8899}
[ -d node_modules ] || jlpm install
for nodelay in 1 0; do
  JUNOBENCH_TCP_NODELAY=$nodelay jlpm playwright test --config playwright.bench.config.js 2>&1 | grep --line-buffered -E "BENCH|passed|failed|skipped|Error" || true
done
