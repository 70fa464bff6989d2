#pragma once
/// @file local_measurements.hpp
/// @brief What the B-spline is fitted to (docs/movie_align.md#aligning-one-patch): per patch and frame the
/// residual displacement L_{p,t} or the total displacement D_{p,t} = d_t + L_{p,t}, as shifts to
/// apply.
#include <vector>

#include "frost/motion/bspline_fit.hpp"
#include "frost/motion/motion_model.hpp"
#include "frost/motion/patch_alignment.hpp"

namespace frost::motion {

/// @brief One PatchMeasurement per patch and frame (patch-major, then frame), weight 1, at the
/// patch centre: target -L_{p,t} (Residual) or -D_{p,t} = s_t - L_{p,t} (Total), where s_t are the
/// global shifts to apply [processing px].
std::vector<PatchMeasurement> local_fit_targets(const std::vector<PatchTrack>& tracks,
                                                const std::vector<Vec2>& global_shifts, LocalModelKind kind);

/// The total shift to apply measured at patch `track` in frame t: s_t - L_{p,t}.
Vec2 measured_total_shift(const PatchTrack& track, const std::vector<Vec2>& global_shifts, int t);

} // namespace frost::motion
