#!/usr/bin/env bash
# On a GPU machine (H100/H200): build with CUDA for the present GPU, run the whole test suite with
# GPU tests required (a GPU test that cannot run fails instead of skipping), run the benchmarks,
# and print a short table last. Logs go to $OUT (default /tmp/frost-device-check).
#
# Test data: ../shared/data is not on the GPU machine; copy it beside the checkout first
#   (cp -r ../shared/data .shared_data) and carry `.shared_data` with the device tool.
# Usage: scripts/device_check.sh [--quick]     (--quick: benchmarks at small sizes only)
#        scripts/device_check.sh --tests-only  (build and the whole suite, no benchmarks)
#        scripts/device_check.sh --build-only  (configure and build, for a command of one's own next)
#        scripts/device_check.sh --sanitize [TOOLS]
#   --sanitize: build, then run the CUDA test programs under compute-sanitizer with each of
#   TOOLS (default "memcheck racecheck synccheck"; the programs of one tool run side by side on
#   the GPU), and print a table of errors per tool and program instead of the usual check.
# FROST_ADVISOR_BUDGET_S (default 240) bounds the FFT-advisor benchmark and
# FROST_RECON_BENCH_BUDGET_S (default 120; killed at budget + 120 s) the reconstruction benchmark,
# FROST_MOVIE_BENCH_BUDGET_S (default 120; killed at budget + 120 s) the movie-alignment benchmark,
# so the whole check fits in 9 minutes. Logs are written to a work folder; $OUT gets ctest.log,
# build.log, one text file per benchmark and logs.tar.gz with everything else (the device tool
# returns at most 8 files).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
final=${OUT:-/tmp/frost-device-check}
out=$(mktemp -d /tmp/frost-device-check.XXXXXX)
mkdir -p "$final"
quick=""
[ "${1:-}" = "--quick" ] && quick="--quick"
tests_only=""
[ "${1:-}" = "--tests-only" ] && tests_only=1
build_only=""
[ "${1:-}" = "--build-only" ] && build_only=1
sanitize_tools=""
if [ "${1:-}" = "--sanitize" ]; then
  sanitize_tools=${2:-memcheck racecheck synccheck}
fi
build=$root/build-device
jobs=$(nproc)

if [ -z "${FROST_TEST_DATA:-}" ] && [ -d "$root/.shared_data" ]; then
  export FROST_TEST_DATA=$root/.shared_data
fi
export FROST_REQUIRE_GPU_TESTS=1

log() { echo "[device_check] $*"; }
nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader > "$out/gpu.txt" 2>&1
log "GPU: $(head -1 "$out/gpu.txt")"

t0=$(date +%s)
extra=()
# Header-only dependencies the GPU machine lacks travel in .deps/include (see README).
[ -f "$root/.deps/include/nlohmann/json.hpp" ] && extra+=(-DFROST_JSON_INCLUDE_DIR="$root/.deps/include")
# Libraries it lacks (SQLite, libtiff) travel as headers in .deps/include and shared objects in
# .deps/lib. The objects are copied out of the tree first: CMake gives installed programs an RPATH
# only for linked libraries outside the project, and the install test runs them without
# LD_LIBRARY_PATH.
deps_lib=${FROST_DEPS_LIB:-/tmp/frost-device-deps/lib}
if [ -d "$root/.deps/lib" ]; then
  mkdir -p "$deps_lib" && cp -P "$root/.deps/lib/"* "$deps_lib/"
  export LD_LIBRARY_PATH="$deps_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  # The RPATH does not reach libtiff's own dependencies (libwebp, ...): on the throwaway GPU
  # machine (root) the folder also goes into the loader's cache, as an installed library would.
  if [ "$(id -u)" -eq 0 ] && [ -d /etc/ld.so.conf.d ]; then
    echo "$deps_lib" > /etc/ld.so.conf.d/frost-device-deps.conf && ldconfig
  fi
fi
if [ -f "$root/.deps/include/sqlite3.h" ] && [ -e "$deps_lib/libsqlite3.so" ]; then
  extra+=(-DSQLite3_INCLUDE_DIR="$root/.deps/include" -DSQLite3_LIBRARY="$deps_lib/libsqlite3.so")
fi
if [ -f "$root/.deps/include/tiffio.h" ] && [ -e "$deps_lib/libtiff.so" ]; then
  extra+=(-DTIFF_INCLUDE_DIR="$root/.deps/include" -DTIFF_LIBRARY="$deps_lib/libtiff.so")
