#pragma once
/// @file particle_images.hpp
/// @brief The images of the particle rows for the reconstruction loaders (thread-safe): read from
/// the stacks through io::StackSource (each stack opened once and shared) and checked; errors
/// name the file, the image index and the metadata row.
#include <string>

#include "frost/core/image.hpp"
#include "frost/io/stack_source.hpp"
#include "frost/reconstruction/particle.hpp"

namespace frost::app {

class ParticleImages {
public:
  explicit ParticleImages(std::string metadata_path) : stacks_(std::move(metadata_path)) {}
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
  io::StackSource stacks_;
};

} // namespace frost::app
