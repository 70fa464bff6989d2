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

/// Loads `count` images of the run from index `first` (square, even size).
using ImageLoader = std::function<Image<float>(std::size_t first, std::size_t count)>;

/// The stacks of one rank. The images come either in memory (`images`) or from `load` in batches
/// of `batch` images, the next read while the current one is aligned, so that host memory does not
/// grow with the number of images (docs/align_significant.md#streaming-the-images).
struct SignificantInput {
  View<const float> references; ///< every reference (square, even size)
  View<const float> images;     ///< this rank's images: first_image .. first_image + images.n - 1 of the run
  std::size_t n_images = 0;     ///< images of the run, over every rank
  std::size_t first_image = 0;
  std::vector<geom::EulerAngles> directions; ///< each reference's (rot, tilt), for the neighbourhoods
  ImageLoader load;             ///< when set, `images` is unused and this rank has `local_images` images
  std::size_t local_images = 0;
  std::size_t batch = 0;        ///< images per batch when streaming (0: all at once)
};

/// Images per batch for `box`² floats: about kStreamBatchBytes, at least one.
inline constexpr std::size_t kStreamBatchBytes = std::size_t{256} << 20;
std::size_t stream_batch_images(int box);

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
  /// Assembles the ranks' column blocks of a row-major matrix of floats on the root (the
  /// contract of frost::mpi::gather_columns: this rank's block `local`, rows x count, holds the
  /// columns [first, first + count) of every row; the root's `full` has rows x row_length);
  /// empty in a single process. When set, every rank aligns into its own block only.
  std::function<void(const float* local, std::size_t rows, std::size_t first, std::size_t count, float* full,
                     std::size_t row_length)>
      gather_to_root;
  /// Names image i and reference r (indices of the run) in the error a non-finite pair raises;
  /// empty: the indices.
  std::function<std::string(std::size_t reference, std::size_t image)> describe_pair;
};

struct SignificantResult {
  /// results[r * n_images + i] on the root; empty on the other ranks.
  std::vector<PairResult> pairs;
  std::vector<float> cc;          ///< the root's N_ref x N_img CCs (row = reference)
  std::vector<Assignment> rows;   ///< the root's kept pairs, images in input order
  double align_s = 0, weights_s = 0;
  double load_wait_s = 0;         ///< of align_s, the time spent waiting for batches to load
  std::size_t batches = 0;        ///< batches of images aligned (1 when the images were in memory)
};

/// @brief Aligns every reference with this rank's images on `backend`, merges the ranks' pairs
/// and, on the root, computes the weights and the kept rows.
/// @throw frost::Error(Runtime) when a pair's CC is NaN or +Inf or its pose is not finite.
SignificantResult align_significant(AlignmentBackend& backend, const SignificantInput& input,
                                    const SignificantOptions& options);

} // namespace frost::align
