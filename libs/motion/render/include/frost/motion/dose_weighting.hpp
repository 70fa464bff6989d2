#pragma once
/// @file dose_weighting.hpp
/// @brief Exposure-dependent weights of the dose-weighted sum (docs/movie_align.md#dose-weighting; Grant &
/// Grigorieff 2015 as RELION codes it).
///
/// Critical exposure N_e(k) = 0.245·k^−1.665 + 2.81 e⁻/Å² (k in 1/Å). The dose of absolute frame
/// t is the dose at its *end*, D_t = pre + dose_per_frame·(t + 1), turned into the 300 kV
/// equivalent by dividing by 0.8 at 200 kV and 0.64 at 100 kV. Weight w_t(k) = exp(−D_t / (2 N_e(k))),
/// 1 at k = 0.
#include <math.h>

#include "frost/core/hd.hpp"

namespace frost::motion {

struct DoseSchedule {
  double dose_per_frame = 1.0; ///< e⁻/Å² per movie frame (per fraction for EER)
  double pre_exposure = 0.0;   ///< e⁻/Å² received before frame 0
  double voltage_kv = 300.0;   ///< 100, 200 or 300
};

/// @brief Checks the schedule. @throw frost::Error(Usage) for a voltage other than 100/200/300
/// kV, a dose per frame <= 0 or a negative pre-exposure.
void validate(const DoseSchedule& schedule);

/// 1 at 300 kV, 0.8 at 200 kV, 0.64 at 100 kV. @throw frost::Error(Usage) otherwise.
double voltage_dose_factor(double voltage_kv);

/// N_e(k) [e⁻/Å²] for k > 0 [1/Å]; +infinity at k = 0.
double critical_exposure(double k);

/// N_e(k) for k > 0: the formula itself, shared by critical_exposure() and the GPU's weight table.
FROST_HD inline double critical_exposure_positive(double k) { return 0.245 * pow(k, -1.665) + 2.81; }

/// 300 kV-equivalent dose at the end of absolute frame `frame` [e⁻/Å²].
double frame_dose(const DoseSchedule& schedule, int frame);

/// exp(−dose / (2 N_e(k))); exactly 1 at k = 0.
double dose_weight(double k, double dose);

} // namespace frost::motion
