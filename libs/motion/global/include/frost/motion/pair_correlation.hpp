#pragma once
/// @file pair_correlation.hpp
/// @brief Pairwise correlation of filtered frame spectra and the measured relative displacement
/// (docs/movie_align.md#pair-correlation and #peak-search-and-sub-pixel-refinement).
#include <vector>

#include "frost/core/image.hpp"
#include "frost/fft/plan.hpp"
#include "frost/motion/motion_model.hpp"
#include "frost/motion/peak_search.hpp"
#include "frost/motion/working_sizes.hpp"

namespace frost::motion {

/// Two frames, i < j.
struct FramePair {
  int i = 0, j = 0;
  friend bool operator==(const FramePair& a, const FramePair& b) { return a.i == b.i && a.j == b.j; }
};

/// All pairs i < j with j - i <= max_distance (0 = all), ordered by i then j.
std::vector<FramePair> frame_pairs(int frames, int max_distance);

/// @brief The order in which `pairs` are correlated when only two windows of `window` frames are
/// resident (0 = all frames): pairs inside window A, then A against each later window B, then A
/// advances (the FlexAlign paper, Algorithms 3-4). Returns indices into `pairs`; every pair once.
std::vector<int> window_schedule(const std::vector<FramePair>& pairs, int frames, int window);

/// What one correlation measured.
struct PairMeasurement {
  FramePair pair;
  Vec2 displacement; ///< m_ij = d_j - d_i [processing px]
  Peak peak;         ///< location on the correlation grid
};

/// m_ij = -(p* - centre) ⊙ (M/C): the relative displacement a peak at offset p* measures
/// [processing px] (the peak of c_ij sits at -(d_j - d_i)·C/M).
inline Vec2 pair_displacement(const Peak& peak, const WorkingSizes& sizes) {
  return {-peak.x * sizes.to_processing_x(), -peak.y * sizes.to_processing_y()};
}

/// @brief Centred correlation map c_ij = IFFT_C2R(G_i·conj(G_j)·(-1)^(kx+ky)); zero shift at
/// (C_x/2, C_y/2). `product` is scratch of the spectra's shape; `c2r` a plan for one C_x x C_y map.
void correlation_map(View<const fft::Complex> gi, View<const fft::Complex> gj, View<fft::Complex> product,
                     View<float> map, const fft::FftPlan& c2r);

/// Options of correlate_pairs.
struct CorrelationOptions {
  double search_radius = 0; ///< rho [correlation px]
  SubpixelMethod subpixel = SubpixelMethod::Gauss3;
  int pair_batch = 0;       ///< pairs per work unit of a thread (0 = automatic: one)
  int frame_window = 0;     ///< frames per window of the schedule (0 = all)
};

/// @brief Correlates every pair of `pairs` (frames are items of `spectra`, shape (C_x/2+1) x C_y x 1 x N).
/// Pairs run in window_schedule order, handed to threads `pair_batch` at a time; every thread has its
/// own scratch, so the result (in the order of `pairs`) does not depend on batch, window or thread count.
/// m_ij = -(p* - centre) ⊙ (M/C).
std::vector<PairMeasurement> correlate_pairs(View<const fft::Complex> spectra, const std::vector<FramePair>& pairs,
                                             const WorkingSizes& sizes, const CorrelationOptions& options);

} // namespace frost::motion
