// The CUDA insertion backend against the CPU one (fourier-reconstruction.md §14.5):
// G1 parity on the PH1 fixture (precise with table and on-the-fly weights, fast, symmetric c4
// and i, CTF invert and wiener): relative L2 of the maps <= 1e-4 and FSC >= 0.9999 for k <= 15;
// G3 repeated GPU runs and 1 vs 2 lanes (and 2 devices where present) within 1e-5; the memory
// plan (§9 rule 1) and device errors as exit code 4. GPU cases skip without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/cuda/reconstruction.hpp"
#include "frost/reconstruction/finalise.hpp"
#include "frost/reconstruction/reconstruct.hpp"
#include "frost/reconstruction/sample_preparer.hpp"
#include "frost/test/support.hpp"
#include "recon_fixture.hpp"

namespace {

using namespace frost;
namespace recon = frost::recon;

constexpr double kMapTolerance = 1e-4;     // G1: relative L2 of the final maps, GPU vs CPU
constexpr double kFscTolerance = 0.9999;   // G1: FSC for k <= 15
constexpr int kFscLastShell = 15;
constexpr double kRepeatTolerance = 1e-5;  // G3 and lanes/devices

/// Images in memory, their particles (row = index) and the group they are inserted with.
struct Data {
  int box = 32;
  std::string sym = "c1";
  std::vector<recon::ParticleRecord> views;
  Image<float> stack;
};

recon::ReconstructionSettings settings_for(int box) {
  recon::ReconstructionSettings s;
  s.box = box;
  return s;
}

/// PH1 (§14.1), `count` random views; with a symmetry other than c1 the phantom carries it.
Data make_data(const std::string& sym, int count, std::uint32_t seed, bool ctf = false) {
  Data d;
  d.sym = sym;
  const geom::SymmetryGroup group = geom::parse_symmetry(sym);
  auto blobs = test::ph1_blobs(d.box, seed);
  if (group.order() > 1) blobs = test::symmetrise_blobs(test::ph1_blobs(d.box, seed, 60 / group.order() + 1), group);
  d.views = test::random_views(count, seed + 1);
  test::ProjectionOptions opt;
  if (ctf) {
    // T9: 4 A/px, 300 kV, Cs 2.7 mm, A 0.1, dU ~ U(3000, 8000), dV = dU - U(0, 300), theta U(0, 180).
    std::mt19937 rng(seed + 2);
    std::uniform_real_distribution<double> du(3000, 8000), dd(0, 300), ang(0, 180);
    for (auto& v : d.views) {
      v.has_ctf = true;
      v.ctf.voltage = 300;
      v.ctf.cs = 2.7;
      v.ctf.amplitude_contrast = 0.1;
      v.ctf.defocus_u = du(rng);
      v.ctf.defocus_v = v.ctf.defocus_u - dd(rng);
      v.ctf.defocus_angle = ang(rng);
    }
    opt.apply_ctf = true;
    opt.pixel_size = 4.0;
  }
  for (std::size_t i = 0; i < d.views.size(); ++i) d.views[i].row = i;
  d.stack = test::exact_projections(d.box, blobs, d.views, opt);
  return d;
}

recon::ImageLoader stack_loader(const Image<float>& stack) {
  return [&stack](const recon::ParticleRecord& p, Image<float>& out) {
    const index_t n = stack.shape().x, plane = n * stack.shape().y;
    if (out.shape().x != n || out.shape().y != stack.shape().y) out = Image<float>(Shape::image(n, stack.shape().y));
    const float* src = stack.data() + static_cast<index_t>(p.row) * plane;
    std::copy(src, src + plane, out.data());
  };
}

/// One accumulate() + finalise() with `accumulator`; the half grids are kept (symmetrised).
struct RunResult {
  std::vector<recon::HalfGrid> grids;
  std::vector<Image<float>> maps;
};

RunResult run(const recon::ReconstructionSettings& s, const Data& d, recon::GridAccumulator& accumulator,
              int grids = 1, int buffer = 25) {
  const recon::GridLayout layout = recon::make_grid_layout(s);
  recon::AccumulateOptions opt;
  opt.buffer_size = buffer;
  opt.grids = grids;
  RunResult r;
  r.grids = recon::accumulate(s, layout, geom::parse_symmetry(d.sym), d.views, stack_loader(d.stack), accumulator, opt);
  for (auto& g : r.grids) r.maps.push_back(recon::finalise(g, s, layout));
  return r;
}

RunResult run_cpu(const recon::ReconstructionSettings& s, const Data& d, int grids = 1, int buffer = 25) {
  auto acc = recon::make_cpu_accumulator(s, recon::make_grid_layout(s), grids);
  return run(s, d, *acc, grids, buffer);
}

RunResult run_gpu(const recon::ReconstructionSettings& s, const Data& d, int grids = 1, int buffer = 25,
                  std::vector<int> devices = {0}, int streams = 1) {
  auto acc = cuda::make_cuda_accumulator(s, recon::make_grid_layout(s), grids, devices, streams);
  RunResult r = run(s, d, *acc, grids, buffer);
  const cuda::CudaInsertStats st = cuda::cuda_insert_stats(*acc);
  EXPECT_TRUE(st.valid);
  const auto inserted = static_cast<std::int64_t>(d.views.size());
  EXPECT_EQ(st.images, inserted);
  EXPECT_EQ(st.spaces, inserted * geom::parse_symmetry(d.sym).order());
  EXPECT_GT(st.kernel_ms, 0.0);
  std::printf("  %s: %lld launches, kernel %.2f ms, upload %.1f MB\n", acc->describe().c_str(),
              static_cast<long long>(st.launches), st.kernel_ms, st.upload_bytes / 1e6);
  return r;
}

double grid_l2(const recon::HalfGrid& a, const recon::HalfGrid& b, bool weights) {
  const auto& x = weights ? a.weight : a.data;
  const auto& y = weights ? b.weight : b.data;
  EXPECT_EQ(x.size(), y.size());
  return test::relative_l2(x.data(), y.data(), std::min(x.size(), y.size()));
}

/// G1 comparison of a GPU run against the CPU run: maps, FSC, and the folded grids.
void expect_parity(const char* label, const RunResult& gpu, const RunResult& cpu) {
  ASSERT_EQ(gpu.maps.size(), cpu.maps.size());
  for (std::size_t m = 0; m < gpu.maps.size(); ++m) {
    const double l2 = test::relative_l2(gpu.maps[m], cpu.maps[m]);
    const auto fsc = test::fsc_shells(gpu.maps[m], cpu.maps[m]);
    const double gl2 = grid_l2(gpu.grids[m], cpu.grids[m], false);
    const double wl2 = grid_l2(gpu.grids[m], cpu.grids[m], true);
    double fmin = 1.0;
    for (int k = 0; k <= kFscLastShell && k < static_cast<int>(fsc.size()); ++k) fmin = std::min(fmin, fsc[k]);
    std::printf("G1 %s map %zu: rel L2 %.3g (G %.3g, W %.3g), min FSC k<=%d %.7f\n", label, m, l2, gl2, wl2,
                kFscLastShell, fmin);
    EXPECT_LE(l2, kMapTolerance) << label;
    EXPECT_LE(gl2, kMapTolerance) << label << " (G)";
    EXPECT_LE(wl2, kMapTolerance) << label << " (W)";
    ASSERT_GT(static_cast<int>(fsc.size()), kFscLastShell);
    for (int k = 0; k <= kFscLastShell; ++k) EXPECT_GE(fsc[k], kFscTolerance) << label << " shell " << k;
  }
}

// ---- runs everywhere ------------------------------------------------------------------------

TEST(CudaReconstruction, MissingDeviceIsDeviceError) {
  const auto s = settings_for(32);
  try {
    (void)cuda::make_cuda_accumulator(s, recon::make_grid_layout(s), 1, {9999}, 1);
    FAIL() << "expected frost::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Device) << e.what();
  }
}

TEST(CudaReconstruction, CubeBytesFollowTheMemoryTable) {
  // §9: N = 128, pad 2 -> 257^3 x 12 bytes = 203.7 MB; two grids twice that.
  const auto s = settings_for(128);
  const auto layout = recon::make_grid_layout(s);
  EXPECT_EQ(cuda::cuda_cube_bytes(layout, 1), std::size_t(257) * 257 * 257 * 12);
  EXPECT_EQ(cuda::cuda_cube_bytes(layout, 2), 2 * cuda::cuda_cube_bytes(layout, 1));
}

// ---- GPU --------------------------------------------------------------------------------------

TEST(CudaReconstruction, CubeLargerThanFreeMemoryIsDeviceError) {
  FROST_REQUIRE_GPU();
  // N = 1500 at pad 2: 3001^3 x 12 bytes = 324 GB, more than any current GPU; nothing is allocated.
  auto s = settings_for(1500);
  try {
    (void)cuda::make_cuda_accumulator(s, recon::make_grid_layout(s), 1, {0}, 1);
    FAIL() << "expected frost::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Device);
    const std::string what = e.what();
    EXPECT_NE(what.find("GiB"), std::string::npos) << what;
    EXPECT_NE(what.find("free"), std::string::npos) << what;
    std::printf("memory plan message: %s\n", what.c_str());
  }
}

struct ParityCase {
  const char* name;
  std::string sym;
  int views;
  bool fast;
  recon::Interpolation interp;
  recon::CtfMode ctf;
};

/// Test names and ctest lines show the case name, not the bytes of the struct.
void PrintTo(const ParityCase& c, std::ostream* os) { *os << c.name; }

class CudaParity : public ::testing::TestWithParam<ParityCase> {};

TEST_P(CudaParity, MatchesCpu) {
  FROST_REQUIRE_GPU();
  const ParityCase& c = GetParam();
  const bool ctf = c.ctf != recon::CtfMode::None;
  const Data d = make_data(c.sym, c.views, 11, ctf);
  auto s = settings_for(d.box);
  s.fast = c.fast;
  s.interp = c.interp;
  s.ctf = c.ctf;
  if (ctf) s.pixel_size = 4.0;
  const RunResult cpu = run_cpu(s, d);
  const RunResult gpu = run_gpu(s, d);
  expect_parity(c.name, gpu, cpu);
}

INSTANTIATE_TEST_SUITE_P(
    G1, CudaParity,
    ::testing::Values(ParityCase{"PreciseLookup", "c1", 300, false, recon::Interpolation::Lookup, recon::CtfMode::None},
                      ParityCase{"PreciseDynamic", "c1", 300, false, recon::Interpolation::Dynamic, recon::CtfMode::None},
                      ParityCase{"Fast", "c1", 300, true, recon::Interpolation::Lookup, recon::CtfMode::None},
                      ParityCase{"SymC4", "c4", 75, false, recon::Interpolation::Lookup, recon::CtfMode::None},
                      ParityCase{"SymI", "i", 5, false, recon::Interpolation::Lookup, recon::CtfMode::None},
                      ParityCase{"SymIFast", "i", 5, true, recon::Interpolation::Lookup, recon::CtfMode::None},
                      ParityCase{"CtfInvert", "c1", 300, false, recon::Interpolation::Lookup, recon::CtfMode::Invert},
                      ParityCase{"CtfWiener", "c1", 300, false, recon::Interpolation::Lookup, recon::CtfMode::Wiener}),
    [](const ::testing::TestParamInfo<ParityCase>& param) { return std::string(param.param.name); });

TEST(CudaReconstruction, HalfMapsMatchCpu) {
  FROST_REQUIRE_GPU();
  Data d = make_data("c1", 300, 21);
  for (std::size_t i = 0; i < d.views.size(); ++i) d.views[i].subset = 1 + static_cast<int>(i % 2);
  const auto s = settings_for(d.box);
  expect_parity("HalfMaps", run_gpu(s, d, 2), run_cpu(s, d, 2));
}

TEST(CudaReconstruction, RepeatedRunsAgree) {
  FROST_REQUIRE_GPU();
  const Data d = make_data("c4", 75, 31);
  const auto s = settings_for(d.box);
  const RunResult a = run_gpu(s, d), b = run_gpu(s, d);
  const double l2 = test::relative_l2(a.maps[0], b.maps[0]);
  std::printf("G3 repeat: rel L2 %.3g\n", l2);
  EXPECT_LE(l2, kRepeatTolerance);
}

TEST(CudaReconstruction, TwoLanesEqualOneLane) {
  FROST_REQUIRE_GPU();
  const Data d = make_data("c4", 75, 41);
  const auto s = settings_for(d.box);
  // Small batches so both lanes get many of them.
  const RunResult one = run_gpu(s, d, 1, 5, {0}, 1);
  const RunResult two = run_gpu(s, d, 1, 5, {0}, 2);
  const double l2 = test::relative_l2(two.maps[0], one.maps[0]);
  std::printf("lanes 2 vs 1: rel L2 %.3g\n", l2);
  EXPECT_LE(l2, kRepeatTolerance);
  expect_parity("TwoLanes", two, run_cpu(s, d, 1, 5));
}

TEST(CudaReconstruction, TwoDevicesEqualOne) {
  FROST_REQUIRE_GPU();
  if (cuda_device_count() < 2) GTEST_SKIP() << "G4 needs 2 CUDA devices; " << cuda_device_count() << " visible";
  const Data d = make_data("c4", 75, 51);
  const auto s = settings_for(d.box);
  const RunResult one = run_gpu(s, d, 1, 5, {0}, 2);
  const RunResult two = run_gpu(s, d, 1, 5, {0, 1}, 2);
  const double l2 = test::relative_l2(two.maps[0], one.maps[0]);
  std::printf("G4 devices 2 vs 1: rel L2 %.3g\n", l2);
  EXPECT_LE(l2, kRepeatTolerance);
}

TEST(CudaReconstruction, KernelTimingRuns) {
  FROST_REQUIRE_GPU();
  const Data d = make_data("c4", 10, 61);
  const auto s = settings_for(d.box);
  const auto layout = recon::make_grid_layout(s);
  const auto group = geom::parse_symmetry(d.sym);
  recon::SampleBatch batch(layout, 10, group.order(), false, HostMemory::Pinned);
  recon::SamplePreparer prep(s, layout, group);
  for (int i = 0; i < 10; ++i) {
    View<const float> im{d.stack.data() + std::size_t(i) * d.box * d.box, Shape::image(d.box, d.box)};
    prep.prepare(im, d.views[static_cast<std::size_t>(i)], batch, i);
  }
  batch.set_size(10);
  const cuda::KernelTiming t = cuda::time_insert_kernel(s, layout, batch, 0, 3);
  EXPECT_EQ(t.spaces, 40);
  EXPECT_EQ(t.reps, 3);
  EXPECT_GT(t.ms_per_launch, 0.0);
}

} // namespace
