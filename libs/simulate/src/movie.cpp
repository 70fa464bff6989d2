#include "frost/simulate/movie.hpp"

#include <cmath>
#include <random>

#include "frost/core/error.hpp"
#include "frost/fft/fft.hpp"
#include "frost/geometry/bspline.hpp"
#include "frost/geometry/fourier_shift.hpp"

namespace frost::sim {

namespace {

constexpr index_t kMargin = 64; // canvas is the frame plus 64 px on each side (periodic wrap hidden)

// Keeps |k| in (lo, hi] (1/A) of a half spectrum of real shape s, zero elsewhere.
void band_pass(View<fft::Complex> spec, const Shape& s, double pixel_size, double lo, double hi) {
  for (index_t y = 0; y < s.y; ++y) {
    const double ky = static_cast<double>(y <= s.y / 2 ? y : y - s.y) / (static_cast<double>(s.y) * pixel_size);
    for (index_t x = 0; x < s.x / 2 + 1; ++x) {
      const double kx = static_cast<double>(x) / (static_cast<double>(s.x) * pixel_size);
      const double k = std::sqrt(kx * kx + ky * ky);
      if (!(k > lo && k <= hi)) spec(x, y) = 0;
    }
  }
}

void normalise(Image<float>& img) {
  double sum = 0, sum2 = 0;
  for (float v : img) {
    sum += v;
    sum2 += static_cast<double>(v) * v;
  }
  const double n = static_cast<double>(img.size());
  const double mean = sum / n;
  const double sd = std::sqrt(std::max(1e-30, sum2 / n - mean * mean));
  for (float& v : img) v = static_cast<float>((v - mean) / sd);
}

Image<float> band(index_t cx, index_t cy, double ts, double lo, double hi, std::uint32_t seed) {
  const Shape s = Shape::image(cx, cy);
  Image<float> noise(s);
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.f, 1.f);
  for (float& v : noise) v = g(rng);
  auto planner = fft::shared_planner(fft::Backend::Cpu);
  Image<fft::Complex> spec(s.half_spectrum());
  planner->plan(fft::FftSpec::r2c(s)).execute(noise.cview(), spec.view());
  band_pass(spec.view(), s, ts, lo, hi);
  planner->plan(fft::FftSpec::c2r(s)).execute(spec.view(), noise.view());
  normalise(noise);
  return noise;
}

} // namespace

Image<float> make_specimen(index_t cx, index_t cy, double pixel_size, double high_frequency, std::uint32_t seed) {
  Image<float> s = band(cx, cy, pixel_size, 1.0 / 300.0, 1.0 / 20.0, seed);
  if (high_frequency != 0.0) {
    const Image<float> hf = band(cx, cy, pixel_size, 1.0 / 20.0, 1.0 / 2.2, seed ^ 0x9e3779b9u);
    for (index_t i = 0; i < s.size(); ++i) s[i] += static_cast<float>(high_frequency) * hf[i];
  }
  return s;
}

