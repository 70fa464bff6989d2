#!/usr/bin/env bash
# Installs dependencies, builds frost (CUDA compiled when nvcc exists) and runs every test.
# On a machine without a GPU the CUDA tests report themselves skipped, never passed.
# Usage: scripts/test.sh [build-dir]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}

"$root/scripts/install_deps.sh"
"$root/scripts/configure.sh" "$build"
cmake --build "$build" --parallel "$(nproc)"
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)"
