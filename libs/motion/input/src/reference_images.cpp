#include "frost/motion/reference_images.hpp"

#include <cmath>

#include "frost/core/finite.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/image_ref.hpp"

namespace frost::motion {

namespace {

std::string size_text(index_t w, index_t h) { return std::to_string(w) + "x" + std::to_string(h); }

Image<float> read_reference(const std::string& path, bool tiff_flip_y, const std::string& what) {
  io::ReadOptions ro;
  ro.expect = io::Expect::Image;
  ro.tiff_flip_y = tiff_flip_y;
  io::LoadedImage loaded = io::read_image(path, ro);
  if (loaded.image.shape().z != 1)
    throw_input_error(path, "the " + what + " must be a 2-D image, not a " + to_string(loaded.image.shape()) + " volume");
  check_finite(loaded.image.cview(), what, path);
  return std::move(loaded.image);
}

} // namespace

bool is_thermo_gain_file(const std::string& path) { return io::file_extension(path) == "gain"; }

void check_finite(View<const float> image, const std::string& what, const std::string& path) {
  const index_t i = find_non_finite(image).first;
  if (i < 0) return;
  const index_t w = image.shape.x;
  throw_input_error(path, "the " + what + " holds " + (std::isnan(image[i]) ? "NaN" : "Inf") + " at pixel (" +
                              std::to_string(i % w) + ", " + std::to_string(i / w) + ")");
}

void check_gain_values(View<const float> gain, const std::string& path) {
  const index_t n = gain.shape.total(), w = gain.shape.x;
  index_t negative = 0, positive = 0, first = -1;
  for (index_t i = 0; i < n; ++i) {
    if (gain[i] < 0.0f && negative++ == 0) first = i;
    if (gain[i] > 0.0f) ++positive;
  }
  if (negative > 0)
    throw_input_error(path, "the gain reference holds " + std::to_string(negative) + " negative value(s), the first " +
                                std::to_string(gain[first]) + " at pixel (" + std::to_string(first % w) + ", " +
                                std::to_string(first / w) + "): a gain multiplies the counts and is never negative");
  if (positive == 0)
    throw_input_error(path, "the gain reference is zero everywhere: every pixel would be a defect and the micrograph "
                            "zero");
}

void check_reference_size(const std::string& what, const std::string& path, index_t width, index_t height,
                          index_t frame_width, index_t frame_height, const GainTransform& transform) {
  if (width == frame_width && height == frame_height) return;
  std::string msg = "the " + what + " is " + size_text(width, height) + " after " + transform.describe() +
                    " but the frames are " + size_text(frame_width, frame_height);
  if (width == frame_height && height == frame_width) {
    const int a = (transform.rotation + 1) % 4, b = (transform.rotation + 3) % 4;
    msg += "; try --gain-rot " + std::to_string(std::min(a, b)) + " (or " + std::to_string(std::max(a, b)) +
           ": the sizes cannot tell which way)";
  } else if ((2 * width == frame_width && 2 * height == frame_height) || (2 * width == frame_height && 2 * height == frame_width)) {
    msg += "; the " + what + " is half the frame size (a counting-mode reference for super-resolution frames?)";
  } else if ((width == 2 * frame_width && height == 2 * frame_height) || (width == 2 * frame_height && height == 2 * frame_width)) {
    msg += "; the " + what + " is twice the frame size (a super-resolution reference for counting-mode frames?)";
  } else {
    msg += "; no rotation makes the sizes agree";
  }
  throw_input_error(path, msg);
}

Image<float> eer_counts_to_gain(View<const float> counts) {
  const index_t n = counts.shape.total();
  double sum = 0;
  index_t nonzero = 0;
  for (index_t i = 0; i < n; ++i)
    if (counts[i] != 0.0f) {
      sum += counts[i];
      ++nonzero;
    }
  const double mean = nonzero > 0 ? sum / double(nonzero) : 0.0;
  Image<float> gain(counts.shape);
  for (index_t i = 0; i < n; ++i) gain[i] = counts[i] != 0.0f ? static_cast<float>(mean / counts[i]) : 0.0f;
  return gain;
}

Image<float> resize_eer_reference(View<const float> ref, index_t frame_width, index_t frame_height, bool sum_blocks,
                                  const std::string& path) {
  const index_t w = ref.shape.x, h = ref.shape.y;
  if (w == frame_width && h == frame_height) {
    Image<float> same(ref.shape);
    std::copy(ref.data, ref.data + ref.shape.total(), same.data());
    return same;
  }
  for (index_t f : {index_t(2), index_t(4)}) {
    if (w * f == frame_width && h * f == frame_height) { // finer render grid: replicate
      Image<float> out(Shape::image(frame_width, frame_height));
      for (index_t y = 0; y < frame_height; ++y)
        for (index_t x = 0; x < frame_width; ++x) out(x, y) = ref(x / f, y / f);
      return out;
    }
    if (frame_width * f == w && frame_height * f == h) { // coarser render grid: combine blocks
      Image<float> out(Shape::image(frame_width, frame_height));
      const float scale = sum_blocks ? 1.0f : 1.0f / float(f * f);
      for (index_t y = 0; y < h; ++y)
        for (index_t x = 0; x < w; ++x) out(x / f, y / f) += ref(x, y);
      for (float& v : out) v *= scale;
      return out;
    }
  }
  throw_input_error(path, "the EER gain is " + size_text(w, h) + " but frames are rendered at " +
                              size_text(frame_width, frame_height) + "; only sizes that differ by 1, 2 or 4 times are converted");
}

void invert_gain(Image<float>& gain) {
  for (float& g : gain) g = g != 0.0f ? 1.0f / g : 0.0f;
}

Image<float> load_gain(const std::string& path, const GainOptions& options, index_t frame_width, index_t frame_height) {
  validate(options.transform);
  const bool thermo = options.eer && is_thermo_gain_file(path);
  Image<float> gain = read_reference(path, thermo ? false : options.tiff_flip_y, "gain reference");
  check_gain_values(gain.cview(), path);
  if (!options.transform.identity()) gain = orient(gain.cview(), options.transform);
  if (options.eer) {
    // Sensor grid versus render grid (4K gain, 8K frames or the reverse); other mismatches are
    // left to the size check, which explains them.
    const Shape s = gain.shape();
    const bool same_aspect = s.x * frame_height == s.y * frame_width;
    if (same_aspect && (s.x != frame_width || s.y != frame_height))
      gain = resize_eer_reference(gain.cview(), frame_width, frame_height, !thermo, path);
    if (!thermo) gain = eer_counts_to_gain(gain.cview());
  }
  if (options.invert) invert_gain(gain);
  check_reference_size("gain reference", path, gain.shape().x, gain.shape().y, frame_width, frame_height, options.transform);
  return gain;
}

Image<float> load_dark(const std::string& path, const GainTransform& transform, bool tiff_flip_y, index_t frame_width,
                       index_t frame_height) {
  validate(transform);
  Image<float> dark = read_reference(path, tiff_flip_y, "dark reference");
  if (!transform.identity()) dark = orient(dark.cview(), transform);
  check_reference_size("dark reference", path, dark.shape().x, dark.shape().y, frame_width, frame_height, transform);
  return dark;
}

} // namespace frost::motion