SimulatedMovie simulate_movie(const MovieSetup& m) {
  if (m.nx < 16 || m.ny < 16 || m.frames < 1)
    throw_usage_error("movie size must be at least 16x16 with one frame");
  FROST_EXPECTS(m.dose > 0 && m.pixel_size > 0, "dose and pixel size must be positive");
  FROST_EXPECTS(m.dose <= kMaxDose && m.contrast >= 0 && m.contrast <= kMaxContrast && m.high_frequency >= 0 &&
                    m.high_frequency <= kMaxHighFrequency,
                "dose, contrast and high-frequency weight within the limits of movie.hpp");
  const index_t cx = m.nx + 2 * kMargin, cy = m.ny + 2 * kMargin;
  const Shape canvas_shape = Shape::image(cx, cy);
  const Image<float> canvas = make_specimen(cx, cy, m.pixel_size, m.high_frequency, m.seed);

  SimulatedMovie out;
  out.trajectory.kind = m.trajectory;
  out.trajectory.nx = m.nx;
  out.trajectory.ny = m.ny;
  out.trajectory.frames = m.frames;
  out.trajectory.time_constant = m.time_constant;
  out.frames = Image<float>(Shape::image(m.nx, m.ny, m.frames));
  out.specimen = Image<float>(Shape::image(m.nx, m.ny));
  for (index_t y = 0; y < m.ny; ++y)
    for (index_t x = 0; x < m.nx; ++x) out.specimen(x, y) = canvas(x + kMargin, y + kMargin);

  if (m.gain) {
    out.gain = Image<float>(Shape::image(m.nx, m.ny));
    std::mt19937 rng(m.seed ^ 0x85ebca6bu);
    std::normal_distribution<float> g(1.f, 0.1f);
    for (float& v : out.gain) v = std::min(1.5f, std::max(0.5f, g(rng)));
  }

  // The expected specimen image of every frame: an exact Fourier phase ramp on the periodic
  // canvas for global motion, cubic B-spline sampling at x - E_t(x) for local motion.
  Image<fft::Complex> canvas_spec;
  Image<float> coeffs;
  auto planner = fft::shared_planner(fft::Backend::Cpu);
  if (out.trajectory.is_local()) {
    coeffs = geom::bspline_coefficients_2d<float>(canvas.cview());
  } else {
    canvas_spec = Image<fft::Complex>(canvas_shape.half_spectrum());
    planner->plan(fft::FftSpec::r2c(canvas_shape)).execute(canvas.cview(), canvas_spec.view());
  }
  fft::PlanOptions one_thread;
  one_thread.threads = 1;
  const auto inverse = planner->plan(fft::FftSpec::c2r(canvas_shape), one_thread);
  const float dose = m.noise_free ? 1.f : static_cast<float>(m.dose);
  const float c = static_cast<float>(m.contrast);
  const float inv_n = 1.f / static_cast<float>(cx * cy);

#pragma omp parallel for schedule(dynamic)
  for (int t = 0; t < m.frames; ++t) {
    Image<float> shown(Shape::image(m.nx, m.ny));
    if (out.trajectory.is_local()) {
      for (index_t y = 0; y < m.ny; ++y)
        for (index_t x = 0; x < m.nx; ++x) {
          double ex, ey;
          out.trajectory.displacement(t, static_cast<double>(x), static_cast<double>(y), &ex, &ey);
          shown(x, y) = geom::bspline_interp2<float, double>(coeffs.cview(), static_cast<double>(x + kMargin) - ex,
                                                             static_cast<double>(y + kMargin) - ey);
        }
    } else {
      double gx, gy;
      out.trajectory.global(t, &gx, &gy);
      Image<fft::Complex> spec(canvas_spec.shape());
      std::copy(canvas_spec.begin(), canvas_spec.end(), spec.begin());
      geom::shift_spectrum<float>(spec.view(), canvas_shape, gx, gy);
      Image<float> moved(canvas_shape);
      inverse.execute(spec.view(), moved.view());
      for (index_t y = 0; y < m.ny; ++y)
        for (index_t x = 0; x < m.nx; ++x) shown(x, y) = moved(x + kMargin, y + kMargin) * inv_n;
    }
    // Counts; each frame has its own generator so the result does not depend on threads.
    std::mt19937 rng(m.seed + 1000003u * static_cast<std::uint32_t>(t + 1));
    float* frame = out.frames.data() + static_cast<index_t>(t) * m.nx * m.ny;
    for (index_t i = 0; i < m.nx * m.ny; ++i) {
      float lambda = dose * std::max(0.f, 1.f + c * shown[i]);
      if (m.gain) lambda /= out.gain[i];
      if (m.noise_free) {
        frame[i] = lambda;
      } else {
        std::poisson_distribution<int> poisson(lambda);
        frame[i] = lambda > 0 ? static_cast<float>(poisson(rng)) : 0.f;
      }
    }
  }
  return out;
}

} // namespace frost::sim
