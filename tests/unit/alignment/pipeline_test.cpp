// SignificantPipeline: the pipeline of frost_align_significant (align::align_significant) in
// process, written once and run on both backends from align::make_alignment_backend (the CUDA
// instance skips without a GPU): recovery, the merge of ranks' shares, the input swap, and the one
// CPU/GPU parity suite of alignment (docs/align_significant.md#pipeline): test 21 of
// docs/align_significant.md#gpu-parity-and-benchmark, scaled to the recovery fixture of
// recovery_test.cpp (X = 64, 46 references, 60 images, SNR 0.1), with the default and with small
// batches and reference blocks, and mirrors with --max-shift. Bounds of test 21 against the CPU
// backend: the same best reference for >= 99 % of the images; where equal |dpsi| <= 0.1 deg,
// |dshift| <= 0.05 px (with --subpixel none the polar step + 0.01 deg and 1.01 px), |dCC| <= 1e-3,
// the same flip; two runs on one GPU bit-identical. The CPU instance must give the CPU backend's
// pairs bit for bit (on the first 12 images of the fixture: kParityImages). Per-kernel parity and the memory plan are in cuda_alignment_test.cpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "frost/alignment/math/polar.hpp"
#include "frost/alignment/math/pose2d.hpp"
#include "frost/alignment/significant_pipeline.hpp"
#include "frost/core/error.hpp"
#include "frost/test/device_types.hpp"
#include "recovery_fixture.hpp"

