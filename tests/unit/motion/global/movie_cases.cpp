#include "movie_cases.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "frost/core/threads.hpp"

namespace frost::motion::test_movies {

namespace {

constexpr double kNoiseFreeContrast = 0.1; // S_t = (lambda - 1) / 0.1; 1 + 0.1·S never clips (S > -10)

// splitmix64: a small, fast generator; one stream per frame keeps results thread-count independent.
struct SplitMix {
  std::uint64_t state;
  double uniform() { // (0, 1]
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (static_cast<double>(z >> 11) + 1.0) * 0x1.0p-53;
  }
  // Inversion by sequential search: one uniform per draw, exact for the small means used here.
  int poisson(float lambda) {
    const double u = uniform();
    double p = std::exp(-static_cast<double>(lambda)), cdf = p;
    int k = 0;
    while (u > cdf && p > 0) {
      ++k;
      p *= lambda / k;
      cdf += p;
    }
    return k;
  }
};

const sim::SimulatedMovie& noise_free(sim::TrajectoryKind trajectory, std::uint32_t seed) {
  static std::map<std::pair<int, std::uint32_t>, std::unique_ptr<sim::SimulatedMovie>> cache;
  auto& slot = cache[{static_cast<int>(trajectory), seed}];
  if (!slot) {
    sim::MovieSetup m;
    m.nx = m.ny = 1024;
    m.frames = 20;
    m.pixel_size = 1.0;
    m.noise_free = true;
    m.contrast = kNoiseFreeContrast;
    m.trajectory = trajectory;
    m.seed = seed;
    slot = std::make_unique<sim::SimulatedMovie>(sim::simulate_movie(m));
  }
  return *slot;
}

Image<float> poisson_movie(const Image<float>& expected, double dose, double contrast, std::uint32_t seed) {
  Image<float> out(expected.shape());
  const index_t per = expected.shape().pixels_per_item();
  const int frames = static_cast<int>(expected.shape().n);
  const float fd = static_cast<float>(dose), fc = static_cast<float>(contrast);
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (int t = 0; t < frames; ++t) {
    SplitMix rng{0x5eed0000ull * seed + 7919ull * static_cast<std::uint64_t>(t + 1)};
    for (index_t i = t * per; i < (t + 1) * per; ++i) {
      const float s = (expected[i] - 1.f) * (1.f / static_cast<float>(kNoiseFreeContrast));
      out[i] = static_cast<float>(rng.poisson(fd * std::max(0.f, 1.f + fc * s)));
    }
  }
  return out;
}

} // namespace

Movie movie(sim::TrajectoryKind trajectory, double dose, double contrast, std::uint32_t seed) {
  static std::mutex mutex;
  static std::map<std::tuple<int, double, double, std::uint32_t>, std::unique_ptr<Image<float>>> noisy;
  std::lock_guard<std::mutex> lock(mutex);
  const sim::SimulatedMovie& base = noise_free(trajectory, seed);
  if (dose <= 0) return {base.frames.cview(), base.trajectory};
  auto& slot = noisy[{static_cast<int>(trajectory), dose, contrast, seed}];
  if (!slot) slot = std::make_unique<Image<float>>(poisson_movie(base.frames, dose, contrast, seed));
  return {slot->cview(), base.trajectory};
}

ShiftErrors shift_errors(const std::vector<Vec2>& shifts, int reference, const sim::Trajectory& truth) {
  const std::size_t n = shifts.size();
  double rx, ry;
  truth.global(reference, &rx, &ry);
  std::vector<Vec2> e(n);
  Vec2 mean;
  for (std::size_t t = 0; t < n; ++t) {
    double gx, gy;
    truth.global(static_cast<double>(t), &gx, &gy);
    // The specimen seen at x in the reference is at x + (g(t) - g(r)) in frame t: s_t = -(g(t) - g(r)).
    e[t] = {shifts[t].x + (gx - rx), shifts[t].y + (gy - ry)};
    mean.x += e[t].x / static_cast<double>(n);
    mean.y += e[t].y / static_cast<double>(n);
  }
  std::vector<double> norm(n);
  double ss = 0;
  for (std::size_t t = 0; t < n; ++t) {
    norm[t] = std::hypot(e[t].x - mean.x, e[t].y - mean.y);
    ss += norm[t] * norm[t];
  }
  ShiftErrors out;
  out.rms = std::sqrt(ss / static_cast<double>(n));
  std::sort(norm.begin(), norm.end());
  out.max = norm.back();
  // Nearest-rank 95th percentile.
  const auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(n)));
  out.p95 = norm[std::max<std::size_t>(rank, 1) - 1];
  return out;
}

GlobalSettings default_settings() {
  GlobalSettings s;
  s.pixel_size = 1.0;
  s.max_resolution = 30.0;
  s.max_shift = 50.0;
  return s;
}

} // namespace frost::motion::test_movies
