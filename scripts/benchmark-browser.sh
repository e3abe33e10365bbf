#!/usr/bin/env bash
# Browser numbers (Chromium through Galata), printed as BENCH lines:
#  - bench/browser.bench.ts: per-cell round trip with the server extension's
#    TCP_NODELAY on and off, open-case-to-crash for each demo case, loading the
#    real JunoBench descriptor;
#  - bench/bigcasebook.bench.ts: a 10,000-case casebook (scripts/make-big-casebook.js,
#    written into the server root as BigCasebook/): load → list rendered, where the
#    load time goes, search keystroke and facet toggle latency, JS fetched at start-up;
#  - bench/warmkernel.bench.ts: open case → kernel idle and → crash shown, with the
#    warmKernel setting off and on.
# Usage: scripts/benchmark-browser.sh [--json FILE] [bench/<file>.bench.ts ...]   (default: all)
# --json FILE also writes the BENCH lines as {meta, lines: [{measure, value}]}, with the date,
# machine and command (scripts/bench_meta.py), for the docs' numbers page.
# Environment: JUNOBENCH_UI_PORT (default 8899: the server port, so it can run beside
# another test server), BENCH_BIG_CASES (default 10000).
# Run after scripts/setup.sh, inside .venv, with the extension built; take the shared
# lock on shared machines (flock /tmp/junobench-ui.lock scripts/benchmark-browser.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT/ui-tests"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 CI=1
export JUNOBENCH_UI_PORT=${JUNOBENCH_UI_PORT:-8899}
export BENCH_BIG_CASES=${BENCH_BIG_CASES:-10000}
[ -d node_modules ] || jlpm install

JSON=""
ARGS=("$@")
if [ "${1:-}" = "--json" ]; then
  [ $# -ge 2 ] || { echo "benchmark-browser: --json needs a file" >&2; exit 2; }
  JSON="$(realpath -m "$2")"
  shift 2
fi
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(bench/browser.bench.ts bench/bigcasebook.bench.ts bench/warmkernel.bench.ts)

# One server root for the run, with the big casebook in it (the test server
# config keeps JUPYTERLAB_GALATA_ROOT_DIR when it is set).
SERVER_ROOT="$(mktemp -d -t junobench-bench-XXXXXX)"
trap 'rm -rf "$SERVER_ROOT"' EXIT
export JUPYTERLAB_GALATA_ROOT_DIR="$SERVER_ROOT"
if printf '%s\n' "${files[@]}" | grep -q bigcasebook; then
  node "$ROOT/scripts/make-big-casebook.js" "$SERVER_ROOT/BigCasebook" --cases "$BENCH_BIG_CASES"
fi

META="$(python "$ROOT/scripts/bench_meta.py" bash scripts/benchmark-browser.sh "${ARGS[@]}")"
LINES="$SERVER_ROOT/bench-lines.txt"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
run() {
  jlpm playwright test --config playwright.bench.config.js "$@" 2>&1 | grep --line-buffered -E "BENCH|passed|failed|skipped|Error|✘" | tee -a "$LINES" || true
}
JUNOBENCH_TCP_NODELAY=1 run "${files[@]}"
# The per-cell round trip once more with Nagle's algorithm on (TCP_NODELAY off).
if printf '%s\n' "${files[@]}" | grep -q 'browser.bench'; then
  JUNOBENCH_TCP_NODELAY=0 run bench/browser.bench.ts
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "$JSON" ]; then
  python - "$LINES" "$JSON" "$META" <<'PY'
import json, re, sys
lines, out, meta = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
rows = []
for line in open(lines, encoding="utf-8"):
    m = re.search(r"BENCH (.+?): (.+)$", line.strip())
    if m:
        rows.append({"measure": m.group(1), "value": m.group(2)})
json.dump({"meta": meta, "lines": rows}, open(out, "w", encoding="utf-8"), indent=1)
print(f"(written to {out}: {len(rows)} BENCH lines)")
PY
fi
