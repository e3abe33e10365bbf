#!/usr/bin/env bash
# Run the Galata (Playwright) UI tests in ui-tests/ against a test Jupyter server.
#
# Assumes the extension is already built and installed in the Python environment
# (pip install -e . && jupyter labextension develop . --overwrite) and that the
# system Chromium is installed (apt-get install -y chromium); no browser is
# downloaded. Extra arguments go to `playwright test`, e.g.
#   scripts/ui-tests.sh tests/infra.spec.ts
#   scripts/ui-tests.sh --update-snapshots
# Prints Playwright's list report, then one summary line "ui-tests: N passed, N failed[, N skipped]",
# and exits with Playwright's exit code.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
UI="$ROOT/ui-tests"
CHROMIUM="${JUNOBENCH_CHROMIUM:-/usr/bin/chromium}"

fail() {
  echo "ui-tests: error: $*" >&2
  exit 2
}

[ -x "$CHROMIUM" ] || fail "no Chromium at $CHROMIUM. Install it with 'apt-get install -y chromium' (or set JUNOBENCH_CHROMIUM)."
command -v jlpm >/dev/null 2>&1 || fail "jlpm not found: install JupyterLab (pip install jupyterlab) first."
command -v jupyter >/dev/null 2>&1 || fail "jupyter not found: install JupyterLab (pip install jupyterlab) first."
python3 -c 'import jupyterlab.galata' 2>/dev/null || fail "this Python has no jupyterlab.galata (JupyterLab >= 4 is needed)."

# The container kernelspec scripts/test.sh installs (python -m jupyterlab_junobench.kernel
# install --container --kernel-prefix $ROOT/.container-kernel), for tests/container.spec.ts;
# without it that spec skips (or fails when JUNOBENCH_CONTAINER_REQUIRED=1).
if [ -d "$ROOT/.container-kernel/share/jupyter" ]; then
  export JUPYTER_PATH="$ROOT/.container-kernel/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
  echo "ui-tests: kernelspecs from $ROOT/.container-kernel/share/jupyter"
fi

# The server's own python3 kernel, started through our launcher and forked from a fork server that
# has loaded ipykernel, numpy, pandas and scikit-learn, as the jest kernel tests have it
# (jupyterlab_junobench/forkserver.py): the tests' many fresh kernels start in half a second.
python3 -m jupyterlab_junobench.forkserver python3 "$UI/.forked-kernel" >/dev/null || fail "could not write the forked python3 kernelspec"
export JUPYTER_PATH="$UI/.forked-kernel${JUPYTER_PATH:+:$JUPYTER_PATH}"

cd "$UI"
# ui-tests is a yarn project of its own; yarn 3 needs a lockfile to see that.
[ -f yarn.lock ] || touch yarn.lock

echo "ui-tests: installing test dependencies (no browser download)"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 jlpm install

rm -f jupyter-server.log
mkdir -p playwright-report
RESULTS="$UI/playwright-report/results.json"
rm -f "$RESULTS"

set +e
PLAYWRIGHT_JSON_OUTPUT_NAME="$RESULTS" jlpm playwright test --reporter=list,json "$@"
rc=$?
set -e

if [ -f "$RESULTS" ]; then
  node -e '
    const s = require(process.argv[1]).stats || {};
    const passed = (s.expected || 0) + (s.flaky || 0);
    const failed = s.unexpected || 0;
    const skipped = s.skipped || 0;
    console.log(`ui-tests: ${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
  ' "$RESULTS" || true
fi

if [ "$rc" -ne 0 ] && [ -s jupyter-server.log ]; then
  echo "ui-tests: last 100 lines of the test Jupyter server log (ui-tests/jupyter-server.log):"
  tail -n 100 jupyter-server.log
fi
exit "$rc"
