#include "frost/tuning/decision.hpp"

#include <cmath>

#include "frost/core/error.hpp"

namespace frost::tuning {

double relative_performance(double n, double s, double t_well, double t_avg, double t_c) {
  FROST_EXPECTS(n >= s && s >= 0 && t_well > 0, "relative_performance needs n >= s >= 0 and t_well > 0");
  return n * t_well / (s * t_avg + (n - s) * t_well + s * t_c);
}

double calls_needed(double rp, double s, double avg_over_well, double compile_over_well) {
  FROST_EXPECTS(rp > 0 && rp < 1, "calls_needed needs 0 < rp < 1");
  return rp * s * (avg_over_well - 1 + compile_over_well) / (1 - rp);
}

std::int64_t steps_needed(double p, double r) {
  FROST_EXPECTS(p > 0 && p < 1 && r > 0 && r < 1, "steps_needed needs 0 < p, r < 1");
  // The tolerance keeps exact quotients (p = 0.75, r = 0.5: 2 steps) from rounding up.
  return static_cast<std::int64_t>(std::ceil(std::log1p(-p) / std::log1p(-r) - 1e-9));
}

bool dynamic_tuning_pays(const AutoInputs& in) {
  if (in.explored <= 0 || in.t_well_ms <= 0) return false;
  const double ratio = in.avg_over_best.value_or(kDefaultAvgOverBest);
  return in.calls >= calls_needed(in.rp, in.explored, ratio, in.compile_ms / in.t_well_ms);
}

} // namespace frost::tuning
