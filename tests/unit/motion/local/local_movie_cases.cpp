#include "local_movie_cases.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "frost/core/threads.hpp"

namespace frost::motion::local_test {

namespace {

constexpr int kSize = 1024;
constexpr int kFrames = 20;
constexpr double kNoiseFreeContrast = 0.1; // 1 + 0.1·S never clips, so S_t = (lambda - 1) / 0.1

/// PCG32 (O'Neill): small and fast; one stream per frame keeps results thread-count independent.
class Pcg32 {
public:
  explicit Pcg32(std::uint64_t stream) : inc_((stream << 1u) | 1u) { next(); state_ += 0x853c49e6748fea9bull; next(); }
  std::uint32_t next() {
    const std::uint64_t old = state_;
    state_ = old * 6364136223846793005ull + inc_;
    const auto xorshifted = static_cast<std::uint32_t>(((old >> 18u) ^ old) >> 27u);
    const auto rot = static_cast<std::uint32_t>(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
  }
  double uniform() { return (static_cast<double>(next()) + 0.5) * 0x1.0p-32; } // (0, 1)
  /// Poisson draw by inversion of the CDF (means here are below ~10).
  int poisson(double lambda) {
    const double u = uniform();
    double p = std::exp(-lambda), cdf = p;
    int k = 0;
    while (u > cdf && p > 0) {
      ++k;
      p *= lambda / k;
      cdf += p;
    }
    return k;
  }

private:
  std::uint64_t state_ = 0, inc_;
};

const sim::SimulatedMovie& noise_free(double time_constant, std::uint32_t seed) {
  static std::map<std::pair<double, std::uint32_t>, std::unique_ptr<sim::SimulatedMovie>> cache;
  auto& slot = cache[{time_constant, seed}];
  if (!slot) {
    sim::MovieSetup m;
    m.nx = m.ny = kSize;
    m.frames = kFrames;
    m.pixel_size = 1.0;
    m.noise_free = true;
    m.contrast = kNoiseFreeContrast;
    m.trajectory = sim::TrajectoryKind::T3;
    m.time_constant = time_constant;
    m.seed = seed;
    slot = std::make_unique<sim::SimulatedMovie>(sim::simulate_movie(m));
  }
  return *slot;
}

Image<float> poisson_movie(const Image<float>& expected, double dose, double contrast, std::uint32_t seed) {
  Image<float> out(expected.shape());
  const index_t per = expected.shape().pixels_per_item();
  const int frames = static_cast<int>(expected.shape().n);
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (int t = 0; t < frames; ++t) {
    Pcg32 rng(static_cast<std::uint64_t>(seed) * 1000u + static_cast<std::uint64_t>(t));
    for (index_t i = t * per; i < (t + 1) * per; ++i) {
      const double s = (expected[i] - 1.0) / kNoiseFreeContrast;
      out[i] = static_cast<float>(rng.poisson(dose * std::max(0.0, 1.0 + contrast * s)));
    }
  }
  return out;
}

Errors summarise(std::vector<double> norms) {
  Errors e;
  if (norms.empty()) return e;
  double ss = 0;
  for (double v : norms) ss += v * v;
  e.rms = std::sqrt(ss / static_cast<double>(norms.size()));
  std::sort(norms.begin(), norms.end());
  e.max = norms.back();
  const auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(norms.size())));
  e.p95 = norms[std::max<std::size_t>(rank, 1) - 1]; // nearest rank
  return e;
}

} // namespace

Movie t3_movie(double time_constant, double dose, double contrast, std::uint32_t seed) {
  static std::mutex mutex;
  static std::map<std::tuple<double, double, double, std::uint32_t>, std::unique_ptr<Image<float>>> noisy;
  std::lock_guard<std::mutex> lock(mutex);
  const sim::SimulatedMovie& base = noise_free(time_constant, seed);
  if (dose <= 0) return {base.frames.cview(), base.trajectory};
  auto& slot = noisy[{time_constant, dose, contrast, seed}];
  if (!slot) slot = std::make_unique<Image<float>>(poisson_movie(base.frames, dose, contrast, seed));
  return {slot->cview(), base.trajectory};
}

Vec2 true_shift(const sim::Trajectory& truth, int t, int r, double x, double y) {
  double erx, ery;
  truth.displacement(r, x, y, &erx, &ery);
  Vec2 s;
  for (int i = 0; i < 5; ++i) {
    double etx, ety;
    truth.displacement(t, x - s.x, y - s.y, &etx, &ety);
    s = {erx - etx, ery - ety};
  }
  return s;
}

Errors model_errors(const MotionModel& model, const sim::Trajectory& truth, index_t width, index_t height) {
  std::vector<double> norms;
  const int r = model.reference;
  for (int t = 0; t < model.frames(); ++t)
    for (int j = 0; j < 9; ++j)
      for (int i = 0; i < 9; ++i) {
        const double x = static_cast<double>(width) * (0.1 + 0.1 * i);
        const double y = static_cast<double>(height) * (0.1 + 0.1 * j);
        const Vec2 est = model.shift(x, y, t), est_r = model.shift(x, y, r);
        const Vec2 tru = true_shift(truth, t, r, x, y);
        norms.push_back(std::hypot(est.x - est_r.x - tru.x, est.y - est_r.y - tru.y));
      }
  return summarise(norms);
}

Errors patch_errors(const LocalAlignment& local, const sim::Trajectory& truth) {
  std::vector<double> norms;
  const int r = local.model.reference;
  for (const PatchTrack& p : local.patches)
    for (int t = 0; t < local.model.frames(); ++t) {
      const Vec2 est = measured_total_shift(p, local.model.global, t);
      const Vec2 tru = true_shift(truth, t, r, p.centre.x, p.centre.y);
      norms.push_back(std::hypot(est.x - tru.x, est.y - tru.y));
    }
  return summarise(norms);
}

GlobalSettings global_settings() {
  GlobalSettings s;
  s.pixel_size = 1.0;
  s.max_resolution = 30.0;
  s.max_shift = 50.0;
  return s;
}

LocalSettings local_settings() {
  LocalSettings s;
  s.correlation = global_settings();
  s.min_local_resolution = 256;
  s.patches_x = s.patches_y = 5;
  s.patches_average = 3;
  s.control_points = {4, 4, 5};
  s.model = LocalModelKind::Residual;
  return s;
}

} // namespace frost::motion::local_test
