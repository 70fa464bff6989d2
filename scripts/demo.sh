#!/usr/bin/env bash
# The frost demo: installs dependencies, builds, generates demo data with frost_simulate and
# runs what exists of the pipeline, printing a summary. Output goes to demo-output/ (or $1).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/demo-output}")
build=$root/build

"$root/scripts/install_deps.sh"
if [ ! -f "$build/CMakeCache.txt" ]; then
  "$root/scripts/configure.sh" "$build" -DFROST_BUILD_TESTS=OFF -DFROST_BUILD_BENCH=OFF
fi
cmake --build "$build" --parallel "$(nproc)" --target frost_simulate frost_fft_advisor frost_reconstruct_fourier frost_movie_align frost_align_significant
bin=$build/apps
mkdir -p "$out"
cd "$out"

echo
echo "== 1. A phantom and 500 noisy CTF-affected projections with known poses"
"$bin/simulate/frost_simulate" --mode projections --oroot particles --box 96 --blobs 60 --count 500 \
  --max_shift 3 --ctf --snr 0.3 --sampling 2.0 --seed 11 -v 0

echo
echo "== 2. A 1024x1024x20 movie with drift and doming (trajectory T3), Poisson noise and gain"
"$bin/simulate/frost_simulate" --mode movie --oroot movie --size 1024 1024 --frames 20 --trajectory T3 \
  --dose 2 --contrast 0.2 --gain --seed 11 -v 0

echo
echo "== 3. FFT sizes for the movie frames (cuFFT model; crop at most 10 %, as movie alignment may)"
"$bin/fft_advisor/frost_fft_advisor" recommend --size 1024x1024 --mode crop --max-change 10 --no-device --count 3 -v 0
"$bin/fft_advisor/frost_fft_advisor" recommend --size 3838x3710 --mode crop --max-change 10 --no-device --count 3 -v 0 \
  | tail -n 3 | sed 's/^/  K2 frame: /'

echo
echo "== 4. Fourier reconstruction of the 500 particles (Wiener CTF correction, half maps), FSC vs the phantom"
"$bin/reconstruct_fourier/frost_reconstruct_fourier" -i particles.star -o reconstruction.mrc --useCTF --ctf_mode wiener \
  --halves --reference particles_phantom.mrc --device auto --progress none -v 1 2>&1 \
  | grep -E "FSC|timing|insertion on" | sed 's/^/  /'

echo
echo "== 5. Movie alignment on the CPU: all-pairs global drift, 5x5 patches fitted by a B-spline, aligned micrograph"
"$bin/movie_align/frost_movie_align" -i movie.mrcs --gain movie_gain.mrc --sampling 1.0 \
  --patches 5 5 --minLocalRes 256 --controlPoints 4 4 5 --oavg micrograph.mrc --oavgInitial micrograph_unaligned.mrc \
  -o micrograph_align.star --ostar_motion micrograph_motion.star --device cpu --progress none -v 0 | sed 's/^/  /'

echo
echo "== 6. Pose assignment: 100 noisy (SNR 0.3) rotated and shifted views of a 48^3 phantom against its 15-degree gallery"
"$bin/simulate/frost_simulate" --mode projections --oroot align_particles --box 48 --blobs 40 --count 100 \
  --max_shift 2 --snr 0.3 --seed 12 -v 0 >/dev/null
"$bin/align_significant/frost_align_significant" -i align_particles.xmd --volume align_particles_phantom.mrc \
  --sampling 15 --sym c1 --save-gallery align_gallery -o align_poses.xmd --device cpu -v 1 2>&1 \
  | grep -E "pairs/s" | sed 's/^/  /'
python3 "$root/scripts/pose_accuracy.py" align_particles.xmd align_poses.xmd

echo
echo "== Summary"
printf "%-28s %s\n" "output directory" "$out"
printf "%-28s %s\n" "phantom" "particles_phantom.mrc (96^3, 2 A/px)"
printf "%-28s %s\n" "particles" "particles.mrcs + particles.star (RELION 3.1) + particles.xmd (Xmipp), true poses"
printf "%-28s %s\n" "movie" "movie.mrcs + movie_gain.mrc + movie_truth.star (true global and local motion)"
printf "%-28s %s\n" "reconstruction" "reconstruction.mrc + _half1/_half2.mrc + _fsc.star; FSC vs phantom in reconstruction_fsc_reference.txt"
printf "%-28s %s\n" "micrograph" "micrograph.mrc (aligned) + micrograph_unaligned.mrc; motion in micrograph_align.star"
printf "%-28s %s\n" "poses" "align_poses.xmd + align_poses.star (recovered), align_particles.xmd (truth), align_gallery.mrcs/.xmd"
printf "%-28s %s\n" "true drift (frame 20)" "$(awk '/^data_/{f=($0=="data_global_shift")} f && NF==5 && $1==20 {printf "x %.2f px, y %.2f px (shift to apply)", $2, $3}' movie_truth.star)"
printf "%-28s %s\n" "recovered drift (frame 20)" "$(awk '/^data_/{f=($0=="data_global_shift")} f && NF==3 && $1==20 {printf "x %.2f px, y %.2f px (relative to frame 1)", $2, $3}' micrograph_motion.star)"
echo
echo "Inspect the files with any MRC/STAR tool."
