#include "frost/motion/dose_weighting.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "frost/core/error.hpp"

namespace frost::motion {

double voltage_dose_factor(double voltage_kv) {
  // RELION accepts exactly these three voltages (Grant & Grigorieff's 300 kV model, scaled).
  if (voltage_kv == 300.0) return 1.0;
  if (voltage_kv == 200.0) return 0.8;
  if (voltage_kv == 100.0) return 0.64;
  throw_usage_error("dose weighting supports 100, 200 or 300 kV, not " + std::to_string(voltage_kv) + " kV");
}

void validate(const DoseSchedule& schedule) {
  voltage_dose_factor(schedule.voltage_kv);
  if (!(schedule.dose_per_frame > 0.0))
    throw_usage_error("dose weighting needs a positive dose per frame, got " + std::to_string(schedule.dose_per_frame));
  if (!(schedule.pre_exposure >= 0.0))
    throw_usage_error("pre-exposure must not be negative, got " + std::to_string(schedule.pre_exposure));
}

double critical_exposure(double k) {
  if (k <= 0.0) return std::numeric_limits<double>::infinity();
  return critical_exposure_positive(k);
}

double frame_dose(const DoseSchedule& schedule, int frame) {
  const double end_of_frame = schedule.pre_exposure + schedule.dose_per_frame * (static_cast<double>(frame) + 1.0);
  return end_of_frame / voltage_dose_factor(schedule.voltage_kv);
}

double dose_weight(double k, double dose) {
  if (k <= 0.0) return 1.0;
  return std::exp(-dose / (2.0 * critical_exposure(k)));
}

} // namespace frost::motion
