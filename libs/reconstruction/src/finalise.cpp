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


/// Xmipp's extra apodisation correction (step 7 of docs/reconstruct_fourier.md#finalisation, mode
/// xmipp): divide by sinc^2(r / 2N) and rescale by the mean of that factor over the volume. The
/// factor depends on r^2 only (an integer), so it is tabulated per r^2.
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

/// Steps 4-5 of docs/reconstruct_fourier.md#finalisation for planes [zs0, zs1) of the P-point half
/// spectrum ((P/2 + 1) x P per plane, the FFT layout of the padded volume): every grid voxel in the
/// representative frequency range [-floor(P/2), ceil(P/2) - 1] lands on its own element as G c23 /
/// (W + eps); elements without data (W <= kMinWeight, or beyond the grid) are 0. `out` holds the
/// planes' elements (with the in-place transform's row length hx = P/2 + 1). Parallel over planes.
void fill_spectrum_planes(const HalfGrid& grid, const ReconstructionSettings& settings, const GridLayout& layout,
                          int zs0, int zs1, RealComplex* out) {
  const int P = layout.padded, M = layout.M, h = M / 2;
  const int hx = P / 2 + 1;
  const int kmax = (P + 1) / 2 - 1;
  // c23 = pad_proj^2 / (N pad_vol^3) = 1 / P: undoes the 1/P^2 forward scaling of the images
  // against the unnormalised inverse over P^3 samples (step 4).
  const double c23 = 1.0 / P;
  const double eps = settings.ctf == CtfMode::Wiener ? settings.wiener_eps : 0.0;
  const std::int64_t plane = static_cast<std::int64_t>(hx) * P;
  // The grid voxels outside the representative range (the +P/2 planes when M = P) duplicate
  // voxels inside and are skipped: spectrum index s holds frequency s, or s - P past kmax.
#pragma omp parallel for schedule(static)
  for (int zs = zs0; zs < zs1; ++zs) {
    RealComplex* dst = out + (zs - zs0) * plane;
    std::fill(dst, dst + plane, RealComplex(0));
    const int kz = zs <= kmax ? zs : zs - P;
    if (kz < -h || kz > h) continue;
    for (int ys = 0; ys < P; ++ys) {
      const int ky = ys <= kmax ? ys : ys - P;
      if (ky < -h || ky > h) continue;
      RealComplex* row = dst + static_cast<std::int64_t>(ys) * hx;
      for (int kx = 0; kx <= h && kx < hx; ++kx) {
        const std::int64_t i = grid.index(kx, ky + h, kz + h);
        const double w = grid.weight[i];
        if (!(w > kMinWeight)) continue;
        const double f = c23 / (w + eps);
        row[kx] = RealComplex(static_cast<Real>(grid.data[2 * i] * f), static_cast<Real>(grid.data[2 * i + 1] * f));
      }
    }
  }
}

/// Steps 6-7 on the cropped map: gridding correction, and Xmipp's sinc correction if asked.
void correct(Image<Real>& out, const ReconstructionSettings& settings, int P) {
  if (settings.kernel == Kernel::Separable && !settings.fast)
    apply_separable_gridding_correction(out.view(), settings.blob, P);
  else
    apply_gridding_correction(out.view(), settings.blob, P);
  if (settings.gridding == Gridding::Xmipp) apply_xmipp_sinc_correction(out);
}

