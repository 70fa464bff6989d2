#!/usr/bin/env bash
# The demo's data, made by frost's own programs, under the names the README's examples use: in the
# output folder every example of README.md runs as written (tests/workflows/readme_examples_test.sh
# runs them on the --small data). Used by scripts/demo.sh.
#
# Usage: demo_data.sh <build>/apps <out-dir> [--small]
#   --small  the same files at sizes that keep the README test fast (boxes of 32 px, a few dozen
#            particles, 512x512x8 movies: a movie must stay wider than the 500 A patches that
#            movie alignment asks for by default at 1 A/px)
#
# Files:
#   particles_phantom.mrc, particles.mrcs/.star/.xmd  CTF-affected projections with known poses
#   map.mrc (+ _half1/_half2.mrc, _fsc.star/.txt, _fsc_reference.txt)  their reconstruction
#   movie.mrcs, movie2.mrcs, gain.mrc, movies.txt, coords.star  two movies with one gain, their
#                                                    list, and picked particle coordinates
#   movie_truth.star, movie2_truth.star              their true motion
#   images_phantom.mrc, images.mrcs/.star/.xmd       projections without CTF for pose assignment
#   gallery.mrcs/.xmd, poses.xmd/.star               the 15-degree gallery of images_phantom.mrc and
#                                                    the poses assigned to images.xmd against it
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ] || { [ $# -eq 3 ] && [ "$3" != --small ]; }; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
fi
bin=$(cd "$1" && pwd)
out=$2
small=0
[ "${3:-}" = --small ] && small=1

for program in simulate/frost_simulate reconstruct_fourier/frost_reconstruct_fourier align_significant/frost_align_significant; do
  [ -x "$bin/$program" ] || { echo "demo_data.sh: no $bin/$program (build it first)" >&2; exit 1; }
done
simulate=$bin/simulate/frost_simulate

# Runs a program and prints the lines of its log that match a pattern; on failure the whole log.
show() { # pattern command...
  local pattern=$1 log
  shift
  if ! log=$("$@" 2>&1); then
    printf '%s\n' "$log" >&2
    echo "demo_data.sh: failed: $*" >&2
    return 1
  fi
  printf '%s\n' "$log" | grep -E "$pattern" | sed 's/^/  /' || true
}

if [ "$small" -eq 1 ]; then
  box=32 blobs=30 count=40 max_shift=2
  movie_size=512 frames=8
  images_box=32 images_blobs=30 images_count=24
else
  box=96 blobs=60 count=500 max_shift=3
  movie_size=1024 frames=20
  images_box=48 images_blobs=40 images_count=100
fi

mkdir -p "$out"
cd "$out"

echo "== 1. A phantom and $count noisy CTF-affected projections with known poses"
"$simulate" --mode projections --oroot particles --box "$box" --blobs "$blobs" --count "$count" \
  --max_shift "$max_shift" --ctf --snr 0.3 --sampling 2.0 --seed 11 -v 0 >/dev/null

echo
echo "== 2. Fourier reconstruction of the particles (Wiener CTF correction, half maps), FSC vs the phantom"
show "FSC|timing|insertion on" "$bin/reconstruct_fourier/frost_reconstruct_fourier" -i particles.star -o map.mrc \
  --useCTF --ctf_mode wiener --halves --reference particles_phantom.mrc --device auto --progress none -v 1

echo
echo "== 3. Two ${movie_size}x${movie_size}x$frames movies: drift and doming (T3), fast linear drift (T2); Poisson noise and gain"
# One seed: frost_simulate draws the gain from it, so both movies share gain.mrc (one detector).
for spec in movie:T3 movie2:T2; do
  "$simulate" --mode movie --oroot "${spec%%:*}" --size "$movie_size" "$movie_size" --frames "$frames" \
    --trajectory "${spec#*:}" --dose 2 --contrast 0.2 --gain --seed 11 -v 0 >/dev/null
done
mv movie_gain.mrc gain.mrc
rm movie2_gain.mrc
printf '# the demo movies, one per line (frost_movie_align -i movies.txt)\nmovie.mrcs\nmovie2.mrcs\n' >movies.txt
# Particles "picked" on movie.mrcs (micrograph pixels), for frost_movie_align trajectories.
awk -v n="$movie_size" 'BEGIN {
  print "# picked particle coordinates on movie.mrcs [px]\n\ndata_\n\nloop_\n_rlnCoordinateX #1\n_rlnCoordinateY #2"
  for (i = 1; i <= 3; i++) for (j = 1; j <= 2; j++) printf "%.1f %.1f\n", n * i / 4, n * (2 * j - 1) / 4 }' >coords.star

echo
echo "== 4. Pose assignment: $images_count noisy (SNR 0.3) rotated and shifted views of a ${images_box}^3 phantom against its 15-degree gallery"
"$simulate" --mode projections --oroot images --box "$images_box" --blobs "$images_blobs" --count "$images_count" \
  --max_shift 2 --snr 0.3 --seed 12 -v 0 >/dev/null
show "pairs/s" "$bin/align_significant/frost_align_significant" -i images.xmd --volume images_phantom.mrc \
  --sampling 15 --sym c1 --save-gallery gallery -o poses.xmd --device cpu -v 1
