#include "stack_cache.hpp"

#include <cmath>
#include <cstdio>

#include "frost/core/error.hpp"
#include "frost/io/image_io.hpp"
#include "frost/metadata/image_location.hpp"

namespace frost::app {

std::shared_ptr<io::ImageSource> StackCache::source(const std::string& path, const recon::ParticleRecord& p) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = sources_.find(path);
  if (it != sources_.end()) return it->second;
  try {
    std::shared_ptr<io::ImageSource> s = io::open_image_source(path);
    sources_.emplace(path, s);
    return s;
  } catch (const Error& e) {
    throw Error(e.code(), std::string(e.what()) + " (image of " + metadata_path_ + " row " +
                              std::to_string(p.row + 1) + ")");
  }
}

Shape StackCache::item_shape(const recon::ParticleRecord& p) {
  const meta::ImageLocation loc = meta::parse_image_location(p.image);
  return source(loc.path, p)->item_shape();
}

void StackCache::load(const recon::ParticleRecord& p, Image<float>& out) {
  const meta::ImageLocation loc = meta::parse_image_location(p.image);
  auto s = source(loc.path, p);
  const index_t index = loc.has_index() ? static_cast<index_t>(loc.index) - 1 : 0;
  if (index >= s->count())
    throw_input_error(loc.path, "image " + std::to_string(index + 1) + " requested by " + metadata_path_ + " row " +
                                    std::to_string(p.row + 1) + " but the file holds " + std::to_string(s->count()));
  const Shape item = s->item_shape();
  if (item.z != 1)
    throw_input_error(loc.path, "holds volumes, not particle images (" + metadata_path_ + " row " +
                                    std::to_string(p.row + 1) + ")");
  if (out.shape() != item) out = Image<float>(item);
  s->read(index, out.data());
  check_values(out, loc.path, index, p);
}

void StackCache::check_values(const Image<float>& image, const std::string& path, index_t index,
                              const recon::ParticleRecord& p) const {
  for (index_t i = 0; i < image.size(); ++i) {
    const float v = image[i];
    if (std::abs(v) <= kMaxPixelMagnitude) continue; // (false for NaN)
    char value[32];
    std::snprintf(value, sizeof value, "%g", static_cast<double>(v));
    const index_t nx = image.shape().x;
    throw_input_error(path, "image " + std::to_string(index + 1) + " (" + metadata_path_ + " row " +
                                std::to_string(p.row + 1) + "): pixel (" + std::to_string(i % nx) + ", " +
                                std::to_string(i / nx) + ") is " + value +
                                (std::isfinite(v) ? "; values beyond +-1e20 can overflow the reconstruction's "
                                                    "single-precision sums"
                                                  : ""));
  }
}

} // namespace frost::app