fi
[ -d "$root/.deps/bin" ] && export PATH="$root/.deps/bin:$PATH"
"$root/scripts/configure.sh" "$build" -DCMAKE_CUDA_ARCHITECTURES=native "${extra[@]}" > "$out/configure.log" 2>&1
cfg_rc=$?
build_rc=1
if [ $cfg_rc -eq 0 ]; then
  cmake --build "$build" --parallel "$jobs" > "$out/build.log" 2>&1
  build_rc=$?
fi
t1=$(date +%s)
log "configure rc=$cfg_rc build rc=$build_rc ($((t1 - t0)) s)"
if [ $build_rc -ne 0 ]; then
  tail -40 "$out/build.log"; tail -20 "$out/configure.log"
  cp "$out/configure.log" "$out/build.log" "$final/" 2>/dev/null
  exit 1
fi
grep -E "^-- +(CUDA|FFTW|TIFF|HDF5|MPI) " "$out/configure.log"
[ -n "$build_only" ] && exit 0

if [ -n "$sanitize_tools" ]; then
  # compute-sanitizer over the GPU tests of the programs that hold them (the filter keeps the
  # suites whose names mark them as device tests; timing-dependent tests are left out, as the
  # tool slows everything). Every test runs in its own process, FROST_SANITIZE_JOBS (default 8)
  # at a time, each bounded by FROST_SANITIZE_TIMEOUT_S (default 300; a test that needs longer
  # is reported as a timeout, not as clean; FROST_SANITIZE_FILTER replaces the filter to rerun a
  # few tests with more time). CUDA API errors are not reported by the tool:
  # frost checks every call itself, and some tests provoke failures on purpose (bad device ids,
  # allocations beyond the device).
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  programs=$(find "$build/tests" -type f -perm -u+x \( -name 'frost_cuda_*_tests' -o -name 'frost_fft_tests' -o -name 'frost_cufft_measurer_tests' \) | sort)
  filter=${FROST_SANITIZE_FILTER:-'*Cuda*:*Gpu*:*GPU*:*Device*:*Cufft*:*CuFFT*:*Parity*-*MinimumTotalTime*:*EventsTime*'}
  jobs_n=${FROST_SANITIZE_JOBS:-8}
  per_test=${FROST_SANITIZE_TIMEOUT_S:-300}
  mkdir -p "$out/sanitize"
  list=$out/sanitize/tests.txt
  : > "$list"
  for prog in $programs; do
    "$prog" --gtest_list_tests --gtest_filter="$filter" | awk -v p="$prog" '/^[^ ]/{suite=$1} /^  /{print p, suite $1}' >> "$list"
  done
  run_one() { # tool program test
    local log="$out/sanitize/$1-$(basename "$2")-${3//\//_}.log"
    timeout -k 10 "$per_test" "$sanitizer" --tool "$1" --report-api-errors no --error-exitcode 99 --print-limit 20 \
      "$2" --gtest_filter="$3" > "$log" 2>&1
    local rc=$?
    # A host-only test (no CUDA call: e.g. a planner's arithmetic) is not for the tool.
    if [ $rc -ne 0 ] && grep -q "terminated before first instrumented API call" "$log" && grep -q "PASSED  \] 1 test" "$log"; then
      rc=host
    fi
    echo "$rc $1 $(basename "$2") $3" >> "$out/sanitize/results.txt"
  }
  export -f run_one
  export out sanitizer per_test
  : > "$out/sanitize/results.txt"
  for tool in $sanitize_tools; do
    t_tool=$(date +%s)
    awk -v t="$tool" '{print t, $1, $2}' "$list" | xargs -P "$jobs_n" -n 3 bash -c 'run_one "$0" "$1" "$2"'
    log "compute-sanitizer $tool: $(($(date +%s) - t_tool)) s"
  done
  echo
  echo "================ frost device check: compute-sanitizer ================"
  echo "GPU            : $(head -1 "$out/gpu.txt")"
  echo "filter         : $filter (one process per test, ${per_test} s each)"
  printf '%-10s %-34s %6s %6s %8s %8s %8s %6s\n' tool program tests clean errors failed timeout host
  san_rc=0
  for tool in $sanitize_tools; do
    for prog in $programs; do
      name=$(basename "$prog")
      awk -v t="$tool" -v n="$name" '$2 == t && $3 == n {tests++; if ($1 == "0") clean++; else if ($1 == "host") host++; else if ($1 == 99) errors++; else if ($1 == 124 || $1 == 137) slow++; else failed++}
        END {printf "%-10s %-34s %6d %6d %8d %8d %8d %6d\n", t, n, tests, clean, errors, failed, slow, host}' "$out/sanitize/results.txt"
    done
  done
  awk '$1 != "0" && $1 != "host" && $1 != 124 && $1 != 137 {print "  not clean: " $0}' "$out/sanitize/results.txt"
  awk '$1 == 124 || $1 == 137 {print "  timed out: " $0}' "$out/sanitize/results.txt"
  for f in $(awk '$1 != "0" && $1 != "host" && $1 != 124 && $1 != 137 {print $2 "-" $3 "-" $4}' "$out/sanitize/results.txt" | tr '/' '_'); do
    grep -m 6 -E "^========= (Invalid|Race|Barrier|Error|Uninitialized|Program hit)|Failure|Expected" "$out/sanitize/$f.log" | sed "s/^/    /"
  done
  awk '$1 != "0" && $1 != "host" && $1 != 124 && $1 != 137 {bad = 1} END {exit bad}' "$out/sanitize/results.txt" || san_rc=1
  tar -czf "$final/sanitize-logs.tar.gz" -C "$out" sanitize gpu.txt 2>/dev/null
  exit $san_rc
