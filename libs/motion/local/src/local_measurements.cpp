#include "frost/motion/local_measurements.hpp"

#include "frost/core/error.hpp"

namespace frost::motion {

Vec2 measured_total_shift(const PatchTrack& track, const std::vector<Vec2>& global_shifts, int t) {
  const auto i = static_cast<std::size_t>(t);
  FROST_EXPECTS(i < global_shifts.size() && i < track.residual.size(), "measured_total_shift: frame out of range");
  return {global_shifts[i].x - track.residual[i].x, global_shifts[i].y - track.residual[i].y};
}

std::vector<PatchMeasurement> local_fit_targets(const std::vector<PatchTrack>& tracks,
                                                const std::vector<Vec2>& global_shifts, LocalModelKind kind) {
  std::vector<PatchMeasurement> out;
  out.reserve(tracks.size() * global_shifts.size());
  for (const PatchTrack& track : tracks) {
    FROST_EXPECTS(track.residual.size() == global_shifts.size(), "local_fit_targets: one residual per frame");
    for (std::size_t t = 0; t < global_shifts.size(); ++t) {
      PatchMeasurement m;
      m.patch = track.patch;
      m.x = track.centre.x;
      m.y = track.centre.y;
      m.t = static_cast<double>(t);
      m.shift = kind == LocalModelKind::Residual
                    ? Vec2{-track.residual[t].x, -track.residual[t].y}
                    : measured_total_shift(track, global_shifts, static_cast<int>(t));
      out.push_back(m);
    }
  }
  return out;
}

} // namespace frost::motion
