#pragma once
/// @file bad_pixels.hpp
/// @brief Hot-pixel detection on the unaligned sum and replacement of every bad pixel in every
/// frame (docs/movie_align.md#gain-dark-defects-and-hot-pixels, docs/formats.md#defects-and-hot-pixels).
///
/// A bad pixel of frame t takes the value of a good pixel drawn at random from its (2D+1)^2
/// window (D = 2, or 4 for EER) when more than 6 good pixels are there, else a Gaussian draw
/// with the mean and standard deviation of the frame's good pixels. The draws come from a
/// counter-based generator keyed by (seed, absolute frame number, pixel index), so the result
/// depends on neither the thread count nor the order in which frames or pixels are processed.
#include <cstdint>
#include <vector>

#include "frost/core/image.hpp"

namespace frost::motion {

/// @brief What hot-pixel detection found.
struct HotPixelReport {
  double mean = 0, sigma = 0; ///< statistics of the sum over pixels not already bad
  double threshold = 0;       ///< mean + k·sigma
  index_t count = 0;          ///< pixels newly marked kHotPixel
};

/// @brief Marks pixels of the unaligned `sum` above mean + k·sigma as kHotPixel in `mask`
/// (pixels already bad are neither counted in the statistics nor re-marked). Deterministic:
/// sums are accumulated in double in a fixed order.
HotPixelReport detect_hot_pixels(View<const float> sum, double k, Image<std::uint8_t>& mask);

/// @brief Pixel-independent random numbers: a hash of (seed, frame, pixel, stream).
std::uint64_t bad_pixel_hash(std::uint64_t seed, index_t frame, index_t pixel, unsigned stream);

/// @brief Replaces the bad pixels of frames (see the file comment).
class BadPixelFiller {
public:
  /// `radius` is D; the neighbour lists are built once here.
  BadPixelFiller(View<const std::uint8_t> mask, int radius, std::uint64_t seed);

  /// @brief Replaces every bad pixel of `frame` (mask-sized); `frame_number` is the absolute
  /// movie frame, which keys the random draws.
  void fill(float* frame, index_t frame_number) const;

  index_t bad_count() const { return static_cast<index_t>(bad_.size()); }
  /// Bad pixels that had too few good neighbours and get Gaussian values.
  index_t isolated_count() const { return isolated_; }
  bool empty() const { return bad_.empty(); }

private:
  index_t width_ = 0, height_ = 0;
  std::uint64_t seed_ = 0;
  std::vector<index_t> bad_;          ///< linear indices, ascending
  std::vector<index_t> first_;        ///< neighbours of bad_[i]: good_[first_[i] .. first_[i+1])
  std::vector<index_t> good_;         ///< linear indices of good neighbours
  std::vector<std::uint8_t> good_mask_; ///< 1 = good, to compute frame statistics
  index_t isolated_ = 0;
};

} // namespace frost::motion
