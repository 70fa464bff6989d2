#!/usr/bin/env bash
# The CPU code under AddressSanitizer + UndefinedBehaviorSanitizer: builds every host target with
# Clang and -fsanitize=address,undefined (CUDA off, benchmarks off; CMake preset cpu-asan) and runs
# the CPU test suite, app tests included (the programs they start are sanitized too). Any report
# fails the run: undefined behaviour is fatal, leaks are reported at exit (except under OpenMPI,
# below). The same tree builds the libFuzzer targets (FROST_BUILD_FUZZ), so scripts/fuzz.sh can
# reuse it: FROST_FUZZ_BUILD=<this build dir> scripts/fuzz.sh.
# Tests labelled `slow` (program-level runs of whole pipelines, which the normal suite runs) are
# left out unless FROST_SANITIZE_ALL=1.
# Usage: scripts/sanitize.sh [build-dir]   (default: build-asan; dependencies as scripts/test.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-asan}

"$root/scripts/install_deps.sh"
"$root/scripts/install_clang.sh"
# The `slow` suites are left out of the sanitized run (below), so they are not built here either
# (FROST_SANITIZE_ALL=1 builds and runs them).
skip_slow=ON
[ "${FROST_SANITIZE_ALL:-0}" = 1 ] && skip_slow=OFF
CC=clang CXX=clang++ "$root/scripts/configure.sh" "$build" -DFROST_USE_CUDA=OFF -DFROST_BUILD_BENCH=OFF \
  -DFROST_BUILD_TESTS=ON -DFROST_BUILD_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFROST_SANITIZE=address,undefined \
  -DFROST_SKIP_SLOW_TESTS=$skip_slow \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG"
# Line tables are all the sanitizers' stack traces need; full debug info made the tree's compile
# about a sixth slower (docs/performance.md#ci).
cmake --build "$build" --parallel "$(nproc)"
asan=check_initialization_order=1:strict_init_order=1
export LSAN_OPTIONS=suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Tests that initialise OpenMPI run without leak checking: its dlopen'ed components are unloaded
# before LeakSanitizer reports, so their one-time allocations show up unnamed and cannot be
# suppressed by library. Memory errors and undefined behaviour are still checked there. The
# Scipion plugin test (Python, PyPI) is left to the normal suite.
mpi_tests='[Mm]pi|[Cc]luster'
skip_labels='scipion'
[ "${FROST_SANITIZE_ALL:-0}" = 1 ] || skip_labels='scipion|slow'
# Runs that repeat a sibling's code with other data add no sanitizer coverage and cost minutes
# under ASan: the second and third seeds of the T3 local-alignment cases, the no-subpixel variant
# of the recovery test, and the sbatch forms of the cluster examples (the same programs as their
# mpirun forms; the scripts themselves are checked by the normal suite). FROST_SANITIZE_ALL=1 runs them.
redundant='^Seeds/LocalAlignmentT3\..*/[23]$|^Recovery\.SharpPhantomSnr01NoSubpixel$|^frost_cluster_.*_sbatch$'
[ "${FROST_SANITIZE_ALL:-0}" = 1 ] && redundant='^$'
rc=0
ASAN_OPTIONS=detect_leaks=1:$asan ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" --timeout 1500 \
  --no-tests=error -E "$mpi_tests|$redundant" -LE "$skip_labels" || rc=1
ASAN_OPTIONS=detect_leaks=0:$asan ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" --timeout 1500 \
  --no-tests=error -R "$mpi_tests" -E "$redundant" -LE "$skip_labels" || rc=1
exit $rc
