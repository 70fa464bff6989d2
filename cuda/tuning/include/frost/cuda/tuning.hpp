#pragma once
/// @file tuning.hpp
/// @brief What tuning needs from a CUDA device: its limits (the spaces' constraints and launch
/// geometries read them) and timed launches for the measurement protocol (docs/tune.md#offline-protocol).
#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <optional>

#include "frost/cuda/device_buffer.hpp"
#include "frost/tuning/geometry.hpp"
#include "frost/tuning/measure.hpp"

namespace frost::cuda {

/// The limits of device `id` (cudaDeviceProp; shared memory after opt-in).
tuning::DeviceLimits device_limits(int id);

/// Times one launch at a time on a stream with a pair of CUDA events (kernel time, not host
/// overhead); the launch function enqueues the work on the stream it is given.
class LaunchTimer {
public:
  explicit LaunchTimer(cudaStream_t stream) : stream_(stream) {}
  /// Enqueues `launch` between the events, waits, returns the milliseconds between them;
  /// a failed launch (cudaGetLastError) is a CudaError.
  double time_ms(const std::function<void(cudaStream_t)>& launch);

private:
  cudaStream_t stream_;
  Event start_, stop_;
};

/// The protocol of docs/tune.md#offline-protocol on the GPU: one untimed warm-up launch, then timed
/// launches under `rules`.
tuning::Measurement measure_launch(cudaStream_t stream, const std::function<void(cudaStream_t)>& launch,
                                   std::optional<double> best_median_ms, const tuning::MeasureRules& rules = {});

/// The verification of docs/tune.md#offline-protocol on the device
/// (tuning::relative_max_difference's rule): max |output - reference| / max |reference| over n
/// floats of device memory, 0 when both are all zero, infinite when the output holds NaN/Inf where
/// the reference does not or differs from an all-zero reference. Synchronises `stream`.
double device_relative_max_difference(const float* reference, const float* output, std::size_t n,
                                      cudaStream_t stream);

} // namespace frost::cuda
