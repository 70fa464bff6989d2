// align_significant: the pair loop, the merge and the scores of frost_align_significant.
#include "frost/alignment/significant_pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "frost/alignment/math/pose2d.hpp"
#include "frost/core/error.hpp"
#include "frost/core/read_ahead.hpp"

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

/// This rank's results: the columns [first, first + count) of the N_ref x N_img matrix (all of
/// it in a single process), rows of `stride` pairs.
struct Block {
  std::vector<PairResult> pairs;
  std::size_t first = 0, stride = 0;
  PairResult& at(std::size_t r, std::size_t i) { return pairs[r * stride + (i - first)]; }
  const PairResult& at(std::size_t r, std::size_t i) const { return pairs[r * stride + (i - first)]; }
};

/// Checks the pairs of images first .. first + count - 1.
void check_pairs(const Block& block, std::size_t n_ref, std::size_t first, std::size_t count,
                 const SignificantOptions& options) {
  for (std::size_t r = 0; r < n_ref; ++r)
    for (std::size_t i = first; i < first + count; ++i) {
      if (finite_pair(block.at(r, i))) continue;
      const std::string what = options.describe_pair
                                   ? options.describe_pair(r, i)
                                   : "image " + std::to_string(i) + " with reference " + std::to_string(r);
      throw Error(ExitCode::Runtime, "the alignment of " + what + " gave a non-finite CC or pose; nothing was written");
    }
}

/// Aligns the images first .. first + images.n - 1 of the run with every reference into `out`.
void align_batch(AlignmentBackend& backend, const SignificantInput& in, View<const float> images, std::size_t first,
                 std::size_t done_before, const SignificantOptions& options, Block& out) {
  const std::size_t n_ref = static_cast<std::size_t>(in.references.shape.n);
  const std::size_t count = static_cast<std::size_t>(images.shape.n);
  std::vector<PairResult> part(n_ref * count);
  PairsDone progress;
  if (options.progress) progress = [&](std::size_t done) { options.progress(done_before + done); };
  if (options.swap) {
    backend.align_all(images, in.references, options.settings, part.data(), progress);
    for (std::size_t i = 0; i < count; ++i)
      for (std::size_t r = 0; r < n_ref; ++r) {
        PairResult p = part[i * n_ref + r];
        p.pose = pose_inverse(p.pose); // aligns the image to the reference
        out.at(r, first + i) = p;
      }
  } else {
    backend.align_all(in.references, images, options.settings, part.data(), progress);
    for (std::size_t r = 0; r < n_ref; ++r)
      for (std::size_t i = 0; i < count; ++i) out.at(r, first + i) = part[r * count + i];
  }
  check_pairs(out, n_ref, first, count, options);
}

} // namespace

std::size_t stream_batch_images(int box) {
  const std::size_t bytes = std::size_t(std::max(box, 1)) * std::size_t(std::max(box, 1)) * sizeof(float);
  return std::max<std::size_t>(1, kStreamBatchBytes / bytes);
}

SignificantResult align_significant(AlignmentBackend& backend, const SignificantInput& in,
                                    const SignificantOptions& options) {
  const std::size_t n_ref = static_cast<std::size_t>(in.references.shape.n), n_img = in.n_images;
  const bool streamed = static_cast<bool>(in.load);
  const std::size_t local = streamed ? in.local_images : static_cast<std::size_t>(in.images.shape.n);
  SignificantResult out;
  // Under MPI this rank fills its own columns and the root assembles the matrix; in a single
  // process the block is the whole matrix.
  const bool gathered = static_cast<bool>(options.gather_to_root);
  Block mine;
  mine.first = gathered ? in.first_image : 0;
  mine.stride = gathered ? local : n_img;
  PairResult zero;
  zero.pose = {0, 0, 0, 0, 0, 0};
  mine.pairs.assign(n_ref * mine.stride, zero);
  const auto t_align = Clock::now();
  if (local > 0 && !streamed) {
    align_batch(backend, in, in.images, in.first_image, 0, options, mine);
    out.batches = 1;
  } else if (local > 0) {
    // Batch k is aligned while batch k + 1 loads; at most two batches are in memory.
    out.load_wait_s = for_each_read_ahead(
        local, in.batch,
        [&in](std::size_t begin, std::size_t count) {
          Image<float> images = in.load(in.first_image + begin, count);
          FROST_EXPECTS(static_cast<std::size_t>(images.shape().n) == count, "align_significant: a batch of the wrong size");
          return images;
        },
        [&](const Image<float>& images, std::size_t begin) {
          align_batch(backend, in, images.cview(), in.first_image + begin, n_ref * begin, options, mine);
          ++out.batches;
        });
  }
  out.align_s = seconds_since(t_align);
  if (gathered) {
    static_assert(sizeof(PairResult) % sizeof(float) == 0, "a PairResult travels as floats");
    constexpr std::size_t kFloats = sizeof(PairResult) / sizeof(float);
    if (options.root) out.pairs.assign(n_ref * n_img, zero);
    options.gather_to_root(reinterpret_cast<const float*>(mine.pairs.data()), n_ref, kFloats * mine.first,
                           kFloats * local, reinterpret_cast<float*>(out.pairs.data()), kFloats * n_img);
  } else {
    out.pairs = std::move(mine.pairs);
  }
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
