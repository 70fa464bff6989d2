#include "frost/alignment/class_averages.hpp"

#include "frost/alignment/math/warp.hpp"
#include "frost/alignment/pair_aligner.hpp"
#include "frost/core/error.hpp"

namespace frost::align {

ClassAverages class_averages(View<const float> images, const std::vector<Assignment>& rows,
                             const std::vector<PairResult>& results, std::size_t n_ref) {
  const Shape s = images.shape;
  FROST_EXPECTS(s.x == s.y && s.z == 1, "class_averages: square 2-D images");
  const int x = static_cast<int>(s.x);
  const std::size_t n_img = static_cast<std::size_t>(s.n), pixels = std::size_t(x) * x;
  FROST_EXPECTS(results.size() == n_ref * n_img, "class_averages: one result per (reference, image)");
  std::vector<std::vector<const Assignment*>> by_ref(n_ref);
  for (const Assignment& a : rows) {
    FROST_EXPECTS(a.reference < n_ref && a.image < n_img, "class_averages: row within the matrix");
    by_ref[a.reference].push_back(&a);
  }
  ClassAverages out;
  out.averages = Image<float>(Shape::image(x, x, static_cast<index_t>(n_ref)));
  out.counts.resize(n_ref);
#pragma omp parallel
  {
    std::vector<double> sum(pixels);
    std::vector<float> mirrored(pixels);
#pragma omp for schedule(dynamic, 1)
    for (std::ptrdiff_t r = 0; r < static_cast<std::ptrdiff_t>(n_ref); ++r) {
      const auto& list = by_ref[std::size_t(r)];
      float* avg = out.averages.data() + std::size_t(r) * pixels;
      out.counts[std::size_t(r)] = list.size();
      if (list.empty()) {
        std::fill(avg, avg + pixels, 0.0f);
        continue;
      }
      double total = 0;
      for (const Assignment* a : list) total += a->weight;
      const bool unweighted = !(total > 0.0);
      std::fill(sum.begin(), sum.end(), 0.0);
      for (const Assignment* a : list) {
        const PairResult& res = results[std::size_t(r) * n_img + a->image];
        const float* src = images.data + a->image * pixels;
        if (res.flip > 0.5f) {
          mirror_x(src, x, x, mirrored.data());
          src = mirrored.data();
        }
        const double w = unweighted ? 1.0 : double(a->weight);
        const Pose2 inv = pose_inverse(res.pose);
        for (int j = 0; j < x; ++j)
          for (int i = 0; i < x; ++i) sum[std::size_t(j) * x + i] += w * warp_pixel(src, x, x, inv, i, j);
      }
      const double norm = unweighted ? double(list.size()) : total;
      for (std::size_t p = 0; p < pixels; ++p) avg[p] = static_cast<float>(sum[p] / norm);
    }
  }
  return out;
}

} // namespace frost::align
