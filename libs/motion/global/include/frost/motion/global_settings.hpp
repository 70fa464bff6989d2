#pragma once
/// @file global_settings.hpp
/// @brief Options of the global alignment (docs/movie_align.md#command-line) as the library takes them.
#include <string>

#include "frost/geometry/subpixel_peak.hpp"

namespace frost::motion {

/// Sub-pixel refinement of a correlation maximum
/// (docs/movie_align.md#peak-search-and-sub-pixel-refinement, --subpixel): geom's, whose parser
/// and names the program's option uses (gauss3 by default; centroid3 is biased, kept for
/// compatibility with Xmipp's GPU aligner).
using geom::SubpixelMethod;
using geom::parse_subpixel;
using geom::to_string;

/// How the correlation size C is rounded
/// (docs/movie_align.md#working-sizes-and-the-low-pass-filter, --fft-sizes). `advisor` is GPU-only.
enum class FftSizeRule {
  Exact, ///< smallest even integer >= k·X
  Fast   ///< then the smallest even 2^a 3^b 5^c 7^d at or above it
};

/// Which frame has zero shift (docs/movie_align.md#reference-frame, --reference).
enum class ReferenceRule { Minimax, First, Middle, Index };

/// Frame-pair correlation (FlexAlign) or frame versus sum of the others
/// (docs/movie_align.md#frame-versus-sum-mode, --global-mode).
enum class GlobalMode { Pairs, Sum };

/// @brief Everything the global stage needs besides the frames. Lengths in Å, shifts in
/// processing (binned) pixels.
struct GlobalSettings {
  double pixel_size = 1.0;      ///< Ts_b: processing pixel size [Å/px]
  double max_resolution = 20.0; ///< R (--maxResForCorrelation): the low-pass is 0.5 at 1/R [Å]
  /// R is the default, not asked for: a processing pixel too coarse for it raises it to 7 Ts_b,
  /// the finest that pixel allows (set_processing_pixel_size;
  /// docs/movie_align.md#working-sizes-and-the-low-pass-filter). The program clears it when
  /// --maxResForCorrelation is given.
  bool max_resolution_is_default = true;
  double max_shift = 50.0;      ///< S (--maxShift): search radius of one correlation [Å]
  FftSizeRule fft_sizes = FftSizeRule::Fast;
  /// Transform a centred window of the frame up to 10 % smaller (in pixel count) whose sides are
  /// fast FFT sizes, instead of the whole frame (docs/movie_align.md#working-sizes-and-the-low-pass-filter).
  bool crop_frames = false;
  SubpixelMethod subpixel = SubpixelMethod::Gauss3;
  int max_pair_distance = 0;    ///< --max-pair-distance K: only pairs with j - i <= K (0 = all)
  double outlier_sigma = 3.0;   ///< --outlier-sigma
  int outlier_rounds = 10;      ///< --outlier-rounds
  bool large_drift_bootstrap = true; ///< docs/movie_align.md#pairs-beyond-the-search-radius
  ReferenceRule reference = ReferenceRule::Minimax;
  int reference_index = 0;      ///< frame for ReferenceRule::Index (0-based)
  GlobalMode mode = GlobalMode::Pairs;
  double sum_tolerance = 0.1;   ///< --sum-tol: stop when the rms increment is below this [px]
  int sum_iterations = 15;      ///< --sum-iter
  int sum_group = 1;            ///< --group-global G: the sum mode aligns sums of G frames
  /// Pairs per batch (0 = automatic): on the CPU one thread's unit of work, on a device the maps
  /// held at once. Results never depend on it.
  int pair_batch = 0;
  /// Frames per window of the pair schedule (0 = all): pairs are visited window by window as
  /// the GPU pipeline does (docs/movie_align.md#the-cuda-backend). Results never depend on it.
  int frame_window = 0;
};

/// Names as on the command line; the parsers throw frost::Error(Usage) naming the option.
std::string to_string(FftSizeRule r);     ///< "exact" / "fast"
std::string to_string(GlobalMode m);      ///< "pairs" / "sum"
FftSizeRule parse_fft_size_rule(const std::string& text);
GlobalMode parse_global_mode(const std::string& text);
/// "minimax", "first", "middle", or a frame index (sets settings.reference_index).
void parse_reference(const std::string& text, GlobalSettings& settings);

} // namespace frost::motion
