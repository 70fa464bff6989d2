#include "frost/cuda/check.hpp"

namespace frost::cuda {

CudaError::CudaError(cudaError_t status, const std::string& expr, const char* file, int line)
    : Error(ExitCode::Device,
            "CUDA error " + std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) +
                ") in " + expr,
            file, line),
      status_(status) {}

const char* cufft_status_name(cufftResult r) {
  switch (r) {
  case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
  case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
  case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
  case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
  case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
  case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
  case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
  case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
  case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
  case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
  case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
  case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
  case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
  default: return "CUFFT_UNKNOWN_ERROR";
  }
}

CufftError::CufftError(cufftResult status, const std::string& expr, const char* file, int line)
    : Error(ExitCode::Device, "cuFFT error " + std::string(cufft_status_name(status)) + " in " + expr, file, line),
      status_(status) {}

} // namespace frost::cuda
