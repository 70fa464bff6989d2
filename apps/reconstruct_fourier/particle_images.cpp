#include "particle_images.hpp"

#include <cmath>
#include <cstdio>

#include "frost/core/error.hpp"
#include "frost/metadata/image_location.hpp"

namespace frost::app {

Shape ParticleImages::item_shape(const recon::ParticleRecord& p) {
  const meta::ImageLocation loc = meta::parse_image_location(p.image);
  return stacks_.file(loc.path, p.row)->item_shape();
}

void ParticleImages::load(const recon::ParticleRecord& p, Image<float>& out) {
  const meta::ImageLocation loc = meta::parse_image_location(p.image);
  auto s = stacks_.file(loc.path, p.row);
  const index_t index = loc.has_index() ? static_cast<index_t>(loc.index) - 1 : 0;
  const std::string row = stacks_.metadata() + " row " + std::to_string(p.row + 1);
  io::StackSource::check_index(*s, loc.path, index, row);
  const Shape item = s->item_shape();
  if (item.z != 1) throw_input_error(loc.path, "holds volumes, not particle images (" + row + ")");
  if (out.shape() != item) out = Image<float>(item);
  s->read(index, out.data());
  check_values(out, loc.path, index, p);
}

void ParticleImages::check_values(const Image<float>& image, const std::string& path, index_t index,
                                  const recon::ParticleRecord& p) const {
  for (index_t i = 0; i < image.size(); ++i) {
    const float v = image[i];
    if (std::abs(v) <= kMaxPixelMagnitude) continue; // (false for NaN)
    char value[32];
    std::snprintf(value, sizeof value, "%g", static_cast<double>(v));
    const index_t nx = image.shape().x;
    throw_input_error(path, "image " + std::to_string(index + 1) + " (" + stacks_.metadata() + " row " +
                                std::to_string(p.row + 1) + "): pixel (" + std::to_string(i % nx) + ", " +
                                std::to_string(i / nx) + ") is " + value +
                                (std::isfinite(v) ? "; values beyond +-1e20 can overflow the reconstruction's "
                                                    "single-precision sums"
                                                  : ""));
  }
}

} // namespace frost::app
