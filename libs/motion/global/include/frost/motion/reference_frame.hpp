#pragma once
/// @file reference_frame.hpp
/// @brief The frame whose shift is zero (docs/movie_align.md#reference-frame) and the shifts to apply.
#include <vector>

#include "frost/motion/global_settings.hpp"
#include "frost/motion/motion_model.hpp"

namespace frost::motion {

/// @brief Reference frame for positions d_t: Minimax = argmin_r max_t |d_t - d_r| (Euclidean,
/// lowest index on ties), First = 0, Middle = N/2, Index = `index`.
/// @throw frost::Error(Usage) for an index outside 0..N-1 or no positions.
int choose_reference(const std::vector<Vec2>& positions, ReferenceRule rule, int index = 0);

/// s_t = -(d_t - d_r): the shift to apply to frame t (docs/conventions.md#shifts), zero at the reference.
std::vector<Vec2> shifts_to_apply(const std::vector<Vec2>& positions, int reference);

} // namespace frost::motion
