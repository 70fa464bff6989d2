#include "recon_parity.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/finalise.hpp"
#include "frost/reconstruction/reconstruct.hpp"
#include "frost/test/support.hpp"
#include "recon_fixture.hpp"

namespace frost::test {

ReconData make_recon_data(const std::string& sym, int count, std::uint32_t seed, bool ctf) {
  ReconData d;
  d.sym = sym;
  const geom::SymmetryGroup group = geom::parse_symmetry(sym);
  auto blobs = ph1_blobs(d.box, seed);
  if (group.order() > 1) blobs = symmetrise_blobs(ph1_blobs(d.box, seed, 60 / group.order() + 1), group);
  d.views = random_views(count, seed + 1);
  ProjectionOptions opt;
  if (ctf) {
    assign_t9_ctfs(d.views, seed + 2); // T9 at 4 A/px
    opt.apply_ctf = true;
    opt.pixel_size = 4.0;
  }
  for (std::size_t i = 0; i < d.views.size(); ++i) d.views[i].row = i;
  d.stack = exact_projections(d.box, blobs, d.views, opt);
  return d;
}

ReconRun run_reconstruction(const recon::ReconstructionSettings& s, const ReconData& d,
                            recon::GridAccumulator& accumulator, int grids, int buffer) {
  const recon::GridLayout layout = recon::make_grid_layout(s);
  recon::AccumulateOptions opt;
  opt.buffer_size = buffer;
  opt.grids = grids;
  ReconRun r;
  r.grids = recon::accumulate(s, layout, geom::parse_symmetry(d.sym), d.views, stack_loader(d.stack), accumulator, opt);
  for (auto& g : r.grids) r.maps.push_back(recon::finalise(g, s, layout));
  return r;
}

ReconRun run_cpu_reconstruction(const recon::ReconstructionSettings& s, const ReconData& d, int grids, int buffer) {
  auto acc = recon::make_cpu_accumulator(s, recon::make_grid_layout(s), grids);
  return run_reconstruction(s, d, *acc, grids, buffer);
}

double grid_l2(const recon::HalfGrid& a, const recon::HalfGrid& b, bool weights) {
  const auto& x = weights ? a.weight : a.data;
  const auto& y = weights ? b.weight : b.data;
  EXPECT_EQ(x.size(), y.size());
  return relative_l2(x.data(), y.data(), std::min(x.size(), y.size()));
}

void expect_g1_parity(const std::string& label, const ReconRun& got, const ReconRun& cpu) {
  ASSERT_EQ(got.maps.size(), cpu.maps.size()) << label;
  ASSERT_EQ(got.grids.size(), cpu.grids.size()) << label;
  for (std::size_t m = 0; m < got.maps.size(); ++m) {
    const double l2 = relative_l2(got.maps[m], cpu.maps[m]);
    const auto fsc = fsc_shells(got.maps[m], cpu.maps[m]);
    const double gl2 = grid_l2(got.grids[m], cpu.grids[m], false);
    const double wl2 = grid_l2(got.grids[m], cpu.grids[m], true);
    double fmin = 1.0;
    for (int k = 0; k <= kG1FscLastShell && k < static_cast<int>(fsc.size()); ++k) fmin = std::min(fmin, fsc[k]);
    std::printf("G1 %s map %zu: rel L2 %.3g (G %.3g, W %.3g), min FSC k<=%d %.7f\n", label.c_str(), m, l2, gl2,
                wl2, kG1FscLastShell, fmin);
    EXPECT_LE(l2, kG1MapTolerance) << label;
    EXPECT_LE(gl2, kG1MapTolerance) << label << " (G)";
    EXPECT_LE(wl2, kG1MapTolerance) << label << " (W)";
    ASSERT_GT(static_cast<int>(fsc.size()), kG1FscLastShell) << label;
    for (int k = 0; k <= kG1FscLastShell; ++k) EXPECT_GE(fsc[k], kG1FscTolerance) << label << " shell " << k;
  }
}

void PrintTo(const ParityCase& c, std::ostream* os) { *os << c.name; }

const std::vector<ParityCase>& g1_cases() {
  static const std::vector<ParityCase> cases = [] {
    using recon::CtfMode;
    using recon::Interpolation;
    using recon::SymMode;
    // name, sym, views, seed, fast, interp, ctf, sym_mode, grids, buffer, streams, cpu_fft
    return std::vector<ParityCase>{
        {"PreciseLookup", "c1", 300, 11, false, Interpolation::Lookup, CtfMode::None},
        {"PreciseDynamic", "c1", 300, 11, false, Interpolation::Dynamic, CtfMode::None},
        {"Fast", "c1", 300, 11, true, Interpolation::Lookup, CtfMode::None},
        {"SymC4", "c4", 75, 11, false, Interpolation::Lookup, CtfMode::None},
        {"SymI", "i", 5, 11, false, Interpolation::Lookup, CtfMode::None},
        {"SymIFast", "i", 5, 11, true, Interpolation::Lookup, CtfMode::None},
        {"SymIGrid", "i", 5, 11, false, Interpolation::Lookup, CtfMode::None, SymMode::Grid},
        {"CtfInvert", "c1", 300, 11, false, Interpolation::Lookup, CtfMode::Invert},
        {"CtfWiener", "c1", 300, 11, false, Interpolation::Lookup, CtfMode::Wiener},
        {"PreciseCpuFft", "c1", 300, 11, false, Interpolation::Lookup, CtfMode::None, SymMode::Insert, 1, 25, 1, true},
        {"CtfWienerCpuFft", "c1", 300, 11, false, Interpolation::Lookup, CtfMode::Wiener, SymMode::Insert, 1, 25, 1,
         true},
        {"HalfMaps", "c1", 300, 21, false, Interpolation::Lookup, CtfMode::None, SymMode::Insert, 2},
        // Small batches so that both lanes get many of them.
        {"SmallBatchesTwoLanes", "c4", 75, 41, false, Interpolation::Lookup, CtfMode::None, SymMode::Insert, 1, 5, 2},
        {"SeparableLookup", "c1", 300, 11, false, Interpolation::Lookup, CtfMode::None, SymMode::Insert, 1, 25, 1,
         false, recon::Kernel::Separable},
        {"SeparableDynamic", "c1", 300, 11, false, Interpolation::Dynamic, CtfMode::None, SymMode::Insert, 1, 25, 1,
         false, recon::Kernel::Separable},
        {"SeparableWienerC4", "c4", 75, 11, false, Interpolation::Lookup, CtfMode::Wiener, SymMode::Insert, 1, 25, 1,
         false, recon::Kernel::Separable},
    };
  }();
  return cases;
}

ParityCase g1_case(const std::string& name) {
  for (const ParityCase& c : g1_cases())
    if (name == c.name) return c;
  ADD_FAILURE() << "no G1 case " << name;
  return {};
}

ReconData parity_data(const ParityCase& c) {
  ReconData d = make_recon_data(c.sym, c.views, c.seed, c.ctf != recon::CtfMode::None);
  if (c.grids == 2)
    for (std::size_t i = 0; i < d.views.size(); ++i) d.views[i].subset = 1 + static_cast<int>(i % 2);
  return d;
}

recon::ReconstructionSettings parity_settings(const ParityCase& c, int box) {
  recon::ReconstructionSettings s;
  s.box = box;
  s.fast = c.fast;
  s.interp = c.interp;
  s.ctf = c.ctf;
  s.sym_mode = c.sym_mode;
  s.kernel = c.kernel;
  if (c.kernel == recon::Kernel::Separable) s.blob = {1.5, 0, 12.0};
  if (c.ctf != recon::CtfMode::None) s.pixel_size = 4.0;
  return s;
}

} // namespace frost::test
