// Synthetic counting movies for the benchmark: fast to make at K3-super size (no FFTs, no
// std::poisson_distribution), with real structure so that correlations have a peak.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "bench_movie.hpp"
#include "frost/core/image.hpp"
#include "frost/core/threads.hpp"
#include "frost/io/image_io.hpp"

namespace frost::bench {

namespace {

std::uint32_t hash(std::uint64_t v) {
  v ^= v >> 33;
  v *= 0xff51afd7ed558ccdULL;
  v ^= v >> 33;
  v *= 0xc4ceb9fe1a85ec53ULL;
  v ^= v >> 33;
  return static_cast<std::uint32_t>(v);
}

// Smooth specimen: a sum of random plane waves (periods 20-300 px). Each wave is separable,
// cos(a + b) = cos a cos b - sin a sin b with a along x and b along y, so a frame costs two table
// lookups per wave and pixel instead of a cosine (K3 super: 1.9 G pixels).
struct Specimen {
  static constexpr int kWaves = 24;
  double kx[kWaves], ky[kWaves], phase[kWaves];
  explicit Specimen(std::uint32_t seed) {
    for (int i = 0; i < kWaves; ++i) {
      const double period = 20.0 + 280.0 * (hash(seed * 97 + i) % 1000) / 1000.0;
      const double angle = 6.283185307179586 * (hash(seed * 131 + i) % 1000) / 1000.0;
      kx[i] = std::cos(angle) * 6.283185307179586 / period;
      ky[i] = std::sin(angle) * 6.283185307179586 / period;
      phase[i] = 6.283185307179586 * (hash(seed * 173 + i) % 1000) / 1000.0;
    }
  }
};

} // namespace

double write_synthetic_movie(const std::string& path, const MovieSize& size, double pixel_size) {
  const auto t0 = std::chrono::steady_clock::now();
  const Specimen sp(7);
  constexpr int W = Specimen::kWaves;
  Image<float> movie(Shape::image(size.x, size.y, size.frames));
  const double dose = 1.0; // e-/px/frame, as a counting detector at ~1 e-/A^2
  const double norm = 1.0 / std::sqrt(W / 2.0);
  std::vector<double> ca(static_cast<std::size_t>(W * size.x)), sa(ca.size());
  for (int t = 0; t < size.frames; ++t) {
    // Settling drift (like T1 of docs/movie_align.md#synthetic-movies) in pixels.
    const double dx = 12.0 * (1.0 - std::exp(-t / 4.0)) + 0.15 * t, dy = -6.0 * (1.0 - std::exp(-t / 3.0)) + 0.1 * t;
#pragma omp parallel for num_threads(num_threads()) schedule(static)
    for (index_t x = 0; x < size.x; ++x)
      for (int i = 0; i < W; ++i) {
        const double a = sp.kx[i] * (static_cast<double>(x) + dx);
        ca[static_cast<std::size_t>(i * size.x + x)] = std::cos(a);
        sa[static_cast<std::size_t>(i * size.x + x)] = std::sin(a);
      }
#pragma omp parallel for num_threads(num_threads()) schedule(dynamic, 16)
    for (index_t y = 0; y < size.y; ++y) {
      double cb[W], sb[W];
      for (int i = 0; i < W; ++i) {
        const double b = sp.ky[i] * (static_cast<double>(y) + dy) + sp.phase[i];
        cb[i] = std::cos(b);
        sb[i] = std::sin(b);
      }
      float* out = &movie(0, y, 0, t);
      const std::uint64_t row = static_cast<std::uint64_t>(t) * static_cast<std::uint64_t>(size.y) + static_cast<std::uint64_t>(y);
      for (index_t x = 0; x < size.x; ++x) {
        double v = 0;
        for (int i = 0; i < W; ++i)
          v += ca[static_cast<std::size_t>(i * size.x + x)] * cb[i] - sa[static_cast<std::size_t>(i * size.x + x)] * sb[i];
        const double lambda = dose * std::max(0.0, 1.0 + 0.3 * v * norm);
        // Counts: lambda's integer part plus a Bernoulli draw of its fraction (mean lambda).
        const double u = (hash((row << 20) ^ static_cast<std::uint64_t>(x)) & 0xffffff) / 16777216.0;
        const double c = std::floor(lambda) + (u < lambda - std::floor(lambda) ? 1.0 : 0.0);
        out[x] = static_cast<float>(std::min(15.0, c));
      }
    }
  }
  io::MrcWriteOptions o;
  o.mode = io::MrcMode::Int8;
  o.pixel_size = pixel_size;
  io::write_image(path, movie.cview(), o);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace frost::bench
