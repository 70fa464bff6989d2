#include "frost/motion/sum_alignment.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/fft/planner.hpp"
#include "frost/motion/pair_correlation.hpp"
#include "frost/motion/peak_search.hpp"

namespace frost::motion {

namespace {

constexpr double kTwoPi = 6.283185307179586476925;

// Factors exp(-2 pi i k s / n) of the signed FFT frequencies k of `count` indices on an axis of n.
std::vector<std::complex<double>> ramp(index_t count, index_t n, double s) {
  std::vector<std::complex<double>> f(static_cast<std::size_t>(count));
  for (index_t j = 0; j < count; ++j) {
    const double k = static_cast<double>(j <= n / 2 ? j : j - n);
    f[static_cast<std::size_t>(j)] = std::polar(1.0, -kTwoPi * k * s / static_cast<double>(n));
  }
  return f;
}

// Moves the content of a C_x x C_y half spectrum by (sx, sy) correlation pixels (separable phase ramp;
// serial because frames are shifted in parallel).
void shift_content(View<fft::Complex> spectrum, index_t cx, index_t cy, double sx, double sy) {
  const auto ex = ramp(cx / 2 + 1, cx, sx), ey = ramp(cy, cy, sy);
  for (index_t y = 0; y < cy; ++y)
    for (index_t x = 0; x <= cx / 2; ++x) {
      const std::complex<double> f = ex[static_cast<std::size_t>(x)] * ey[static_cast<std::size_t>(y)];
      spectrum(x, y) *= fft::Complex(static_cast<float>(f.real()), static_cast<float>(f.imag()));
    }
}

} // namespace

SumAlignment align_to_sum(View<const fft::Complex> spectra, const WorkingSizes& sizes, const GlobalSettings& settings) {
  const index_t cx = sizes.correlation.x, cy = sizes.correlation.y;
  const Shape half = Shape::image(cx / 2 + 1, cy);
  FROST_EXPECTS(spectra.shape.x == half.x && spectra.shape.y == half.y, "spectra do not match the correlation size");
  const int n = static_cast<int>(spectra.shape.n);
  const index_t per = half.pixels_per_item();
  const double to_cx = 1.0 / sizes.to_processing_x(), to_cy = 1.0 / sizes.to_processing_y();

  fft::PlanOptions one_thread; // frames run in parallel
  one_thread.threads = 1;
  const fft::FftPlan inverse = fft::shared_planner(fft::Backend::Cpu)->plan(fft::FftSpec::c2r(Shape::image(cx, cy)), one_thread);

  SumAlignment out;
  out.positions.assign(static_cast<std::size_t>(n), Vec2{});
  Image<fft::Complex> aligned(Shape::image(half.x, half.y, n));
  Image<fft::Complex> sum(half);
  std::vector<Vec2> step(static_cast<std::size_t>(n));
  std::vector<char> edge(static_cast<std::size_t>(n), 0);

  for (int it = 1; it <= std::max(1, settings.sum_iterations); ++it) {
    // Move every frame's content by -d_t so that all frames line up with the current estimate.
#pragma omp parallel for num_threads(num_threads()) schedule(static)
    for (int t = 0; t < n; ++t) {
      View<fft::Complex> a = aligned.view().item(t);
      std::copy(spectra.data + t * per, spectra.data + (t + 1) * per, a.data);
      const Vec2 d = out.positions[static_cast<std::size_t>(t)];
      shift_content(a, cx, cy, -d.x * to_cx, -d.y * to_cy);
    }
    // Sum in frame order for every element (deterministic for any thread count).
#pragma omp parallel for num_threads(num_threads()) schedule(static)
    for (index_t e = 0; e < per; ++e) {
      fft::Complex s(0.f, 0.f);
      for (int t = 0; t < n; ++t) s += aligned[t * per + e];
      sum[e] = s;
    }
#pragma omp parallel num_threads(num_threads())
    {
      Image<fft::Complex> others(half), product(half);
      Image<float> map(Shape::image(cx, cy));
#pragma omp for schedule(dynamic)
      for (int t = 0; t < n; ++t) {
        const fft::Complex* a = aligned.data() + t * per;
        for (index_t e = 0; e < per; ++e) others[e] = sum[e] - a[e];
        correlation_map(others.cview(), aligned.cview().item(t), product.view(), map.view(), inverse);
        const Peak p = find_peak(map.cview(), sizes.search_radius, settings.subpixel);
        // The peak of (sum - frame) x frame sits at -(residual displacement of the frame).
        step[static_cast<std::size_t>(t)] = {-p.x * sizes.to_processing_x(), -p.y * sizes.to_processing_y()};
        edge[static_cast<std::size_t>(t)] = p.edge ? 1 : 0;
      }
    }
    // Positions are defined up to a common offset: keep their mean at zero.
    Vec2 mean;
    for (const Vec2& s : step) {
      mean.x += s.x / n;
      mean.y += s.y / n;
    }
    double ss = 0;
    for (int t = 0; t < n; ++t) {
      const Vec2 s{step[static_cast<std::size_t>(t)].x - mean.x, step[static_cast<std::size_t>(t)].y - mean.y};
      out.positions[static_cast<std::size_t>(t)].x += s.x;
      out.positions[static_cast<std::size_t>(t)].y += s.y;
      ss += s.x * s.x + s.y * s.y;
      out.edge_peaks += edge[static_cast<std::size_t>(t)];
    }
    out.iterations = it;
    out.last_rms_increment = std::sqrt(ss / n);
    if (out.last_rms_increment < settings.sum_tolerance) {
      out.converged = true;
      break;
    }
  }
  return out;
}

} // namespace frost::motion
