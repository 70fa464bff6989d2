#pragma once
/// @file selection.hpp
/// @brief Curation without a GUI: the done movies that pass quality thresholds, written as a
/// RELION STAR and an Xmipp .xmd list (docs/session.md#curation).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frost/session/micrographs_star.hpp"
#include "frost/session/movie_record.hpp"

namespace frost::session {

/// Thresholds; an unset one is not checked. A set threshold refuses a movie whose value is
/// unknown (null in its record): curation keeps only what it could judge.
struct SelectionCriteria {
  std::optional<double> max_total_motion_A;  ///< rlnAccumMotionTotal <= this
  std::optional<double> max_early_motion_A;  ///< rlnAccumMotionEarly <= this
  std::optional<double> max_late_motion_A;   ///< rlnAccumMotionLate <= this
  std::optional<double> max_frame_shift_A;   ///< max_frame_shift_A <= this
  std::optional<double> min_resolution_A;    ///< frc_resolution_A <= this (a better or equal resolution)
  bool exclude_fallback = false;             ///< refuse movies whose local alignment fell back
};

struct Selection {
  std::vector<MovieRecord> kept;                            ///< in the order given
  std::vector<std::pair<std::string, std::string>> refused; ///< movie, the first reason
};

/// Applies `criteria` to the done records (failed ones are refused as "failed").
Selection select(const std::vector<MovieRecord>& records, const SelectionCriteria& criteria);

/// Writes the kept movies as a STAR (micrographs_star() layout) at `star_path` and as an Xmipp
/// list at `xmd_path` (labels micrograph, movie, enabled, and the accumulated motions and FRC
/// resolution where known), each atomically; an empty path skips that file.
void write_selection(const Selection& selection, const OpticsGroup& optics, const std::string& star_path,
                     const std::string& xmd_path);

} // namespace frost::session
