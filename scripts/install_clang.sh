#!/usr/bin/env bash
# Installs Clang with libFuzzer (libclang-rt-<major>-dev, which clang only recommends) and libomp
# for Clang's OpenMP, for the sanitizer and fuzzing tree (scripts/sanitize.sh, scripts/fuzz.sh).
# Safe to run repeatedly; does nothing when everything is present.
set -euo pipefail
have_libfuzzer() { ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; }
have_libomp() { ls /usr/lib/llvm-*/lib/libomp.so >/dev/null 2>&1; }
if command -v clang++ >/dev/null && have_libfuzzer && have_libomp; then exit 0; fi
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install_clang: installing clang, libFuzzer and libomp"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends clang libomp-dev >/dev/null
major=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
have_libfuzzer || DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
  "libclang-rt-$major-dev" >/dev/null
have_libfuzzer || { echo "install_clang: libFuzzer (libclang_rt.fuzzer) is still missing" >&2; exit 1; }
