#pragma once
/// @file sum_alignment.hpp
/// @brief Global mode `sum` (docs/movie_align.md#frame-versus-sum-mode): every frame against the
/// sum of the others, frames re-shifted after each iteration (RELION `alignPatch`, MotionCor2).
#include <vector>

#include "frost/core/image.hpp"
#include "frost/fft/spec.hpp"
#include "frost/motion/global_settings.hpp"
#include "frost/motion/motion_model.hpp"
#include "frost/motion/working_sizes.hpp"

namespace frost::motion {

struct SumAlignment {
  std::vector<Vec2> positions; ///< d_t, mean zero [processing px]
  int iterations = 0;
  double last_rms_increment = 0; ///< [processing px]
  bool converged = false;        ///< last increment below the tolerance
  int edge_peaks = 0;            ///< peaks on the search-radius boundary (any iteration)
};

/// @brief Iterates: shift the spectra by the current positions (phase ramp on the correlation grid),
/// correlate (sum - frame) with each frame, add the measured increments (mean removed), until the rms
/// increment is below settings.sum_tolerance or after settings.sum_iterations iterations.
/// @param spectra filtered_spectra(...) of all frames
SumAlignment align_to_sum(View<const fft::Complex> spectra, const WorkingSizes& sizes, const GlobalSettings& settings);

} // namespace frost::motion
