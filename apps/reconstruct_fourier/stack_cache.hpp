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

private:
  std::shared_ptr<io::ImageSource> source(const std::string& path, const recon::ParticleRecord& p);
  std::string metadata_path_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<io::ImageSource>> sources_;
};

} // namespace frost::app
