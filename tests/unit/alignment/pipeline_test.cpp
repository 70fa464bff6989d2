// The pipeline of frost_align_significant (align::align_significant) in process, written once
// and run on both backends from align::make_alignment_backend (the CUDA instance skips without a
// GPU): recovery, the merge of ranks' shares, the input swap and CPU/GPU parity of the kept rows
// (docs/align_significant.md#pipeline).
#include <string>
#include <vector>

#include "frost/alignment/significant_pipeline.hpp"
#include "frost/test/device_types.hpp"
#include "recovery_fixture.hpp"

namespace frost::align {
namespace {

using namespace recovery;

using test::CpuDevices;
using test::CudaDevices;
using test::DeviceNames;

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

TYPED_TEST(SignificantPipeline, SharesOfRanksMergeToTheSingleProcessResult) {
  const PhantomSet set = analytic_set(32, 12, 10, 1.0, 6);
  SignificantOptions o;
  o.keep_best = 2;
  const SignificantResult whole = this->run(set, o);
  SignificantOptions other = o;
  other.root = false;
  const SignificantResult rank1 = this->run(set, other, 6, 4);
  EXPECT_TRUE(rank1.rows.empty());
  SignificantOptions root = o;
  root.sum_to_root = [&](float* data, std::size_t count) {
    const float* theirs = reinterpret_cast<const float*>(rank1.pairs.data());
    for (std::size_t k = 0; k < count; ++k) data[k] += theirs[k];
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

} // namespace
} // namespace frost::align
