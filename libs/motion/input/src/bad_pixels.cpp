#include "frost/motion/bad_pixels.hpp"

#include <cmath>

#include "frost/core/error.hpp"
#include "frost/motion/defects.hpp"

namespace frost::motion {

namespace {

/// Minimum number of good neighbours to copy one instead of drawing from a Gaussian.
constexpr index_t kMinGoodNeighbours = 7;

std::uint64_t mix64(std::uint64_t x) {
  // The splitmix64 finaliser: a bijection that spreads every input bit over the output.
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Uniform in (0, 1], never 0 so that log() is finite.
double unit_open(std::uint64_t h) { return (double((h >> 11) + 1)) * (1.0 / 9007199254740992.0); }

} // namespace

std::uint64_t bad_pixel_hash(std::uint64_t seed, index_t frame, index_t pixel, unsigned stream) {
  std::uint64_t h = mix64(seed);
  h = mix64(h ^ static_cast<std::uint64_t>(frame));
  h = mix64(h ^ static_cast<std::uint64_t>(pixel));
  return mix64(h ^ stream);
}

HotPixelReport detect_hot_pixels(View<const float> sum, double k, Image<std::uint8_t>& mask) {
  FROST_EXPECTS(sum.shape.total() == mask.size(), "sum and mask sizes differ");
  const index_t w = sum.shape.x, h = sum.shape.y;
  // Row partial sums first (parallel), then their total in row order: the same result for any
  // thread count.
  std::vector<double> row_sum(static_cast<std::size_t>(h)), row_sq(static_cast<std::size_t>(h));
  std::vector<index_t> row_n(static_cast<std::size_t>(h));
#pragma omp parallel for schedule(static)
  for (index_t y = 0; y < h; ++y) {
    double s = 0, q = 0;
    index_t n = 0;
    for (index_t x = 0; x < w; ++x) {
      const index_t i = y * w + x;
      if (mask[i] != kGoodPixel) continue;
      s += sum[i];
      q += double(sum[i]) * sum[i];
      ++n;
    }
    row_sum[std::size_t(y)] = s;
    row_sq[std::size_t(y)] = q;
    row_n[std::size_t(y)] = n;
  }
  double s = 0, q = 0;
  index_t n = 0;
  for (index_t y = 0; y < h; ++y) {
    s += row_sum[std::size_t(y)];
    q += row_sq[std::size_t(y)];
    n += row_n[std::size_t(y)];
  }
  HotPixelReport r;
  if (n == 0) return r;
  r.mean = s / double(n);
  r.sigma = std::sqrt(std::max(0.0, q / double(n) - r.mean * r.mean));
  r.threshold = r.mean + k * r.sigma;
  for (index_t i = 0; i < mask.size(); ++i)
    if (mask[i] == kGoodPixel && double(sum[i]) > r.threshold) {
      mask[i] = kHotPixel;
      ++r.count;
    }
  return r;
}

BadPixelFiller::BadPixelFiller(View<const std::uint8_t> mask, int radius, std::uint64_t seed)
    : width_(mask.shape.x), height_(mask.shape.y), seed_(seed) {
  FROST_EXPECTS(radius >= 1, "bad-pixel window radius must be >= 1");
  const index_t n = width_ * height_;
  good_mask_.resize(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    good_mask_[std::size_t(i)] = mask[i] == kGoodPixel;
    if (mask[i] != kGoodPixel) bad_.push_back(i);
  }
  first_.reserve(bad_.size() + 1);
  first_.push_back(0);
  for (index_t b : bad_) {
    const index_t bx = b % width_, by = b / width_;
    const index_t start = static_cast<index_t>(good_.size());
    for (index_t y = std::max<index_t>(0, by - radius); y <= std::min(height_ - 1, by + radius); ++y)
      for (index_t x = std::max<index_t>(0, bx - radius); x <= std::min(width_ - 1, bx + radius); ++x)
        if (good_mask_[std::size_t(y * width_ + x)]) good_.push_back(y * width_ + x);
    if (static_cast<index_t>(good_.size()) - start < kMinGoodNeighbours) {
      good_.resize(static_cast<std::size_t>(start)); // too few: a Gaussian draw instead
      ++isolated_;
    }
    first_.push_back(static_cast<index_t>(good_.size()));
  }
}

void BadPixelFiller::fill(float* frame, index_t frame_number) const {
  if (bad_.empty()) return;
  // Mean and standard deviation of the good pixels, only when some pixel needs them.
  double mean = 0, sigma = 0;
  if (isolated_ > 0) {
    double s = 0, q = 0;
    index_t n = 0;
    for (index_t i = 0; i < width_ * height_; ++i)
      if (good_mask_[std::size_t(i)]) {
        s += frame[i];
        q += double(frame[i]) * frame[i];
        ++n;
      }
    if (n > 0) {
      mean = s / double(n);
      sigma = std::sqrt(std::max(0.0, q / double(n) - mean * mean));
    }
  }
  // Good pixels are never written, so every replacement reads original values.
  for (std::size_t b = 0; b < bad_.size(); ++b) {
    const index_t pixel = bad_[b];
    const index_t lo = first_[b], count = first_[b + 1] - lo;
    if (count > 0) {
      const std::uint64_t h = bad_pixel_hash(seed_, frame_number, pixel, 0);
      frame[pixel] = frame[good_[std::size_t(lo + static_cast<index_t>(h % std::uint64_t(count)))]];
    } else {
      const double u1 = unit_open(bad_pixel_hash(seed_, frame_number, pixel, 1));
      const double u2 = unit_open(bad_pixel_hash(seed_, frame_number, pixel, 2));
      const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
      frame[pixel] = static_cast<float>(mean + sigma * z);
    }
  }
}

} // namespace frost::motion
