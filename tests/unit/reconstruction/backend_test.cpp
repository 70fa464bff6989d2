// ReconstructionBackend: the one CPU/GPU parity suite of Fourier reconstruction
// (docs/reconstruct_fourier.md#gpu-tests). The reconstruction runs through its one seam,
// recon::make_reconstruction_backend, written once and instantiated for both backends (the CUDA
// instance skips without a GPU): accumulate() and finalise() in process, against the CPU
// accumulator. Bounds: the CPU instance bit for bit (on a fifth of each case's views); the CUDA
// instance G1 (recon_parity.hpp): relative L2 of the maps and of the folded G and W <= 1e-4, FSC
// >= 0.9999 for k <= 15; repeated runs G3, relative L2 <= 1e-5 (the CPU bit for bit). The cases
// are G1's: precise with table and on-the-fly weights, fast, c4, i, i fast, i in grid mode, CTF
// invert and Wiener, half maps, small batches on two lanes, the separable kernel (table, on the fly,
// Wiener with c4). What the factory does not build (the
// brick kernel, samples prepared on the CPU) and the device-specific tests (lanes, devices,
// memory plan, tuning) are in cuda_reconstruction_test.cpp.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/backend.hpp"
#include "frost/reconstruction/grid_symmetry.hpp"
#include "frost/test/device_types.hpp"
#include "frost/test/support.hpp"
#include "recon_fixture.hpp"
#include "recon_parity.hpp"

