#!/usr/bin/env bash
# Runs one example of scripts/cluster/ on the CPU with 2 ranks (or 2 array tasks) on data made by
# frost_simulate, and compares its outputs with a direct single-process run of the same program.
# The sbatch scripts run in their "no Slurm" mode (mpirun on this machine, SLURM_* set here as
# Slurm would set them); the srun branch and the GPU mapping need a Slurm cluster with GPUs.
#
# Usage: cluster_test.sh <example file name> <build>/apps <work-dir>
# Environment: MPIRUN (default mpirun), MPIRUN_FLAGS.
set -euo pipefail

example=${1:?usage: cluster_test.sh <example> <apps-dir> <work-dir>}
apps=$(cd "${2:?apps dir}" && pwd)
work=${3:?work dir}
scripts=$(cd "$(dirname "$0")/../../scripts/cluster" && pwd)
script=$scripts/$example
[ -f "$script" ] || { echo "no such example: $script" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export MPIRUN=${MPIRUN:-mpirun}
export FROST_DEVICE=cpu

fail() { echo "FAIL: $example: $*" >&2; exit 1; }
simulate() { "$apps/simulate/frost_simulate" "$@" -v 0 >/dev/null; }

bash -n "$script" || fail "syntax"
# Without arguments every example prints its help and exits with 2.
set +e; bash "$script" >usage.txt 2>&1; rc=$?; set -e
if [ "$rc" -ne 2 ] || ! grep -q "GPU mapping" usage.txt; then fail "no usage text (exit $rc)"; fi

# Runs the example: an sbatch script as Slurm would run each of its 2 tasks' shares, the mpirun
# examples with NP=2.
run_example() {
  case $example in
    movie_align.sbatch)
      for task in 0 1; do
        SLURM_ARRAY_TASK_ID=$task SLURM_ARRAY_TASK_COUNT=2 SLURM_CPUS_PER_TASK=1 bash "$script" "$@"
      done ;;
    *.sbatch) SLURM_NTASKS=2 SLURM_CPUS_PER_TASK=1 bash "$script" "$@" ;;
    *) NP=2 THREADS=1 bash "$script" "$@" ;;
  esac
}

# Columns of the rows of the first loop of a STAR/XMD block (all blocks when none is named),
# selected by label: prints one line per row.
columns() { # file block label...
  awk -v block="$2" -v want="${*:3}" '
    BEGIN { n = split(want, w, " ") }
    /^data_/ { inblock = (block == "" || $0 == "data_" block); nl = 0; next }
    !inblock { next }
    /^[ \t]*_/ { sub(/^[ \t]*_/, "", $1); label[$1] = ++nl; next }
    nl > 0 && NF == nl { line = ""; for (i = 1; i <= n; i++) line = line " " $(label[w[i]]); print line }
  ' "$1"
}

# Two column dumps agree within tol (absolute, per value).
same_numbers() { # fileA fileB tol
  paste -d'|' "$1" "$2" | awk -F'|' -v tol="$3" '
    { na = split($1, a, " "); nb = split($2, b, " ")
      if (na != nb) { print "row " NR ": " na " vs " nb " values"; bad = 1; exit }
      for (i = 1; i <= na; i++) { d = a[i] - b[i]; if (d < 0) d = -d
        if (d > tol) { print "row " NR " value " i ": " a[i] " vs " b[i]; bad = 1 } } }
    END { if (NR == 0) { print "no rows"; bad = 1 } exit bad }'
  [ "$(wc -l <"$1")" -eq "$(wc -l <"$2")" ] || { echo "$(wc -l <"$1") vs $(wc -l <"$2") rows"; return 1; }
}

