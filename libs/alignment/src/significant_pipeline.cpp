// align_significant: the pair loop, the merge and the scores of frost_align_significant.
#include "frost/alignment/significant_pipeline.hpp"

#include <chrono>
#include <cmath>
#include <limits>

#include "frost/alignment/math/pose2d.hpp"
#include "frost/core/error.hpp"

namespace frost::align {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// A CC of NaN or +Inf, or a pose that is not finite, means the alignment went wrong (a
/// rejected pair has CC -Inf).
bool finite_pair(const PairResult& p) {
  bool finite = !std::isnan(p.cc) && p.cc != std::numeric_limits<float>::infinity() && std::isfinite(p.flip);
  for (float v : {p.pose.a00, p.pose.a01, p.pose.a02, p.pose.a10, p.pose.a11, p.pose.a12})
    finite = finite && std::isfinite(v);
  return finite;
}

void check_rank_pairs(const std::vector<PairResult>& results, const SignificantInput& in, std::size_t n_ref,
                      const SignificantOptions& options) {
  const std::size_t local = static_cast<std::size_t>(in.images.shape.n);
  for (std::size_t r = 0; r < n_ref; ++r)
    for (std::size_t i = in.first_image; i < in.first_image + local; ++i) {
      if (finite_pair(results[r * in.n_images + i])) continue;
      const std::string what = options.describe_pair
                                   ? options.describe_pair(r, i)
                                   : "image " + std::to_string(i) + " with reference " + std::to_string(r);
      throw Error(ExitCode::Runtime, "the alignment of " + what + " gave a non-finite CC or pose; nothing was written");
    }
}

} // namespace

SignificantResult align_significant(AlignmentBackend& backend, const SignificantInput& in,
                                    const SignificantOptions& options) {
  const std::size_t n_ref = static_cast<std::size_t>(in.references.shape.n), n_img = in.n_images;
  const std::size_t local = static_cast<std::size_t>(in.images.shape.n);
  SignificantResult out;
  // Every float zero (the pose too, not the identity) outside this rank's columns: the MPI merge is a sum.
  PairResult zero;
  zero.pose = {0, 0, 0, 0, 0, 0};
  out.pairs.assign(n_ref * n_img, zero);
  const auto t_align = Clock::now();
  if (local > 0) {
    std::vector<PairResult> part(n_ref * local);
    if (options.swap) {
      backend.align_all(in.images, in.references, options.settings, part.data(), options.progress);
      for (std::size_t i = 0; i < local; ++i)
        for (std::size_t r = 0; r < n_ref; ++r) {
          PairResult p = part[i * n_ref + r];
          p.pose = pose_inverse(p.pose); // aligns the image to the reference
          out.pairs[r * n_img + in.first_image + i] = p;
        }
    } else {
      backend.align_all(in.references, in.images, options.settings, part.data(), options.progress);
      for (std::size_t r = 0; r < n_ref; ++r)
        for (std::size_t i = 0; i < local; ++i) out.pairs[r * n_img + in.first_image + i] = part[r * local + i];
    }
    check_rank_pairs(out.pairs, in, n_ref, options);
  }
  out.align_s = seconds_since(t_align);
  // Every pair is non-zero on exactly one rank, so the sum is the merge.
  if (options.sum_to_root)
    options.sum_to_root(reinterpret_cast<float*>(out.pairs.data()),
                        out.pairs.size() * (sizeof(PairResult) / sizeof(float)));
  if (!options.root) return out;

  const auto t_weights = Clock::now();
  out.cc.resize(out.pairs.size());
  for (std::size_t k = 0; k < out.pairs.size(); ++k) out.cc[k] = out.pairs[k].cc;
  const auto weights = significance_weights(out.cc, n_ref, n_img, in.directions, options.neighbourhood_deg);
  out.rows = assign_best(out.cc, weights, n_ref, n_img, options.keep_best, options.rank_by_weight);
  out.weights_s = seconds_since(t_weights);
  return out;
}

} // namespace frost::align
