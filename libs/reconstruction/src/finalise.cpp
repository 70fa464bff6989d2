#include "frost/reconstruction/finalise.hpp"

#include <algorithm>
#include <cmath>

#include "frost/core/host_buffer.hpp"

#include "frost/core/error.hpp"
#include "frost/fft/buffer.hpp"
#include "frost/fft/plan.hpp"
#include "frost/fft/planner.hpp"
#include "frost/reconstruction/blob.hpp"
#if FROST_RECON_DOUBLE
#include "fftw_double.hpp"
#endif

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace {

constexpr double kPi = 3.14159265358979323846;


/// Xmipp's extra apodisation correction (§5.9 step 7, mode xmipp): divide by sinc^2(r / 2N) and
/// rescale by the mean of that factor over the volume. The factor depends on r^2 only (an
/// integer), so it is tabulated per r^2.
void apply_xmipp_sinc_correction(Image<Real>& v) {
  const int N = static_cast<int>(v.shape().x), c = N / 2;
  const int rmax = std::max(c, N - 1 - c);
  std::vector<double> s(static_cast<std::size_t>(3 * rmax * rmax + 1));
  for (std::size_t r2 = 0; r2 < s.size(); ++r2) {
    const double a = kPi * std::sqrt(double(r2)) / (2.0 * N);
    const double sinc = a == 0.0 ? 1.0 : std::sin(a) / a;
    s[r2] = sinc * sinc;
  }
  auto r2_of = [c](int x, int y, int z) { return (x - c) * (x - c) + (y - c) * (y - c) + (z - c) * (z - c); };
  double sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (int z = 0; z < N; ++z)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x) sum += s[static_cast<std::size_t>(r2_of(x, y, z))];
  const double mean = sum / double(v.size());
#pragma omp parallel for schedule(static)
  for (int z = 0; z < N; ++z)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x)
        v(x, y, z) = static_cast<Real>(v(x, y, z) * mean / s[static_cast<std::size_t>(r2_of(x, y, z))]);
}

} // namespace

Image<Real> finalise(HalfGrid& grid, const ReconstructionSettings& settings, const GridLayout& layout,
                      const FinaliseOptions& options) {
  FROST_EXPECTS(grid.M == layout.M, "grid.M == layout.M");
  symmetrise_kx0_plane(grid);
  const int P = layout.padded, N = layout.box, M = layout.M, h = M / 2;
  const int hx = P / 2 + 1;
  // The representative frequency range of a P-point DFT: [-floor(P/2), ceil(P/2) - 1]; grid
  // voxels outside it (the +P/2 planes when M = P) duplicate voxels inside and are skipped.
  const int kmin = -(P / 2), kmax = (P + 1) / 2 - 1;
  // One buffer for the in-place C2R: the half spectrum, then the padded real volume. Zeroed
  // in parallel (first touch by the threads that fill it).
  const fft::FftSpec spec = fft::FftSpec::c2r(Shape::volume(P, P, P), fft::Placement::InPlace);
  const Shape spectrum_shape = spec.input_shape(), real_shape = spec.output_shape();
  HostBuffer<RealComplex> buffer(static_cast<std::size_t>(spectrum_shape.total()));
  View<RealComplex> spectrum{buffer.data(), spectrum_shape};
  {
    const std::int64_t plane = spectrum_shape.x * spectrum_shape.y;
#pragma omp parallel for schedule(static)
    for (int z = 0; z < P; ++z) std::fill(buffer.data() + z * plane, buffer.data() + (z + 1) * plane, RealComplex(0));
  }
  // c23 = pad_proj^2 / (N pad_vol^3) = 1 / P: undoes the 1/P^2 forward scaling of the images
  // against the unnormalised inverse over P^3 samples (§5.9 step 4).
  const double c23 = 1.0 / P;
  const double eps = settings.ctf == CtfMode::Wiener ? settings.wiener_eps : 0.0;
  // Each (ky, kz) row of the grid lands in its own row of the spectrum: no two z iterations
  // write the same element.
#pragma omp parallel for schedule(static)
  for (int z = 0; z <= M; ++z) {
    const int kz = z - h;
    if (kz < kmin || kz > kmax) continue;
    for (int y = 0; y <= M; ++y) {
      const int ky = y - h;
      if (ky < kmin || ky > kmax) continue;
      for (int kx = 0; kx <= h && kx < hx; ++kx) {
        const std::int64_t i = grid.index(kx, y, z);
        const double w = grid.weight[i];
        if (!(w > kMinWeight)) continue;
        const double f = c23 / (w + eps);
        spectrum(kx, periodic_index(ky, P), periodic_index(kz, P)) +=
            RealComplex(static_cast<Real>(grid.data[2 * i] * f), static_cast<Real>(grid.data[2 * i + 1] * f));
      }
    }
  }
  View<Real> padded{reinterpret_cast<Real*>(buffer.data()), real_shape};
#if FROST_RECON_DOUBLE
  FROST_EXPECTS(options.backend == fft::Backend::Cpu, "the double build finalises on the CPU only");
  fftw_c2r_3d_in_place(buffer.data(), P);
#else
  if (options.backend == fft::Backend::Cpu) {
    fft::PlanOptions opts;
    opts.rigor = fft::FftRigor::Estimate; // deterministic, and the transform runs once
    auto plan = fft::shared_planner(fft::Backend::Cpu)->plan(spec, opts);
    plan.execute(spectrum, padded);
  } else {
    auto planner = fft::shared_planner(options.backend, options.device);
    fft::FftBuffer device = planner->allocate(spec.data_bytes());
    device.upload(buffer.data(), spec.input_bytes());
    planner->plan(spec).execute(device.data(), device.data());
    planner->synchronize();
    device.download(buffer.data(), spec.output_bytes());
  }
#endif
  Image<Real> out(Shape::volume(N, N, N));
  const int c = N / 2;
#pragma omp parallel for schedule(static)
  for (int z = 0; z < N; ++z)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x) out(x, y, z) = padded(periodic_index(x - c, P), periodic_index(y - c, P), periodic_index(z - c, P));
  apply_gridding_correction(out.view(), settings.blob, P);
  if (settings.gridding == Gridding::Xmipp) apply_xmipp_sinc_correction(out);
  return out;
}

Image<float> weights_volume(const HalfGrid& grid) {
  const int M = grid.M;
  Image<float> v(Shape::volume(M / 2 + 1, M + 1, M + 1));
  for (std::int64_t i = 0; i < grid.voxels(); ++i) v[i] = static_cast<float>(grid.weight[static_cast<std::size_t>(i)]);
  return v;
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
