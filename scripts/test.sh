#!/usr/bin/env bash
# Installs dependencies, builds frost with its tests (CUDA compiled when nvcc exists) and runs
# every test. On a machine without a GPU the CUDA tests report themselves skipped, never passed.
# The build folder may be shared with scripts/demo.sh: tests and benchmarks are switched on here
# whatever an earlier configure chose, and a run that finds no test fails.
# Usage: scripts/test.sh [build-dir]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}

"$root/scripts/install_deps.sh"
"$root/scripts/install_hooks.sh"
"$root/scripts/configure.sh" "$build" -DFROST_BUILD_TESTS=ON -DFROST_BUILD_BENCH=ON

# Network-bound preparation runs while the programs compile: Debian's chromium for the headless
# test of the live-session report (docs/session.md#report; the test skips without it;
# FROST_SKIP_CHROMIUM=1 leaves it out, about 300 MB installed), and the virtual environment of the
# Scipion plugin test, made with the Python that CTest will give that test.
python=$(sed -n 's/^_\{0,1\}Python3_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt" | head -n 1)
prepare_log=$build/test-prepare.log
(
  if [ "${FROST_SKIP_CHROMIUM:-0}" != 1 ]; then
    "$root/scripts/install_chromium.sh" || echo "test: chromium not installed; SessionReportBrowser will skip"
  fi
  PYTHON=${python:-python3} bash "$root/scripts/scipion/run_tests.sh" --prepare "$build/tests/workflows/scipion" ||
    echo "test: the Scipion environment was not prepared (exit $?); frost_scipion_plugin makes or skips it"
) >"$prepare_log" 2>&1 &
prepare=$!
build_rc=0
cmake --build "$build" --parallel "$(nproc)" || build_rc=$?
wait "$prepare" || true
grep '^test: ' "$prepare_log" >&2 || true
[ "$build_rc" = 0 ] || exit "$build_rc"
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" --no-tests=error
