#pragma once
// The frost alignment STAR (docs/movie_align.md#the-frost-alignment-star): data_general with the
// movie facts, sizes and diagnostics, then the model blocks of frost::motion (global shifts,
// B-spline coefficients and the per-patch measurements).
#include "frost/metadata/metadata_file.hpp"
#include "frost/motion/global_alignment.hpp"
#include "frost/motion/local_alignment.hpp"
#include "frost/motion/motion_model.hpp"
#include "movie_facts.hpp"

namespace frost::movie_align {

/// @param local the local stage's result, or nullptr when it did not run (--skipLocalAlignment)
/// @param settings the global settings used (Ts_b, R, search radius, sub-pixel method)
meta::MetadataFile alignment_star(const MovieFacts& facts, const motion::GlobalSettings& settings,
                                  const motion::GlobalAlignment& global, const motion::LocalAlignment* local,
                                  const motion::MotionModel& model);

/// Appends data_hot_pixels (_rlnCoordinateX/Y of the detected hot pixels; the same block in the
/// frost and the RELION motion STAR).
void add_hot_pixel_block(meta::MetadataFile& file, const MovieFacts& facts);

} // namespace frost::movie_align
