#pragma once
/// @file mrc_writer.hpp
/// @brief MRC2014 writer: items appended one at a time, header patched at commit, file atomic.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frost/core/atomic_file.hpp"
#include "frost/core/image.hpp"
#include "frost/io/image_info.hpp"
#include "frost/io/mrc_header.hpp"

namespace frost::io {

/// @brief What to write and how (docs/formats.md#what-frost-writes).
struct MrcWriteOptions {
  MrcMode mode = MrcMode::Float32; ///< 2 by default, 12 for `--float16`; 0/1/6/101 for integer data
  /// Empty: chosen at commit: one 2-D item is an image (a stack of one if the name ends in
  /// .mrcs/.st), several 2-D items a stack, one 3-D item a volume, several a volume stack.
  /// Content::Volume with 2-D items writes the items as the sections of one volume.
  std::optional<Content> content;
  double pixel_size = 0;   ///< A/pixel; 0 writes cella = 0 (unknown)
  std::array<float, 3> origin_A{0, 0, 0};
  std::array<std::int32_t, 3> start{0, 0, 0}; ///< nxstart, nystart, nzstart
  std::string label;       ///< the one label; "" gives "frost <version>"
};

/// @brief Writes an MRC file incrementally; nothing appears at `path` until commit().
///
/// Little endian, stamp 44 44 00 00, `MAP `, nversion 20141, mapc/mapr/maps 1,2,3, cellb 90,
/// mx/my = nx/ny, cella = m * pixel size; dmin/dmax/dmean/rms are computed over the stored
/// values (after conversion to the file's mode).
class MrcWriter {
public:
  /// @param item_shape shape of one appended item (x, y, z; n is ignored)
  MrcWriter(const std::string& path, Shape item_shape, const MrcWriteOptions& options = {});
  ~MrcWriter();
  MrcWriter(const MrcWriter&) = delete;
  MrcWriter& operator=(const MrcWriter&) = delete;

  /// @brief Appends one item of item_shape().
  void append(const float* item);
  /// @brief Appends every item of `items` (its item shape must equal item_shape()).
  void append(View<const float> items);
  /// @brief Writes the final header and moves the file into place. At least one item is needed.
  void commit();

  index_t count() const { return count_; }
  Shape item_shape() const { return item_; }
  const std::string& path() const { return file_.path(); }

private:
  MrcHeader final_header() const;

  AtomicFile file_;
  Shape item_;
  MrcWriteOptions options_;
  index_t count_ = 0;
  std::vector<unsigned char> encoded_;
  std::vector<float> stored_;
  // Running statistics of the stored values (Chan et al. pairwise merge of per-item moments).
  double min_ = 0, max_ = 0, mean_ = 0, m2_ = 0;
  double values_ = 0;
};

/// @brief Writes a whole image, stack, volume or volume stack in one call.
void write_mrc(const std::string& path, View<const float> data, const MrcWriteOptions& options = {});
/// @brief Same, from an owning image.
inline void write_mrc(const std::string& path, const Image<float>& data, const MrcWriteOptions& options = {}) {
  write_mrc(path, data.cview(), options);
}

} // namespace frost::io
