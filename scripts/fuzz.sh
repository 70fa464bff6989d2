#!/usr/bin/env bash
# Fuzzes every parser of untrusted input with libFuzzer (Clang, AddressSanitizer and
# UndefinedBehaviorSanitizer): MRC, SPIDER, TIFF, EER (files, raw bit streams, metadata XML), EMAN2 HDF5,
# STAR/XMD, symmetry names and command-line values (tests/fuzz). Seed corpora: the real files
# of ../shared/data (FROST_TEST_DATA), frost_simulate's output and small files written by
# frost_fuzz_seeds. Each target runs for SECONDS (default 60); the corpus grows in WORK and is
# reused by the next run. A finding (crash, sanitizer report, leak, timeout, allocation over
# the limit) is saved under WORK/findings/ and makes the script fail; copy it into
# tests/fuzz/regressions/<target>/ once fixed so the normal test suite replays it.
# Usage: scripts/fuzz.sh [SECONDS] [target...]
# Env: FROST_FUZZ_BUILD (default build-fuzz), FROST_FUZZ_WORK (default $FROST_FUZZ_BUILD/fuzz-work),
#      FROST_SIMULATE (a built frost_simulate; default: built in the fuzz build).
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
# libFuzzer is in libclang-rt-<major>-dev, which clang only recommends.
have_libfuzzer() { ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; }
if ! command -v clang++ >/dev/null || ! have_libfuzzer; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "fuzz: installing clang and libFuzzer"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends clang >/dev/null
  major=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
  have_libfuzzer || DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "libclang-rt-$major-dev" >/dev/null
  have_libfuzzer || { echo "fuzz: libFuzzer (libclang_rt.fuzzer) is still missing" >&2; exit 1; }
fi
CC=clang CXX=clang++ "$root/scripts/configure.sh" "$build" -DFROST_USE_CUDA=OFF -DFROST_BUILD_TESTS=OFF \
  -DFROST_BUILD_BENCH=OFF -DFROST_BUILD_FUZZ=ON -DFROST_SANITIZE=address,undefined \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
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
rc=0
rows=()
for t in "${targets[@]}"; do
  corpus=$work/corpus/$t
  mkdir -p "$corpus"
  log=$work/logs/$t.log
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
    rc=1
    grep -E "^==[0-9]+==ERROR|runtime error|SUMMARY|Test unit written" "$log" | head -5 || true
  fi
  rows+=("$(printf '%-11s %12s %8s %8s  %s' "$t" "${runs:-?}" "${cov:-?}" "$corp" "$verdict")")
done

echo
echo "fuzz summary (${seconds} s per target; corpus in $work/corpus)"
printf '%-11s %12s %8s %8s  %s\n' target executions coverage corpus result
printf '%s\n' "${rows[@]}"
exit $rc
