#pragma once
/// @file trajectories.hpp
/// @brief The shift of given points at every frame (docs/movie_align.md#querying-the-motion, the
/// `trajectories` subcommand as a library call).
#include <vector>

#include "frost/metadata/block.hpp"
#include "frost/motion/motion_model.hpp"

namespace frost::motion {

/// @brief Shift to apply [raw px] at each raw-pixel coordinate (aligned micrograph geometry) for
/// every aligned frame: result[p][t] = model.shift_raw(x_p, y_p, t). With `reference_first` each
/// point's trajectory is re-referenced to the first aligned frame (RELION's convention): its
/// frame-0 shift is subtracted, so frame 0 is exactly zero. A particle picked at p sits in frame
/// t at p - result[p][t].
std::vector<std::vector<Vec2>> trajectories(const MotionModel& model, const std::vector<Vec2>& coordinates_raw,
                                            bool reference_first = false);

/// @brief The STAR loop `data_trajectories` (docs/movie_align.md#querying-the-motion): one row per
/// coordinate and frame (coordinate-major): _rlnCoordinateX/Y [raw px], _frostFrameIndex (absolute
/// 0-based movie frame), _rlnMicrographShiftX/Y [raw px, shortest exact decimals].
meta::Block trajectories_block(const MotionModel& model, const std::vector<Vec2>& coordinates_raw,
                               bool reference_first = false);

} // namespace frost::motion
