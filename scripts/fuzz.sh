#!/usr/bin/env bash
# Fuzzes every parser of untrusted input with libFuzzer (Clang, AddressSanitizer and
# UndefinedBehaviorSanitizer): MRC, SPIDER, TIFF, EER (files, raw bit streams, metadata XML), EMAN2 HDF5,
# STAR/XMD, symmetry names and command-line values (tests/fuzz). Seed corpora: the real files
# of ../shared/data (FROST_TEST_DATA), frost_simulate's output and small files written by
# frost_fuzz_seeds. Each target runs for SECONDS (default 60), one target per core at a time; the
# corpus grows in WORK and is reused by the next run. A finding (crash, sanitizer report, leak, timeout, allocation over
# the limit) is saved under WORK/findings/ and makes the script fail; copy it into
# tests/fuzz/regressions/<target>/ once fixed so the normal test suite replays it.
# Usage: scripts/fuzz.sh [SECONDS] [target...]
# Env: FROST_FUZZ_BUILD (default build-fuzz; a tree of scripts/sanitize.sh is reused as it is),
#      FROST_FUZZ_WORK (default $FROST_FUZZ_BUILD/fuzz-work), FROST_FUZZ_JOBS (targets at a time,
#      default the core count), FROST_SIMULATE (a built frost_simulate; default: built in the fuzz build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
build=${FROST_FUZZ_BUILD:-$root/build-fuzz}
work=${FROST_FUZZ_WORK:-$build/fuzz-work}
data=${FROST_TEST_DATA:-$root/../shared/data}
targets=("$@")
((${#targets[@]})) || targets=(mrc spider tiff eer_file eer_stream eer_metadata eman_hdf star symmetry cli)

"$root/scripts/install_deps.sh"
"$root/scripts/install_clang.sh"
# A tree configured with FROST_BUILD_FUZZ (scripts/sanitize.sh's) is reused as it is; otherwise
# this one is configured for the fuzz targets alone.
if ! grep -q '^FROST_BUILD_FUZZ:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  CC=clang CXX=clang++ "$root/scripts/configure.sh" "$build" -DFROST_USE_CUDA=OFF -DFROST_BUILD_TESTS=OFF \
    -DFROST_BUILD_BENCH=OFF -DFROST_BUILD_FUZZ=ON -DFROST_SANITIZE=address,undefined \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
build_targets=(frost_fuzz)
simulate=${FROST_SIMULATE:-}
if [ -z "$simulate" ]; then build_targets+=(frost_simulate); simulate=$build/apps/simulate/frost_simulate; fi
cmake --build "$build" --parallel "$(nproc)" --target "${build_targets[@]}"

# Seed corpora.
seeds=$work/seeds
rm -rf "$seeds" && mkdir -p "$seeds" "$work/findings" "$work/logs"
"$build/tests/fuzz/frost_fuzz_seeds" "$seeds"
copy_seeds() { # target, file patterns...
  local t=$1; shift
  [ -d "$data" ] || return 0
  for pattern in "$@"; do
    find "$data" -type f -name "$pattern" -exec cp -t "$seeds/$t" {} + 2>/dev/null || true
  done
}
copy_seeds mrc '*.mrc' '*.mrcs' '*.map'
copy_seeds tiff '*.tif' '*.tiff'
copy_seeds eman_hdf '*.h5' '*.hdf' '*.emd' '*.nxs'
copy_seeds star '*.star' '*.xmd'
sim=$work/simulate
mkdir -p "$sim"
"$simulate" --mode projections --box 16 --count 3 --ctf --max_shift 2 --oroot "$sim/particles" -v 0 >/dev/null
"$simulate" --mode movie --size 32 24 --frames 3 --oroot "$sim/movie" -v 0 >/dev/null
cp "$sim"/*.mrc* "$seeds/mrc/" && cp "$sim"/*.star "$sim"/*.xmd "$seeds/star/"
[ -d "$data" ] || echo "fuzz: note: $data absent; seeds come from frost_simulate and frost_fuzz_seeds only"

max_len() {
  case $1 in symmetry) echo 64 ;; cli) echo 1024 ;; eer_metadata) echo 8192 ;; eer_stream) echo 16384 ;; *) echo 65536 ;; esac
}

# libhdf5 (1.10) allocates what a corrupt file claims and checks for NULL, as glibc's malloc
# returns for absurd sizes; ASan would abort instead. Its error paths also keep allocations
# until exit, so leak checking is off for that target (frost's own HDF5 code closes every
# identifier through RAII; the reader probes each file in a forked child first).
target_options() {
  case $1 in
    eman_hdf) echo "-detect_leaks=0" ;;
    *) echo "" ;;
  esac
}
target_asan() {
  case $1 in
    eman_hdf) echo "allocator_may_return_null=1:detect_leaks=0" ;;
    *) echo "detect_leaks=1" ;;
  esac
}
export LSAN_OPTIONS=suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One target: runs it for $seconds, then writes its summary row to logs/<t>.row and its exit
# status to logs/<t>.status.
fuzz_target() {
  local t=$1 corpus=$work/corpus/$1 log=$work/logs/$1.log status runs cov corp verdict
  mkdir -p "$corpus"
  echo "fuzz: $t for ${seconds} s"
  set +e
  # shellcheck disable=SC2046
  (cd "$work" && ASAN_OPTIONS=$(target_asan "$t") "$build/tests/fuzz/frost_fuzz_$t" "$corpus" "$seeds/$t" $(target_options "$t") \
     -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 \
     -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/findings/$t-" >"$log" 2>&1)
  status=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1 || true)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2 || true)
  corp=$(find "$corpus" -type f | wc -l)
  verdict=ok
  if [ "$status" -ne 0 ]; then
    verdict="FINDING (exit $status, see $log)"
    grep -E "^==[0-9]+==ERROR|runtime error|SUMMARY|Test unit written" "$log" | head -5 || true
  fi
  printf '%-11s %12s %8s %8s  %s\n' "$t" "${runs:-?}" "${cov:-?}" "$corp" "$verdict" >"$work/logs/$t.row"
  echo "$status" >"$work/logs/$t.status"
}

# Targets run side by side, one per core (FROST_FUZZ_JOBS to change), each for $seconds.
jobs_max=${FROST_FUZZ_JOBS:-$(nproc)}
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  fuzz_target "$t" &
done
wait

rc=0
echo
echo "fuzz summary (${seconds} s per target, ${jobs_max} at a time; corpus in $work/corpus)"
printf '%-11s %12s %8s %8s  %s\n' target executions coverage corpus result
for t in "${targets[@]}"; do
  cat "$work/logs/$t.row"
  [ "$(cat "$work/logs/$t.status")" = 0 ] || rc=1
done
exit $rc
