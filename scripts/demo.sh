#!/usr/bin/env bash
# The frost demo: installs dependencies, builds, generates demo data with frost_simulate and
# runs what exists of the pipeline, printing a summary. Output goes to demo-output/ (or $1); every
# example of README.md runs as written in that folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/demo-output}")
build=$root/build

"$root/scripts/install_deps.sh"
if [ ! -f "$build/CMakeCache.txt" ]; then
  "$root/scripts/configure.sh" "$build" -DFROST_BUILD_TESTS=OFF -DFROST_BUILD_BENCH=OFF
fi
cmake --build "$build" --parallel "$(nproc)" --target frost_simulate frost_fft_advisor frost_reconstruct_fourier \
  frost_movie_align frost_align_significant frost_tune
bin=$build/apps
# The data, under the names the README's examples use (steps 1 to 4; scripts/demo_data.sh).
"$root/scripts/demo_data.sh" "$bin" "$out"
cd "$out"
python3 "$root/scripts/pose_accuracy.py" images.xmd poses.xmd

echo
echo "== 5. FFT sizes for the movie frames (cuFFT model; crop at most 10 %, as movie alignment may)"
"$bin/fft_advisor/frost_fft_advisor" recommend --size 1024x1024 --mode crop --max-change 10 --no-device --count 3 -v 0
"$bin/fft_advisor/frost_fft_advisor" recommend --size 3838x3710 --mode crop --max-change 10 --no-device --count 3 -v 0 \
  | tail -n 3 | sed 's/^/  K2 frame: /'

echo
echo "== 6. Movie alignment on the CPU: all-pairs global drift, 5x5 patches fitted by a B-spline, aligned micrograph"
"$bin/movie_align/frost_movie_align" -i movie.mrcs --gain gain.mrc --sampling 1.0 \
  --patches 5 5 --minLocalRes 256 --controlPoints 4 4 5 --oavg micrograph.mrc --oavgInitial micrograph_unaligned.mrc \
  -o micrograph_align.star --ostar_motion micrograph_motion.star --device cpu --progress none -v 0 | sed 's/^/  /'

echo
echo "== Summary"
printf "%-28s %s\n" "output directory" "$out"
printf "%-28s %s\n" "phantom" "particles_phantom.mrc (96^3, 2 A/px)"
printf "%-28s %s\n" "particles" "particles.mrcs + particles.star (RELION 3.1) + particles.xmd (Xmipp), true poses"
printf "%-28s %s\n" "map" "map.mrc + _half1/_half2.mrc + _fsc.star; FSC vs phantom in map_fsc_reference.txt"
printf "%-28s %s\n" "movies" "movie.mrcs, movie2.mrcs (listed in movies.txt) + gain.mrc + <movie>_truth.star (true motion)"
printf "%-28s %s\n" "picked coordinates" "coords.star (on movie.mrcs)"
printf "%-28s %s\n" "micrograph" "micrograph.mrc (aligned) + micrograph_unaligned.mrc; motion in micrograph_align.star"
printf "%-28s %s\n" "poses" "poses.xmd + poses.star (recovered), images.xmd (truth), gallery.mrcs/.xmd"
printf "%-28s %s\n" "true drift (frame 20)" "$(awk '/^data_/{f=($0=="data_global_shift")} f && NF==5 && $1==20 {printf "x %.2f px, y %.2f px (shift to apply)", $2, $3}' movie_truth.star)"
printf "%-28s %s\n" "recovered drift (frame 20)" "$(awk '/^data_/{f=($0=="data_global_shift")} f && NF==3 && $1==20 {printf "x %.2f px, y %.2f px (relative to frame 1)", $2, $3}' micrograph_motion.star)"
echo
echo "Inspect the files with any MRC/STAR tool, or try the README's examples there (programs in $bin/*/)."
