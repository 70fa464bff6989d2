#include "frost/motion/working_sizes.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "frost/core/error.hpp"

namespace frost::motion {

namespace {

index_t even_floor(index_t n) { return n - (n % 2); }

// Smallest even integer >= v (v > 0); the tolerance keeps exact products like 0.25·1024 exact.
index_t even_ceil(double v) {
  auto n = static_cast<index_t>(std::ceil(v - 1e-9));
  return n + (n % 2);
}

// The transformed window along one axis: the whole (even) axis, or the fast size below it.
index_t transform_length(index_t n, bool crop) {
  const index_t full = even_floor(n);
  if (!crop) return full;
  const index_t fast = previous_fast_even_size(full);
  return fast > 0 ? fast : full;
}

} // namespace

double target_pixel_size(double max_resolution) { return max_resolution / (8.0 * kLowpassConstant); }

void set_processing_pixel_size(GlobalSettings& gs, double pixel_size) {
  gs.pixel_size = pixel_size;
  if (gs.max_resolution_is_default) gs.max_resolution = std::max(gs.max_resolution, 7.0 * pixel_size);
}

double correlation_scale(double pixel_size, double max_resolution) {
  if (!(pixel_size > 0) || !(max_resolution > 0))
    throw_usage_error("pixel size and --maxResForCorrelation must be positive");
  const double k = pixel_size / target_pixel_size(max_resolution);
  if (k >= 1.0) {
    std::ostringstream m;
    m << "--maxResForCorrelation " << max_resolution << " A is too fine for the processing pixel size "
      << pixel_size << " A: the correlation scale k = " << k << " must be below 1 (R > 8c·Ts_b = "
      << 8.0 * kLowpassConstant * pixel_size << " A)";
    throw_usage_error(m.str());
  }
  return k;
}

bool is_seven_smooth(index_t n) {
  if (n < 1) return false;
  for (index_t p : {2, 3, 5, 7})
    while (n % p == 0) n /= p;
  return n == 1;
}

index_t next_fast_even_size(index_t n) {
  index_t m = std::max<index_t>(2, n + (n % 2));
  while (!is_seven_smooth(m)) m += 2;
  return m;
}

index_t previous_fast_even_size(index_t n) {
  for (index_t m = even_floor(n); m >= 2; m -= 2)
    if (is_seven_smooth(m)) return m;
  return 0;
}

WorkingSizes working_sizes(index_t width, index_t height, const GlobalSettings& settings) {
  if (width < 4 || height < 4)
    throw_usage_error("frames of " + std::to_string(width) + "x" + std::to_string(height) +
                      " pixels are too small for global alignment (at least 4x4)");
  if (!(settings.max_shift > 0)) throw_usage_error("--maxShift must be positive");
  WorkingSizes s;
  s.frame = {width, height};
  s.pixel_size = settings.pixel_size;
  s.max_resolution = settings.max_resolution;
  s.scale = correlation_scale(settings.pixel_size, settings.max_resolution);
  s.target_pixel = target_pixel_size(settings.max_resolution);

  s.transform = {transform_length(width, settings.crop_frames), transform_length(height, settings.crop_frames)};
  // The optional crop may remove at most 10 % of the pixels (Xmipp sigPercChange = 10).
  if (settings.crop_frames &&
      static_cast<double>(s.transform.x * s.transform.y) < 0.9 * static_cast<double>(width * height))
    s.transform = {even_floor(width), even_floor(height)};

  auto correlation_length = [&](index_t frame, index_t transform) {
    index_t c = even_ceil(s.scale * static_cast<double>(frame));
    if (settings.fft_sizes == FftSizeRule::Fast) c = next_fast_even_size(c);
    return std::max<index_t>(2, std::min(c, transform));
  };
  s.correlation = {correlation_length(width, s.transform.x), correlation_length(height, s.transform.y)};
  s.search_radius = settings.max_shift / settings.pixel_size * static_cast<double>(s.correlation.x) /
                    static_cast<double>(s.transform.x);
  return s;
}

std::string to_string(const WorkingSizes& s) {
  std::ostringstream o;
  o << "frame " << s.frame.x << "x" << s.frame.y << ", transform " << s.transform.x << "x" << s.transform.y
    << ", correlation " << s.correlation.x << "x" << s.correlation.y << ", k " << s.scale << ", Ts_c "
    << s.correlation_pixel_x() << "x" << s.correlation_pixel_y() << " A, search radius " << s.search_radius
    << " px";
  return o.str();
}

double lowpass_gain(double frequency, double max_resolution) {
  const double a = frequency * max_resolution / kLowpassConstant;
  return std::exp(-0.5 * a * a);
}

Image<float> lowpass_filter(const WorkingSizes& s) {
  const index_t cx = s.correlation.x, cy = s.correlation.y;
  Image<float> h(Shape::image(cx / 2 + 1, cy));
  // Physical frequency of correlation index k is k / (M·Ts_b): the crop keeps the frame's frequencies.
  const double fx_step = 1.0 / (static_cast<double>(s.transform.x) * s.pixel_size);
  const double fy_step = 1.0 / (static_cast<double>(s.transform.y) * s.pixel_size);
  for (index_t y = 0; y < cy; ++y) {
    const double fy = static_cast<double>(y <= cy / 2 ? y : y - cy) * fy_step;
    for (index_t x = 0; x <= cx / 2; ++x) {
      const double fx = static_cast<double>(x) * fx_step;
      h(x, y) = static_cast<float>(lowpass_gain(std::sqrt(fx * fx + fy * fy), s.max_resolution));
    }
  }
  return h;
}

} // namespace frost::motion
