#include "cpu_space_queue.hpp"

#include "frost/core/error.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

void CpuSpaceQueue::append(const SampleBatch& batch) {
  const SampleView v = batch.view();
  if (spaces_.empty()) {
    fx_ = v.fx;
    fy_ = v.fy;
    M_ = v.M;
    with_gw_ = v.gw != nullptr;
  }
  FROST_EXPECTS(v.fx == fx_ && v.fy == fy_ && v.M == M_ && (v.gw != nullptr) == with_gw_,
                "CpuSpaceQueue: batches of one queue share their layout");
  const std::size_t pixels = std::size_t(fx_) * fy_;
  const std::size_t n = std::size_t(batch.size()) * pixels;
  spectra_.insert(spectra_.end(), v.spectra, v.spectra + n);
  if (with_gw_) gw_.insert(gw_.end(), v.gw, v.gw + n);
  const TraverseSpace* ts = batch.spaces();
  for (int s = 0; s < batch.space_count(); ++s) {
    TraverseSpace t = ts[s];
    t.projection_index += slots_;
    spaces_.push_back(t);
  }
  slots_ += batch.size();
  last_bytes_ = n * (sizeof(Cf) + (with_gw_ ? sizeof(Real) : 0));
}

bool CpuSpaceQueue::full() const {
  const std::size_t held = spectra_.size() * sizeof(Cf) + gw_.size() * sizeof(Real);
  return held + last_bytes_ > max_bytes_;
}

SampleView CpuSpaceQueue::view() const {
  SampleView v;
  v.spectra = spectra_.data();
  v.gw = with_gw_ ? gw_.data() : nullptr;
  v.fx = fx_;
  v.fy = fy_;
  v.M = M_;
  return v;
}

void CpuSpaceQueue::clear() {
  spectra_.clear();
  gw_.clear();
  spaces_.clear();
  slots_ = 0;
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
