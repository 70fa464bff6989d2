#pragma once
/// @file tune_target.hpp
/// @brief One tunable kernel on one preset problem, as the offline protocol
/// (docs/tune.md#offline-protocol) sees it: its space and problem key, one timed launch of a
/// configuration and the check of a configuration's output against the reference (the default
/// configuration's). The targets run on a CUDA GPU: make_tune_target is the seam
/// (docs/tune.md#the-program-frost_tune), target frost::tuning_targets.
#include <memory>
#include <string>
#include <vector>

#include "frost/tuning/geometry.hpp"
#include "frost/tuning/kernel_spaces.hpp"
#include "frost/tuning/key.hpp"

namespace frost::tuning {

class TuneTarget {
public:
  virtual ~TuneTarget() = default;
  virtual const KernelSpace& space() const = 0;
  /// The cache key of this kernel, problem and device (docs/tune.md#key).
  virtual const TuningKey& key() const = 0;
  /// One line for the table header: the problem in words.
  virtual std::string describe() const = 0;
  /// Verification tolerance (step 1 of docs/tune.md#offline-protocol; order-aware for accumulating kernels).
  virtual double tolerance() const = 0;
  /// One launch of `config`, timed with CUDA events, in ms; throws when it cannot run.
  virtual double sample_ms(const NamedConfig& config) = 0;
  /// max |out - ref| / max |ref| of one launch of `config` against the reference output.
  virtual double difference(const NamedConfig& config) = 0;
  /// GPU UUID for the record.
  virtual std::string gpu_uuid() const = 0;
};

/// Kernels frost_tune can run, and the presets of each (docs/tune.md#the-program-frost_tune: the
/// executables' shapes); presets_of throws frost::Error(Usage) for an unknown kernel.
std::vector<std::string> tunable_kernels();
std::vector<std::string> presets_of(const std::string& kernel);

/// The target for `kernel` on `preset` on CUDA device `device`; frost::Error(Usage) for an
/// unknown kernel or preset, frost::Error(Device) in a build without CUDA.
std::unique_ptr<TuneTarget> make_tune_target(const std::string& kernel, const std::string& preset, int device);

/// The limits of CUDA device `device` for the spaces' constraints; frost::Error(Device) in a
/// build without CUDA.
DeviceLimits gpu_device_limits(int device);

namespace detail {
/// The GPU halves of the two above: defined by cuda/tuning (frost_cuda_tuning_targets), or by
/// tune_targets_unavailable.cpp in a build without CUDA. The kernel name is already checked.
std::unique_ptr<TuneTarget> make_cuda_tune_target(const std::string& kernel, const std::string& preset, int device);
DeviceLimits cuda_device_limits(int device);
} // namespace detail

} // namespace frost::tuning
