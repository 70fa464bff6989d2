// The CUDA insertion backend beyond its seam (docs/reconstruct_fourier.md#gpu-tests). CPU/GPU parity
// of the backend that make_reconstruction_backend builds is ReconstructionBackend (backend_test.cpp);
// here are the variants the factory does not build and the device-specific tests: the brick kernel
// on every G1 case and the column kernel fed samples prepared on the CPU, against the CPU
// accumulator with G1's bounds (recon_parity.hpp: relative L2 of the maps, G and W <= 1e-4, FSC >=
// 0.9999 for k <= 15); brick and tuned column launches agree with the default column kernel within
// 1e-5 on G and W; the device fold (+ fast-mode convolution) of finish() matches the host fold of
// the same cubes within 1e-6; the device grid symmetrisation matches the CPU's within 1e-12; G3
// repeated brick runs, and 1 vs 2 lanes (both kernels) and 2 devices against 1, within 1e-5; the
// memory plan (docs/reconstruct_fourier.md#memory) and device errors as exit code 4; tuning. GPU
// cases skip without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <ostream>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/cuda/insert_tuning.hpp"
#include "frost/cuda/reconstruction.hpp"
#include "frost/reconstruction/finalise.hpp"
#include "frost/reconstruction/reconstruct.hpp"
#include "frost/reconstruction/sample_preparer.hpp"
#include "frost/tuning/cache.hpp"
#include "frost/test/support.hpp"
#include "recon_fixture.hpp"
#include "recon_parity.hpp"