case $example in
  reconstruct_fourier.*)
    export FROST_BIN=$apps/reconstruct_fourier
    simulate --mode projections --oroot parts --box 32 --blobs 30 --count 200 --snr 2 --ctf --sampling 3 --seed 4
    mkdir -p ref
    "$FROST_BIN/frost_reconstruct_fourier" -i parts.xmd -o ref/map.mrc --sampling 3 --useCTF --halves \
      --device cpu --thr 1 --progress none -v 0
    run_example parts.xmd out/map.mrc --sampling 3 --useCTF --halves --reference ref/map.mrc \
      --progress none >run.log 2>&1 || { cat run.log; fail "the example failed"; }
    grep -q "2 rank(s)" run.log || { cat run.log; fail "frost did not report 2 ranks"; }
    for f in out/map.mrc out/map_half1.mrc out/map_half2.mrc out/map_fsc.star; do
      [ -s "$f" ] || fail "missing $f"
    done
    # The 2-rank map against the 1-rank map, shell by shell (frost's own FSC, --reference).
    awk '!/^#/ && NF == 4 { if ($4 < min || min == "") min = $4 } END { print min }' \
      out/map_fsc_reference.txt >min_fsc.txt
    awk '{ exit !($1 > 0.9999) }' min_fsc.txt || fail "FSC of the 2-rank map against the 1-rank map drops to $(cat min_fsc.txt)"
    ;;

  align_significant.*)
    export FROST_BIN=$apps/align_significant
    simulate --mode projections --oroot parts --box 32 --blobs 30 --count 30 --max_shift 2 --snr 1 \
      --sampling 3 --seed 12
    "$FROST_BIN/frost_align_significant" -i parts.xmd -o "$work/ref/angles.xmd" --volume parts_phantom.mrc \
      --sampling 20 --device cpu --thr 1 -v 0
    run_example parts.xmd "$work/out/angles.xmd" --volume parts_phantom.mrc --sampling 20 \
      >run.log 2>&1 || { cat run.log; fail "the example failed"; }
    grep -q "2 rank(s)" run.log || { cat run.log; fail "frost did not report 2 ranks"; }
    [ -s out/angles.star ] || fail "missing out/angles.star"
    labels="itemId ref angleRot angleTilt anglePsi shiftX shiftY maxCC weight"
    # shellcheck disable=SC2086
    columns out/angles.xmd "" $labels >out.txt
    # shellcheck disable=SC2086
    columns ref/angles.xmd "" $labels >ref.txt
    [ "$(wc -l <out.txt)" -eq 30 ] || fail "$(wc -l <out.txt) rows for 30 images"
    same_numbers out.txt ref.txt 1e-3 || fail "2-rank poses differ from the 1-rank poses"
    ;;

  movie_align.*)
    export FROST_BIN=$apps/movie_align
    for i in 1 2 3; do
      simulate --mode movie --oroot "movie$i" --size 512 512 --frames 8 --trajectory "T$i" --dose 2 \
        --contrast 0.2 --seed "$i"
    done
    printf '# three movies\nmovie1.mrcs\n\nmovie2.mrcs\nmovie3.mrcs\n' >movies.txt
    options=(--sampling 1 --minLocalRes 200 --progress none)
    mkdir -p ref
    for i in 1 2 3; do
      "$FROST_BIN/frost_movie_align" -i "movie$i.mrcs" --oavg "ref/movie$i.mrc" --device cpu --thr 1 \
        -v 0 "${options[@]}" >/dev/null
    done
    run_example movies.txt 'mics/{movie}.mrc' "${options[@]}" >run.log 2>&1 || { cat run.log; fail "the example failed"; }
    # One batch per rank/task, and their temporary movie lists gone (not left among the outputs).
    shares=$(grep -c " aligned, " run.log || true)
    [ "$shares" -eq 2 ] || { cat run.log; fail "$shares batch summaries instead of one per rank/task"; }
    left=$(find mics -name 'movies_*.txt' | wc -l)
    [ "$left" -eq 0 ] || fail "$left movie lists left in the output folder"
    for i in 1 2 3; do
      [ -s "mics/movie$i.mrc" ] || { cat run.log; fail "missing mics/movie$i.mrc"; }
      columns "mics/movie${i}_align.star" global_shift rlnMicrographFrameNumber rlnMicrographShiftX \
        rlnMicrographShiftY >out.txt
      columns "ref/movie${i}_align.star" global_shift rlnMicrographFrameNumber rlnMicrographShiftX \
        rlnMicrographShiftY >ref.txt
      [ "$(wc -l <out.txt)" -eq 8 ] || fail "movie$i: $(wc -l <out.txt) frames in the alignment"
      same_numbers out.txt ref.txt 1e-6 || fail "movie$i: shifts differ from a direct run"
    done
    # A second run skips the movies that are done (batch mode).
    run_example movies.txt 'mics/{movie}.mrc' "${options[@]}" >rerun.log 2>&1 || { cat rerun.log; fail "the rerun failed"; }
    grep -q "skipped" rerun.log || { cat rerun.log; fail "no batch summary in the rerun"; }
    if grep -Eq "(^|[^0-9])[1-9][0-9]* aligned" rerun.log; then cat rerun.log; fail "the rerun aligned movies again"; fi
    ;;

  *) fail "no test for this example" ;;
esac
echo "cluster example $example: ok"
