#pragma once
/// @file fft.hpp
/// @brief CUDA-side conveniences of frost::fft (this header includes the CUDA runtime; code
/// that must stay CUDA-free uses frost/fft/planner.hpp and make_planner(Backend::Cuda) only).
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "frost/fft/planner.hpp"

namespace frost::cuda {

/// ExecOptions that run on `stream`, optionally with a caller-owned work area.
inline fft::ExecOptions on_stream(cudaStream_t stream, void* workspace = nullptr) {
  return fft::ExecOptions{static_cast<void*>(stream), workspace};
}

/// Multiplies `count` device floats by `factor`, asynchronously on `stream`.
void scale_async(float* data, std::size_t count, float factor, cudaStream_t stream);

/// cuFFT's major, minor and patch version as "12.0.0" (works without a GPU).
std::string cufft_version_text();

} // namespace frost::cuda