namespace {

using namespace frost;
namespace recon = frost::recon;

using test::ReconData;
using test::ReconRun;

constexpr double kKernelTolerance = 1e-5;  // brick vs column kernel, folded G and W
constexpr double kFoldTolerance = 1e-6;    // device fold vs host fold of the same cubes

recon::ReconstructionSettings settings_for(int box) {
  recon::ReconstructionSettings s;
  s.box = box;
  return s;
}

cuda::InsertLaunchConfig launch_for(cuda::InsertKernel kernel) {
  cuda::InsertLaunchConfig c = cuda::default_insert_launch();
  c.kernel = kernel;
  return c;
}

ReconRun run_gpu_launch(const recon::ReconstructionSettings& s, const ReconData& d, int grids, int buffer,
                        std::vector<int> devices, int streams, const cuda::InsertLaunchConfig& launch) {
  auto acc = cuda::make_cuda_accumulator(s, recon::make_grid_layout(s), grids, devices, streams, launch);
  ReconRun r = test::run_reconstruction(s, d, *acc, grids, buffer);
  const cuda::CudaInsertStats st = cuda::cuda_insert_stats(*acc);
  EXPECT_TRUE(st.valid);
  const auto inserted = static_cast<std::int64_t>(d.views.size());
  EXPECT_EQ(st.images, inserted);
  const int per_image = recon::plan_symmetry(geom::parse_symmetry(d.sym), s.sym_mode).inserted.order();
  EXPECT_EQ(st.spaces, inserted * per_image);
  EXPECT_GT(st.kernel_ms, 0.0);
  std::printf("  %s: %lld launches, kernel %.2f ms, upload %.1f MB\n", acc->describe().c_str(),
              static_cast<long long>(st.launches), st.kernel_ms, st.upload_bytes / 1e6);
  return r;
}

ReconRun run_gpu(const recon::ReconstructionSettings& s, const ReconData& d, int grids = 1, int buffer = 25,
                 std::vector<int> devices = {0}, int streams = 1,
                 cuda::InsertKernel kernel = cuda::default_insert_launch().kernel, bool fft_on_device = true) {
  cuda::InsertLaunchConfig launch = launch_for(kernel);
  launch.fft_on_device = fft_on_device;
  return run_gpu_launch(s, d, grids, buffer, std::move(devices), streams, launch);
}

using test::grid_l2;

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

TEST(CudaReconstruction, TuningConfigurationsMapOntoTheColumnLaunch) {
  // The default of the fr_insert space is the accumulator's default launch.
  const auto s = settings_for(32);
  const tuning::KernelSpace k = cuda::fr_insert_kernel_space(s, tuning::DeviceLimits{});
  const cuda::InsertLaunchConfig def = cuda::insert_launch_from(k.default_config);
  const cuda::InsertLaunchConfig ref = cuda::default_insert_launch();
  EXPECT_EQ(def.kernel, ref.kernel);
  EXPECT_EQ(def.block_x, ref.block_x);
  EXPECT_EQ(def.block_y, ref.block_y);
  EXPECT_EQ(def.max_grid_z, ref.max_grid_z);
  EXPECT_EQ(def.tile, ref.tile);
  EXPECT_EQ(def.shared_blob_table, ref.shared_blob_table);
  const cuda::InsertLaunchConfig c = cuda::insert_launch_from(
      {{"BLOCK_DIM", 24}, {"GRID_DIM_Z", 64}, {"SHARED_BLOB_TABLE", 1}, {"TILE", 8}, {"PRECOMPUTE_BLOB_VAL", 1}});
  EXPECT_EQ(c.block_x, 24);
  EXPECT_EQ(c.block_y, 24);
  EXPECT_EQ(c.max_grid_z, 64);
  EXPECT_EQ(c.tile, 8);
  EXPECT_TRUE(c.shared_blob_table);
  EXPECT_THROW(cuda::insert_launch_from({{"BLOCK_DIM", 16}}), Error);
  // A tile that does not divide the block is refused before any device is touched.
  cuda::InsertLaunchConfig bad = ref;
  bad.tile = 3;
  try {
    (void)cuda::make_cuda_accumulator(s, recon::make_grid_layout(s), 1, {0}, 1, bad);
    FAIL() << "expected frost::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage) << e.what();
  }
  // The problem key (docs/tune.md#key) of a 32^2 reconstruction with 25 spaces per launch.
  EXPECT_EQ(cuda::fr_insert_problem_key(s, recon::make_grid_layout(s), 25).str(),
            "spec=33x64;vol=65x65x65;cplx=f32;blob_order=0;blob_r=1.900;alpha=15.000;interp=lookup;batch<=32");
}

TEST(CudaReconstruction, CubeBytesFollowTheMemoryTable) {
  // docs/reconstruct_fourier.md#memory: N = 128, pad 2 -> 257^3 x 12 bytes = 203.7 MB; two grids twice that.
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

/// What make_reconstruction_backend does not build, on the G1 cases against the CPU accumulator:
/// the brick kernel, and the column kernel fed samples prepared on the CPU. The default column
/// kernel with device preparation is ReconstructionBackend's (backend_test.cpp).
using VariantParam = std::tuple<test::ParityCase, cuda::InsertKernel>;
class CudaKernelVariants : public ::testing::TestWithParam<VariantParam> {};

TEST_P(CudaKernelVariants, MatchCpu) {
  FROST_REQUIRE_GPU();
  const test::ParityCase& c = std::get<0>(GetParam());
  const cuda::InsertKernel kernel = std::get<1>(GetParam());
  const ReconData d = test::parity_data(c);
  const recon::ReconstructionSettings s = test::parity_settings(c, d.box);
  const ReconRun cpu = test::run_cpu_reconstruction(s, d, c.grids, c.buffer);
  const ReconRun gpu = run_gpu(s, d, c.grids, c.buffer, {0}, c.streams, kernel, !c.cpu_fft);
  test::expect_g1_parity(std::string(c.name) + " " + cuda::insert_kernel_name(kernel), gpu, cpu);
}

/// The G1 cases of one grid (the half maps ran on the default kernel only), or those whose samples
/// are prepared on the CPU.
std::vector<test::ParityCase> g1_cases_where(bool cpu_fft_only) {
  std::vector<test::ParityCase> out;
  for (const test::ParityCase& c : test::g1_cases())
    if (cpu_fft_only ? c.cpu_fft : c.grids == 1) out.push_back(c);
  return out;
}

std::string variant_name(const ::testing::TestParamInfo<VariantParam>& param) {
  return std::string(std::get<0>(param.param).name) + "_" + cuda::insert_kernel_name(std::get<1>(param.param));
}

INSTANTIATE_TEST_SUITE_P(Brick, CudaKernelVariants,
                         ::testing::Combine(::testing::ValuesIn(g1_cases_where(false)),
                                            ::testing::Values(cuda::InsertKernel::Brick)),
                         variant_name);
INSTANTIATE_TEST_SUITE_P(CpuFft, CudaKernelVariants,
                         ::testing::Combine(::testing::ValuesIn(g1_cases_where(true)),
                                            ::testing::Values(cuda::InsertKernel::Column)),
                         variant_name);

/// The brick kernel, and the column kernel in tuned configurations of the `fr_insert` space
/// (thread tiles, blob table in shared memory, few blocks along z), insert the same (space,
/// voxel) contributions as the default column kernel and differ only in the order of the float
/// sums: the folded G and W agree within 1e-5 (relative L2).
struct KernelCase {
  const char* name;
  std::string sym;
  int views;
  bool fast;
  recon::Interpolation interp;
};
void PrintTo(const KernelCase& c, std::ostream* os) { *os << c.name; }
class CudaKernels : public ::testing::TestWithParam<KernelCase> {};

TEST_P(CudaKernels, MatchColumnKernel) {
  FROST_REQUIRE_GPU();
  const KernelCase& c = GetParam();
  const ReconData d = test::make_recon_data(c.sym, c.views, 71);
  auto s = settings_for(d.box);
  s.fast = c.fast;
  s.interp = c.interp;
  const ReconRun column = run_gpu(s, d, 1, 25, {0}, 2, cuda::InsertKernel::Column);
  for (cuda::InsertKernel kernel : {cuda::InsertKernel::Brick}) {
    const ReconRun other = run_gpu(s, d, 1, 25, {0}, 2, kernel);
    const double gl2 = grid_l2(other.grids[0], column.grids[0], false);
    const double wl2 = grid_l2(other.grids[0], column.grids[0], true);
    std::printf("%s vs column %s: G rel L2 %.3g, W rel L2 %.3g\n", cuda::insert_kernel_name(kernel), c.name, gl2, wl2);
    EXPECT_LE(gl2, kKernelTolerance) << cuda::insert_kernel_name(kernel);
    EXPECT_LE(wl2, kKernelTolerance) << cuda::insert_kernel_name(kernel);
  }
  struct Tuned {
    int block, grid_z, tile;
    bool shared_table;
  };
  for (const Tuned& t : {Tuned{8, 4, 2, false}, Tuned{32, 65535, 8, true}, Tuned{12, 1, 4, true}, Tuned{24, 256, 1, false}}) {
    // With on-the-fly weights the kernel needs more than 64 registers per thread: a 1024-thread
    // block does not launch on an H100 (cudaErrorLaunchOutOfResources; frost_tune records such
    // configurations as failed and never selects them).
    if (t.block * t.block > 512 && c.interp == recon::Interpolation::Dynamic && !c.fast) continue;
    cuda::InsertLaunchConfig launch = cuda::default_insert_launch();
    launch.block_x = launch.block_y = t.block;
    launch.max_grid_z = t.grid_z;
    launch.tile = t.tile;
    launch.shared_blob_table = t.shared_table;
    const ReconRun other = run_gpu_launch(s, d, 1, 25, {0}, 2, launch);
    const double gl2 = grid_l2(other.grids[0], column.grids[0], false);
    const double wl2 = grid_l2(other.grids[0], column.grids[0], true);
    std::printf("column %d^2 z %d tile %d table %d vs default %s: G rel L2 %.3g, W rel L2 %.3g\n", t.block, t.grid_z,
                t.tile, int(t.shared_table), c.name, gl2, wl2);
    EXPECT_LE(gl2, kKernelTolerance) << t.block << " " << t.tile;
    EXPECT_LE(wl2, kKernelTolerance) << t.block << " " << t.tile;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, CudaKernels,
    ::testing::Values(KernelCase{"Precise", "c1", 300, false, recon::Interpolation::Lookup},
                      KernelCase{"PreciseDynamic", "c4", 75, false, recon::Interpolation::Dynamic},
                      KernelCase{"Fast", "c1", 300, true, recon::Interpolation::Lookup},
                      KernelCase{"SymI", "i", 5, false, recon::Interpolation::Lookup},
                      KernelCase{"SymIFast", "i", 5, true, recon::Interpolation::Lookup}),
    [](const ::testing::TestParamInfo<KernelCase>& param) { return std::string(param.param.name); });

/// Inserts the views of `d` batch by batch (views with subset 2 into grid 1 when grids = 2).
void insert_views(const recon::ReconstructionSettings& s, const ReconData& d, recon::GridAccumulator& acc, int grids) {
  const auto layout = recon::make_grid_layout(s);
  const auto group = geom::parse_symmetry(d.sym);
  constexpr int kBuffer = 25;
  recon::SamplePreparer prep(s, layout, group);
  recon::SampleBatch batch(layout, kBuffer, group.order(), s.ctf != recon::CtfMode::None, acc.host_memory());
  for (int g = 0; g < grids; ++g) {
    int n = 0;
    for (std::size_t i = 0; i < d.views.size(); ++i) {
      const int grid = grids == 2 && d.views[i].subset == 2 ? 1 : 0;
      if (grid != g) continue;
      View<const float> im{d.stack.data() + i * std::size_t(d.box) * d.box, Shape::image(d.box, d.box)};
      prep.prepare(im, d.views[i], batch, n++);
      if (n == kBuffer) {
        batch.set_size(n);
        acc.insert(batch, g, 0);
        n = 0;
      }
    }
    if (n > 0) {
      batch.set_size(n);
      acc.insert(batch, g, 0);
    }
  }
}

/// finish() folds (and in fast mode first convolves) on the device; the host fold of the same
/// cubes, downloaded before, agrees within float rounding of the fold's sums.
void expect_device_fold_matches_host(bool fast, int grids, const std::vector<int>& devices) {
  ReconData d = test::make_recon_data("c4", 60, 81);
  for (std::size_t i = 0; i < d.views.size(); ++i) d.views[i].subset = 1 + static_cast<int>(i % 2);
  auto s = settings_for(d.box);
  s.fast = fast;
  const auto layout = recon::make_grid_layout(s);
  auto acc = cuda::make_cuda_accumulator(s, layout, grids, devices, 1);
  insert_views(s, d, *acc, grids);
  std::vector<recon::HalfGrid> host;
  const recon::BlobTable table(s.blob);
  for (int g = 0; g < grids; ++g) {
    recon::FullGrid cube = cuda::cuda_download_cube(*acc, g);
    if (fast) recon::convolve_with_blob(cube, table);
    host.push_back(recon::fold(cube, layout));
  }
  std::vector<recon::HalfGrid> device(static_cast<std::size_t>(grids), recon::HalfGrid(layout));
  acc->finish(device);
  for (int g = 0; g < grids; ++g) {
    const double gl2 = grid_l2(device[g], host[g], false);
    const double wl2 = grid_l2(device[g], host[g], true);
    double norm = 0;
    for (double v : host[g].weight) norm += v * v;
    std::printf("device vs host fold (%s, grid %d of %d, %zu device(s)): G rel L2 %.3g, W rel L2 %.3g\n",
                fast ? "fast" : "precise", g, grids, devices.size(), gl2, wl2);
    EXPECT_GT(norm, 0.0);
    EXPECT_LE(gl2, kFoldTolerance);
    EXPECT_LE(wl2, kFoldTolerance);
  }
}

TEST(CudaReconstruction, DeviceFoldMatchesHostFold) {
  FROST_REQUIRE_GPU();
  expect_device_fold_matches_host(false, 2, {0});
}

TEST(CudaReconstruction, DeviceConvolveAndFoldMatchHost) {
  FROST_REQUIRE_GPU();
  expect_device_fold_matches_host(true, 1, {0});
}

TEST(CudaReconstruction, DeviceFoldOfTwoDevicesMatchesHost) {
  FROST_REQUIRE_GPU();
  if (cuda_device_count() < 2) GTEST_SKIP() << "needs 2 CUDA devices; " << cuda_device_count() << " visible";
  expect_device_fold_matches_host(false, 1, {0, 1});
  expect_device_fold_matches_host(true, 1, {0, 1});
}

// G3 for the brick kernel (the column kernel's is ReconstructionBackend.RepeatedRunsAgree).
TEST(CudaReconstruction, BrickKernelRepeatedRunsAgree) {
  FROST_REQUIRE_GPU();
  const ReconData d = test::make_recon_data("c4", 75, 31);
  const auto s = settings_for(d.box);
  const cuda::InsertKernel kernel = cuda::InsertKernel::Brick;
  const ReconRun a = run_gpu(s, d, 1, 25, {0}, 1, kernel), b = run_gpu(s, d, 1, 25, {0}, 1, kernel);
  const double l2 = test::relative_l2(a.maps[0], b.maps[0]);
  std::printf("G3 repeat (%s): rel L2 %.3g\n", cuda::insert_kernel_name(kernel), l2);
  EXPECT_LE(l2, test::kG3RepeatTolerance);
}

// The lanes against each other; two lanes against the CPU is the G1 case SmallBatchesTwoLanes
// (ReconstructionBackend for the column kernel, CudaKernelVariants for the brick kernel).
TEST(CudaReconstruction, TwoLanesEqualOneLane) {
  FROST_REQUIRE_GPU();
  const ReconData d = test::make_recon_data("c4", 75, 41);
  const auto s = settings_for(d.box);
  for (cuda::InsertKernel kernel : {cuda::InsertKernel::Column, cuda::InsertKernel::Brick}) {
    // Small batches so both lanes get many of them.
    const ReconRun one = run_gpu(s, d, 1, 5, {0}, 1, kernel);
    const ReconRun two = run_gpu(s, d, 1, 5, {0}, 2, kernel);
    const double l2 = test::relative_l2(two.maps[0], one.maps[0]);
    std::printf("lanes 2 vs 1 (%s): rel L2 %.3g\n", cuda::insert_kernel_name(kernel), l2);
    EXPECT_LE(l2, test::kG3RepeatTolerance) << cuda::insert_kernel_name(kernel);
  }
}

TEST(CudaReconstruction, TwoDevicesEqualOne) {
  FROST_REQUIRE_GPU();
  if (cuda_device_count() < 2) GTEST_SKIP() << "G4 needs 2 CUDA devices; " << cuda_device_count() << " visible";
  const ReconData d = test::make_recon_data("c4", 75, 51);
  const auto s = settings_for(d.box);
  const ReconRun one = run_gpu(s, d, 1, 5, {0}, 2);
  const ReconRun two = run_gpu(s, d, 1, 5, {0, 1}, 2);
  const double l2 = test::relative_l2(two.maps[0], one.maps[0]);
  std::printf("G4 devices 2 vs 1: rel L2 %.3g\n", l2);
  EXPECT_LE(l2, test::kG3RepeatTolerance);
}

// The periodic fold (docs/reconstruct_fourier.md#long-sums) with two devices of two lanes each,
// a fold every insert: every device folds, and the map is that of one device folding only at
// the finish.
TEST(CudaReconstruction, PeriodicFoldsOnTwoDevicesEqualOneDeviceWithout) {
  FROST_REQUIRE_GPU();
  if (cuda_device_count() < 2) GTEST_SKIP() << "needs 2 CUDA devices; " << cuda_device_count() << " visible";
  const ReconData d = test::make_recon_data("c4", 75, 61);
  const auto s = settings_for(d.box);
  const auto layout = recon::make_grid_layout(s);
  auto folding = cuda::make_cuda_accumulator(s, layout, 1, {0, 1}, 2);
  folding->set_fold_period(1);
  auto plain = cuda::make_cuda_accumulator(s, layout, 1, {0}, 1);
  plain->set_fold_period(0);
  const ReconRun a = test::run_reconstruction(s, d, *folding, 1, 5);
  const ReconRun b = test::run_reconstruction(s, d, *plain, 1, 5);
  const cuda::CudaInsertStats st = cuda::cuda_insert_stats(*folding);
  EXPECT_GE(st.periodic_folds, 2) << "each device folds";
  EXPECT_EQ(cuda::cuda_insert_stats(*plain).periodic_folds, 0);
  const double l2 = test::relative_l2(a.maps[0], b.maps[0]);
  std::printf("periodic folds on 2 devices x 2 lanes (%lld folds) vs 1 device without: rel L2 %.3g\n",
              static_cast<long long>(st.periodic_folds), l2);
  EXPECT_LE(l2, test::kG3RepeatTolerance);
}

/// Dynamic tuning inside the run (docs/tune.md#dynamic-tuning-in-the-main-loop): the launches
/// change from batch to batch, the map stays within the repeat tolerance of a default run, the
/// phase's record goes to the cache, and the next run hits it exactly and does not tune again (G6).
TEST(CudaReconstruction, DynamicTuningInTheRunMatchesTheDefault) {
  FROST_REQUIRE_GPU();
  const ReconData d = test::make_recon_data("c4", 300, 61);
  const auto s = settings_for(d.box);
  const recon::GridLayout layout = recon::make_grid_layout(s);
  const int buffer = 7; // 42 full batches and a partial one (run untimed)
  const long long spaces = buffer * static_cast<long long>(
                                        recon::plan_symmetry(geom::parse_symmetry(d.sym), s.sym_mode).inserted.order());
  const ReconRun reference = run_gpu(s, d, 1, buffer, {0}, 2);
  test::TempDir dir;
  tuning::TuningOptions options;
  options.policy = tuning::TunePolicy::Dynamic;
  options.budget = 12;
  options.cache_dir = dir.path();
  auto count_records = [&] { return tuning::TuningCache(dir.path()).records().size(); };
  {
    auto acc = cuda::make_tuned_cuda_accumulator(s, layout, 1, {0}, 2, options, spaces, 43);
    const ReconRun tuned = test::run_reconstruction(s, d, *acc, 1, buffer);
    const double l2 = test::relative_l2(tuned.maps[0], reference.maps[0]);
    std::printf("dynamic tuning in the run vs default launch: rel L2 %.3g\n", l2);
    EXPECT_LE(l2, test::kG3RepeatTolerance);
  }
  const auto records = tuning::TuningCache(dir.path()).records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].mode, "dynamic");
  EXPECT_GE(records[0].explored, 1);
  EXPECT_LE(records[0].explored, 12);
  EXPECT_GT(records[0].best_ms, 0.0);
  std::printf("dynamic record: explored %lld, best %s, %.4f ms\n", static_cast<long long>(records[0].explored),
              tuning::describe(records[0].best).c_str(), records[0].best_ms);
  // A second run (auto or dynamic) finds the exact record and does not tune: no new record.
  for (tuning::TunePolicy p : {tuning::TunePolicy::Auto, tuning::TunePolicy::Dynamic}) {
    options.policy = p;
    auto acc = cuda::make_tuned_cuda_accumulator(s, layout, 1, {0}, 2, options, spaces, 43);
    const ReconRun again = test::run_reconstruction(s, d, *acc, 1, buffer);
    EXPECT_LE(test::relative_l2(again.maps[0], reference.maps[0]), test::kG3RepeatTolerance);
  }
  EXPECT_EQ(count_records(), 1u);
  // auto with a cold cache and few launches: the rule of docs/tune.md#when-dynamic-tuning-pays says
  // tuning does not pay, nothing recorded.
  test::TempDir cold;
  options.policy = tuning::TunePolicy::Auto;
  options.cache_dir = cold.path();
  {
    auto acc = cuda::make_tuned_cuda_accumulator(s, layout, 1, {0}, 2, options, spaces, 43);
    (void)test::run_reconstruction(s, d, *acc, 1, buffer);
  }
  EXPECT_TRUE(tuning::TuningCache(cold.path()).records().empty());
}

TEST(CudaReconstruction, KernelTimingRuns) {
  FROST_REQUIRE_GPU();
  const ReconData d = test::make_recon_data("c4", 10, 61);
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
  for (cuda::InsertKernel kernel : {cuda::InsertKernel::Brick, cuda::InsertKernel::Column}) {
    const cuda::KernelTiming t = cuda::time_insert_kernel(s, layout, batch, 0, 3, launch_for(kernel));
    EXPECT_EQ(t.spaces, 40);
    EXPECT_EQ(t.reps, 3);
    EXPECT_GT(t.ms_per_launch, 0.0);
  }
}

// --sym_mode grid: the device symmetrisation runs the CPU's per-voxel code in double; on a
// random half grid with I symmetry (60 rotations, M = 32) the two agree within 1e-12 (relative L2).
TEST(CudaReconstruction, GridSymmetrisationMatchesCpu) {
  FROST_REQUIRE_GPU();
  recon::ReconstructionSettings s = settings_for(16);
  const recon::GridLayout layout = recon::make_grid_layout(s);
  recon::HalfGrid grid(layout);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> value(-1.0, 1.0), weight(0.0, 2.0);
  for (auto& v : grid.data) v = value(rng);
  for (auto& v : grid.weight) v = weight(rng);
  recon::HalfGrid cpu = grid, gpu = grid;
  const auto rotations = recon::plan_symmetry(geom::parse_symmetry("i"), recon::SymMode::Grid).grid;
  const double r2 = recon::grid_symmetry_radius_sq(layout, s.blob.radius);
  recon::symmetrise_grid(cpu, rotations, r2);
  cuda::symmetrise_half_grid(gpu, rotations, r2, 0);
  const double gl2 = grid_l2(gpu, cpu, false), wl2 = grid_l2(gpu, cpu, true);
  std::printf("grid symmetrisation (i, M %d): GPU vs CPU rel L2 G %.3g, W %.3g\n", layout.M, gl2, wl2);
  EXPECT_LE(gl2, 1e-12);
  EXPECT_LE(wl2, 1e-12);
}

} // namespace
