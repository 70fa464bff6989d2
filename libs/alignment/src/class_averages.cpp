#include "frost/alignment/class_averages.hpp"

#include <algorithm>

#include "frost/alignment/math/warp.hpp"
#include "frost/alignment/pair_aligner.hpp"
#include "frost/core/error.hpp"

namespace frost::align {

std::vector<PairResult> row_results(const std::vector<Assignment>& rows, const std::vector<PairResult>& results,
                                    std::size_t n_img) {
  std::vector<PairResult> out;
  out.reserve(rows.size());
  for (const Assignment& a : rows) {
    FROST_EXPECTS(a.reference * n_img + a.image < results.size(), "class_averages: row within the matrix");
    out.push_back(results[a.reference * n_img + a.image]);
  }
  return out;
}

ClassAverager::ClassAverager(int size, const std::vector<Assignment>& rows, const std::vector<PairResult>& results,
                             std::size_t n_ref, std::size_t n_img)
    : x_(size), n_ref_(n_ref), n_img_(n_img), rows_(rows), results_(results), by_ref_(n_ref),
      sums_(n_ref * std::size_t(size) * std::size_t(size), 0.0), weights_(n_ref, 0.0) {
  FROST_EXPECTS(size > 0, "class_averages: positive image size");
  FROST_EXPECTS(results.size() == rows.size(), "class_averages: one result per row");
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const Assignment& a = rows[k];
    FROST_EXPECTS(a.reference < n_ref && a.image < n_img, "class_averages: row within the matrix");
    by_ref_[a.reference].push_back(k);
    weights_[a.reference] += a.weight;
  }
  for (auto& list : by_ref_)
    std::stable_sort(list.begin(), list.end(), [&rows](std::size_t a, std::size_t b) { return rows[a].image < rows[b].image; });
}

void ClassAverager::add(View<const float> batch, std::size_t first) {
  const Shape s = batch.shape;
  FROST_EXPECTS(s.x == x_ && s.y == x_ && s.z == 1, "class_averages: square 2-D images of the averager's size");
  const std::size_t count = static_cast<std::size_t>(s.n), pixels = std::size_t(x_) * x_;
  FROST_EXPECTS(first + count <= n_img_, "class_averages: a batch within the images");
#pragma omp parallel
  {
    std::vector<float> mirrored(pixels);
#pragma omp for schedule(dynamic, 1)
    for (std::ptrdiff_t r = 0; r < static_cast<std::ptrdiff_t>(n_ref_); ++r) {
      const auto& list = by_ref_[std::size_t(r)];
      const bool unweighted = !(weights_[std::size_t(r)] > 0.0);
      double* sum = sums_.data() + std::size_t(r) * pixels;
      const auto in_batch = std::lower_bound(list.begin(), list.end(), first,
                                             [this](std::size_t k, std::size_t i) { return rows_[k].image < i; });
      for (auto it = in_batch; it != list.end() && rows_[*it].image < first + count; ++it) {
        const Assignment* a = &rows_[*it];
        const PairResult& res = results_[*it];
        const float* src = batch.data + (a->image - first) * pixels;
        if (res.flip > 0.5f) {
          mirror_x(src, x_, x_, mirrored.data());
          src = mirrored.data();
        }
        const double w = unweighted ? 1.0 : double(a->weight);
        const Pose2 inv = pose_inverse(res.pose);
        for (int j = 0; j < x_; ++j)
          for (int i = 0; i < x_; ++i) sum[std::size_t(j) * x_ + i] += w * warp_pixel(src, x_, x_, inv, i, j);
      }
    }
  }
}

ClassAverages ClassAverager::finish() const {
  const std::size_t pixels = std::size_t(x_) * x_;
  ClassAverages out;
  out.averages = Image<float>(Shape::image(x_, x_, static_cast<index_t>(n_ref_)));
  out.counts.resize(n_ref_);
  for (std::size_t r = 0; r < n_ref_; ++r) {
    const auto& list = by_ref_[r];
    out.counts[r] = list.size();
    float* avg = out.averages.data() + r * pixels;
    if (list.empty()) {
      std::fill(avg, avg + pixels, 0.0f);
      continue;
    }
    const bool unweighted = !(weights_[r] > 0.0);
    const double norm = unweighted ? double(list.size()) : weights_[r];
    const double* sum = sums_.data() + r * pixels;
    for (std::size_t p = 0; p < pixels; ++p) avg[p] = static_cast<float>(sum[p] / norm);
  }
  return out;
}

ClassAverages class_averages(View<const float> images, const std::vector<Assignment>& rows,
                             const std::vector<PairResult>& results, std::size_t n_ref) {
  const Shape s = images.shape;
  FROST_EXPECTS(s.x == s.y && s.z == 1, "class_averages: square 2-D images");
  const std::vector<PairResult> of_rows = row_results(rows, results, static_cast<std::size_t>(s.n));
  ClassAverager averager(static_cast<int>(s.x), rows, of_rows, n_ref, static_cast<std::size_t>(s.n));
  averager.add(images, 0);
  return averager.finish();
}

} // namespace frost::align
