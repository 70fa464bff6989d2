// The CPU gather kernel (docs/reconstruct_fourier.md#the-cpu-gather-kernel, U6 in
// docs/reconstruct_fourier.md#unit-tests) against the straightforward reference, gather_column over
// every column of the traverse space (the GPU's per-voxel code), on random spectra, weight factors
// and poses: the same voxels receive sums, which agree within 1e-6 (block, the same additions)
// and 1e-6 (AVX2, another order of the additions) relative L2, for the 4 x 4 window (radius 1.9)
// and the 3-row one (below 1.5); a walk split into small boxes equals the walk of one box bit for
// bit; the windows equal gather_taps on random points.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "frost/geometry/euler.hpp"
#include "frost/reconstruction/blob.hpp"
#include "frost/reconstruction/cpu_gather.hpp"
#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/settings.hpp"
#include "frost/reconstruction/traverse_space.hpp"
#include "cpu_kernel_problem.hpp"

namespace {

using namespace frost;
namespace recon = frost::recon;
using recon::Real;

using CpuGatherProblem = test::CpuKernelProblem;
using CpuGatherGrid = test::CpuKernelGrid;

CpuGatherProblem cpu_gather_problem(int images, bool with_gw, unsigned seed, double radius = 1.9) {
  recon::ReconstructionSettings settings;
  settings.blob.radius = radius;
  return test::cpu_kernel_problem(settings, images, with_gw, seed);
}

/// The reference: gather_column over every column of every space's iteration plane.
CpuGatherGrid cpu_gather_reference(const CpuGatherProblem& p, const recon::BlobTable& table) {
  CpuGatherGrid out(p.layout.M + 1);
  const recon::SampleView v = p.view();
  const Real radius = static_cast<Real>(p.settings.blob.radius);
  for (const auto& ts : p.spaces) {
    const int a0 = ts.dir == recon::kPlaneYZ ? ts.min_y : ts.min_x;
    const int b0 = ts.dir == recon::kPlaneXY ? ts.min_y : ts.min_z;
    for (int j = 0; j < ts.columns_b(); ++j)
      for (int i = 0; i < ts.columns_a(); ++i)
        recon::gather_column(ts, a0 + i, b0 + j, v, radius, recon::TableWeight{table.view()},
                             [&](int x, int y, int z, Real gr, Real gi, Real ws) {
                               const std::size_t k = (std::size_t(z) * out.side + y) * out.side + x;
                               out.g[k] += recon::RealComplex(gr, gi);
                               out.w[k] += ws;
                             });
  }
  return out;
}

CpuGatherGrid cpu_gather_run(const CpuGatherProblem& p, const recon::BlobTable& table, recon::CpuTapKernel kernel,
                            int edge) {
  CpuGatherGrid out(p.layout.M + 1);
  const Real radius = static_cast<Real>(p.settings.blob.radius);
  for (int z = 0; z < out.side; z += edge)
    for (int y = 0; y < out.side; y += edge)
      for (int x = 0; x < out.side; x += edge) {
        recon::VoxelBox box;
        const int lo[3] = {x, y, z};
        for (int d = 0; d < 3; ++d) {
          box.lo[d] = lo[d];
          box.hi[d] = std::min(lo[d] + edge - 1, out.side - 1);
        }
        for (const auto& ts : p.spaces)
          if (recon::space_touches_box(ts, p.view(), radius, box))
            recon::gather_space_box(ts, p.view(), table.view(), radius, box, out.sink(), kernel);
      }
  return out;
}

void cpu_gather_check(recon::CpuTapKernel kernel, bool with_gw, double tolerance, double radius = 1.9) {
  const CpuGatherProblem p = cpu_gather_problem(12, with_gw, with_gw ? 11u : 7u, radius);
  const recon::BlobTable table(p.settings.blob);
  const CpuGatherGrid ref = cpu_gather_reference(p, table);
  const CpuGatherGrid got = cpu_gather_run(p, table, kernel, 1000);
  const double gl2 = test::cpu_kernel_rel_l2(got, ref, false), wl2 = test::cpu_kernel_rel_l2(got, ref, true);
  std::printf("U6 %s gather%s, radius %.3f, vs gather_column: G rel L2 %.3g, W rel L2 %.3g\n",
              recon::cpu_tap_kernel_name(kernel), with_gw ? " (gw)" : "", radius, gl2, wl2);
  EXPECT_EQ(test::cpu_kernel_support_mismatch(got, ref), 0);
  EXPECT_LE(gl2, tolerance);
  EXPECT_LE(wl2, tolerance);
}

TEST(CpuGather, SharedWalkEqualsGatherColumn) { cpu_gather_check(recon::CpuTapKernel::Shared, true, 1e-6); }
TEST(CpuGather, BlockKernelEqualsGatherColumn) {
  // 1.9: the 4 x 4 window; 1.425: the 3-row window (radius below 1.5).
  for (double radius : {1.9, 1.425}) {
    cpu_gather_check(recon::CpuTapKernel::Block, false, 1e-6, radius);
    cpu_gather_check(recon::CpuTapKernel::Block, true, 1e-6, radius);
  }
}
TEST(CpuGather, Avx2KernelMatchesGatherColumn) {
  // Falls back to the block kernel where the processor has no AVX2: the check still holds.
  for (double radius : {1.9, 1.425}) {
    cpu_gather_check(recon::CpuTapKernel::Avx2, false, 1e-6, radius);
    cpu_gather_check(recon::CpuTapKernel::Avx2, true, 1e-6, radius);
  }
}

TEST(CpuGather, BoxesSplitTheWalkExactly) {
  const CpuGatherProblem p = cpu_gather_problem(6, true, 5u);
  const recon::BlobTable table(p.settings.blob);
  const recon::CpuTapKernel k = recon::default_cpu_tap_kernel();
  const CpuGatherGrid whole = cpu_gather_run(p, table, k, 1000);
  const CpuGatherGrid split = cpu_gather_run(p, table, k, 7);
  EXPECT_TRUE(whole.g == split.g && whole.w == split.w) << "boxes of 7 differ from one box";
}

class CpuGatherWindow : public ::testing::TestWithParam<double> {};

TEST_P(CpuGatherWindow, EqualsGatherTaps) {
  const CpuGatherProblem p = cpu_gather_problem(1, true, 3u, GetParam());
  const recon::BlobTable table(p.settings.blob);
  const recon::SampleView v = p.view();
  const Real radius = static_cast<Real>(p.settings.blob.radius);
  const int rows = radius < Real(1.5) ? 3 : 4;
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> uu(3.0, v.fx - 4.0), vv(3.0, v.fy - 4.0), ww(-1.95, 1.95);
  double worst = 0;
  for (int t = 0; t < 2000; ++t) {
    const Real u = static_cast<Real>(uu(rng)), vq = static_cast<Real>(vv(rng)), w = static_cast<Real>(ww(rng));
    Real rr = 0, ri = 0, rw = 0;
    const bool ref = recon::gather_taps<0>(p.spaces[0], u, vq, w, v, radius, recon::TableWeight{table.view()}, rr, ri, rw);
    const int i0 = static_cast<int>(std::ceil(vq - radius)), j0 = static_cast<int>(std::ceil(u - radius));
    const std::size_t at = std::size_t(i0) * v.fx + j0;
    for (auto k : {recon::CpuTapKernel::Block, recon::CpuTapKernel::Avx2}) {
      Real gr = 0, gi = 0, gw = 0;
      const bool got = recon::detail::window_taps(k, v.spectra + at, v.gw + at, v.fx, u, vq, w, i0, j0, radius * radius,
                                                  table.view(), gr, gi, gw, rows);
      ASSERT_EQ(got, ref) << "u " << u << " v " << vq << " w " << w;
      if (!ref) continue;
      const double scale = std::abs(double(rw)) + std::abs(double(rr)) + std::abs(double(ri)) + 1e-3;
      worst = std::max({worst, std::abs(double(gr) - rr) / scale, std::abs(double(gi) - ri) / scale,
                        std::abs(double(gw) - rw) / scale});
    }
  }
  std::printf("U6 %d-row window vs gather_taps: worst relative difference %.3g\n", rows, worst);
  EXPECT_LE(worst, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Radii, CpuGatherWindow, ::testing::Values(1.9, 1.425, 1.2));

} // namespace
