#pragma once
// Spaces of several batches held back for one pass of the brick walk
// (docs/reconstruct_fourier.md#the-cpu-gather-kernel): every pass streams the touched part of
// the cube through the caches once, so fewer, larger passes move less memory.
#include <cstddef>
#include <vector>

#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/sample_batch.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

class CpuSpaceQueue {
public:
  /// Holds at most `max_bytes` of spectra (and weight factors), and at least one batch.
  explicit CpuSpaceQueue(std::size_t max_bytes) : max_bytes_(max_bytes) {}
  /// Copies the batch's samples and spaces (their slots renumbered after those already held).
  void append(const SampleBatch& batch);
  /// True when another batch like the last one would not fit.
  bool full() const;
  bool empty() const { return spaces_.empty(); }
  SampleView view() const;
  const std::vector<TraverseSpace>& spaces() const { return spaces_; }
  void clear();

private:
  std::size_t max_bytes_;
  std::size_t last_bytes_ = 0;
  int slots_ = 0, fx_ = 0, fy_ = 0, M_ = 0;
  bool with_gw_ = false;
  std::vector<Cf> spectra_;
  std::vector<Real> gw_;
  std::vector<TraverseSpace> spaces_;
};

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
