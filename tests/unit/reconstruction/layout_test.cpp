// Where one inserted sample lands in the accumulation grid, and the fold
// (docs/reconstruct_fourier.md#grid-layout, steps 2-3 of docs/reconstruct_fourier.md#finalisation; U5).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <random>

#include "frost/geometry/euler.hpp"
#include "frost/reconstruction/accumulator.hpp"
#include "frost/reconstruction/grid.hpp"
#include "frost/reconstruction/sample_batch.hpp"
#include "frost/reconstruction/traverse_space.hpp"

namespace {

using namespace frost;
namespace recon = frost::recon;

recon::ReconstructionSettings small_settings() {
  recon::ReconstructionSettings s;
  s.box = 16; // P = 32, M = 32: a 33^3 cube
  return s;
}

/// One-image batch whose sample is `value(row, column)`, inserted at `a_sl` with weight 1.
template <class Value>
recon::HalfGrid insert_single(const recon::ReconstructionSettings& settings, const geom::Mat3d& a_sl,
                              Value value) {
  const recon::GridLayout layout = recon::make_grid_layout(settings);
  recon::SampleBatch batch(layout, 1, 1, false);
  for (int row = 0; row < layout.fy; ++row)
    for (int col = 0; col < layout.fx; ++col) batch.spectrum(0)[row * layout.fx + col] = value(row, col);
  batch.spaces(0)[0] = recon::make_traverse_space(a_sl, layout, settings.blob.radius, 0, 1.0f);
  batch.set_size(1);
  recon::FullGrid grid(layout);
  recon::insert_batch_cpu(batch, grid, settings, recon::BlobTable(settings.blob));
  return recon::fold(grid, layout);
}

TEST(Layout, ConstantSampleAtIdentityFillsTheCentralPlane) {
  const auto settings = small_settings();
  const auto layout = recon::make_grid_layout(settings);
  const int M = layout.M, h = M / 2;
  auto g = insert_single(settings, geom::Mat3d::identity(), [](int, int) { return fft::Complex(1.0f, 0.0f); });
  double worst_ratio = 0;
  long empty_in_limit = 0, plane_checked = 0, weight_off_slab = 0;
  for (int z = 0; z <= M; ++z)
    for (int y = 0; y <= M; ++y)
      for (int kx = 0; kx <= h; ++kx) {
        const auto i = g.index(kx, y, z);
        const int ky = y - h, kz = z - h;
        if (std::abs(kz) > settings.blob.radius && g.weight[i] != 0.0) ++weight_off_slab;
        if (kz != 0 || double(kx) * kx + double(ky) * ky > layout.max_frequency_sq()) continue;
        ++plane_checked;
        if (!(g.weight[i] > 0)) {
          ++empty_in_limit;
          continue;
        }
        const std::complex<double> ratio(g.data[2 * i] / g.weight[i], g.data[2 * i + 1] / g.weight[i]);
        worst_ratio = std::max(worst_ratio, std::abs(ratio - 1.0));
      }
  std::printf("U5 kz = 0 plane: %ld voxels within fmax, %ld empty, max |G/W - 1| %.3g; "
              "%ld weighted voxels with |kz| > a\n",
              plane_checked, empty_in_limit, worst_ratio, weight_off_slab);
  EXPECT_GT(plane_checked, 300); // about a half disc of radius 16
  EXPECT_EQ(empty_in_limit, 0);
  EXPECT_LE(worst_ratio, 1e-6);
  EXPECT_EQ(weight_off_slab, 0);
}

TEST(Layout, FoldedKx0PlaneIsHermitianAfterSymmetrising) {
  const auto settings = small_settings();
  std::mt19937 rng(5);
  std::normal_distribution<float> noise;
  // A random (non-Hermitian) spectrum at an oblique pose: the fold alone leaves the kx = 0
  // plane asymmetric, because k and -k there come from different parts of the slice.
  const geom::Mat3d a_sl = geom::euler_to_matrix<double>(30.0, 70.0, 110.0).transposed();
  auto g = insert_single(settings, a_sl, [&](int, int) {
    const float re = noise(rng); // sequenced: argument order is unspecified
    return fft::Complex(re, noise(rng));
  });
  const int M = g.M;
  auto asymmetry = [&](const recon::HalfGrid& grid) {
    double worst = 0, peak = 0;
    for (int z = 0; z <= M; ++z)
      for (int y = 0; y <= M; ++y) {
        const auto a = grid.index(0, y, z), b = grid.index(0, M - y, M - z);
        const std::complex<double> ga(grid.data[2 * a], grid.data[2 * a + 1]);
        const std::complex<double> gb(grid.data[2 * b], grid.data[2 * b + 1]);
        peak = std::max({peak, std::abs(ga), grid.weight[a]});
        worst = std::max({worst, std::abs(ga - std::conj(gb)), std::abs(grid.weight[a] - grid.weight[b])});
      }
    return worst / peak;
  };
  const double before = asymmetry(g);
  recon::symmetrise_kx0_plane(g);
  const double after = asymmetry(g);
  std::printf("U5 kx = 0 plane: max |G(k) - conj G(-k)|, |W(k) - W(-k)| relative to the peak: "
              "%.3g after the fold, %.3g after symmetrising\n",
              before, after);
  EXPECT_GT(before, 1e-3); // the check below is not vacuous
  EXPECT_LE(after, 1e-7);
}

} // namespace
