// Weights and assignment of docs/align_significant.md#significance-weights-and-assignment (Xmipp
// `computeWeightsAndSave`, `computeAssignment`) with the toolkit's tie and edge-case rules.
#include "frost/alignment/significance.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "frost/core/error.hpp"

namespace frost::align {

std::vector<float> significance_weights(const std::vector<float>& cc, std::size_t n_ref, std::size_t n_img,
                                        const std::vector<geom::EulerAngles>& directions, double ang_distance) {
  FROST_EXPECTS(cc.size() == n_ref * n_img && directions.size() == n_ref, "significance_weights: sizes");
  std::vector<geom::Vec3d> dir(n_ref);
  for (std::size_t r = 0; r < n_ref; ++r) dir[r] = geom::projection_direction(directions[r].rot, directions[r].tilt);
  const double cos_limit = std::cos(ang_distance * M_PI / 180.0);

  std::vector<float> weights(n_ref * n_img, 0.0f);
  struct Entry {
    float cc;
    std::size_t ref, img;
  };
  std::vector<Entry> pool;
  for (std::size_t r = 0; r < n_ref; ++r) {
    // N(r) = {r} ∪ {r' : angle ≤ ang_distance}; compared through the cosine (same set, no acos).
    pool.clear();
    for (std::size_t q = 0; q < n_ref; ++q) {
      const double c = dir[r].x * dir[q].x + dir[r].y * dir[q].y + dir[r].z * dir[q].z;
      if (q != r && c < cos_limit) continue;
      for (std::size_t i = 0; i < n_img; ++i) pool.push_back({cc[q * n_img + i], q, i});
    }
    std::sort(pool.begin(), pool.end(), [](const Entry& a, const Entry& b) {
      return std::tie(a.cc, a.ref, a.img) < std::tie(b.cc, b.ref, b.img);
    });
    const float max_cc = pool.back().cc;
    if (!(max_cc > 0)) continue; // every weight of r stays 0
    const std::size_t m = pool.size();
    for (std::size_t k = 0; k < m; ++k) {
      const Entry& e = pool[k];
      if (e.ref != r || !(e.cc > 0)) continue;
      const double cdf = m == 1 ? 1.0 : double(k) / double(m - 1);
      weights[r * n_img + e.img] = static_cast<float>(double(e.cc) / max_cc * cdf);
    }
  }
  return weights;
}

std::vector<Assignment> assign_best(const std::vector<float>& cc, const std::vector<float>& weights,
                                    std::size_t n_ref, std::size_t n_img, std::size_t keep_best, bool use_weight) {
  FROST_EXPECTS(cc.size() == n_ref * n_img && weights.size() == n_ref * n_img, "assign_best: sizes");
  std::vector<Assignment> out;
  std::vector<std::size_t> order(n_ref);
  const std::vector<float>& votes = use_weight ? weights : cc;
  for (std::size_t i = 0; i < n_img; ++i) {
    std::iota(order.begin(), order.end(), std::size_t{0});
    auto vote = [&](std::size_t r) { return votes[r * n_img + i]; };
    const std::size_t k = std::min(keep_best, n_ref);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [&](std::size_t a, std::size_t b) { return vote(a) > vote(b) || (vote(a) == vote(b) && a < b); });
    for (std::size_t j = 0; j < k; ++j) {
      const std::size_t r = order[j];
      if (!(vote(r) > 0)) break; // non-positive votes (and -inf, NaN) are never written
      out.push_back({i, r, cc[r * n_img + i], weights[r * n_img + i], vote(order[0])});
    }
  }
  return out;
}

} // namespace frost::align
