#!/usr/bin/env bash
# Movie alignment of many movies on one machine: mpirun starts NP independent frost_movie_align
# processes, one per GPU, each aligning its share of the movie list.
#
#   NP=4 scripts/cluster/movie_align.mpirun.sh movies.txt 'mics/{movie}.mrc' --gain gain.mrc --sampling 0.83
#   NP=2 FROST_DEVICE=cpu THREADS=4 scripts/cluster/movie_align.mpirun.sh movies.txt 'mics/{movie}.mrc'
#
# frost_movie_align does not use MPI itself (one movie needs one GPU): mpirun only launches the
# processes. Process r (of NP) takes the movies on lines r+1, r+1+NP, ... of the list (blank lines
# and lines starting with # skipped) and runs frost_movie_align in batch mode on them, so the
# micrographs are named by the pattern ({movie} = the movie's name) and a rerun skips movies
# whose outputs exist.
#
# GPU mapping: process r uses GPU r mod (number of GPUs) through its local rank
# (--device $OMPI_COMM_WORLD_LOCAL_RANK, or MPICH's MPI_LOCALRANKID): with NP = number of GPUs,
# one process per GPU. The ids count the GPUs the process sees (CUDA_VISIBLE_DEVICES).
#
# Environment:
#   NP            number of processes (default 2)
#   FROST_DEVICE  cpu, or one GPU id for every process (default: the local rank)
#   THREADS       CPU threads per process, --thr (default 2)
#   FROST_BIN     folder with frost_movie_align (default: found on PATH)
#   MPIRUN        the launcher (default mpirun); MPIRUN_FLAGS: its extra flags
#   SHARE_DIR     where each process makes its temporary movie list (default $TMPDIR or /tmp;
#                 removed when the process ends)
# Other arguments after the list and the pattern go to frost_movie_align unchanged.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 2
fi

rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-}}
if [ -z "$rank" ]; then
  # Not started by mpirun yet: start NP copies of this script.
  # shellcheck disable=SC2086  # MPIRUN_FLAGS is a list of flags
  exec "${MPIRUN:-mpirun}" -np "${NP:-2}" ${MPIRUN_FLAGS:-} bash "$0" "$@"
fi
size=${OMPI_COMM_WORLD_SIZE:-${PMI_SIZE:-1}}
local_rank=${OMPI_COMM_WORLD_LOCAL_RANK:-${MPI_LOCALRANKID:-$rank}}

list=$1
pattern=$2
shift 2
# The process's share of the list lives in a temporary folder, removed however the process ends:
# the output folder keeps only outputs.
share_dir=$(mktemp -d "${SHARE_DIR:-${TMPDIR:-/tmp}}/frost-movie-align.XXXXXX")
trap 'rm -rf "$share_dir"' EXIT
share=$share_dir/movies_rank$rank.txt

# This process's movies, with relative paths made absolute against the list's folder.
list_dir=$(cd "$(dirname "$list")" && pwd)
awk -v n="$size" -v k="$rank" -v dir="$list_dir" '
  NF && $1 !~ /^#/ { if (i++ % n == k) print ($1 ~ /^\// ? $1 : dir "/" $1) }' "$list" >"$share"
if [ ! -s "$share" ]; then
  echo "movie_align.mpirun.sh: rank $rank of $size has no movie" >&2
  exit 0
fi

# Not exec: the trap removes the list after the run (the exit status is the program's).
"${FROST_BIN:+$FROST_BIN/}frost_movie_align" -i "$share" --oavg "$pattern" \
  --device "${FROST_DEVICE:-$local_rank}" --thr "${THREADS:-2}" "$@"