#if !FROST_RECON_DOUBLE
/// The GPU finalisation (FinaliseOptions::backend != Cpu): the half spectrum goes up in chunks
/// of planes filled on the host into a pinned buffer (no P^3 host spectrum), cuFFT transforms it
/// in place, and only the rows of the N^3 crop come down (N^2 rows of P floats, not P^3).
Image<Real> finalise_on_device(const HalfGrid& grid, const ReconstructionSettings& settings, const GridLayout& layout,
                               const FinaliseOptions& options) {
  const int P = layout.padded, N = layout.box, c = N / 2;
  const fft::FftSpec spec = fft::FftSpec::c2r(Shape::volume(P, P, P), fft::Placement::InPlace);
  const std::int64_t hx = P / 2 + 1, row = 2 * hx; // complex and real row lengths
  const std::size_t plane_bytes = static_cast<std::size_t>(hx) * P * sizeof(RealComplex);
  auto planner = fft::shared_planner(options.backend, options.device);
  fft::FftBuffer device = planner->allocate(spec.data_bytes());
  const int chunk = static_cast<int>(
      std::clamp<std::size_t>(options.upload_chunk_bytes / plane_bytes, 1, static_cast<std::size_t>(P)));
  {
    HostBuffer<RealComplex> staging(static_cast<std::size_t>(chunk) * hx * P, HostMemory::Pinned);
    for (int zs0 = 0; zs0 < P; zs0 += chunk) {
      const int zs1 = std::min(P, zs0 + chunk);
      fill_spectrum_planes(grid, settings, layout, zs0, zs1, staging.data());
      device.upload_at(static_cast<std::size_t>(zs0) * plane_bytes, staging.data(),
                       static_cast<std::size_t>(zs1 - zs0) * plane_bytes);
    }
  }
  planner->plan(spec).execute(device.data(), device.data());
  planner->synchronize();
  // Output row y of plane z is padded row periodic(y - c) of plane periodic(z - c): per plane,
  // rows P - c .. P - 1 (y < c) and 0 .. N - c - 1 (y >= c), two contiguous ranges.
  Image<Real> out(Shape::volume(N, N, N));
  HostBuffer<Real> rows(static_cast<std::size_t>(N) * row, HostMemory::Pinned);
  const std::size_t row_bytes = static_cast<std::size_t>(row) * sizeof(Real);
  for (int z = 0; z < N; ++z) {
    const std::size_t plane0 = static_cast<std::size_t>(periodic_index(z - c, P)) * P;
    device.download_from((plane0 + static_cast<std::size_t>(P - c)) * row_bytes, rows.data(),
                         static_cast<std::size_t>(c) * row_bytes);
    device.download_from(plane0 * row_bytes, rows.data() + static_cast<std::int64_t>(c) * row,
                         static_cast<std::size_t>(N - c) * row_bytes);
#pragma omp parallel for schedule(static)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x) out(x, y, z) = rows[static_cast<std::size_t>(y * row + periodic_index(x - c, P))];
  }
  correct(out, settings, P);
  return out;
}
#endif

} // namespace

Image<Real> finalise(HalfGrid& grid, const ReconstructionSettings& settings, const GridLayout& layout,
                      const FinaliseOptions& options) {
  FROST_EXPECTS(grid.M == layout.M, "grid.M == layout.M");
  symmetrise_kx0_plane(grid);
  const int P = layout.padded, N = layout.box;
#if FROST_RECON_DOUBLE
  FROST_EXPECTS(options.backend == fft::Backend::Cpu, "the double build finalises on the CPU only");
#else
  if (options.backend != fft::Backend::Cpu) return finalise_on_device(grid, settings, layout, options);
#endif
  // One buffer for the in-place C2R: the half spectrum, then the padded real volume (filled in
  // parallel: first touch by the threads that fill it).
  const fft::FftSpec spec = fft::FftSpec::c2r(Shape::volume(P, P, P), fft::Placement::InPlace);
  const Shape spectrum_shape = spec.input_shape(), real_shape = spec.output_shape();
  HostBuffer<RealComplex> buffer(static_cast<std::size_t>(spectrum_shape.total()));
  fill_spectrum_planes(grid, settings, layout, 0, P, buffer.data());
  View<Real> padded{reinterpret_cast<Real*>(buffer.data()), real_shape};
#if FROST_RECON_DOUBLE
  fftw_c2r_3d_in_place(buffer.data(), P);
#else
  View<RealComplex> spectrum{buffer.data(), spectrum_shape};
  fft::PlanOptions opts;
  opts.rigor = fft::FftRigor::Estimate; // deterministic, and the transform runs once
  auto plan = fft::shared_planner(fft::Backend::Cpu)->plan(spec, opts);
  plan.execute(spectrum, padded);
#endif
  Image<Real> out(Shape::volume(N, N, N));
  const int c = N / 2;
#pragma omp parallel for schedule(static)
  for (int z = 0; z < N; ++z)
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x) out(x, y, z) = padded(periodic_index(x - c, P), periodic_index(y - c, P), periodic_index(z - c, P));
  correct(out, settings, P);
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
