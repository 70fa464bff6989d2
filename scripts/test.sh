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
cmake --build "$build" --parallel "$(nproc)"
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" --no-tests=error
