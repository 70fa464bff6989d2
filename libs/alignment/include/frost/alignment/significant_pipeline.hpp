#pragma once
/// @file significant_pipeline.hpp
/// @brief The pipeline of frost_align_significant (docs/align_significant.md#pipeline): this rank's
/// pairs on a backend, their merge into the N_ref x N_img matrix (and over MPI ranks), the
/// significance weights and the best references per image. Loading and writing stay with the caller.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "frost/alignment/backend.hpp"
#include "frost/alignment/settings.hpp"
#include "frost/alignment/significance.hpp"
#include "frost/core/image.hpp"
#include "frost/geometry/euler.hpp"

namespace frost::align {

/// The stacks of one rank.
struct SignificantInput {
  View<const float> references; ///< every reference (square, even size)
  View<const float> images;     ///< this rank's images: first_image .. first_image + images.n - 1 of the run
  std::size_t n_images = 0;     ///< images of the run, over every rank
  std::size_t first_image = 0;
  std::vector<geom::EulerAngles> directions; ///< each reference's (rot, tilt), for the neighbourhoods
};

struct SignificantOptions {
  AlignSettings settings;
  /// --allowInputSwap: align the references to the images (the poses are inverted back).
  bool swap = false;
  double neighbourhood_deg = 10; ///< --angDistance
  std::size_t keep_best = 1;     ///< --keepBestN
  bool rank_by_weight = false;   ///< --useWeightInsteadOfCC
  /// True on the rank that scores and writes (rank 0); the others stop after the merge.
  bool root = true;
  PairsDone progress;
  /// Sums `count` floats over the MPI ranks into the root's copy; empty in a single process.
  std::function<void(float* data, std::size_t count)> sum_to_root;
  /// Names image i and reference r (indices of the run) in the error a non-finite pair raises;
  /// empty: the indices.
  std::function<std::string(std::size_t reference, std::size_t image)> describe_pair;
};

struct SignificantResult {
  /// results[r * n_images + i]; on a rank other than the root only its own images are set.
  std::vector<PairResult> pairs;
  std::vector<float> cc;          ///< the root's N_ref x N_img CCs (row = reference)
  std::vector<Assignment> rows;   ///< the root's kept pairs, images in input order
  double align_s = 0, weights_s = 0;
};

/// @brief Aligns every reference with this rank's images on `backend`, merges the ranks' pairs
/// and, on the root, computes the weights and the kept rows.
/// @throw frost::Error(Runtime) when a pair's CC is NaN or +Inf or its pose is not finite.
SignificantResult align_significant(AlignmentBackend& backend, const SignificantInput& input,
                                    const SignificantOptions& options);

} // namespace frost::align
