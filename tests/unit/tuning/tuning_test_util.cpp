#include "tuning_test_util.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include "frost/core/log.hpp"

namespace frost::tuning::test {

std::uint64_t reference_fnv1a64(const std::string& s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

DeviceModel h100() { return {"NVIDIA H100 80GB HBM3", 9, 0, 132, 79}; }
SoftwareStack cuda124() { return {12040, 12040, "12040", "1.0"}; }

TuningKey make_key(const std::string& kernel, std::uint64_t signature, const std::string& problem) {
  TuningKey k;
  k.kernel = {kernel, 1, signature};
  k.device = h100();
  k.software = cuda124();
  k.problem = problem;
  return k;
}

TuningRecord make_record(const std::string& key, double best_ms, std::int64_t explored, const std::string& time,
                         std::int64_t block) {
  TuningRecord r;
  r.key = key;
  r.best = {{"BLOCK", block}};
  r.best_ms = best_ms;
  r.default_ms = 2 * best_ms;
  r.top = {{{{"BLOCK", block}}, best_ms}};
  r.avg_over_best = 1.5;
  r.explored = explored;
  r.space_size = 6;
  r.invalid = 0;
  r.searcher = "random";
  r.mode = "dynamic";
  r.gpu_uuid = "GPU-test";
  r.host = "test-host";
  r.tool = "frost test";
  r.time = time;
  return r;
}

std::optional<double> synthetic_ms(const TuningSpace& space, const Configuration& c) {
  const std::uint64_t h = reference_fnv1a64(space.describe(c));
  if (h % 23 == 0) return std::nullopt;
  double t = 1.0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const auto& values = space.parameters()[i].values;
    double pos = 0;
    for (std::size_t j = 0; j < values.size(); ++j)
      if (values[j] == c[i]) pos = static_cast<double>(j);
    const double mid = 0.5 * static_cast<double>(values.size() - 1) + 0.3 * static_cast<double>(i % 3) - 0.3;
    t += 0.05 * (pos - mid) * (pos - mid);
  }
  return t + 0.001 * static_cast<double>(h % 97);
}

} // namespace frost::tuning::test
