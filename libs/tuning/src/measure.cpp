#include "frost/tuning/measure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "frost/core/error.hpp"

namespace frost::tuning {

double Measurement::total_ms() const { return std::accumulate(samples_ms.begin(), samples_ms.end(), 0.0); }

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return 0.5 * (lower + upper);
}

Measurement measure(const std::function<void()>& warm_up, const std::function<double()>& sample_ms,
                    std::optional<double> best_median_ms, const MeasureRules& rules) {
  FROST_EXPECTS(rules.min_samples >= 1 && rules.max_samples >= rules.min_samples,
                "measure: 1 <= min_samples <= max_samples");
  if (warm_up) warm_up();
  Measurement m;
  while (m.samples_ms.size() < rules.max_samples) {
    const double t = sample_ms();
    if (!std::isfinite(t) || t < 0)
      throw Error(ExitCode::Runtime, "tuning: a timed sample is " + std::to_string(t) + " ms");
    m.samples_ms.push_back(t);
    if (m.samples_ms.size() == 1 && best_median_ms && t > rules.slow_factor * *best_median_ms) {
      m.lower_bound = true; // hopeless: recorded as a lower bound, not measured further
      break;
    }
    if (m.samples_ms.size() >= rules.min_samples && m.total_ms() >= rules.min_total_ms) break;
  }
  m.median_ms = median(m.samples_ms);
  return m;
}

double relative_max_difference(const float* reference, const float* output, std::size_t n) {
  double max_ref = 0, max_diff = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = reference[i], o = output[i];
    if (!std::isfinite(o) && std::isfinite(r)) return std::numeric_limits<double>::infinity();
    max_ref = std::max(max_ref, std::abs(r));
    max_diff = std::max(max_diff, std::abs(o - r));
  }
  if (max_ref == 0) return max_diff == 0 ? 0 : std::numeric_limits<double>::infinity();
  return max_diff / max_ref;
}

bool outputs_agree(const float* reference, const float* output, std::size_t n, double tolerance, double* difference) {
  const double d = relative_max_difference(reference, output, n);
  if (difference) *difference = d;
  return d <= tolerance;
}

} // namespace frost::tuning
