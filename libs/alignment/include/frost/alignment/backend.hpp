#pragma once
/// @file backend.hpp
/// @brief The backend interface of the all-pairs aligner: one algorithm
/// (docs/align_significant.md#the-per-pair-estimator), a CPU implementation here (FFTW + threads)
/// and a CUDA one (cuda/alignment, frost::cuda_alignment), chosen at run time by `--device`.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "frost/alignment/settings.hpp"
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

} // namespace frost::align
