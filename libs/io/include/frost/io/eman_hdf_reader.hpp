#pragma once
/// @file eman_hdf_reader.hpp
/// @brief EMAN2 `.hdf` image stacks, read-only (docs/formats.md#hdf5). Needs the HDF5 C library.
#include <memory>
#include <string>

#include "frost/io/image_source.hpp"

namespace frost::io {

/// @brief True when frost was built with HDF5.
bool hdf5_supported();

/// @brief An EMAN2 HDF5 image file: image i (0-based) is the dataset `/MDF/images/<i>/image`,
/// stored [ny][nx] (2-D) or [nz][ny][nx] (3-D), any numeric type (converted to float).
///
/// Pixel size comes from the attribute `EMAN.apix_x` (and `_y`, `_z`) of the group
/// `/MDF/images/<i>` or of the dataset, when present. All images must have the size of image 0.
/// A file without that layout (e.g. NeXus) is an Input error naming the file. HDF5 calls are
/// serialised internally (the system library is not thread-safe). Without HDF5 the constructor
/// throws an Input error "built without HDF5 support".
class EmanHdfReader final : public ImageSource {
public:
  explicit EmanHdfReader(const std::string& path);
  ~EmanHdfReader() override;

  const ImageInfo& info() const override;
  void read(index_t index, float* out) const override;
  using ImageSource::read;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace frost::io
