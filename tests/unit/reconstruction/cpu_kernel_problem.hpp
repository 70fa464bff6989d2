#pragma once
// Test plumbing of the CPU insertion kernels' tests (cpu_gather_test.cpp, cpu_scatter_test.cpp):
// random samples, weight factors and poses on the layout of a 24 px box, the cube the kernels
// write into, and the comparisons of two cubes.
#include <cmath>
#include <random>
#include <vector>

#include "frost/geometry/euler.hpp"
#include "frost/reconstruction/cpu_gather.hpp"
#include "frost/reconstruction/settings.hpp"
#include "frost/reconstruction/traverse_space.hpp"

namespace frost::test {

/// Random samples and poses for `settings` (box 24, M 48), optionally with gw; the traverse
/// spaces are built with the settings' insertion reach.
struct CpuKernelProblem {
  recon::ReconstructionSettings settings;
  recon::GridLayout layout;
  std::vector<recon::Cf> spectra;
  std::vector<recon::Real> gw;
  std::vector<recon::TraverseSpace> spaces;
  recon::SampleView view() const {
    recon::SampleView v;
    v.spectra = spectra.data();
    v.gw = gw.empty() ? nullptr : gw.data();
    v.fx = layout.fx;
    v.fy = layout.fy;
    v.M = layout.M;
    return v;
  }
};

inline CpuKernelProblem cpu_kernel_problem(recon::ReconstructionSettings settings, int images, bool with_gw,
                                           unsigned seed) {
  using recon::Real;
  CpuKernelProblem p;
  settings.box = 24;
  p.settings = settings;
  p.layout = recon::make_grid_layout(p.settings);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uni(-1.0, 1.0), angle(0.0, 360.0), pos(0.05, 2.0);
  const std::size_t pixels = std::size_t(p.layout.fx) * p.layout.fy;
  p.spectra.resize(pixels * images);
  for (auto& c : p.spectra) c = recon::Cf{static_cast<Real>(uni(rng)), static_cast<Real>(uni(rng))};
  if (with_gw) {
    p.gw.resize(pixels * images);
    for (auto& g : p.gw) g = static_cast<Real>(pos(rng));
  }
  const double reach = recon::insertion_reach(p.settings);
  for (int i = 0; i < images; ++i) {
    const geom::Mat3d a = geom::euler_to_matrix<double>(angle(rng), 0.5 * angle(rng), angle(rng));
    p.spaces.push_back(
        recon::make_traverse_space(a.transposed(), p.layout, reach, i, static_cast<Real>(0.5 + 0.5 * pos(rng))));
  }
  return p;
}

/// A full cube of side `s` (x fastest) and its sink.
struct CpuKernelGrid {
  std::vector<recon::RealComplex> g;
  std::vector<recon::Real> w;
  int side = 0;
  explicit CpuKernelGrid(int s) : g(std::size_t(s) * s * s), w(std::size_t(s) * s * s), side(s) {}
  recon::CpuGridSink sink() { return {g.data(), w.data(), side}; }
};

/// Relative L2 of G (or W) of `a` against `b`.
inline double cpu_kernel_rel_l2(const CpuKernelGrid& a, const CpuKernelGrid& b, bool weights) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.w.size(); ++i) {
    const double d = weights ? double(a.w[i]) - b.w[i] : std::abs(a.g[i] - b.g[i]);
    const double r = weights ? double(b.w[i]) : std::abs(b.g[i]);
    num += d * d;
    den += r * r;
  }
  return std::sqrt(num / den);
}

/// Voxels that got a sum in one cube and none in the other.
inline long cpu_kernel_support_mismatch(const CpuKernelGrid& a, const CpuKernelGrid& b) {
  long n = 0;
  for (std::size_t i = 0; i < a.w.size(); ++i) n += (a.w[i] != 0) != (b.w[i] != 0);
  return n;
}

} // namespace frost::test
