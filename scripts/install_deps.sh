#!/usr/bin/env bash
# Installs what frost needs on Debian/Ubuntu: compilers, CMake, FFTW, libtiff, libpng, HDF5, OpenMPI,
# SQLite (the journal of live sessions), googletest, Google Benchmark, the independent writers and
# readers of the interoperability checks (Python mrcfile, tifffile and imagecodecs, libtiff's
# tiffcp), and python3-venv for the Scipion plugin's test environment (scripts/scipion/run_tests.sh).
# CUDA is optional: when nvcc exists (e.g. /usr/local/cuda) the CUDA backend is compiled too.
# Safe to run repeatedly; does nothing when everything is present.
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config git
          libfftw3-dev libtiff-dev libpng-dev libhdf5-dev libopenmpi-dev openmpi-bin libsqlite3-dev
          libgtest-dev libbenchmark-dev nlohmann-json3-dev python3 python3-numpy python3-mrcfile python3-venv
          libtiff-tools python3-tifffile)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  if ! command -v apt-get >/dev/null; then
    echo "install_deps: apt-get not found; install these yourself: ${missing[*]}" >&2
    exit 1
  fi
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "install_deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The python3 on PATH may not be Debian's (pyenv, conda): give it mrcfile and tifffile too, and
# imagecodecs (the independent EER decoder, not packaged by Debian 12), best effort.
for module in mrcfile tifffile imagecodecs; do
  if ! python3 -c "import $module" 2>/dev/null; then
    python3 -m pip install --quiet "$module" 2>/dev/null ||
      echo "install_deps: note: $module not importable by $(command -v python3); its interoperability test will not run"
  fi
done
