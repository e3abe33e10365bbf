#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs what it needs (apt, pip,
# npm), builds, then runs jest, pytest, the headless verification of the demo
# casebook (and of the real JunoBench cases in ../shared when present) and the
# Galata browser tests. Prints each runner's summary; exits non-zero on failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export CI=${CI:-}
export MPLBACKEND=Agg
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# The busy CPU seconds of the whole machine (all processes, containers and browsers included)
# so far, in $busy_now, from /proc/stat (user, nice, system, irq, softirq; in USER_HZ ticks).
busy_now=0
machine_busy() {
  busy_now=$(awk '/^cpu / { printf "%d", ($2 + $3 + $4 + $7 + $8) / 100 }' /proc/stat 2>/dev/null || echo 0)
}
machine_busy
busy_started_run=$busy_now

# chromium for the browser tests; git-lfs so the sparse-fetch tests also cover
# data files tracked by git-lfs, as the dataset's are (they test plain files without it).
apt_wanted=()
command -v chromium >/dev/null 2>&1 || apt_wanted+=(chromium)
git lfs version >/dev/null 2>&1 || apt_wanted+=(git-lfs)
# podman, runc and mmdebstrap for the kernel inside the JunoBench container (an offline base image
# is made from Debian's packages where no image registry is reached).
# (A docker client alone is not enough: this kind of machine has one but no daemon.)
command -v podman >/dev/null 2>&1 || apt_wanted+=(podman runc)
command -v mmdebstrap >/dev/null 2>&1 || apt_wanted+=(mmdebstrap)
# apt runs while setup.sh installs the Python and npm packages (nothing there needs these); it is
# waited for before the first step.
apt_pid=""
if [ ${#apt_wanted[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ]; then
    echo "== apt-get install ${apt_wanted[*]} (in the background)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_wanted[@]}" >/dev/null) || echo "${apt_wanted[*]} could not be installed" >&2 &
    apt_pid=$!
  else
    echo "missing: ${apt_wanted[*]}; run 'sudo apt-get install -y ${apt_wanted[*]}' for the browser tests and the git-lfs fetch tests" >&2
  fi
fi

bash scripts/setup.sh || { echo "setup failed" >&2; exit 1; }
# shellcheck disable=SC1091
. .venv/bin/activate
# The docs' build (Sphinx, MyST, the PyData theme) for the docs step; a few seconds once installed.
python -m pip install -q -r docs/requirements.txt || { echo "the docs' requirements could not be installed" >&2; exit 1; }
# The installs below go to places of their own (ui-tests/node_modules, hub-tests/node_modules,
# .venv-py310, .venv's tensorflow and catboost): they run at the same time, and are waited for before the first step.
setup_pids=()
# The browser tests' own yarn project (ui-tests/; scripts/ui-tests.sh then finds it installed).
( (cd ui-tests && { [ -f yarn.lock ] || touch yarn.lock; } && jlpm install --silent >/dev/null 2>&1) || echo "ui-tests: jlpm install failed here; scripts/ui-tests.sh tries again" >&2 ) &
setup_pids+=("$!")
# configurable-http-proxy for tests/test_hub.py (jupyterhub comes from requirements-dev.txt)
( (cd hub-tests && npm ci --no-audit --no-fund --silent) || echo "configurable-http-proxy could not be installed: tests/test_hub.py will be skipped" >&2 ) &
setup_pids+=("$!")

# A Python 3.10 kernel (the benchmark container's Python) for the evidence probe's kernel tests
# (test/kernel/evidence.spec.ts skips it when no Python 3.10 is found).
if [ ! -x .venv-py310/bin/python ]; then
  # A pyenv shim named python3.10 may exist without being usable: try each candidate.
  py310=""
  for candidate in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.10*/bin/python $(command -v python3.10 2>/dev/null); do
    if [ -x "$candidate" ] && "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 10))' 2>/dev/null; then
      py310=$candidate
      break
    fi
  done
  if [ -n "$py310" ]; then
    echo "== Python 3.10 kernel environment (.venv-py310) from $py310"
    ( ("$py310" -m venv .venv-py310 && .venv-py310/bin/python -m pip install -q ipykernel numpy pandas scikit-learn matplotlib nbformat) \
      || { echo "could not make .venv-py310: the Python 3.10 probe tests will be skipped" >&2; rm -rf .venv-py310; } ) &
    setup_pids+=("$!")
  else
    echo "no Python 3.10 here: the Python 3.10 probe tests will be skipped"
  fi
fi

SHARED=../shared/junobench
# sklearn_3 (a real case, its agents' repairs in the corpora) imports tensorflow and catboost
# besides pandas/numpy/scikit-learn.
if [ -d "$SHARED/benchmark" ] && [ "${JUNOBENCH_REAL_DEPS:-1}" = "1" ]; then
  echo "== pip install tensorflow-cpu catboost (the real cases' libraries)"
  (python -m pip install -q tensorflow-cpu catboost || echo "could not install tensorflow-cpu/catboost" >&2) &
  setup_pids+=("$!")
fi
for pid in "${setup_pids[@]}" $apt_pid; do
  wait "$pid"
done

# The container's engine settings (deploy/podman/), unless the caller has its own.
# shellcheck disable=SC1091
. scripts/container-env.sh
# The minimal pinned kernel environment the pytest kernel tests build, kept for the benchmark.
export JUNOBENCH_TEST_VENV=${JUNOBENCH_TEST_VENV:-$PWD/.junobench-venv}
# With an engine here, the container tests (pytest, Galata) fail instead of skipping without the image.
have_engine=0
if command -v podman >/dev/null 2>&1 || docker info >/dev/null 2>&1; then
  have_engine=1
  export JUNOBENCH_CONTAINER_REQUIRED=1
fi

failed=()
# The CPU seconds (user + system) that this shell's finished children have used so far, in
# $cpu_now. A step runs in a subshell of its own that reads this at its end: its children are the
# step's processes only (a lane ending meanwhile is this script's child, not the step's).
cpu_file=$(mktemp)
children_cpu() {
  local file="$cpu_file.$BASHPID"
  times > "$file"
  cpu_now=$(awk 'NR == 2 {
    n = 0
    for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); n += p[1] * 60 + p[2] }
    printf "%d", n
  }' "$file")
}
# The time per step, printed as a table at the end (set-up: everything before the first step),
# with the CPU seconds each step's processes used (two cores: at most twice its time).
step_names=("set-up (apt, pip, npm, build)")
step_times=("$SECONDS")
children_cpu
step_cpu=("$cpu_now")
machine_busy
step_busy=("$((busy_now - busy_started_run))")
step_results=("ok")
run_step() {
  local kind=$1 name=$2; shift 2
  echo
  echo "================ $name ================"
  local started=$SECONDS result=ok cpu_out log
  cpu_out=$(mktemp)
  log=$(mktemp)
  machine_busy
  local busy_started=$busy_now
  # The output goes to the terminal and to a file, so that a failure can be shown again below the
  # table (where a reader of a long log's tail finds it).
  if ( "$@"; rc=$?; children_cpu; echo "$cpu_now" > "$cpu_out"; exit $rc ) 2>&1 | tee "$log"; then
    [ "$kind" = shown ] && result=shown
  elif [ "$kind" = shown ]; then
    result=shown
    echo "(informative: $name could not run in full; not counted)"
  else
    result=FAILED
    failed+=("$name")
    failure_lines "$name" "$log" >> "$failures_file"
  fi
  rm -f "$log"
  echo "---- $name: $result ($((SECONDS - started)) s)"
  step_names+=("$name")
  step_times+=("$((SECONDS - started))")
  step_cpu+=("$(cat "$cpu_out")")
  rm -f "$cpu_out"
  machine_busy
  step_busy+=("$((busy_now - busy_started))")
  step_results+=("$result")
}
step() { run_step test "$@"; }
# What a failed step printed that says what failed (failing tests, disagreements, errors), and
# the end of its output; printed again after the table.
failures_file=$(mktemp)
failure_lines() {
  echo
  echo "================ what failed in: $1 ================"
  # A corpus disagreement's reasons follow it, indented ("    - ...").
  grep -a -E -A 4 'DISAGREE|✕|FAILED|FAIL |Error|failed|[0-9]+ failed' "$2" \
    | grep -a -E -v '^(---- |--$)' | head -60
  echo "---- its last lines:"
  tail -n 15 "$2"
}
shown() { run_step shown "$@"; }