namespace frost::align {
namespace {

using namespace recovery;

using test::CpuDevices;
using test::CudaDevices;
using test::DeviceNames;

// Test 21, where the best reference agrees: ψ, shift (parabolic) and CC of that pair.
constexpr double kSameRef = 0.99; // share of images with the same best reference
constexpr double kPsiDeg = 0.1, kShiftPx = 0.05, kCcAbs = 1e-3;

/// The data of recovery_test.cpp (test 13, seed 13): sharp phantom, 46 Fibonacci references,
/// 60 images, SNR 0.1.
const PhantomSet& recovery_set() {
  static const PhantomSet d = analytic_set(64, 46, 60, 0.1, 13);
  return d;
}

/// The first `refs` references and `imgs` images of the recovery fixture as one process's input.
SignificantInput recovery_input(std::size_t refs, std::size_t imgs) {
  const PhantomSet& set = recovery_set();
  SignificantInput in;
  in.references = View<const float>{set.refs.data(), Shape::image(set.x, set.x, index_t(refs))};
  in.images = View<const float>{set.images.data(), Shape::image(set.x, set.x, index_t(imgs))};
  in.n_images = imgs;
  in.directions.assign(set.dirs.begin(), set.dirs.begin() + static_cast<std::ptrdiff_t>(refs));
  return in;
}

/// The CPU backend's pairs of `refs` x `imgs` of the recovery fixture under `s`: the reference of
/// the parity tests, computed once per process (several tests share it).
const std::vector<PairResult>& cpu_pairs(std::size_t refs, std::size_t imgs, const AlignSettings& s) {
  static std::map<std::string, std::vector<PairResult>> done;
  const std::string key = std::to_string(refs) + "x" + std::to_string(imgs) + " " + to_string(s);
  auto it = done.find(key);
  if (it == done.end()) {
    SignificantOptions o;
    o.settings = s;
    const auto cpu = make_cpu_backend();
    it = done.emplace(key, align_significant(*cpu, recovery_input(refs, imgs), o).pairs).first;
  }
  return it->second;
}

/// Test 21's comparison: best reference (largest CC) per image, then pose, CC and flip of that
/// pair; `psi_tol` and `shift_tol` as the sub-pixel mode allows.
void expect_test21(const std::vector<PairResult>& gpu, const std::vector<PairResult>& cpu, std::size_t refs,
                   std::size_t imgs, double psi_tol, double shift_tol) {
  int same = 0;
  for (std::size_t i = 0; i < imgs; ++i) {
    auto best = [&](const std::vector<PairResult>& r) {
      std::size_t b = 0;
      for (std::size_t k = 1; k < refs; ++k)
        if (r[k * imgs + i].cc > r[b * imgs + i].cc) b = k;
      return b;
    };
    const std::size_t bg = best(gpu), bc = best(cpu);
    if (bg != bc) continue;
    ++same;
    const PairResult &g = gpu[bg * imgs + i], &c = cpu[bc * imgs + i];
    const PoseParameters pg = pose_parameters(g.pose), pc = pose_parameters(c.pose);
    EXPECT_LE(angle_error(pg.psi, pc.psi), psi_tol) << "image " << i;
    EXPECT_LE(std::hypot(pg.shift_x - pc.shift_x, pg.shift_y - pc.shift_y), shift_tol) << "image " << i;
    EXPECT_NEAR(g.cc, c.cc, kCcAbs) << "image " << i;
    EXPECT_EQ(g.flip, c.flip) << "image " << i;
  }
  EXPECT_GE(double(same) / double(imgs), kSameRef);
}

template <class D>
class SignificantPipeline : public ::testing::Test {
protected:
  void SetUp() override {
    if (D::gpu) {
      FROST_REQUIRE_GPU();
    }
    backend_ = make_alignment_backend(D::devices());
  }
  /// One process's run over images [first, first + count) of `set`.
  SignificantResult run(const PhantomSet& set, const SignificantOptions& o, std::size_t first, std::size_t count) {
    const std::size_t px = std::size_t(set.x) * set.x;
    SignificantInput in;
    in.references = set.refs.cview();
    in.images = View<const float>{set.images.data() + first * px, Shape::image(set.x, set.x, index_t(count))};
    in.n_images = static_cast<std::size_t>(set.images.shape().n);
    in.first_image = first;
    in.directions = set.dirs;
    return align_significant(*backend_, in, o);
  }
  SignificantResult run(const PhantomSet& set, const SignificantOptions& o) {
    return run(set, o, 0, static_cast<std::size_t>(set.images.shape().n));
  }
  /// Test 21's comparison of `here` (this backend's pairs of `refs` x `imgs` of the recovery
  /// fixture) with the CPU backend's: bit for bit on the CPU.
  static void expect_matches_cpu(const std::vector<PairResult>& here, std::size_t refs, std::size_t imgs,
                                 const AlignSettings& s) {
    const std::vector<PairResult>& cpu = cpu_pairs(refs, imgs, s);
    ASSERT_EQ(here.size(), cpu.size());
    if (!D::gpu) {
      EXPECT_EQ(0, std::memcmp(here.data(), cpu.data(), cpu.size() * sizeof(PairResult))) << to_string(s);
      return;
    }
    if (s.subpixel == SubpixelMethod::None)
      expect_test21(here, cpu, refs, imgs, make_polar_grid(recovery_set().x).step_deg() + 0.01, 1.01);
    else
      expect_test21(here, cpu, refs, imgs, kPsiDeg, kShiftPx);
  }
  /// Images of the recovery fixture the parity tests run on: all 60 on the GPU. The CPU instance is
  /// its own reference (the factory's CPU backend against make_cpu_backend, bit for bit), which the
  /// first 12 show as well as all 60, at a fifth of the cost of its two CPU runs (CI, sanitizers).
  static constexpr std::size_t kParityImages = D::gpu ? 60 : 12;
  std::unique_ptr<AlignmentBackend> backend_;
};
using Devices = ::testing::Types<CpuDevices, CudaDevices>;
TYPED_TEST_SUITE(SignificantPipeline, Devices, DeviceNames);

/// The best reference of each image (SIZE_MAX where none was kept).
std::vector<std::size_t> best_references(const SignificantResult& r, std::size_t n_img) {
  std::vector<std::size_t> best(n_img, static_cast<std::size_t>(-1));
  for (const Assignment& a : r.rows)
    if (best[a.image] == static_cast<std::size_t>(-1)) best[a.image] = a.reference;
  return best;
}

double agreement(const std::vector<std::size_t>& a, const std::vector<std::size_t>& b) {
  int same = 0;
  for (std::size_t i = 0; i < a.size(); ++i) same += a[i] == b[i];
  return double(same) / double(a.size());
}

TYPED_TEST(SignificantPipeline, RecoversTheTrueReferences) {
  const PhantomSet set = analytic_set(32, 24, 16, 1.0, 5);
  SignificantOptions o;
  const SignificantResult r = this->run(set, o);
  ASSERT_EQ(r.pairs.size(), set.dirs.size() * set.truth.size());
  ASSERT_EQ(r.cc.size(), r.pairs.size());
  const std::vector<std::size_t> best = best_references(r, set.truth.size());
  int exact = 0;
  for (std::size_t i = 0; i < best.size(); ++i) exact += best[i] == set.truth[i].ref;
  EXPECT_GE(double(exact) / double(best.size()), 0.8);
}

// Two ranks' shares, gathered as frost::mpi::gather_columns does: the non-root rank hands over only
// its block (images 6..9) and keeps no matrix; the root assembles the single-process result.
TYPED_TEST(SignificantPipeline, SharesOfRanksMergeToTheSingleProcessResult) {
  const PhantomSet set = analytic_set(32, 12, 10, 1.0, 6);
  SignificantOptions o;
  o.keep_best = 2;
  const SignificantResult whole = this->run(set, o);
  struct Sent {
    std::vector<float> block;
    std::size_t first = 0, count = 0;
  } sent;
  SignificantOptions other = o;
  other.root = false;
  other.gather_to_root = [&](const float* local, std::size_t rows, std::size_t first, std::size_t count, float*,
                             std::size_t) {
    sent.block.assign(local, local + rows * count);
    sent.first = first;
    sent.count = count;
  };
  const SignificantResult rank1 = this->run(set, other, 6, 4);
  EXPECT_TRUE(rank1.rows.empty());
  EXPECT_TRUE(rank1.pairs.empty());
  ASSERT_EQ(sent.first, 6 * sizeof(PairResult) / sizeof(float));
  ASSERT_EQ(sent.count, 4 * sizeof(PairResult) / sizeof(float));
  SignificantOptions root = o;
  root.gather_to_root = [&](const float* local, std::size_t rows, std::size_t first, std::size_t count, float* full,
                            std::size_t row_length) {
    for (std::size_t r = 0; r < rows; ++r) {
      std::copy(local + r * count, local + (r + 1) * count, full + r * row_length + first);
      std::copy(sent.block.begin() + r * sent.count, sent.block.begin() + (r + 1) * sent.count,
                full + r * row_length + sent.first);
    }
  };
  const SignificantResult merged = this->run(set, root, 0, 6);
  ASSERT_EQ(merged.cc, whole.cc); // a pair's result does not depend on the batch it ran in
  ASSERT_EQ(merged.rows.size(), whole.rows.size());
  for (std::size_t k = 0; k < whole.rows.size(); ++k) {
    EXPECT_EQ(merged.rows[k].image, whole.rows[k].image);
    EXPECT_EQ(merged.rows[k].reference, whole.rows[k].reference);
    EXPECT_EQ(merged.rows[k].weight, whole.rows[k].weight);
  }
}

TYPED_TEST(SignificantPipeline, InputSwapKeepsTheBestReferences) {
  const PhantomSet set = analytic_set(32, 24, 8, 1.0, 7);
  SignificantOptions o;
  const SignificantResult direct = this->run(set, o);
  o.swap = true;
  const SignificantResult swapped = this->run(set, o);
  EXPECT_GE(agreement(best_references(direct, 8), best_references(swapped, 8)), 0.85);
}

// Streaming (docs/align_significant.md#streaming-the-images): images loaded in batches of 3 (the
// last one short), each read while the one before is aligned, give the in-memory result (bit for
// bit on the CPU; on the GPU within cuFFT's rounding for another batch count), direct and swapped, with the progress counted over the whole run and the loader asked for each
// image once, in order.
TYPED_TEST(SignificantPipeline, StreamedBatchesGiveTheInMemoryResult) {
  const PhantomSet set = analytic_set(32, 12, 11, 1.0, 9);
  const std::size_t px = std::size_t(set.x) * set.x, first = 2, count = 9;
  for (bool swap : {false, true}) {
    SignificantOptions o;
    o.swap = swap;
    const SignificantResult whole = this->run(set, o, first, count);
    std::vector<std::size_t> asked;
    std::size_t last_progress = 0;
    o.progress = [&](std::size_t done) { last_progress = std::max(last_progress, done); };
    SignificantInput in;
    in.references = set.refs.cview();
    in.n_images = static_cast<std::size_t>(set.images.shape().n);
    in.first_image = first;
    in.directions = set.dirs;
    in.local_images = count;
    in.batch = 3;
    in.load = [&](std::size_t from, std::size_t n) {
      asked.push_back(from);
      Image<float> batch(Shape::image(set.x, set.x, index_t(n)));
      std::copy(set.images.data() + from * px, set.images.data() + (from + n) * px, batch.data());
      return batch;
    };
    const SignificantResult streamed = align_significant(*this->backend_, in, o);
    EXPECT_EQ(streamed.batches, 3u);
    EXPECT_EQ(asked, (std::vector<std::size_t>{2, 5, 8}));
    ASSERT_EQ(streamed.pairs.size(), whole.pairs.size());
    if constexpr (std::is_same_v<TypeParam, CpuDevices>) {
      EXPECT_EQ(0, std::memcmp(streamed.pairs.data(), whole.pairs.data(), whole.pairs.size() * sizeof(PairResult)))
          << (swap ? "swapped" : "direct");
      EXPECT_EQ(streamed.cc, whole.cc);
    } else {
      // The GPU sizes its cuFFT batch by the work in hand, and cuFFT may round differently for
      // another batch count: the same poses, and CCs within float rounding.
      for (std::size_t k = 0; k < whole.pairs.size(); ++k) {
        const PairResult &a = streamed.pairs[k], &b = whole.pairs[k];
        EXPECT_NEAR(a.cc, b.cc, 1e-5f) << "pair " << k << (swap ? " swapped" : " direct");
        EXPECT_EQ(a.flip, b.flip) << "pair " << k;
        for (float d : {a.pose.a00 - b.pose.a00, a.pose.a01 - b.pose.a01, a.pose.a02 - b.pose.a02,
                        a.pose.a10 - b.pose.a10, a.pose.a11 - b.pose.a11, a.pose.a12 - b.pose.a12})
          EXPECT_NEAR(d, 0.0f, 1e-3f) << "pair " << k;
      }
      ASSERT_EQ(streamed.cc.size(), whole.cc.size());
      for (std::size_t k = 0; k < whole.cc.size(); ++k) EXPECT_NEAR(streamed.cc[k], whole.cc[k], 1e-5f) << k;
    }
    ASSERT_EQ(streamed.rows.size(), whole.rows.size());
    for (std::size_t k = 0; k < whole.rows.size(); ++k) {
      EXPECT_EQ(streamed.rows[k].image, whole.rows[k].image);
      EXPECT_EQ(streamed.rows[k].reference, whole.rows[k].reference);
    }
    EXPECT_EQ(last_progress, 12 * count) << "every pair of the rank counted once";
  }
}

// A failing read ends the run with the loader's error.
TYPED_TEST(SignificantPipeline, AFailedBatchReadIsTheRunsError) {
  const PhantomSet set = analytic_set(32, 4, 6, 1.0, 10);
  SignificantInput in;
  in.references = set.refs.cview();
  in.n_images = 6;
  in.directions = set.dirs;
  in.local_images = 6;
  in.batch = 2;
  in.load = [&](std::size_t from, std::size_t n) {
    if (from == 4) throw Error(ExitCode::Input, "images.mrcs: truncated");
    Image<float> batch(Shape::image(set.x, set.x, index_t(n)));
    std::fill(batch.data(), batch.data() + batch.shape().total(), 1.0f);
    return batch;
  };
  try {
    align_significant(*this->backend_, in, SignificantOptions{});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos);
  }
}

TYPED_TEST(SignificantPipeline, MatchesTheCpuBackend) {
  // The CPU instance must give the CPU backend's result bit for bit; the CUDA one test 21's
  // parity (docs/align_significant.md#gpu-parity-and-benchmark), scaled.
  const PhantomSet set = analytic_set(32, 24, 16, 1.0, 8);
  SignificantOptions o;
  const SignificantResult here = this->run(set, o);
  const auto cpu = make_cpu_backend();
  SignificantInput in;
  in.references = set.refs.cview();
  in.images = set.images.cview();
  in.n_images = set.truth.size();
  in.directions = set.dirs;
  const SignificantResult reference = align_significant(*cpu, in, o);
  if (!TypeParam::gpu) {
    EXPECT_EQ(here.cc, reference.cc);
    return;
  }
  EXPECT_GE(agreement(best_references(here, 16), best_references(reference, 16)), 0.99);
  for (std::size_t k = 0; k < here.cc.size(); ++k) EXPECT_NEAR(here.cc[k], reference.cc[k], 1e-3) << k;
}

// Test 21 on the recovery fixture, with parabolic refinement and with --subpixel none; a second
// run on the same GPU backend is bit-identical (the CPU instance's bit-for-bit match with the CPU
// backend is its repeat).
TYPED_TEST(SignificantPipeline, RecoveryFixtureMatchesCpuAndRepeats) {
  for (SubpixelMethod sub : {SubpixelMethod::Parabolic, SubpixelMethod::None}) {
    SignificantOptions o;
    o.settings.subpixel = sub;
    const SignificantInput in = recovery_input(46, this->kParityImages);
    const SignificantResult here = align_significant(*this->backend_, in, o);
    this->expect_matches_cpu(here.pairs, 46, this->kParityImages, o.settings);
    if (!TypeParam::gpu) continue;
    const SignificantResult again = align_significant(*this->backend_, in, o);
    ASSERT_EQ(again.pairs.size(), here.pairs.size());
    EXPECT_EQ(0, std::memcmp(here.pairs.data(), again.pairs.data(), here.pairs.size() * sizeof(PairResult)))
        << "not deterministic (" << to_string(sub) << ")";
  }
}

// A forced small batch and reference block (on the GPU 60 images: 9 batches of <= 7, the last
// partial; 46 references: 10 blocks of <= 5) give test 21's agreement with the CPU.
TYPED_TEST(SignificantPipeline, SmallBatchesAndBlocksMatchCpu) {
  AlignmentBackendOptions options;
  options.max_batch = 7;
  options.max_reference_block = 5;
  const auto backend = make_alignment_backend(TypeParam::devices(), options);
  SignificantOptions o;
  const SignificantResult here = align_significant(*backend, recovery_input(46, this->kParityImages), o);
  this->expect_matches_cpu(here.pairs, 46, this->kParityImages, o.settings);
}

// --check-mirrors and --max-shift 4 on 8 references and 20 images: test 21's bounds, the same flip.
TYPED_TEST(SignificantPipeline, MirrorsAndMaxShiftMatchCpu) {
  SignificantOptions o;
  o.settings.check_mirrors = true;
  o.settings.max_shift = 4.0;
  const SignificantResult here = align_significant(*this->backend_, recovery_input(8, 20), o);
  this->expect_matches_cpu(here.pairs, 8, 20, o.settings);
}

} // namespace
} // namespace frost::align
