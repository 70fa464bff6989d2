#pragma once
/// @file frame_groups.hpp
/// @brief RELION-style frame grouping of the frame-versus-sum mode
/// (docs/movie_align.md#frame-ranges-and-grouping, --group-global G): sums of consecutive frames are
/// aligned, and the shifts found for the groups are interpolated to the frames at the group centres.
#include <vector>

#include "frost/core/image.hpp"
#include "frost/fft/spec.hpp"
#include "frost/motion/motion_model.hpp"

namespace frost::motion {

/// @brief Consecutive frame ranges: group g holds frames [first[g], first[g] + size[g]).
struct FrameGroups {
  std::vector<int> first, size;
  int count() const { return static_cast<int>(first.size()); }
  /// Centre of group g on the frame axis (mean of its frame indices).
  double centre(int g) const;
};

/// @brief floor(frames / group) groups (at least one) of as equal sizes as possible; the frames
/// left over go one each to the last groups, never to the first, where motion is largest.
FrameGroups group_frames(int frames, int group);

/// @brief Sums the spectra (items of `spectra`) of each group's frames, in frame order.
Image<fft::Complex> group_spectra(View<const fft::Complex> spectra, const FrameGroups& groups);

/// @brief Frame positions from group positions: linear in time between neighbouring group
/// centres, extended linearly by the first and last segments beyond them. One group: its
/// position for every frame.
std::vector<Vec2> positions_at_frames(const std::vector<Vec2>& group_positions, const FrameGroups& groups);

} // namespace frost::motion
