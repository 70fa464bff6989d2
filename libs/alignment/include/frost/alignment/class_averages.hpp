#pragma once
/// @file class_averages.hpp
/// @brief The updated references of `--oUpdatedRefs` (docs/align_significant.md#updated-references):
/// per reference, the weighted average of the images assigned to it, each aligned with its pose.
#include <cstddef>
#include <vector>

#include "frost/alignment/settings.hpp"
#include "frost/alignment/significance.hpp"
#include "frost/core/image.hpp"

namespace frost::align {

struct ClassAverages {
  Image<float> averages;           ///< {X, X, 1, n_ref}: image r is reference r's average
  std::vector<std::size_t> counts; ///< rows assigned to each reference (classCount)
};

/// @brief avg_r = Σ w(r, i) · W_A(r,i)[I_i] / Σ w(r, i) over the rows assigned to r, where
/// `results[r · n_img + i]` holds A (and flip: a flipped row warps the X-mirror of I_i, as the
/// aligner aligned it). The normaliser is per reference (the anchor's accumulates across
/// references, quirk 2); assigned rows with Σ w = 0 give the unweighted mean (quirk 3); a
/// reference without rows gives zeros. `images` is {X, X, 1, n_img}. Sums in double.
ClassAverages class_averages(View<const float> images, const std::vector<Assignment>& rows,
                             const std::vector<PairResult>& results, std::size_t n_ref);

/// The result of each row: row_results[k] = results[rows[k].reference · n_img + rows[k].image].
std::vector<PairResult> row_results(const std::vector<Assignment>& rows, const std::vector<PairResult>& results,
                                    std::size_t n_img);

/// @brief The same averages from images given in batches (docs/align_significant.md#streaming-the-images):
/// add() each batch once, in any order, then finish(). The sums are those of class_averages, term
/// for term, when the batches come in image order. Under MPI every rank builds the averager from
/// every row, adds only its own images, and the ranks' sums() are summed onto the root before
/// its finish() (docs/align_significant.md#mpi).
class ClassAverager {
public:
  /// `rows` and `results` (the result of each row, as row_results gives it) must outlive the
  /// averager; the images of the run are 0 .. n_img - 1.
  ClassAverager(int size, const std::vector<Assignment>& rows, const std::vector<PairResult>& results,
                std::size_t n_ref, std::size_t n_img);
  /// Images first .. first + batch.n - 1 of the run ({X, X, 1, count}).
  void add(View<const float> batch, std::size_t first);
  /// The weighted sums, n_ref x X² doubles, reference-major: the images added here so far.
  std::vector<double>& sums() noexcept { return sums_; }
  ClassAverages finish() const;

private:
  int x_;
  std::size_t n_ref_, n_img_;
  const std::vector<Assignment>& rows_;
  const std::vector<PairResult>& results_;
  std::vector<std::vector<std::size_t>> by_ref_; ///< each reference's rows (indices), in image order
  std::vector<double> sums_;                     ///< n_ref x X² weighted sums
  std::vector<double> weights_;                  ///< Σ w per reference
};

} // namespace frost::align
