#pragma once
/// @file check.hpp
/// @brief Always-on checks of CUDA runtime and cuFFT calls, turned into frost::Error(Device).
#include <cuda_runtime.h>
#include <cufft.h>

#include <string>

#include "frost/core/error.hpp"

namespace frost::cuda {

/// A failed CUDA runtime call; keeps the raw status.
class CudaError : public Error {
public:
  CudaError(cudaError_t status, const std::string& expr, const char* file, int line);
  cudaError_t status() const noexcept { return status_; }

private:
  cudaError_t status_;
};

/// A failed cuFFT call; keeps the raw status.
class CufftError : public Error {
public:
  CufftError(cufftResult status, const std::string& expr, const char* file, int line);
  cufftResult status() const noexcept { return status_; }

private:
  cufftResult status_;
};

const char* cufft_status_name(cufftResult r);

} // namespace frost::cuda

#define FROST_CUDA_CHECK(call)                                                  \
  do {                                                                          \
    const cudaError_t frost_status_ = (call);                                   \
    if (frost_status_ != cudaSuccess)                                           \
      throw ::frost::cuda::CudaError(frost_status_, #call, __FILE__, __LINE__); \
  } while (0)

#define FROST_CUFFT_CHECK(call)                                                  \
  do {                                                                           \
    const cufftResult frost_status_ = (call);                                    \
    if (frost_status_ != CUFFT_SUCCESS)                                          \
      throw ::frost::cuda::CufftError(frost_status_, #call, __FILE__, __LINE__); \
  } while (0)

/// After every kernel launch: catches bad configurations and sticky errors.
#define FROST_CHECK_LAUNCH() FROST_CUDA_CHECK(cudaGetLastError())

/// Debug builds also synchronise the stream after a launch to pin down asynchronous faults.
#ifndef NDEBUG
#define FROST_SYNC_CHECK(stream) FROST_CUDA_CHECK(cudaStreamSynchronize(stream))
#else
#define FROST_SYNC_CHECK(stream) \
  do {                           \
  } while (0)
#endif
