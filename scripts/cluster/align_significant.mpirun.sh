#!/usr/bin/env bash
# Align significant on one machine with mpirun, one MPI rank per GPU.
#
#   NP=4 scripts/cluster/align_significant.mpirun.sh images.xmd out/angles.xmd -r gallery.xmd --keepBestN 1
#   NP=2 FROST_DEVICE=cpu THREADS=4 scripts/cluster/align_significant.mpirun.sh particles.star out/angles.xmd \
#       --volume map.mrc --sampling 10 --sym c1
#
# What the ranks do: the images are split into NP contiguous shares, every rank aligns its share
# against all references, and rank 0 merges the results in input order and writes -o (and the
# RELION STAR beside it). There is no master rank: NP ranks = NP GPUs.
#
# GPU mapping: every rank is given the same list, --device 0,1,...,NP-1, and rank r uses entry
# r mod (list length) (frost's rule). The ids count the GPUs the process sees: with
# CUDA_VISIBLE_DEVICES=4,5,6,7 set, --device 0,1,2,3 means physical GPUs 4 to 7.
#
# Environment:
#   NP            number of MPI ranks (default 2)
#   FROST_DEVICE  cpu, or the GPU id list (default 0,1,...,NP-1)
#   THREADS       CPU threads per rank, --thr (default 1; on the CPU use cores / NP)
#   FROST_BIN     folder with frost_align_significant (default: found on PATH)
#   MPIRUN        the MPI launcher (default mpirun); MPIRUN_FLAGS: its extra flags
# Other arguments after the two paths (-r gallery.xmd or --volume map.mrc, ...) go to
# frost_align_significant unchanged.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 2
fi
input=$1
output=$2
shift 2

np=${NP:-2}
device=${FROST_DEVICE:-$(seq -s, 0 $((np - 1)))}
program=${FROST_BIN:+$FROST_BIN/}frost_align_significant

# shellcheck disable=SC2086  # MPIRUN_FLAGS is a list of flags
exec "${MPIRUN:-mpirun}" -np "$np" ${MPIRUN_FLAGS:-} \
  "$program" -i "$input" -o "$output" --device "$device" --thr "${THREADS:-1}" "$@"
