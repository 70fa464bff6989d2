// Weights and assignment of docs/align_significant.md#significance-weights-and-assignment (Xmipp
// `computeWeightsAndSave`, `computeAssignment`) with the toolkit's tie and edge-case rules.
//
// The weights are defined through a sorted pool per reference but computed without building it:
// every row of the CC matrix is sorted once, and an entry's position in a pool is the sum of the
// counts of entries before it in the sorted rows of the neighbourhood, found by walking the rows
// forward side by side (docs/align_significant.md#weights).
#include "frost/alignment/significance.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"

namespace frost::align {

namespace {

/// NaN entries after each sorted row: `advance` reads this many values past its position
/// without a bounds check, and a NaN is never before anything.
constexpr std::size_t kPad = 4;

/// Every row of the CC matrix without its NaN entries, ascending by (CC, image): the order of
/// the pool restricted to one reference. Row q holds count[q] values from q·stride, then NaN.
struct SortedRows {
  std::size_t stride = 0;
  std::vector<float> cc;
  std::vector<std::uint32_t> img; // 32 bits: half the memory of size_t for a transient copy
  std::vector<std::size_t> count;

  const float* values(std::size_t q) const { return cc.data() + q * stride; }
  const std::uint32_t* images(std::size_t q) const { return img.data() + q * stride; }
  /// The largest CC of row q; only for a row with count[q] > 0.
  float max(std::size_t q) const { return values(q)[count[q] - 1]; }
};

struct Keyed {
  std::uint32_t key, img;
};

/// An unsigned key in the order of the floats (not NaN), with −0 and +0 equal as for `<`.
std::uint32_t order_key(float c) {
  if (c == 0.0f) c = 0.0f;
  std::uint32_t bits = 0;
  std::memcpy(&bits, &c, sizeof bits);
  return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

/// Stable least-significant-digit radix sort by key, 8 bits a pass: equal keys keep their
/// order, so items entered by increasing image come out by (CC, image), the pool's key.
void radix_sort(std::vector<Keyed>& items, std::vector<Keyed>& scratch) {
  scratch.resize(items.size());
  for (unsigned shift = 0; shift < 32; shift += 8) {
    std::array<std::size_t, 257> start{};
    for (const Keyed& e : items) ++start[((e.key >> shift) & 0xffu) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    for (const Keyed& e : items) scratch[start[(e.key >> shift) & 0xffu]++] = e;
    items.swap(scratch);
  }
}

/// Sorts row q of the CC matrix into `rows`. NaN entries are left out: they have no place in
/// the order, so they take no part in any pool (docs/align_significant.md#weights).
void sort_row(const float* row, std::size_t n_img, std::size_t q, std::vector<Keyed>& items,
              std::vector<Keyed>& scratch, SortedRows& rows) {
  items.clear();
  for (std::size_t i = 0; i < n_img; ++i)
    if (!std::isnan(row[i])) items.push_back({order_key(row[i]), static_cast<std::uint32_t>(i)});
  radix_sort(items, scratch);
  float* values = rows.cc.data() + q * rows.stride;
  std::uint32_t* images = rows.img.data() + q * rows.stride;
  for (std::size_t j = 0; j < items.size(); ++j) {
    values[j] = row[items[j].img];
    images[j] = items[j].img;
  }
  std::fill(values + items.size(), values + rows.stride, std::numeric_limits<float>::quiet_NaN());
  rows.count[q] = items.size();
}

SortedRows sort_rows(const std::vector<float>& cc, std::size_t n_ref, std::size_t n_img) {
  SortedRows rows;
  rows.stride = n_img + kPad;
  rows.cc.resize(n_ref * rows.stride);
  rows.img.resize(n_ref * rows.stride);
  rows.count.resize(n_ref);
#pragma omp parallel num_threads(num_threads())
  {
    std::vector<Keyed> items, scratch;
    items.reserve(n_img);
#pragma omp for schedule(dynamic, 16)
    for (std::ptrdiff_t q = 0; q < static_cast<std::ptrdiff_t>(n_ref); ++q)
      sort_row(cc.data() + std::size_t(q) * n_img, n_img, std::size_t(q), items, scratch, rows);
  }
  return rows;
}

/// Neighbours of r, split by the pool's tie rule (key (CC, reference, image)): in a row q < r
/// an equal CC comes before r's entry, in a row q > r after it.
struct Neighbourhood {
  std::vector<std::size_t> below, above;
  std::size_t pool = 0; ///< M_r: the non-NaN entries of every row of N(r)
  float max_cc = 0;     ///< max Π_r, when pool > 0
};

/// N(r) = {r} ∪ {q : angle between projection directions ≤ the limit}, compared through the
/// cosine (the same set without acos).
void neighbourhood(const std::vector<geom::Vec3d>& dir, std::size_t r, double cos_limit, const SortedRows& rows,
                   Neighbourhood& hood) {
  hood.below.clear();
  hood.above.clear();
  hood.pool = 0;
  hood.max_cc = -std::numeric_limits<float>::infinity();
  for (std::size_t q = 0; q < dir.size(); ++q) {
    const double c = dir[r].x * dir[q].x + dir[r].y * dir[q].y + dir[r].z * dir[q].z;
    if (q != r && c < cos_limit) continue;
    if (q < r) hood.below.push_back(q);
    if (q > r) hood.above.push_back(q);
    hood.pool += rows.count[q];
    if (rows.count[q] > 0) hood.max_cc = std::max(hood.max_cc, rows.max(q));
  }
}

/// Moves p forward over the entries of a sorted, NaN-padded row that come before c in the pool:
/// v < c, or v ≤ c when equal CCs come first. kPad comparisons at a time: in a sorted row the
/// true ones are a prefix, so their sum is the step, without a branch per entry.
template <bool kEqualFirst>
std::size_t advance(const float* v, std::size_t p, float c) {
  for (;;) {
    std::size_t step = 0;
    for (std::size_t t = 0; t < kPad; ++t) step += kEqualFirst ? (v[p + t] <= c) : (v[p + t] < c);
    p += step;
    if (step < kPad) return p;
  }
}

/// Weights of row r (written into `out`, which holds zeros): w = c / max Π_r · k / (M_r − 1)
/// for c > 0, k the entry's position in Π_r. r's positive CCs are visited in ascending order,
/// so the position in each neighbour's row only moves forward.
void weigh_row(const SortedRows& rows, std::size_t r, const Neighbourhood& hood, std::vector<std::size_t>& pos,
               float* out) {
  const std::size_t m = hood.pool;
  if (m == 0 || !(hood.max_cc > 0)) return; // every weight of r stays 0
  const std::size_t n_below = hood.below.size(), n_above = hood.above.size();
  pos.assign(n_below + n_above, 0);
  const float* own = rows.values(r);
  const std::uint32_t* img = rows.images(r);
  const std::size_t first = static_cast<std::size_t>(
      std::partition_point(own, own + rows.count[r], [](float c) { return !(c > 0); }) - own);
  for (std::size_t j = first; j < rows.count[r]; ++j) {
    const float c = own[j];
    std::size_t k = j; // r's own entries before this one
    for (std::size_t t = 0; t < n_below; ++t) {
      std::size_t& p = pos[t];
      k += p = advance<true>(rows.values(hood.below[t]), p, c);
    }
    for (std::size_t t = 0; t < n_above; ++t) {
      std::size_t& p = pos[n_below + t];
      k += p = advance<false>(rows.values(hood.above[t]), p, c);
    }
    const double cdf = m == 1 ? 1.0 : double(k) / double(m - 1);
    out[img[j]] = static_cast<float>(double(c) / double(hood.max_cc) * cdf);
  }
}

/// The matrices assign_best reads (row = reference): CCs, weights and the one that votes.
struct Matrices {
  const std::vector<float>& cc;
  const std::vector<float>& weights;
  const std::vector<float>& vote;
  std::size_t n_img;
};

/// Rows of image i: references by decreasing vote, ties to the lower index, until k are taken or
/// the next vote is not positive. A NaN vote is ordered as −∞, which keeps the comparison a
/// strict weak order (a NaN compared directly would be "equal" to every vote); it is never written.
/// The image's votes are gathered into `column` once: the sort then reads them contiguously.
void assign_image(const Matrices& m, std::size_t i, std::size_t k, std::vector<float>& column,
                  std::vector<std::size_t>& order, std::vector<Assignment>& out) {
  for (std::size_t r = 0; r < column.size(); ++r) {
    const float x = m.vote[r * m.n_img + i];
    column[r] = std::isnan(x) ? -std::numeric_limits<float>::infinity() : x;
  }
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                    [&](std::size_t a, std::size_t b) {
                      return column[a] > column[b] || (column[a] == column[b] && a < b);
                    });
  for (std::size_t j = 0; j < k; ++j) {
    const std::size_t r = order[j];
    if (!(column[r] > 0)) break; // non-positive votes (and -inf, NaN) are never written
    out.push_back({i, r, m.cc[r * m.n_img + i], m.weights[r * m.n_img + i], column[order[0]]});
  }
}

} // namespace

std::vector<float> significance_weights(const std::vector<float>& cc, std::size_t n_ref, std::size_t n_img,
                                        const std::vector<geom::EulerAngles>& directions, double ang_distance) {
  FROST_EXPECTS(cc.size() == n_ref * n_img && directions.size() == n_ref, "significance_weights: sizes");
  FROST_EXPECTS(n_img <= std::numeric_limits<std::uint32_t>::max(), "significance_weights: image count");
  std::vector<geom::Vec3d> dir(n_ref);
  for (std::size_t r = 0; r < n_ref; ++r) dir[r] = geom::projection_direction(directions[r].rot, directions[r].tilt);
  const double cos_limit = std::cos(ang_distance * M_PI / 180.0);

  const SortedRows rows = sort_rows(cc, n_ref, n_img);
  std::vector<float> weights(n_ref * n_img, 0.0f);
  // Each row is computed by the same sequential code whichever thread runs it: the result does
  // not depend on the thread count.
#pragma omp parallel num_threads(num_threads())
  {
    Neighbourhood hood;
    std::vector<std::size_t> pos;
#pragma omp for schedule(dynamic, 16)
    for (std::ptrdiff_t r = 0; r < static_cast<std::ptrdiff_t>(n_ref); ++r) {
      neighbourhood(dir, std::size_t(r), cos_limit, rows, hood);
      weigh_row(rows, std::size_t(r), hood, pos, weights.data() + std::size_t(r) * n_img);
    }
  }
  return weights;
}

std::vector<Assignment> assign_best(const std::vector<float>& cc, const std::vector<float>& weights,
                                    std::size_t n_ref, std::size_t n_img, std::size_t keep_best, bool use_weight) {
  FROST_EXPECTS(cc.size() == n_ref * n_img && weights.size() == n_ref * n_img, "assign_best: sizes");
  const Matrices matrices{cc, weights, use_weight ? weights : cc, n_img};
  const std::size_t k = std::min(keep_best, n_ref);
  std::vector<std::vector<Assignment>> per_image(n_img);
  // Images are independent; concatenated in input order afterwards, so the thread count does
  // not change the result.
#pragma omp parallel num_threads(num_threads())
  {
    std::vector<float> column(n_ref);
    std::vector<std::size_t> order(n_ref);
#pragma omp for schedule(dynamic, 64)
    for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n_img); ++i)
      assign_image(matrices, std::size_t(i), k, column, order, per_image[std::size_t(i)]);
  }
  std::size_t total = 0;
  for (const auto& rows : per_image) total += rows.size();
  std::vector<Assignment> out;
  out.reserve(total);
  for (const auto& rows : per_image) out.insert(out.end(), rows.begin(), rows.end());
  return out;
}

} // namespace frost::align
