#pragma once
/// @file versions.hpp
/// @brief Versions of the FFT libraries, for --version and run logs.
#include <string>

namespace frost::fft {

/// FFTW's own version string, e.g. "fftw-3.3.10-sse2-avx".
std::string fftw_version();
/// "cuFFT 12.0.0" or "cuFFT: built without CUDA".
std::string cufft_version();
/// cufftGetVersion() (e.g. 12000), or 0 when built without CUDA.
int cufft_version_number();
/// "FFTW fftw-3.3.10-sse2-avx (f32, threads); cuFFT 12.0.0".
std::string fft_versions();

} // namespace frost::fft
