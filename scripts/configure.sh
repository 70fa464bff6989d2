#!/usr/bin/env bash
# Configures a build directory: CUDA on when nvcc is found (also in /usr/local/cuda), else CPU only.
# Usage: scripts/configure.sh <build-dir> [extra cmake args...]
set -euo pipefail
build=${1:?usage: configure.sh <build-dir> [cmake args]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)

cuda_args=()
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  cuda_args+=(-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${cuda_args[@]}" "$@"
