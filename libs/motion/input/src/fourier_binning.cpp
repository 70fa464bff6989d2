#include "frost/motion/fourier_binning.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/fft/fft.hpp"

namespace frost::motion {

struct FourierBinner::Plans {
  fft::FftPlan forward; ///< in-place R2C of the raw frame (padded rows)
  fft::FftPlan inverse; ///< out-of-place C2R of the cropped spectrum
};

index_t binned_size(index_t n, double factor) {
  if (!(factor >= 1.0)) throw_usage_error("--bin must be >= 1 (got " + std::to_string(factor) + ")");
  return 2 * static_cast<index_t>(std::llround(double(n) / (2.0 * factor)));
}

FourierBinner::FourierBinner(index_t width, index_t height, double factor)
    : in_w_(width), in_h_(height), out_w_(binned_size(width, factor)), out_h_(binned_size(height, factor)),
      identity_(factor == 1.0), plans_(std::make_unique<Plans>()) {
  if (identity_) {
    out_w_ = width;
    out_h_ = height;
    return;
  }
  if (out_w_ < 2 || out_h_ < 2)
    throw_usage_error("--bin " + std::to_string(factor) + " leaves a frame of " + std::to_string(out_w_) + "x" +
                      std::to_string(out_h_) + " pixels");
  auto planner = fft::shared_planner(fft::Backend::Cpu);
  fft::PlanOptions one_thread;
  one_thread.threads = 1; // frames are binned in parallel, one per thread
  plans_->forward = planner->plan(fft::FftSpec::r2c(Shape::image(width, height), fft::Placement::InPlace), one_thread);
  plans_->inverse = planner->plan(fft::FftSpec::c2r(Shape::image(out_w_, out_h_)), one_thread);
}

FourierBinner::~FourierBinner() = default;

index_t FourierBinner::scratch_floats() const { return 2 * (in_w_ / 2 + 1) * in_h_; }

void FourierBinner::apply_in_place(float* scratch, float* out) const {
  if (identity_) {
    std::memcpy(out, scratch, sizeof(float) * static_cast<std::size_t>(in_w_ * in_h_));
    return;
  }
  const index_t w = in_w_, h = in_h_, padded = 2 * (w / 2 + 1);
  // Dense rows to the padded layout of an in-place R2C, last row first so nothing unread is
  // overwritten.
  for (index_t y = h - 1; y > 0; --y)
    std::memmove(scratch + y * padded, scratch + y * w, sizeof(float) * static_cast<std::size_t>(w));
  plans_->forward.execute(scratch, scratch);

  // Crop the half spectrum in place: each kept coefficient moves to a lower address, and rows
  // and columns are visited in increasing order, so no source is overwritten before it is read.
  auto* c = reinterpret_cast<fft::Complex*>(scratch);
  const index_t in_cols = w / 2 + 1, out_cols = out_w_ / 2 + 1;
  const bool crop_x = out_w_ < w, crop_y = out_h_ < h;
  const float scale = static_cast<float>(1.0 / (double(w) * double(h))); // keeps the mean value
  for (index_t r = 0; r < out_h_; ++r) {
    const index_t ky = r < out_h_ / 2 ? r : r - out_h_;
    const index_t src = ky >= 0 ? ky : h + ky;
    fft::Complex* dst = c + r * out_cols;
    if (crop_y && r == out_h_ / 2) { // Nyquist row of the output
      std::fill(dst, dst + out_cols, fft::Complex(0.0f, 0.0f));
      continue;
    }
    const fft::Complex* from = c + src * in_cols;
    for (index_t k = 0; k < out_cols; ++k) dst[k] = from[k] * scale;
    if (crop_x) dst[out_cols - 1] = fft::Complex(0.0f, 0.0f); // Nyquist column of the output
  }
  plans_->inverse.execute(static_cast<const void*>(c), static_cast<void*>(out));
}

void FourierBinner::apply(const float* in, float* out) const {
  std::vector<float> scratch(static_cast<std::size_t>(scratch_floats()));
  std::memcpy(scratch.data(), in, sizeof(float) * static_cast<std::size_t>(in_w_ * in_h_));
  apply_in_place(scratch.data(), out);
}

} // namespace frost::motion