# Steps that run beside the others (a lane): their output is kept in a file and printed when the
# lane ends, at `join_lanes`; their rows join the table, marked "beside". Two cores: run one after
# the other, the steps left the machine idle a quarter of the time or more (they wait on kernels, servers
# and the browser), while the corpora alone keep both cores busy for ten minutes.
lane_pids=()
lane_logs=()
lane_records=()
lane_failures=()
beside() {
  local log record failures
  log=$(mktemp)
  record=$(mktemp)
  failures=$(mktemp)
  (
    step_names=() step_times=() step_cpu=() step_busy=() step_results=() failed=()
    failures_file=$failures
    "$@" > "$log" 2>&1
    for i in "${!step_names[@]}"; do
      printf '%s\t%s\t%s\t%s\t%s\n' "${step_names[$i]} (beside)" "${step_times[$i]}" "${step_cpu[$i]}" "${step_busy[$i]}" "${step_results[$i]}"
    done > "$record"
  ) &
  lane_pids+=("$!")
  lane_logs+=("$log")
  lane_records+=("$record")
  lane_failures+=("$failures")
}
join_lanes() {
  local i name time cpu busy result
  for i in "${!lane_pids[@]}"; do
    wait "${lane_pids[$i]}"
    cat "${lane_logs[$i]}"
    while IFS=$'\t' read -r name time cpu busy result; do
      step_names+=("$name") step_times+=("$time") step_cpu+=("$cpu") step_busy+=("$busy") step_results+=("$result")
      [ "$result" = FAILED ] && failed+=("$name")
    done < "${lane_records[$i]}"
    [ -s "${lane_failures[$i]}" ] && cat "${lane_failures[$i]}" >> "$failures_file"
    rm -f "${lane_logs[$i]}" "${lane_records[$i]}" "${lane_failures[$i]}"
  done
  lane_pids=() lane_logs=() lane_records=() lane_failures=()
}

