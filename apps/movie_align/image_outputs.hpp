#pragma once
// The image outputs of one movie (docs/movie_align.md#images): which sums they need, and writing
// them, each checked before it is written.
#include <string>

#include "align_options.hpp"
#include "frost/core/image.hpp"
#include "frost/motion/frame_accumulator.hpp"
#include "frost/motion/movie_pipeline.hpp"

namespace frost::movie_align {

/// @brief The sums the image outputs of `out` need (none when `out` names no image); the plain
/// aligned sum only where it is written or feeds the PSD (a dose-weighted micrograph alone does
/// not need it).
motion::RenderRequest render_request(const OutputPaths& out, bool dose_weight);

/// @brief frost::Error(Input) naming the movie and the stage when `img` holds NaN or Inf: a
/// non-finite output is never written (frames of huge values overflow single precision in the
/// sums and transforms).
void check_finite_output(const Image<float>& img, const std::string& stage, const std::string& movie);

/// @brief Writes every image output of `out` (micrographs, halves, aligned stack, thumbnail,
/// spectrum and its picture) from `sums`, at processing pixel size `pixel_size`. The movie's
/// OutputSet drops the ones written before a failing one. frost::Error(Input) for NaN/Inf and
/// for values beyond half precision with --float16.
void write_images(const std::string& movie, const OutputPaths& out, const AlignOptions& options,
                  const motion::FrameSums& sums, double pixel_size);

} // namespace frost::movie_align
