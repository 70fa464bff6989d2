#!/usr/bin/env bash
# Fourier reconstruction on one machine with mpirun, one MPI rank per GPU.
#
#   NP=4 scripts/cluster/reconstruct_fourier.mpirun.sh particles.star map.mrc --sym d7 --halves
#   NP=2 FROST_DEVICE=cpu THREADS=4 scripts/cluster/reconstruct_fourier.mpirun.sh particles.star map.mrc
#
# What the ranks do: the images are dealt to the ranks in jobs of --mpi_job_size images, every
# rank inserts its images into its own grids, the grids are reduced once onto rank 0, and rank 0
# finalises and writes the map (and half maps, FSC). There is no master rank: NP ranks = NP GPUs.
#
# GPU mapping: every rank is given the same list, --device 0,1,...,NP-1, and rank r uses entry
# r mod (list length) (frost's rule, as Xmipp's -gpusPerNode). The ids count the GPUs the process
# sees: with CUDA_VISIBLE_DEVICES=4,5,6,7 set, --device 0,1,2,3 means physical GPUs 4 to 7.
#
# Environment:
#   NP            number of MPI ranks (default 2)
#   FROST_DEVICE  cpu, or the GPU id list (default 0,1,...,NP-1)
#   THREADS       CPU threads per rank, --thr (default 1: image loading only on GPUs; on the CPU
#                 use cores / NP)
#   FROST_BIN     folder with frost_reconstruct_fourier (default: found on PATH)
#   MPIRUN        the MPI launcher (default mpirun); MPIRUN_FLAGS: its extra flags (e.g. --bind-to none)
# Other arguments after the two paths go to frost_reconstruct_fourier unchanged.
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
program=${FROST_BIN:+$FROST_BIN/}frost_reconstruct_fourier
mkdir -p "$(dirname "$output")"   # frost writes into an existing folder only

# shellcheck disable=SC2086  # MPIRUN_FLAGS is a list of flags
exec "${MPIRUN:-mpirun}" -np "$np" ${MPIRUN_FLAGS:-} \
  "$program" -i "$input" -o "$output" --device "$device" --thr "${THREADS:-1}" "$@"
