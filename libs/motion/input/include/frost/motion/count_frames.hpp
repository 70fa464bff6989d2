#pragma once
/// @file count_frames.hpp
/// @brief `--low-memory` (docs/movie_align.md#binning-and-memory): the selected frames of a movie
/// kept as their stored integer counts (8 or 16 bits a pixel instead of a float32 frame), each
/// corrected when a stage asks for it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/motion/movie_reader.hpp"

namespace frost::motion {

class CountFrames {
public:
  /// @brief The selected frames of `reader` as counts, read in parallel; with hot-pixel
  /// detection asked for, it runs first on the sum of the corrected frames, as in read_all().
  /// nullptr when the samples are not integers of at most 16 bits (float movies, 32-bit
  /// integers): use read_all(). `reader` must outlive the result.
  /// @throw frost::Error(Input) for unreadable frames or a decoded value that is not a count.
  static std::unique_ptr<CountFrames> read(MovieReader& reader);
  /// Bits a pixel read() would keep for `reader`'s movie: 8, 16, or 0 (read() gives nullptr).
  static int bits_for(const MovieReader& reader);

  index_t frame_count() const { return count_; }
  /// As MovieReader::frame_shape() (binned).
  Shape frame_shape() const { return reader_->frame_shape(); }
  int bits() const { return bytes_per_sample_ * 8; }
  /// Memory held by the counts.
  std::size_t bytes() const { return data_.size(); }

  /// @brief Frame t (0-based in the selection) decoded, dark/gain corrected, bad pixels replaced
  /// and binned into `out` (frame_shape().total() floats): read_all()'s item t, bit for bit.
  /// Thread-safe.
  void frame(index_t t, float* out) const;

private:
  enum class Kind { U8, I8, U16, I16 };
  CountFrames(const MovieReader& reader, Kind kind, index_t count, index_t pixels);
  void store(index_t t, const float* raw);
  /// Samples [at, at + n) of the store as floats.
  void decode(index_t at, index_t n, float* raw) const;

  const MovieReader* reader_;
  Kind kind_;
  int bytes_per_sample_;
  index_t count_, pixels_;
  std::vector<std::uint8_t> data_;
};

} // namespace frost::motion
