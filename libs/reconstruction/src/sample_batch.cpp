#include "frost/reconstruction/sample_batch.hpp"

#include "frost/core/error.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

SampleBatch::SampleBatch(const GridLayout& layout, int capacity, int symmetries, bool with_gw,
                         HostMemory memory, bool images)
    : layout_(layout), capacity_(capacity), symmetries_(symmetries), with_gw_(with_gw), images_(images),
      spectra_(images ? 0 : std::size_t(capacity) * layout.fx * layout.fy, memory),
      raw_(images ? std::size_t(capacity) * layout.box * layout.box : 0, memory),
      shifts_(images ? 2 * std::size_t(capacity) : 0, memory),
      gf_(images && with_gw ? std::size_t(capacity) * layout.fx * layout.fy : 0, memory),
      gw_(with_gw ? std::size_t(capacity) * layout.fx * layout.fy : 0, memory),
      spaces_(std::size_t(capacity) * symmetries, memory) {
  FROST_EXPECTS(capacity > 0 && symmetries > 0, "capacity > 0 && symmetries > 0");
}

void SampleBatch::set_size(int n) {
  FROST_EXPECTS(n >= 0 && n <= capacity_, "n >= 0 && n <= capacity_");
  size_ = n;
}

SampleView SampleBatch::view() const {
  SampleView v;
  v.spectra = reinterpret_cast<const Cf*>(spectra_.data());
  v.gw = with_gw_ ? gw_.data() : nullptr;
  v.fx = layout_.fx;
  v.fy = layout_.fy;
  v.M = layout_.M;
  return v;
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
