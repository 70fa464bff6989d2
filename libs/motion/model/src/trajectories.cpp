// Per-point trajectories (docs/movie_align.md#querying-the-motion): the model queried at given raw
// coordinates for every aligned frame, optionally re-referenced to the first frame as RELION expects.
#include "frost/motion/trajectories.hpp"

#include <cstdint>
#include <utility>

#include "exact_text.hpp"

namespace frost::motion {

std::vector<std::vector<Vec2>> trajectories(const MotionModel& model, const std::vector<Vec2>& coordinates_raw,
                                            bool reference_first) {
  std::vector<std::vector<Vec2>> out;
  out.reserve(coordinates_raw.size());
  for (const Vec2& p : coordinates_raw) {
    std::vector<Vec2> track(static_cast<std::size_t>(model.frames()));
    for (int t = 0; t < model.frames(); ++t) track[static_cast<std::size_t>(t)] = model.shift_raw(p.x, p.y, t);
    if (reference_first && !track.empty()) {
      const Vec2 origin = track.front();
      for (Vec2& s : track) s = {s.x - origin.x, s.y - origin.y};
    }
    out.push_back(std::move(track));
  }
  return out;
}

meta::Block trajectories_block(const MotionModel& model, const std::vector<Vec2>& coordinates_raw,
                               bool reference_first) {
  const auto tracks = trajectories(model, coordinates_raw, reference_first);
  std::vector<double> px, py, sx, sy;
  std::vector<std::int64_t> frame;
  for (std::size_t p = 0; p < tracks.size(); ++p)
    for (std::size_t t = 0; t < tracks[p].size(); ++t) {
      px.push_back(coordinates_raw[p].x);
      py.push_back(coordinates_raw[p].y);
      frame.push_back(model.first_frame + static_cast<std::int64_t>(t));
      sx.push_back(tracks[p][t].x);
      sy.push_back(tracks[p][t].y);
    }
  meta::Block block("trajectories");
  block.set_column("rlnCoordinateX", detail::exact_texts(px));
  block.set_column("rlnCoordinateY", detail::exact_texts(py));
  block.set_column("frostFrameIndex", frame);
  block.set_column("rlnMicrographShiftX", detail::exact_texts(sx));
  block.set_column("rlnMicrographShiftY", detail::exact_texts(sy));
  return block;
}

} // namespace frost::motion