if [ "$have_engine" = "1" ]; then
  # Built once per machine: the image is keyed on pins.json, the Containerfile and the base, so a
  # later run finds it. Its kernelspec goes to .container-kernel (used by the steps that name it).
  step "container image (build --minimal, kernelspec)" bash -c 'python -m jupyterlab_junobench.container build --minimal && rm -rf .container-kernel && python -m jupyterlab_junobench.kernel install --container --kernel-prefix "$PWD/.container-kernel"'
else
  echo "no podman or docker here: the container steps and tests are skipped"
fi
verify_real() {
  local real_cases
  real_cases=$(ls "$SHARED/benchmark" | paste -sd, -)
  nice -n 10 node bin/junobench.js verify "$SHARED" --cases "$real_cases" --jobs 2 --json junobench-verify-real.json \
    || echo "(the real cases are reported, not required: see the table above)"
}
# Every repair of the corpora through junobench check: the mutation corpus (exact statuses), the
# fair corpus written independently of the check, and the LLM agents' real repairs of the real
# cases in ../shared with our judgement of each (pass or fail must agree, 100%).
corpora() {
  step "check corpora up to date (make_check_corpus.py, make_fair_corpus.py --check)" bash -c 'python scripts/make_check_corpus.py --check && python scripts/make_fair_corpus.py --check'
  # The demo casebook's repairs run in the pinned `junobench` kernel: the benchmark's libraries,
  # which import faster than the newest (scipy 1.17 parses its docstrings as it is imported): 16%
  # less CPU for the 440 kernels of the demo corpora, the same 344 verdicts. Its environment is the
  # one the pytest kernel tests reuse ($JUNOBENCH_TEST_VENV: made here, while jest runs, well before
  # pytest installs into it again, which then finds everything in place); its kernelspec goes to
  # .pinned-kernel.
  # The real cases' repairs run in the server's python3, forked as the pinned kernel's
  # (.forked-kernel: python -m jupyterlab_junobench.forkserver python3).
  step "pinned kernel for the corpora (kernel install --minimal)" bash -c 'rm -rf .pinned-kernel .forked-kernel && python -m jupyterlab_junobench.kernel install --minimal --prefix "$JUNOBENCH_TEST_VENV" --kernel-prefix "$PWD/.pinned-kernel" && python -m jupyterlab_junobench.forkserver python3 "$PWD/.forked-kernel"'
  step "lint (stylelint, prettier, eslint, tsc, ruff, mypy)" nice -n 10 bash -c 'jlpm lint:check && python -m ruff check jupyterlab_junobench scripts tests docs/conf.py docs/_ext && python -m mypy jupyterlab_junobench'
  local pinned=()
  [ -f .pinned-kernel/share/jupyter/kernels/junobench/kernel.json ] && pinned=(--kernel junobench)
  # At a lower priority: they take the CPU the other steps leave, and finish alone on both cores.
  step "check corpora (junobench check: mutation, fair, agents; 100% agreement)" env JUPYTER_PATH="$PWD/.pinned-kernel/share/jupyter:$PWD/.forked-kernel${JUPYTER_PATH:+:$JUPYTER_PATH}" \
    nice -n 10 node scripts/check-corpus.js "${pinned[@]}" --jobs 2 --json junobench-check-corpus.json
  # The wheel and the real cases' informative run need nothing the other steps make: here too.
  step "wheel (installs without Node.js)" nice -n 10 bash -c 'rm -rf dist && python -m build --wheel --no-isolation -o dist >/dev/null && JUNOBENCH_WHEEL="$(ls dist/*.whl | head -1)" python -m pytest tests/test_wheel.py -q -p no:cacheprovider'
  if [ -d "$SHARED/benchmark" ]; then
    shown "junobench verify (real JunoBench cases, informative)" verify_real
  else
    echo "skipping the real JunoBench cases: $SHARED is absent"
  fi
}
beside corpora
# The browser tests wait on the page, kernels and timeouts much of the time: beside the others too.
# (Their server has its own port and contents root; the other steps start servers on free ports.)
beside step "galata (browser tests)" bash scripts/ui-tests.sh