fi

ctest --test-dir "$build" --output-on-failure --parallel 4 --output-junit "$out/ctest.xml" > "$out/ctest.log" 2>&1
test_rc=$?
t2=$(date +%s)
summary=$(grep -E "tests passed|tests failed" "$out/ctest.log" | tail -1)
skipped=$(sed -n '/The following tests did not run/,/^$/p' "$out/ctest.log" | grep -c "Skipped" || true)
log "tests: $summary; skipped: $skipped ($((t2 - t1)) s)"
[ $test_rc -eq 0 ] || sed -n '/The following tests FAILED/,$p' "$out/ctest.log"
sed -n '/The following tests did not run/,/^$/p' "$out/ctest.log"

# Benchmarks: every program under build/bench named frost_bench_*; each prints its own table.
if [ -n "$tests_only" ]; then
  cp "$out/ctest.log" "$final/" 2>/dev/null
  echo "tests          : ${summary:-none} (skipped: $skipped) rc=$test_rc ($((t2 - t1)) s)"
  exit $test_rc
fi
bench_rc=0
for b in $(find "$build/bench" -type f -name 'frost_bench_*' -perm -u+x | sort); do
  name=$(basename "$b")
  # Runs after frost_tune (below): it needs the exhaustive records as its oracle.
  [ "$name" = frost_bench_tuned_reconstruction ] && continue
  # CPU against RELION: a side-by-side run for the CPU machines, where RELION's CPU build runs.
  [ "$name" = frost_bench_cpu_vs_relion ] && continue
  log "benchmark $name"
  args=($quick)
  runner=()
  if [ "$name" = frost_bench_fft_advisor ]; then
    mkdir -p "$out/advisor-csv"
    args+=(--budget-s "${FROST_ADVISOR_BUDGET_S:-240}" --csv "$out/advisor-csv")
  elif [ "$name" = frost_bench_reconstruction ]; then
    # Fourier reconstruction (docs/reconstruct_fourier.md#benchmarks): 128^2 x 30k images with I
    # symmetry in full, the other cases with fewer images (images/s and the extrapolated full-size
    # time are reported); no new case starts after the budget, and a hard timeout backs it up.
    recon_budget=${FROST_RECON_BENCH_BUDGET_S:-120}
    args+=(--suite check --budget-s "$recon_budget")
    runner=(timeout -k 10 $((recon_budget + 120)))
  elif [ "$name" = frost_bench_align_significant ]; then
    # Align significant (docs/align_significant.md#where-the-time-goes): the anchor task, 2000 images x 1692
    # references, on the first GPU at every size with the fused steps, after the cuFFT
    # pipeline of every step on 200 references at 64 and 128 px (the baseline of the ratio).
    # (its own sizes; it takes no --quick)
    args=()
    runner=(timeout -k 10 300 bash -c '"$0" --device 0 --images 2000 --refs 200 --sizes 64,128 --pipeline cufft &&
      "$0" --device 0 --images 2000 --refs 1692 --sizes 32,64,128,256 --pipeline fused')
  elif [ "$name" = frost_bench_movie_align ]; then
    # Movie alignment (docs/movie_align.md#benchmarks): file -> micrograph on the GPU, Falcon and
    # K3 first (the 0.5 s targets), then the other sizes while the budget lasts (movies in /tmp).
    movie_budget=${FROST_MOVIE_BENCH_BUDGET_S:-120}
    args+=(--suite check --budget-s "$movie_budget")
    runner=(timeout -k 10 $((movie_budget + 120)))
  fi
  ${runner[@]+"${runner[@]}"} "$b" "${args[@]}" > "$out/$name.txt" 2> "$out/$name.stderr" || { bench_rc=1; log "$name failed"; tail -5 "$out/$name.stderr"; }
done
# Kernel autotuning (G1, G2 of docs/tune.md#gpu-validation): every configuration of every tuned kernel
# verified against the default's output, then the default and the best benched side by side, into
# a scratch tuning cache. --quick: one preset per kernel.
tune="$build/apps/tune/frost_tune"
if [ -x "$tune" ]; then
  log "kernel tuning (frost_tune run)"
  : > "$out/frost_tune.txt"
  for spec in "fr_insert:recon-64-i,recon-128-i" "ma_correlate:k3,falcon" "fourier_crop_filter:k3,falcon"; do
    kernel=${spec%%:*}; presets=${spec#*:}
    # --quick keeps both fr_insert presets: the tuned-reconstruction benchmark needs them.
    if [ -n "$quick" ]; then [ "$kernel" = fr_insert ] || presets=${presets%%,*}; elif [ "$kernel" = fr_insert ]; then presets=all; fi
    timeout -k 10 400 "$tune" run --kernel "$kernel" --preset "$presets" --device 0 --tuning-cache "$out/tuning_cache" \
      --json "$out/frost_tune_$kernel.json" > "$out/frost_tune_$kernel.log" 2>&1 || { bench_rc=1; log "frost_tune $kernel failed"; tail -5 "$out/frost_tune_$kernel.log"; }
    sed -n '/^kernel  *preset/,$p' "$out/frost_tune_$kernel.log" >> "$out/frost_tune.txt"
  done
  # G6/G7 and the issue's "auto within 10% of full": 10k-image reconstructions with --tune off,
  # cached on the exhaustive records just written (oracle), auto and dynamic on cold caches.
  tuned="$build/bench/reconstruction/frost_bench_tuned_reconstruction"
  if [ -x "$tuned" ]; then
    log "benchmark frost_bench_tuned_reconstruction"
    : > "$out/frost_bench_tuned_reconstruction.txt"
    for box in 64 128; do
      timeout -k 10 300 "$tuned" --box $box --sym i --images 10000 --device 0 --reps 3 --oracle-cache "$out/tuning_cache" \
        >> "$out/frost_bench_tuned_reconstruction.txt" 2> "$out/frost_bench_tuned_reconstruction_$box.stderr" ||
        { bench_rc=1; log "frost_bench_tuned_reconstruction $box failed"; tail -5 "$out/frost_bench_tuned_reconstruction_$box.stderr"; }
    done
  fi
fi
t3=$(date +%s)

echo
echo "================ frost device check ================"
echo "GPU            : $(head -1 "$out/gpu.txt")"
echo "build          : rc=$build_rc ($((t1 - t0)) s)"
echo "tests          : ${summary:-none} (skipped: $skipped) rc=$test_rc ($((t2 - t1)) s)"
grep -E "Test +#[0-9]+: .*FftParity" "$out/ctest.log" | sed -E "s/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: /parity         : /" | head -12
grep -E "Test +#[0-9]+: .*(ReconstructionBackend/Cuda|CudaKernelVariants)" "$out/ctest.log" | sed -E "s/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: /recon parity   : /" | head -32
grep -E "Test +#[0-9]+: .*SignificantPipeline/Cuda" "$out/ctest.log" | sed -E "s/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: /align parity   : /" | head -8
grep -E "Test +#[0-9]+: .*(MotionBackendParity|CudaStoredFrames|GpuMatchesCpu)" "$out/ctest.log" | sed -E "s/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: /motion parity  : /" | head -16
for f in "$out"/frost_bench_*.txt; do
  [ -e "$f" ] || continue
  echo "---- $(basename "$f" .txt) ----"
  if [ "$(basename "$f")" = frost_bench_movie_align.txt ]; then
    grep -E "^# (frost_bench|gpu:)" "$f"
    sed -n '/^# summary/,$p' "$f"
  elif [ "$(basename "$f")" = frost_bench_reconstruction.txt ]; then
    # The short table only; the per-case details stay in the file.
    grep -E "^# (frost_bench|gpu:)" "$f"
    sed -n '/^# summary/,$p' "$f"
  else
    cat "$f"
  fi
done
if [ -s "$out/frost_tune.txt" ]; then
  echo "---- frost_tune run (default vs tuned, interleaved medians) ----"
  cat "$out/frost_tune.txt"
fi
echo "benchmarks     : rc=$bench_rc ($((t3 - t2)) s)"
cp "$out/ctest.log" "$out/build.log" "$final/" 2>/dev/null
cp "$out"/frost_bench_*.txt "$final/" 2>/dev/null
cp "$out"/frost_tune*.txt "$out"/frost_tune_*.json "$final/" 2>/dev/null
tar -czf "$final/logs.tar.gz" -C "$out" . 2>/dev/null
[ $test_rc -eq 0 ] && [ $bench_rc -eq 0 ]
