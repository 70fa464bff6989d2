// The CPU scatter of the separable kernel (docs/reconstruct_fourier.md#the-separable-kernel, U7
// in docs/reconstruct_fourier.md#unit-tests) against the straightforward reference,
// recon::scatter_sample for every sample pixel of every space into the whole cube (the GPU's
// per-sample code), on random spectra, weight factors and poses: the walks over bars (the whole
// x axis, the brick pass's boxes) and over small cubic boxes (every clipped path) put sums on the
// same voxels, within 1e-6 relative L2 (another order of the additions), for both windows
// (radius 1.5: 3 voxels per axis; 1.9: 4) and both weight paths; the 1-D transform behind the
// gridding correction is the transform of the tabulated factor.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "frost/geometry/euler.hpp"
#include "frost/reconstruction/blob.hpp"
#include "frost/reconstruction/cpu_scatter.hpp"
#include "frost/reconstruction/scatter.hpp"
#include "frost/reconstruction/settings.hpp"
#include "frost/reconstruction/traverse_space.hpp"
#include "cpu_kernel_problem.hpp"

namespace {

using namespace frost;
namespace recon = frost::recon;
using recon::Real;

using ScatterProblem = test::CpuKernelProblem;
using ScatterGrid = test::CpuKernelGrid;

ScatterProblem scatter_problem(int images, bool with_gw, unsigned seed, double radius) {
  recon::ReconstructionSettings settings;
  settings.kernel = recon::Kernel::Separable;
  settings.blob = {radius, 0, 12.0};
  return test::cpu_kernel_problem(settings, images, with_gw, seed);
}

template <class Window>
ScatterGrid scatter_reference(const ScatterProblem& p, const Window& win) {
  ScatterGrid out(p.layout.M + 1);
  const recon::SampleView v = p.view();
  for (const auto& ts : p.spaces)
    for (int i = 0; i < v.fy; ++i)
      for (int j = 0; j < v.fx; ++j)
        recon::scatter_sample(ts, j, i, v, win, [&](int x, int y, int z, Real gr, Real gi, Real ws) {
          const std::size_t k = (std::size_t(z) * out.side + y) * out.side + x;
          out.g[k] += recon::RealComplex(gr, gi);
          out.w[k] += ws;
        });
  return out;
}

/// The walk over boxes of edge x edge x edge voxels, or bars (the whole x axis) when `bars`, with
/// window factors from `table` or, when `dynamic` is given, computed.
ScatterGrid scatter_run(const ScatterProblem& p, const recon::WindowTableView& table, const recon::DynamicWeight* dynamic,
                        recon::CpuTapKernel kernel, int edge, bool bars) {
  ScatterGrid out(p.layout.M + 1);
  const Real radius = static_cast<Real>(p.settings.blob.radius);
  const Real reach = static_cast<Real>(recon::insertion_reach(p.settings));
  for (int z = 0; z < out.side; z += edge)
    for (int y = 0; y < out.side; y += edge)
      for (int x = 0; x < (bars ? 1 : out.side); x += edge) {
        recon::VoxelBox box;
        const int lo[3] = {x, y, z};
        for (int d = 0; d < 3; ++d) {
          box.lo[d] = lo[d];
          box.hi[d] = std::min(lo[d] + edge - 1, out.side - 1);
        }
        if (bars) box.hi[0] = out.side - 1;
        for (const auto& ts : p.spaces)
          if (recon::space_touches_box(ts, p.view(), reach, box)) {
            if (dynamic)
              recon::scatter_space_box(ts, p.view(), *dynamic, radius, box, out.sink(), kernel);
            else
              recon::scatter_space_box(ts, p.view(), table, box, out.sink(), kernel);
          }
      }
  return out;
}

void check(recon::CpuTapKernel kernel, double radius, bool with_gw, bool dynamic) {
  const ScatterProblem p = scatter_problem(10, with_gw, with_gw ? 5u : 9u, radius);
  const recon::WindowTable windows(p.settings.blob, recon::scatter_window(static_cast<Real>(radius)));
  const recon::WindowTableView table = recon::window_table_view(windows);
  recon::DynamicWeight dyn;
  dyn.inv_radius2 = static_cast<float>(1.0 / (radius * radius));
  dyn.alpha = static_cast<float>(p.settings.blob.alpha);
  dyn.order = 0;
  dyn.scale = static_cast<float>(windows.scale() / recon::bessel_i(0, p.settings.blob.alpha));
  auto run = [&](int edge, bool bars) { return scatter_run(p, table, dynamic ? &dyn : nullptr, kernel, edge, bars); };
  const int window = recon::scatter_window(static_cast<Real>(radius));
  const ScatterGrid ref = dynamic ? scatter_reference(p, recon::DynamicWindow{dyn, window})
                                  : scatter_reference(p, recon::TableWindow{table});
  for (const auto& [edge, bars] : {std::pair{16, true}, std::pair{5, false}, std::pair{7, true}}) {
    const ScatterGrid got = run(edge, bars);
    const double g = test::cpu_kernel_rel_l2(got, ref, false), w = test::cpu_kernel_rel_l2(got, ref, true);
    std::printf("%s, radius %.1f, gw %d, dynamic %d, edge %d%s: rel L2 G %.3g W %.3g\n",
                recon::cpu_tap_kernel_name(kernel), radius, with_gw, dynamic, edge, bars ? " bars" : "", g, w);
    EXPECT_EQ(test::cpu_kernel_support_mismatch(got, ref), 0);
    EXPECT_LE(g, 1e-6);
    EXPECT_LE(w, 1e-6);
  }
}

using recon::CpuTapKernel;

TEST(CpuScatter, WindowOf3MatchesTheSharedScatter) {
  for (CpuTapKernel k : {CpuTapKernel::Shared, CpuTapKernel::Block, CpuTapKernel::Avx2}) check(k, 1.5, false, false);
}

TEST(CpuScatter, WindowOf4WithWeightFactorsMatchesTheSharedScatter) {
  for (CpuTapKernel k : {CpuTapKernel::Block, CpuTapKernel::Avx2}) check(k, 1.9, true, false);
}

TEST(CpuScatter, DynamicWeightsMatchTheSharedScatter) {
  for (CpuTapKernel k : {CpuTapKernel::Block, CpuTapKernel::Avx2}) check(k, 1.5, true, true);
}

// The reference itself: every voxel of a window gets k(dx) k(dy) k(dz), the 1-D factor normalised
// in 1-D (within the window table's interpolation, 1e-5 of k(0)), and no voxel beyond the window
// gets anything.
TEST(CpuScatter, OneSampleSpreadsTheProductOfThreeFactors) {
  for (double radius : {1.5, 1.9}) {
    ScatterProblem p = scatter_problem(1, false, 3u, radius);
    std::fill(p.spectra.begin(), p.spectra.end(), recon::Cf{0, 0});
    const int j = 5, i = p.layout.fy / 2 + 3;
    p.spectra[std::size_t(i) * p.layout.fx + j] = recon::Cf{1, 0};
    const int window = recon::scatter_window(static_cast<Real>(radius));
    const recon::WindowTable windows(p.settings.blob, window);
    const ScatterGrid got = scatter_run(p, recon::window_table_view(windows), nullptr, CpuTapKernel::Block, 16, true);
    Real px, py, pz;
    recon::sample_position(p.spaces[0], j, i, p.view(), px, py, pz);
    const double ima = recon::bessel_i(0, p.settings.blob.alpha);
    auto k = [&](double d) { return windows.scale() * recon::blob_value(d, p.settings.blob, ima); };
    const double half = 0.5 * window;
    double checked = 0;
    for (int z = 0; z < got.side; ++z)
      for (int y = 0; y < got.side; ++y)
        for (int x = 0; x < got.side; ++x) {
          const double dx = x - px, dy = y - py, dz = z - pz;
          const std::size_t n = (std::size_t(z) * got.side + y) * got.side + x;
          const bool in = std::abs(dx) <= half && std::abs(dy) <= half && std::abs(dz) <= half;
          const double expect = in ? p.spaces[0].weight * k(dx) * k(dy) * k(dz) : 0.0;
          EXPECT_NEAR(got.g[n].real(), expect, 1e-5 * k(0) * k(0) * k(0)) << radius << ": " << x << " " << y << " " << z;
          checked += expect;
        }
    EXPECT_GT(checked, 0.0);
  }
}

// The gridding correction divides by the 1-D transform of the factor (blob_fourier_nd, dims 1):
// its value at 0 is the factor's integral, and at other frequencies the cosine transform,
// both by the trapezoid rule on the factor itself.
TEST(SeparableKernel, OneDimensionalTransformIsTheFactorsTransform) {
  for (const recon::BlobParams p : {recon::BlobParams{1.5, 0, 12.0}, recon::BlobParams{1.9, 0, 15.0},
                                    recon::BlobParams{2.0, 2, 10.0}}) {
    const double ima = recon::bessel_i(p.order, p.alpha);
    for (double omega : {0.0, 0.05, 0.17, 0.31}) {
      const int n = 20000;
      double sum = 0;
      for (int k = 0; k <= n; ++k) {
        const double d = -p.radius + 2.0 * p.radius * k / n;
        const double f = recon::blob_value(d, p, ima) * std::cos(2 * 3.14159265358979323846 * omega * d);
        sum += (k == 0 || k == n) ? 0.5 * f : f;
      }
      sum *= 2.0 * p.radius / n;
      EXPECT_NEAR(recon::blob_fourier_nd(omega, p, ima, 1), sum, 1e-6 * std::abs(sum) + 1e-9)
          << "a " << p.radius << " m " << p.order << " omega " << omega;
    }
    // The window table's factor is normalised in 1-D: it integrates to 1 along a line.
    const recon::WindowTable t(p, 4);
    EXPECT_NEAR(t.scale() * recon::blob_fourier_nd(0.0, p, ima, 1), 1.0, 1e-12);
  }
}

} // namespace
