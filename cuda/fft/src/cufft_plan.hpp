#pragma once
// The cuFFT plan behind FftPlan.
#include <cuda_runtime.h>
#include <cufft.h>

#include <cstddef>
#include <mutex>

#include "frost/cuda/device_buffer.hpp"
#include "frost/fft/backend.hpp"

namespace frost::cuda {

/// Makes `device` current for a scope, switching only when it is not current already (cheap
/// enough to wrap every execution).
class CurrentDevice {
public:
  explicit CurrentDevice(int device);
  ~CurrentDevice();
  CurrentDevice(const CurrentDevice&) = delete;
  CurrentDevice& operator=(const CurrentDevice&) = delete;

private:
  int previous_ = -1;
};

/// @brief One cuFFT plan (cufftMakePlanMany64) on one device.
///
/// cuFFT keeps one work area and one stream per handle, so executions of a shared plan are
/// serialised: under a mutex the stream and work area are set and the transform queued, and a
/// different stream than the last one first waits on the event recorded after the previous
/// execution. Queueing stays asynchronous.
class CufftPlan final : public fft::PlanImpl {
public:
  CufftPlan(const fft::FftSpec& spec, const fft::PlanOptions& opts, int device);
  ~CufftPlan() override;

  void run(const void* in, void* out, const fft::ExecOptions& opts) const override;
  std::size_t workspace_bytes() const override;
  std::string describe() const override;

private:
  void make_plan();

  cufftHandle handle_{};
  bool has_handle_ = false;
  std::size_t work_bytes_ = 0;    ///< cuFFT's work area
  std::size_t scratch_bytes_ = 0; ///< the preserve_input copy (C2R only)
  mutable DeviceBuffer<std::byte> scratch_; ///< plan-owned copy, used under mutex_
  cudaEvent_t done_ = nullptr;
  mutable std::mutex mutex_;
  mutable cudaStream_t last_stream_ = nullptr;
  mutable bool ran_ = false;
};

} // namespace frost::cuda
