#pragma once
/// @file fftw_wisdom_file.hpp
/// @brief The per-machine FFTW wisdom file of docs/fft_advisor.md#wisdom, and the CPU fingerprint that
/// names it (also used by the FFTW measurer's cache identity, docs/fft_advisor.md#cache-key).
///
/// Wisdom is valid only on the same kind of CPU with the same FFTW build, so the file name
/// carries a hash of the CPU model, its ISA level and the FFTW version string:
/// `<cache-dir>/fftw-wisdom-<fingerprint>-<f32|f64>.txt`.
#include <string>

#include "frost/fft/spec.hpp"

namespace frost::fft {

/// CPU model from /proc/cpuinfo ("model name"), whitespace collapsed; the machine name from
/// uname when the kernel does not report one.
std::string cpu_model();
/// Widest vector ISA the CPU supports, as FFTW's codelets use them: "avx512", "avx2", "avx",
/// "sse2" on x86; "neon" on 64-bit ARM; "generic" elsewhere.
std::string cpu_isa_level();
/// 16 hex digits: FNV-1a 64 of "<cpu_model>|<cpu_isa_level>|<fftw_version>".
std::string fftw_fingerprint();

/// `<cache_dir>/fftw-wisdom-<fingerprint>-<f32|f64>.txt`.
std::string fftw_wisdom_file(const std::string& cache_dir, Precision precision);

/// @brief Start-of-process import (docs/fft_advisor.md#wisdom): FFTW's system wisdom, then the user's
/// wisdom file of `cache_dir` for `precision`. Problems (an unreadable or corrupt file) cost one
/// warning, never an exception. frost::fft implements single precision only, so F64 imports nothing.
/// @return true when the user's wisdom file was imported.
bool load_fftw_wisdom(const std::string& cache_dir, Precision precision = Precision::F32);

/// @brief Writes the process's wisdom back to the wisdom file of `cache_dir` (docs/fft_advisor.md#wisdom):
/// under an exclusive flock on `<file>.lock`, the file's current wisdom is merged in first (so what other
/// processes saved is kept), then everything is written to a temporary file that is renamed over the old
/// one. Call it after planning with FFTW_MEASURE or stronger created new wisdom.
/// @return false (after one warning) when the directory cannot be written; F64: false.
bool save_fftw_wisdom(const std::string& cache_dir, Precision precision = Precision::F32);

} // namespace frost::fft
