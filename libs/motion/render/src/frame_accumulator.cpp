#include "frost/motion/frame_accumulator.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"

namespace frost::motion {

namespace {

/// sum[i] += add[i]; each pixel on its own, so any thread count gives the same bits.
void accumulate(View<float> sum, View<const float> add) {
  const index_t n = sum.shape.total();
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t i = 0; i < n; ++i) sum[i] += add[i];
}

void scale_by(Image<float>& img, int count) {
  const float f = 1.f / static_cast<float>(count);
  const index_t n = img.size();
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t i = 0; i < n; ++i) img[i] *= f;
}

} // namespace

SumNormalization parse_sum_normalization(const std::string& text) {
  if (text == "sum") return SumNormalization::Sum;
  if (text == "mean") return SumNormalization::Mean;
  throw_usage_error("unknown --normalize '" + text + "' (expected sum or mean)");
}

FrameAccumulator::FrameAccumulator(index_t nx, index_t ny, int first_frame, int frame_count, SumOptions options)
    : nx_(nx), ny_(ny), first_(first_frame), count_(frame_count), options_(std::move(options)),
      last_aligned_(std::numeric_limits<int>::min()), last_unaligned_(std::numeric_limits<int>::min()) {
  FROST_EXPECTS(nx >= 1 && ny >= 1, "FrameAccumulator: frame size must be positive");
  FROST_EXPECTS(frame_count >= 1 && first_frame >= 0, "FrameAccumulator: needs at least one frame, first >= 0");
  const Shape frame = Shape::image(nx, ny);
  if (options_.aligned_sum || options_.halves || options_.quality) {
    even_ = Image<float>(frame);
    odd_ = Image<float>(frame);
  }
  if (options_.unaligned_sum) unaligned_ = Image<float>(frame);
  if (options_.aligned_frames) stack_ = Image<float>(Shape::image(nx, ny, frame_count));
  if (options_.dose_weighted) dose_weighted_.emplace(nx, ny, options_.pixel_size, options_.dose);
}

void FrameAccumulator::check_frame(int frame, int last_added, View<const float> image, const char* what) const {
  FROST_EXPECTS(!finished_, std::string("FrameAccumulator: ") + what + " frame added after finish()");
  FROST_EXPECTS(frame >= first_ && frame < first_ + count_,
                std::string("FrameAccumulator: ") + what + " frame " + std::to_string(frame) + " outside the sum range " +
                    std::to_string(first_) + ".." + std::to_string(first_ + count_ - 1));
  FROST_EXPECTS(frame > last_added, std::string("FrameAccumulator: ") + what + " frame " + std::to_string(frame) +
                                        " added after frame " + std::to_string(last_added) +
                                        " (frames must come in increasing order)");
  FROST_EXPECTS(image.shape == Shape::image(nx_, ny_), std::string("FrameAccumulator: ") + what + " frame is " +
                                                           to_string(image.shape) + ", expected " +
                                                           to_string(Shape::image(nx_, ny_)));
}

void FrameAccumulator::add_aligned(int frame, View<const float> aligned) {
  check_frame(frame, last_aligned_, aligned, "aligned");
  last_aligned_ = frame;
  ++aligned_added_;
  if (even_.size() > 0) {
    const bool even = frame % 2 == 0;
    accumulate(even ? even_.view() : odd_.view(), aligned);
    ++(even ? even_added_ : odd_added_);
  }
  if (stack_.size() > 0) {
    const index_t slot = frame - first_;
    std::copy(aligned.data, aligned.data + aligned.shape.total(), stack_.data() + slot * nx_ * ny_);
  }
  if (dose_weighted_) dose_weighted_->add(frame, aligned);
}

void FrameAccumulator::add_unaligned(int frame, View<const float> unaligned) {
  if (!options_.unaligned_sum) return;
  check_frame(frame, last_unaligned_, unaligned, "unaligned");
  last_unaligned_ = frame;
  ++unaligned_added_;
  accumulate(unaligned_.view(), unaligned);
}

FrameSums FrameAccumulator::finish() {
  FROST_EXPECTS(!finished_, "FrameAccumulator::finish: called twice");
  FROST_EXPECTS(aligned_added_ == count_, "FrameAccumulator::finish: " + std::to_string(aligned_added_) + " of " +
                                              std::to_string(count_) + " aligned frames were added");
  FROST_EXPECTS(!options_.unaligned_sum || unaligned_added_ == count_,
                "FrameAccumulator::finish: " + std::to_string(unaligned_added_) + " of " + std::to_string(count_) +
                    " unaligned frames were added");
  const bool mean = options_.normalization == SumNormalization::Mean;
  FrameSums out;
  out.first_frame = first_;
  out.frame_count = count_;
  // Full sum = even half + odd half, so the halves add up to it exactly.
  Image<float> full;
  if (options_.aligned_sum || (options_.quality && dose_weighted_)) {
    full = Image<float>(even_.shape());
    const index_t n = even_.size();
#pragma omp parallel for num_threads(num_threads()) schedule(static)
    for (index_t i = 0; i < n; ++i) full[i] = even_[i] + odd_[i];
  }
  if (dose_weighted_) out.dose_weighted = dose_weighted_->result();
  if (options_.quality) // of the sums before any mean normalisation
    out.quality = sum_quality(even_.cview(), odd_.cview(), dose_weighted_ ? out.dose_weighted.cview() : View<const float>{},
                              full.cview(), count_);
  if (options_.aligned_sum) {
    out.aligned = std::move(full);
    if (mean) scale_by(out.aligned, count_);
  }
  if (options_.halves) {
    out.even = std::move(even_);
    out.odd = std::move(odd_);
    if (mean && even_added_ > 0) scale_by(out.even, even_added_);
    if (mean && odd_added_ > 0) scale_by(out.odd, odd_added_);
  }
  if (options_.unaligned_sum) {
    out.unaligned = std::move(unaligned_);
    if (mean) scale_by(out.unaligned, count_);
  }
  if (options_.aligned_frames) out.aligned_frames = std::move(stack_);
  dose_weighted_.reset();
  even_ = Image<float>();
  odd_ = Image<float>();
  unaligned_ = Image<float>();
  stack_ = Image<float>();
  finished_ = true;
  return out;
}

} // namespace frost::motion
