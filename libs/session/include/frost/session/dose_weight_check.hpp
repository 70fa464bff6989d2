#pragma once
/// @file dose_weight_check.hpp
/// @brief Did dose weighting do what it should: the high-frequency power of the weighted sum
/// over that of the unweighted sum (docs/session.md#dose-weighting-check).
#include "frost/core/image.hpp"
#include "frost/fft/shell_sums.hpp"

namespace frost::session {

/// Sum of |F|^2 over frequencies between `from_nyquist` and 1 times Nyquist (per axis scaled, as
/// the FRC shells), for the weighted over the unweighted sum. Below 1 when weighting damped the
/// high frequencies as it should; 1 when it did nothing. frost::Error(Runtime) when the shapes differ.
double high_frequency_power_ratio(View<const float> weighted, View<const float> unweighted, double from_nyquist = 0.5);

/// The same from shell sums of the weighted (A) and the unweighted (B) sum made elsewhere: their
/// band powers' ratio (NaN when B has none).
double high_frequency_power_ratio(const fft::ShellSums& weighted_and_unweighted);

} // namespace frost::session
