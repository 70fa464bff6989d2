#pragma once
/// @file stack_cache.hpp
/// @brief Thread-safe image loading for the reconstruction loaders: each stack file is opened
/// once and shared (ImageSource::read is safe from several threads); errors name the file, the
/// image index and the metadata row.
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "frost/core/image.hpp"
#include "frost/io/image_source.hpp"
#include "frost/reconstruction/particle.hpp"

namespace frost::app {

class StackCache {
public:
  explicit StackCache(std::string metadata_path) : metadata_path_(std::move(metadata_path)) {}
  /// Reads the image of `p` into `out` (resized when needed).
  void load(const recon::ParticleRecord& p, Image<float>& out);
  /// Shape of one image of the first particle's stack (used to learn the box before loading).
  Shape item_shape(const recon::ParticleRecord& p);

  /// Largest pixel magnitude accepted. The transforms and sums of the reconstruction are single
  /// precision: an image's Fourier coefficients reach the sum of its |pixels|, and the inverse
  /// 3-D transform sums up to P^3 voxels of those; below 1e20 both stay far from 3.4e38 for
  /// boxes to 1024 px and millions of images, while a few pixels near 3e38 made all-NaN maps.
  static constexpr float kMaxPixelMagnitude = 1e20f;

private:
  /// frost::Error(Input) naming the stack, the image and the metadata row for a pixel that is not
  /// finite or beyond kMaxPixelMagnitude.
  void check_values(const Image<float>& image, const std::string& path, index_t index,
                    const recon::ParticleRecord& p) const;
  std::shared_ptr<io::ImageSource> source(const std::string& path, const recon::ParticleRecord& p);
  std::string metadata_path_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<io::ImageSource>> sources_;
};

} // namespace frost::app
