#include "frost/motion/frame_groups.hpp"

#include <algorithm>

#include "frost/core/error.hpp"

namespace frost::motion {

double FrameGroups::centre(int g) const {
  const auto i = static_cast<std::size_t>(g);
  return first[i] + 0.5 * (size[i] - 1);
}

FrameGroups group_frames(int frames, int group) {
  FROST_EXPECTS(frames >= 1 && group >= 1, "group_frames: need frames >= 1 and group >= 1");
  const int count = std::max(1, frames / group);
  const int base = frames / count, extra = frames % count; // the last `extra` groups get one more
  FrameGroups g;
  for (int k = 0, at = 0; k < count; ++k) {
    const int n = base + (k >= count - extra ? 1 : 0);
    g.first.push_back(at);
    g.size.push_back(n);
    at += n;
  }
  return g;
}

Image<fft::Complex> group_spectra(View<const fft::Complex> spectra, const FrameGroups& groups) {
  const index_t per = spectra.shape.pixels_per_item();
  Image<fft::Complex> out(Shape::image(spectra.shape.x, spectra.shape.y, groups.count()));
  for (int g = 0; g < groups.count(); ++g) {
    fft::Complex* sum = out.data() + g * per;
    const auto gi = static_cast<std::size_t>(g);
    FROST_EXPECTS(groups.first[gi] + groups.size[gi] <= spectra.shape.n, "group_spectra: a group runs past the frames");
    for (int t = groups.first[gi]; t < groups.first[gi] + groups.size[gi]; ++t) {
      const fft::Complex* f = spectra.data + t * per;
      for (index_t e = 0; e < per; ++e) sum[e] += f[e];
    }
  }
  return out;
}

std::vector<Vec2> positions_at_frames(const std::vector<Vec2>& group_positions, const FrameGroups& groups) {
  const int m = groups.count();
  FROST_EXPECTS(static_cast<int>(group_positions.size()) == m, "positions_at_frames: one position per group");
  const int frames = groups.first.back() + groups.size.back();
  std::vector<Vec2> out(static_cast<std::size_t>(frames));
  if (m == 1) {
    std::fill(out.begin(), out.end(), group_positions[0]);
    return out;
  }
  for (int t = 0, g = 0; t < frames; ++t) {
    // Segment [centre(g), centre(g + 1)] holding t; the first and last segments extend outwards.
    while (g + 2 < m && t > groups.centre(g + 1)) ++g;
    const double c0 = groups.centre(g), c1 = groups.centre(g + 1);
    const double w = (t - c0) / (c1 - c0);
    const Vec2 a = group_positions[static_cast<std::size_t>(g)], b = group_positions[static_cast<std::size_t>(g + 1)];
    out[static_cast<std::size_t>(t)] = {a.x + w * (b.x - a.x), a.y + w * (b.y - a.y)};
  }
  return out;
}

} // namespace frost::motion
