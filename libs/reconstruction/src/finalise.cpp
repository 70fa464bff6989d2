#include "frost/reconstruction/finalise.hpp"

#include <cmath>

#include "frost/core/error.hpp"
#include "frost/fft/planner.hpp"
#include "frost/reconstruction/blob.hpp"

namespace frost::recon {
namespace {

constexpr double kPi = 3.14159265358979323846;

int wrap(int k, int n) { return ((k % n) + n) % n; }

/// Xmipp's extra apodisation correction (§5.9 step 7, mode xmipp): divide by sinc^2(r / 2N) and
/// rescale by the mean of that factor over the volume.
void apply_xmipp_sinc_correction(Image<float>& v) {
  const int N = static_cast<int>(v.shape().x), c = N / 2;
  double sum = 0;
  std::vector<double> s(static_cast<std::size_t>(v.size()));
  std::size_t i = 0;
  for (int z = 0; z < N; ++z)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x, ++i) {
        const double r = std::sqrt(double(x - c) * (x - c) + double(y - c) * (y - c) + double(z - c) * (z - c));
        const double a = kPi * r / (2.0 * N);
        const double sinc = a == 0.0 ? 1.0 : std::sin(a) / a;
        s[i] = sinc * sinc;
        sum += s[i];
      }
  const double mean = sum / double(s.size());
  for (std::size_t k = 0; k < s.size(); ++k) v[static_cast<index_t>(k)] = static_cast<float>(v[static_cast<index_t>(k)] * mean / s[k]);
}

} // namespace

Image<float> finalise(HalfGrid& grid, const ReconstructionSettings& settings, const GridLayout& layout) {
  FROST_EXPECTS(grid.M == layout.M, "grid.M == layout.M");
  symmetrise_kx0_plane(grid);
  const int P = layout.padded, N = layout.box, M = layout.M, h = M / 2;
  const int hx = P / 2 + 1;
  // The representative frequency range of a P-point DFT: [-floor(P/2), ceil(P/2) - 1]; grid
  // voxels outside it (the +P/2 planes when M = P) duplicate voxels inside and are skipped.
  const int kmin = -(P / 2), kmax = (P + 1) / 2 - 1;
  Image<fft::Complex> spectrum(Shape::volume(hx, P, P));
  // c23 = pad_proj^2 / (N pad_vol^3) = 1 / P: undoes the 1/P^2 forward scaling of the images
  // against the unnormalised inverse over P^3 samples (§5.9 step 4).
  const double c23 = 1.0 / P;
  const double eps = settings.ctf == CtfMode::Wiener ? settings.wiener_eps : 0.0;
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
        spectrum(kx, wrap(ky, P), wrap(kz, P)) +=
            fft::Complex(static_cast<float>(grid.data[2 * i] * f), static_cast<float>(grid.data[2 * i + 1] * f));
      }
    }
  }
  Image<float> padded(Shape::volume(P, P, P));
  {
    fft::PlanOptions opts;
    opts.rigor = fft::FftRigor::Estimate; // deterministic, and the transform runs once
    auto plan = fft::shared_planner(fft::Backend::Cpu)->plan(fft::FftSpec::c2r(padded.shape()), opts);
    plan.execute(spectrum.view(), padded.view());
  }
  Image<float> out(Shape::volume(N, N, N));
  const int c = N / 2;
#pragma omp parallel for schedule(static)
  for (int z = 0; z < N; ++z)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x) out(x, y, z) = padded(wrap(x - c, P), wrap(y - c, P), wrap(z - c, P));
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

} // namespace frost::recon