namespace frost::recon {
namespace {

using test::CpuDevices;
using test::CudaDevices;
using test::DeviceNames;

template <class D>
class ReconstructionBackend : public ::testing::Test {
protected:
  void SetUp() override {
    if (D::gpu) {
      FROST_REQUIRE_GPU();
    }
  }
  /// The backend under test for `grids` grids, with `streams` lanes per GPU. The GPU runs the
  /// insertion kernel's default launch (--tune off): G1's configuration, whatever a tuning cache
  /// on the machine holds.
  static std::unique_ptr<GridAccumulator> backend(const ReconstructionSettings& s, const std::string& sym, int grids,
                                                  int buffer, int streams = 1) {
    ReconstructionBackendOptions o;
    o.streams_per_device = streams;
    o.tuning.policy = tuning::TunePolicy::Off;
    o.spaces_per_launch = buffer * static_cast<long long>(plan_symmetry(geom::parse_symmetry(sym), s.sym_mode)
                                                              .inserted.order());
    return make_reconstruction_backend(D::devices(), s, make_grid_layout(s), grids, o);
  }
  /// The CPU instance must give the CPU accumulator's grids and maps bit for bit.
  static void expect_identical(const std::string& label, const test::ReconRun& got, const test::ReconRun& cpu) {
    ASSERT_EQ(got.maps.size(), cpu.maps.size()) << label;
    for (std::size_t m = 0; m < got.maps.size(); ++m) {
      EXPECT_EQ(test::relative_l2(got.maps[m], cpu.maps[m]), 0.0) << label << " map " << m;
      EXPECT_EQ(test::grid_l2(got.grids[m], cpu.grids[m], false), 0.0) << label << " G " << m;
      EXPECT_EQ(test::grid_l2(got.grids[m], cpu.grids[m], true), 0.0) << label << " W " << m;
    }
  }
  /// One G1 case through the factory against the CPU accumulator. The CPU instance is its own
  /// reference (the factory's CPU accumulator against make_cpu_accumulator, bit for bit), which a
  /// fifth of the views shows as well as all of them, at a fifth of the cost of its two CPU runs
  /// (CI, sanitizers); the CUDA instance runs the case as G1 defines it.
  void expect_case_matches_cpu(const std::string& name) {
    test::ParityCase c = test::g1_case(name);
    if (!D::gpu) c.views = std::max(5, c.views / 5);
    ASSERT_FALSE(c.cpu_fft) << name << ": the factory always prepares GPU samples on the device";
    const test::ReconData d = test::parity_data(c);
    const ReconstructionSettings s = test::parity_settings(c, d.box);
    auto acc = backend(s, d.sym, c.grids, c.buffer, c.streams);
    const test::ReconRun got = test::run_reconstruction(s, d, *acc, c.grids, c.buffer);
    const test::ReconRun cpu = test::run_cpu_reconstruction(s, d, c.grids, c.buffer);
    if (D::gpu) {
      test::expect_g1_parity(name + " " + acc->describe(), got, cpu);
    } else {
      expect_identical(name, got, cpu);
    }
  }
  /// A fold after every insert gives the map of a run that folds only at the finish, within the
  /// rounding of the float sums it shortens (G3's bound): the precise, fast (convolve, then fold),
  /// grid-symmetrised, half-map and two-lane paths.
  void expect_periodic_folds_change_nothing(const std::string& name) {
    test::ParityCase c = test::g1_case(name);
    c.views = std::min(c.views, D::gpu ? 100 : 30);
    const test::ReconData d = test::parity_data(c);
    const ReconstructionSettings s = test::parity_settings(c, d.box);
    auto every = backend(s, d.sym, c.grids, c.buffer, c.streams);
    every->set_fold_period(1);
    auto never = backend(s, d.sym, c.grids, c.buffer, c.streams);
    never->set_fold_period(0);
    const test::ReconRun a = test::run_reconstruction(s, d, *every, c.grids, c.buffer);
    const test::ReconRun b = test::run_reconstruction(s, d, *never, c.grids, c.buffer);
    ASSERT_EQ(a.maps.size(), b.maps.size());
    for (std::size_t m = 0; m < a.maps.size(); ++m) {
      const double l2 = test::relative_l2(a.maps[m], b.maps[m]);
      std::printf("%s map %zu: folds every insert against none, rel L2 %.3g\n", name.c_str(), m, l2);
      EXPECT_LE(l2, test::kG3RepeatTolerance) << name << " map " << m;
      EXPECT_LE(test::grid_l2(a.grids[m], b.grids[m], true), test::kG3RepeatTolerance) << name << " W " << m;
    }
  }
  /// The maps of `grids` grids of 120 PH1 views (box 32, `sym`; subsets alternate) on the backend
  /// under test and on the CPU accumulator.
  void expect_maps_match_cpu(const std::string& sym, int grids, bool fast) {
    ReconstructionSettings s;
    s.box = 32;
    s.fast = fast;
    test::ReconData d;
    d.sym = sym;
    d.views = test::random_views(120, 21);
    for (std::size_t i = 0; i < d.views.size(); ++i) {
      d.views[i].row = i;
      d.views[i].subset = 1 + static_cast<int>(i % 2);
    }
    d.stack = test::exact_projections(s.box, test::ph1_blobs(s.box, 20), d.views);
    auto acc = backend(s, sym, grids, 25);
    const test::ReconRun got = test::run_reconstruction(s, d, *acc, grids, 25);
    const test::ReconRun cpu = test::run_cpu_reconstruction(s, d, grids, 25);
    ASSERT_EQ(got.maps.size(), static_cast<std::size_t>(grids));
    for (std::size_t m = 0; m < got.maps.size(); ++m) {
      if (D::gpu) {
        EXPECT_LE(test::relative_l2(got.maps[m], cpu.maps[m]), test::kG1MapTolerance) << sym << " map " << m;
      } else {
        EXPECT_EQ(test::relative_l2(got.maps[m], cpu.maps[m]), 0.0) << sym << " map " << m;
      }
    }
  }
};
using Devices = ::testing::Types<CpuDevices, CudaDevices>;
TYPED_TEST_SUITE(ReconstructionBackend, Devices, DeviceNames);

TYPED_TEST(ReconstructionBackend, PreciseC1MatchesTheCpuAccumulator) { this->expect_maps_match_cpu("c1", 1, false); }
TYPED_TEST(ReconstructionBackend, FastC4HalfMapsMatchTheCpuAccumulator) { this->expect_maps_match_cpu("c4", 2, true); }

// ---- G1 -----------------------------------------------------------------------------------------

TYPED_TEST(ReconstructionBackend, PreciseLookupMatchesCpu) { this->expect_case_matches_cpu("PreciseLookup"); }
TYPED_TEST(ReconstructionBackend, PreciseDynamicMatchesCpu) { this->expect_case_matches_cpu("PreciseDynamic"); }
TYPED_TEST(ReconstructionBackend, FastMatchesCpu) { this->expect_case_matches_cpu("Fast"); }
TYPED_TEST(ReconstructionBackend, SymC4MatchesCpu) { this->expect_case_matches_cpu("SymC4"); }
TYPED_TEST(ReconstructionBackend, SymIMatchesCpu) { this->expect_case_matches_cpu("SymI"); }
TYPED_TEST(ReconstructionBackend, SymIFastMatchesCpu) { this->expect_case_matches_cpu("SymIFast"); }
TYPED_TEST(ReconstructionBackend, SymIGridMatchesCpu) { this->expect_case_matches_cpu("SymIGrid"); }
TYPED_TEST(ReconstructionBackend, CtfInvertMatchesCpu) { this->expect_case_matches_cpu("CtfInvert"); }
TYPED_TEST(ReconstructionBackend, CtfWienerMatchesCpu) { this->expect_case_matches_cpu("CtfWiener"); }
TYPED_TEST(ReconstructionBackend, HalfMapsMatchCpu) { this->expect_case_matches_cpu("HalfMaps"); }
TYPED_TEST(ReconstructionBackend, SeparableLookupMatchesCpu) { this->expect_case_matches_cpu("SeparableLookup"); }
TYPED_TEST(ReconstructionBackend, SeparableDynamicMatchesCpu) { this->expect_case_matches_cpu("SeparableDynamic"); }
TYPED_TEST(ReconstructionBackend, SeparableWienerC4MatchesCpu) { this->expect_case_matches_cpu("SeparableWienerC4"); }
TYPED_TEST(ReconstructionBackend, PeriodicFoldsChangeNothingSeparable) {
  this->expect_periodic_folds_change_nothing("SeparableLookup");
}
TYPED_TEST(ReconstructionBackend, SmallBatchesOnTwoLanesMatchCpu) {
  this->expect_case_matches_cpu("SmallBatchesTwoLanes");
}

// G3: two runs on new backends of one kind agree; the GPU's float atomics add in another order
// each time, the CPU is deterministic (T13).
TYPED_TEST(ReconstructionBackend, RepeatedRunsAgree) {
  const test::ReconData d = test::make_recon_data("c4", 75, 31);
  ReconstructionSettings s;
  s.box = d.box;
  std::string described;
  auto run_once = [&] {
    auto acc = this->backend(s, d.sym, 1, 25);
    described = acc->describe();
    return test::run_reconstruction(s, d, *acc);
  };
  const test::ReconRun a = run_once(), b = run_once();
  const double l2 = test::relative_l2(a.maps[0], b.maps[0]);
  std::printf("G3 repeat (%s): rel L2 %.3g\n", described.c_str(), l2);
  if (TypeParam::gpu) {
    EXPECT_LE(l2, test::kG3RepeatTolerance);
  } else {
    EXPECT_EQ(l2, 0.0);
  }
}

// ---- Long sums (docs/reconstruct_fourier.md#long-sums) ------------------------------------------

TYPED_TEST(ReconstructionBackend, PeriodicFoldsChangeNothingPrecise) {
  this->expect_periodic_folds_change_nothing("PreciseLookup");
}
TYPED_TEST(ReconstructionBackend, PeriodicFoldsChangeNothingFast) { this->expect_periodic_folds_change_nothing("Fast"); }
TYPED_TEST(ReconstructionBackend, PeriodicFoldsChangeNothingGridSymmetry) {
  this->expect_periodic_folds_change_nothing("SymIGrid");
}
TYPED_TEST(ReconstructionBackend, PeriodicFoldsChangeNothingHalfMapsOnTwoLanes) {
  this->expect_periodic_folds_change_nothing("HalfMaps");
  this->expect_periodic_folds_change_nothing("SmallBatchesTwoLanes");
}

// The same 2 views inserted 400 times: the exact grid is 400 times that of one pass. Summed in
// float to the end, the rounding grows with the number of terms per voxel; folded into double
// every 20 spaces, it stays that of 10 terms.
TYPED_TEST(ReconstructionBackend, PeriodicFoldsBoundTheFloatSums) {
  constexpr int kRepeats = 400;
  test::ReconData once = test::make_recon_data("c1", 2, 41);
  ReconstructionSettings s;
  s.box = once.box;
  test::ReconData many = test::make_recon_data("c1", 2, 41); // the same images (deterministic)
  many.views.clear();
  for (int r = 0; r < kRepeats; ++r) many.views.insert(many.views.end(), once.views.begin(), once.views.end());
  auto one_pass = this->backend(s, "c1", 1, 25);
  const test::ReconRun single = test::run_reconstruction(s, once, *one_pass, 1, 25);
  HalfGrid exact = single.grids[0];
  for (auto& v : exact.data) v *= kRepeats;
  for (auto& v : exact.weight) v *= kRepeats;
  auto error_with_period = [&](std::int64_t period) {
    auto acc = this->backend(s, "c1", 1, 25);
    acc->set_fold_period(period);
    const test::ReconRun r = test::run_reconstruction(s, many, *acc, 1, 25);
    return std::max(test::grid_l2(r.grids[0], exact, false), test::grid_l2(r.grids[0], exact, true));
  };
  const double folded = error_with_period(20), unfolded = error_with_period(0);
  std::printf("%d passes: rel L2 against the exact sum %.3g folded every 20 spaces, %.3g unfolded\n", kRepeats,
              folded, unfolded);
  EXPECT_LE(folded, 2e-6);
  EXPECT_GT(unfolded, 3 * folded);
}

TYPED_TEST(ReconstructionBackend, DescribesItsHardware) {
  ReconstructionSettings s;
  s.box = 32;
  auto backend = make_reconstruction_backend(TypeParam::devices(), s, make_grid_layout(s), 1, {});
  EXPECT_NE(backend->describe().find(TypeParam::gpu ? "cuda" : "cpu"), std::string::npos) << backend->describe();
}

} // namespace
} // namespace frost::recon
