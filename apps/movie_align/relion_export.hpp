#pragma once
// RELION's per-micrograph motion STAR (movie-alignment.md §8.3, formats-and-ecosystem.md §6.4),
// written by --ostar_motion.
#include "frost/metadata/metadata_file.hpp"
#include "frost/motion/motion_model.hpp"
#include "movie_facts.hpp"

namespace frost::movie_align {

/// RELION's marker for frames outside the aligned range.
inline constexpr double kRelionNotObserved = -9999.0;

/// @brief data_general (sizes, movie, gain, binning, pixel size, dose, 1-based start frame,
/// _rlnMotionModelVersion 0) and data_global_shift: every movie frame, 1-based, with the global
/// shift to apply [raw px] re-referenced to the first aligned frame (which is then exactly 0);
/// frames outside the aligned range hold -9999. The local B-spline is not exported: RELION's
/// model is a third-order polynomial (version 1), which frost does not fit yet.
meta::MetadataFile relion_motion_star(const MovieFacts& facts, const motion::MotionModel& model);

} // namespace frost::movie_align
