#include "frost/reconstruction/fsc.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "frost/core/error.hpp"
#include "frost/fft/fft.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

double crossing_resolution(const std::vector<double>& fsc, index_t box, double pixel_size,
                           double threshold) {
  FROST_EXPECTS(fsc.size() >= 2, "an FSC curve needs at least 2 shells");
  const double length = double(box) * pixel_size;
  for (std::size_t s = 1; s < fsc.size(); ++s) {
    if (fsc[s] < threshold) {
      const double hi = fsc[s - 1], lo = fsc[s];
      if (hi < threshold) return std::numeric_limits<double>::infinity(); // shell 0 below too
      const double t = (hi - threshold) / (hi - lo);
      const double shell = double(s - 1) + t;
      if (shell <= 0.0) return std::numeric_limits<double>::infinity();
      return length / shell;
    }
  }
  return length / double(fsc.size() - 1);
}

double FscCurve::resolution(double threshold) const {
  return crossing_resolution(fsc, box, pixel_size, threshold);
}

FscCurve fsc_half_spectra(View<const fft::Complex> a, View<const fft::Complex> b,
                          const Shape& real, double pixel_size) {
  FROST_EXPECTS(real.x == real.y && real.y == real.z && real.n == 1, "FSC needs one cubic volume");
  const Shape half = real.half_spectrum();
  FROST_EXPECTS(a.shape == half && b.shape == half, "FSC spectra must be N/2+1 x N x N");
  const index_t n = real.x;
  const index_t shells = n / 2 + 1;
  FscCurve c;
  c.box = n;
  c.pixel_size = pixel_size;
  c.fsc.assign(shells, 0.0);
  c.numerator.assign(shells, 0.0);
  c.power1.assign(shells, 0.0);
  c.power2.assign(shells, 0.0);
  c.count.assign(shells, 0);
  for (index_t z = 0; z < n; ++z) {
    const index_t kz = z <= n / 2 ? z : z - n;
    for (index_t y = 0; y < n; ++y) {
      const index_t ky = y <= n / 2 ? y : y - n;
      for (index_t x = 0; x < half.x; ++x) {
        const double r = std::sqrt(double(x * x + ky * ky + kz * kz));
        const index_t s = static_cast<index_t>(r + 0.5);
        if (s >= shells) continue;
        // kx = 0 and (N even) kx = N/2 hold their own Hermitian partners; others stand for two.
        const bool self = x == 0 || (n % 2 == 0 && x == n / 2);
        const double w = self ? 1.0 : 2.0;
        const fft::Complex fa = a(x, y, z), fb = b(x, y, z);
        c.numerator[s] += w * (double(fa.real()) * fb.real() + double(fa.imag()) * fb.imag());
        c.power1[s] += w * (double(fa.real()) * fa.real() + double(fa.imag()) * fa.imag());
        c.power2[s] += w * (double(fb.real()) * fb.real() + double(fb.imag()) * fb.imag());
        c.count[s] += self ? 1 : 2;
      }
    }
  }
  for (index_t s = 0; s < shells; ++s) {
    const double d = std::sqrt(c.power1[s] * c.power2[s]);
    c.fsc[s] = d > 0 ? c.numerator[s] / d : 0.0;
  }
  return c;
}

FscCurve fsc_volumes(View<const float> a, View<const float> b, double pixel_size) {
  FROST_EXPECTS(a.shape == b.shape, "FSC volumes must have the same shape");
  const Shape real = a.shape;
  FROST_EXPECTS(real.x == real.y && real.y == real.z && real.n == 1, "FSC needs one cubic volume");
  auto planner = fft::shared_planner(fft::Backend::Cpu);
  const fft::FftSpec spec = fft::FftSpec::r2c(real);
  fft::FftPlan plan = planner->plan(spec);
  Image<fft::Complex> fa(real.half_spectrum()), fb(real.half_spectrum());
  plan.execute(a, fa.view());
  plan.execute(b, fb.view());
  return fsc_half_spectra(fa.cview(), fb.cview(), real, pixel_size);
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
