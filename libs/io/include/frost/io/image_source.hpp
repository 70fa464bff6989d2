#pragma once
/// @file image_source.hpp
/// @brief A file opened once, from which any item (image, frame or volume) is decoded on demand.
#include "frost/core/image.hpp"
#include "frost/io/image_info.hpp"

namespace frost::io {

/// @brief Streaming access to the items of an image file without loading the whole file.
///
/// Implemented by MrcReader, TiffReader and EmanHdfReader. `read` is safe to call from several
/// threads at once (each call decodes into the caller's buffer), so movie frames can be decoded
/// in parallel.
class ImageSource {
public:
  virtual ~ImageSource() = default;
  ImageSource() = default;
  ImageSource(const ImageSource&) = delete;
  ImageSource& operator=(const ImageSource&) = delete;

  /// @brief Facts about the file; info().shape.n is the number of items.
  virtual const ImageInfo& info() const = 0;
  /// @brief Decodes item `index` (0-based) into `out`, which holds item_shape().total() floats.
  virtual void read(index_t index, float* out) const = 0;
  /// @brief Decodes items [first, first + count) into `out`, one after the other.
  virtual void read_range(index_t first, index_t count, float* out) const;

  /// @brief Number of items (images, frames or volumes).
  index_t count() const { return info().shape.n; }
  /// @brief Shape of one item (n = 1).
  Shape item_shape() const { return info().shape.item(); }
  /// @brief One item as an owning image.
  Image<float> read(index_t index) const;
  /// @brief Items [first, first + count) as one stack.
  Image<float> read_range(index_t first, index_t count) const;
  /// @brief Every item.
  Image<float> read_all() const { return read_range(0, count()); }

protected:
  /// @brief Input error naming the file when `index` is outside [0, count()).
  void check_index(index_t index) const;
};

} // namespace frost::io