# The shared Jupyter server of the kernel specs logs to jest-server.log; when jest fails, its warnings
# and errors (a kernel that died, a websocket that broke) are printed below jest's own report.
step "jest (unit and kernel tests)" bash -c 'rm -f jest-server.log
  JUNOBENCH_JEST_SERVER_LOG="$PWD/jest-server.log" jlpm jest --ci && exit 0
  rc=$?
  echo "---- the warnings and errors of the jest server (jest-server.log):"
  grep -a -E -A 12 "^\[(E|W) |Traceback" jest-server.log 2>/dev/null | grep -a -v "running over TCP without encryption" | tail -n 80
  exit $rc'
step "pytest (server extension, demo casebook)" python -m pytest tests -q -rs -p no:cacheprovider --durations=12
step "junobench verify (demo casebook)" node bin/junobench.js verify demo/casebook --jobs 2 --json junobench-verify-demo.json
if [ "$have_engine" = "1" ]; then
  step "junobench verify (demo casebook, container kernel)" env JUPYTER_PATH="$PWD/.container-kernel/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}" \
    node bin/junobench.js verify demo/casebook --kernel junobench-container --jobs 2 --json junobench-verify-container.json
fi

join_lanes

# The benchmarks last, on a machine with nothing else running.
shown "benchmark: sparse fetch of 2 cases against a full clone of the fixture" python scripts/benchmark-fetch.py --json junobench-bench-fetch.json
shown "benchmark: pinned kernels forked from a fork server against kernels started as usual" python scripts/benchmark-kernel-start.py --starts 6
shown "benchmark: an MCP run_cell against a direct kernel execute" python scripts/benchmark-mcp.py --case numpy_1 --json junobench-bench-mcp.json

if [ "$have_engine" = "1" ]; then
  # The container's verify numbers come from the container verify step above (the same command).
  shown "benchmark: container kernel against the pinned kernel" \
    python scripts/benchmark-container.py --starts 3 --cells 200 --reuse-verify junobench-container=junobench-verify-container.json
fi

# The docs last: the numbers page is made from the JSON the steps and benchmarks above wrote.
step "docs (Sphinx: warnings as errors, internal links checked)" bash scripts/docs.sh

echo
echo "================ time per step ================"
# cpu: the CPU seconds of the processes the step waited for; machine: the busy CPU seconds of the
# whole machine during the step (browsers and containers included; two cores: at most twice its
# time). A step "beside" ran at the same time as the ones in front: its machine seconds count theirs.
printf '%8s  %8s  %8s  %-7s %s\n' time cpu machine result step
for i in "${!step_names[@]}"; do
  printf '%6s s  %6s s  %6s s  %-7s %s\n' "${step_times[$i]}" "${step_cpu[$i]}" "${step_busy[$i]}" "${step_results[$i]}" "${step_names[$i]}"
done
children_cpu
machine_busy
printf '%6s s  %6s s  %6s s  total\n' "$SECONDS" "$cpu_now" "$((busy_now - busy_started_run))"
rm -f "$cpu_file" "$cpu_file".*
echo
if [ ${#failed[@]} -gt 0 ]; then
  cat "$failures_file"
  rm -f "$failures_file"
  echo
  echo "FAILED: ${failed[*]}"
  exit 1
fi
rm -f "$failures_file"
echo "All test steps passed."
