#pragma once
/// @file sum_quality.hpp
/// @brief The quality numbers of a movie's sums that a live session records, computed where the
/// sums are made (docs/movie_align.md#quality-of-the-sums): on a GPU the sums then need not come
/// back to the host, nor their spectra.
#include <optional>

#include "frost/core/image.hpp"
#include "frost/fft/shell_sums.hpp"

namespace frost::motion {

struct SumQuality {
  /// A = the sum of the even frames, B = of the odd frames (Sum normalization): the half-sum FRC.
  fft::ShellSums halves;
  /// With dose weighting: A = the dose-weighted sum, B = the plain aligned sum divided by
  /// sqrt(frame count), i.e. the weighted sum's own normalisation with every weight 1. The ratio of
  /// their powers over kWeightingBand is 1 when weighting changed nothing and below 1 where it
  /// damped the signal.
  std::optional<fft::ShellSums> weighting;
};

/// The band of the weighting check: from half Nyquist to Nyquist.
inline constexpr fft::FrequencyBand kWeightingBand{0.25, 0.5};

/// @brief SumQuality of host images with FFTW: `even` and `odd` as summed (not divided by their
/// counts); `weighted` (empty view: no weighting) with `aligned` = even + odd over `count` frames.
SumQuality sum_quality(View<const float> even, View<const float> odd, View<const float> weighted,
                       View<const float> aligned, int count);

/// SumQuality::weighting from the shell sums of the dose-weighted sum (A) against the plain
/// aligned sum over `count` frames (B): B taken to the weighted sum's normalisation (divided by
/// sqrt(count): cross by that, power_b and band_b by its square). Both backends finish with it.
fft::ShellSums weighting_check_sums(fft::ShellSums weighted_and_plain, int count);

} // namespace frost::motion
