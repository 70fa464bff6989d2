#pragma once
/// @file backend.hpp
/// @brief The backend interface of the all-pairs aligner: one algorithm
/// (docs/align_significant.md#the-per-pair-estimator), a CPU implementation here (FFTW + threads)
/// and a CUDA one (cuda/alignment, frost::cuda_alignment), chosen at run time by `--device` through
/// make_alignment_backend (target frost::alignment_backend; docs/align_significant.md#backends).
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frost/alignment/settings.hpp"
#include "frost/core/device.hpp"
#include "frost/core/image.hpp"

namespace frost::align {

/// Called after each finished block of pairs with the number of pairs done so far (progress).
using PairsDone = std::function<void(std::size_t done)>;

/// @brief Aligns every image of a stack to every reference of another.
///
/// Implementations must give the same result for a pair whatever the batching, thread count or
/// block size (docs/align_significant.md#determinism-and-precision).
class AlignmentBackend {
public:
  virtual ~AlignmentBackend() = default;
  /// "cpu: 2 threads, FFTW ..." style one-liner.
  virtual std::string describe() const = 0;

  /// @brief results[r · n_img + i] = pose and CC of image i against reference r.
  /// Both stacks hold square images of one even size (checked: frost::Error(Runtime)).
  virtual void align_all(View<const float> references, View<const float> images, const AlignSettings& settings,
                         PairResult* results, const PairsDone& progress = {}) = 0;
};

/// @brief The CPU backend (FFTW plans with one thread each, pairs spread over `threads` OpenMP
/// threads; 0 = frost::num_threads()).
std::unique_ptr<AlignmentBackend> make_cpu_backend(int threads = 0);

/// What the backends take besides the devices (each ignores the other's).
struct AlignmentBackendOptions {
  int cpu_threads = 0;          ///< CPU: OpenMP threads (0 = frost::num_threads())
  double memory_fraction = 0.8; ///< GPU: `--gpu-mem-fraction`, share of the device's free memory
  int max_batch = 0;            ///< GPU: upper bound of the images per batch (`--batch`); 0 = the backend's
  /// GPU: upper bound of the references prepared and resident at once, below the backend's own
  /// (tests force several reference blocks with it); 0 = the backend's
  int max_reference_block = 0;
};

/// @brief The backend for `devices`: the CPU's for `devices.cpu`, else the CUDA one on every id
/// of `devices.gpus` (references split over them; the caller picks this MPI rank's ids).
/// frost::Error(Device) when GPUs are asked for and frost was built without CUDA.
std::unique_ptr<AlignmentBackend> make_alignment_backend(const DeviceSelection& devices,
                                                         const AlignmentBackendOptions& options = {});

namespace detail {
/// The GPU half of make_alignment_backend: defined by cuda/alignment, or by
/// alignment_backend_unavailable.cpp in a build without CUDA.
std::unique_ptr<AlignmentBackend> make_cuda_alignment_backend(const std::vector<int>& gpus,
                                                              const AlignmentBackendOptions& options);
} // namespace detail

} // namespace frost::align
