// Plan behaviour of frost::fft on every backend: input destruction and the preserve option,
// caller work areas, the plan cache, typed views, and clear errors for bad specs and buffers.
#include <cstring>

#include "fft_test_util.hpp"

namespace frost::fft {
namespace {

using namespace test_util;

template <class B>
class FftPlans : public FftBackendTest<B> {};
using Backends = ::testing::Types<CpuBackend, CudaBackend>;
TYPED_TEST_SUITE(FftPlans, Backends, BackendNames);

/// A Hermitian half spectrum for `s` (a C2R spec): the forward transform of random data.
std::vector<Complex> hermitian_input(const FftSpec& s, std::uint32_t seed) {
  const auto x = test::random_floats(static_cast<std::size_t>(s.logical_shape().total()), seed);
  return to_float(direct_r2c(to_double(x), s));
}

TYPED_TEST(FftPlans, ComplexToRealDestroysInputUnlessPreserved) {
  // Documented contract: C2R may overwrite its input on both backends (FFTW's multi-dimensional
  // c2r cannot preserve it, cuFFT's c2r always overwrites it). preserve_input makes the plan
  // work on a copy, so the caller's spectrum survives bit for bit and the result is the same.
  Planner& pl = this->planner();
  const FftSpec s = FftSpec::c2r(Shape::image(16, 12, 2));
  const auto half = hermitian_input(s, 3);
  const FftPlan plain = pl.plan(s);
  PlanOptions keep;
  keep.preserve_input = true;
  const FftPlan preserving = pl.plan(s, keep);
  EXPECT_TRUE(plain.destroys_input());
  EXPECT_FALSE(preserving.destroys_input());
  EXPECT_GE(preserving.workspace_bytes(), s.input_bytes());
  EXPECT_NE(plain.identity(), preserving.identity());

  std::vector<Complex> after;
  const auto expected = run<Complex, float>(pl, plain, half);
  const auto got = run<Complex, float>(pl, preserving, half, &after);
  EXPECT_EQ(0, std::memcmp(after.data(), half.data(), s.input_bytes())) << "preserved input changed";
  EXPECT_LT(rel_l2(got, expected), 1e-6);
  // R2C and C2C out of place never overwrite their input.
  EXPECT_FALSE(pl.plan(s.inverse()).destroys_input());
  EXPECT_TRUE(pl.plan(FftSpec::r2c(Shape::image(16, 12), Placement::InPlace)).destroys_input());
}

TYPED_TEST(FftPlans, ExternalWorkspaceIsRequiredAndUsed) {
  Planner& pl = this->planner();
  const FftSpec s = FftSpec::c2r(Shape::volume(12, 10, 6));
  PlanOptions ext;
  ext.external_workspace = true;
  ext.preserve_input = true; // makes the workspace non-empty on the CPU as well
  const FftPlan plan = pl.plan(s, ext);
  ASSERT_GT(plan.workspace_bytes(), 0u);
  const auto half = hermitian_input(s, 4);
  FftBuffer in = pl.allocate(s.input_bytes()), out = pl.allocate(s.output_bytes());
  in.upload(half.data(), s.input_bytes());
  expect_error([&] { plan.execute(in.data(), out.data()); }, ExitCode::Runtime, "workspace");
  FftBuffer ws = pl.allocate(plan.workspace_bytes());
  ExecOptions with_ws;
  with_ws.workspace = ws.data();
  plan.execute(in.data(), out.data(), with_ws);
  std::vector<float> got(static_cast<std::size_t>(s.output_shape().total()));
  out.download(got.data(), s.output_bytes());
  EXPECT_LT(rel_l2(got, direct_c2r(to_double(half), s)), 1e-5);
}

TYPED_TEST(FftPlans, CacheReturnsTheSamePlanForEqualSpecs) {
  Planner& pl = this->planner();
  const FftSpec a = FftSpec::r2c(Shape::image(32, 24, 3));
  const FftPlan p1 = pl.plan(a);
  const FftPlan p2 = pl.plan(parse_fft_spec(to_string(a))); // equal value, separate object
  EXPECT_EQ(p1.identity(), p2.identity());
  EXPECT_EQ(pl.cached_plans(), 1u);
  FftSpec b = a;
  b.batch = 4;
  EXPECT_NE(pl.plan(b).identity(), p1.identity());
  EXPECT_EQ(pl.cached_plans(), 2u);
  // A stronger rigor replans; afterwards a weaker request is served by the stronger plan.
  PlanOptions measure;
  measure.rigor = FftRigor::Measure;
  const FftPlan m = pl.plan(a, measure);
  EXPECT_NE(m.identity(), p1.identity());
  EXPECT_EQ(pl.plan(a).identity(), m.identity());
  EXPECT_EQ(pl.cached_plans(), 2u);
  // Handles keep their plan alive after the cache is cleared.
  pl.clear_cache();
  EXPECT_EQ(pl.cached_plans(), 0u);
  EXPECT_EQ(p1.spec(), a);
  EXPECT_NE(pl.plan(a).identity(), m.identity());
  // Handles are move-only; moving transfers the plan.
  FftPlan held = pl.plan(b);
  const void* id = held.identity();
  FftPlan moved = std::move(held);
  EXPECT_FALSE(static_cast<bool>(held)); // NOLINT(bugprone-use-after-move): checked on purpose
  EXPECT_EQ(moved.identity(), id);
}

TYPED_TEST(FftPlans, InvalidSpecsThrowClearErrors) {
  Planner& pl = this->planner();
  FftSpec s = FftSpec::r2c(Shape::image(0, 8));
  expect_error([&] { pl.plan(s); }, ExitCode::Runtime, "every size must be >= 1");
  s = FftSpec::r2c(Shape::image(8, -2));
  expect_error([&] { pl.plan(s); }, ExitCode::Runtime, "every size must be >= 1");
  s = FftSpec::c2c(Shape::image(8, 8, 0), Direction::Forward);
  expect_error([&] { pl.plan(s); }, ExitCode::Runtime, "batch must be >= 1");
  s = FftSpec::r2c(Shape::image(8, 8));
  s.direction = Direction::Inverse;
  expect_error([&] { pl.plan(s); }, ExitCode::Runtime, "always forward");
  s = FftSpec::c2r(Shape::image(8, 8));
  s.direction = Direction::Forward;
  expect_error([&] { pl.plan(s); }, ExitCode::Runtime, "always inverse");
  s = FftSpec::r2c(Shape::image(8, 8));
  s.precision = Precision::F64;
  expect_error([&] { pl.plan(s); }, ExitCode::Runtime, "only single precision");
  PlanOptions keep;
  keep.preserve_input = true;
  expect_error([&] { pl.plan(FftSpec::c2r(Shape::image(8, 8), Placement::InPlace), keep); }, ExitCode::Runtime,
               "out-of-place");
  EXPECT_EQ(pl.cached_plans(), 0u);
}

TYPED_TEST(FftPlans, MismatchedBuffersThrowClearErrors) {
  Planner& pl = this->planner();
  const FftSpec oop = FftSpec::r2c(Shape::image(8, 6));
  const FftSpec ip = FftSpec::r2c(Shape::image(8, 6), Placement::InPlace);
  FftBuffer a = pl.allocate(oop.data_bytes()), b = pl.allocate(oop.data_bytes());
  const FftPlan p = pl.plan(oop), q = pl.plan(ip);
  expect_error([&] { p.execute(a.data(), a.data()); }, ExitCode::Runtime, "distinct input and output");
  expect_error([&] { q.execute(a.data(), b.data()); }, ExitCode::Runtime, "same buffer");
  expect_error([&] { p.execute(nullptr, b.data()); }, ExitCode::Runtime, "null data pointer");
  expect_error([&] { FftPlan().execute(a.data(), b.data()); }, ExitCode::Runtime, "empty FftPlan");

  // Typed views carry shapes, so wrong sizes, kinds and overlaps are caught before running.
  View<const float> in{a.as<float>(), oop.input_shape()};
  View<Complex> out{b.as<Complex>(), oop.output_shape()};
  p.execute(in, out);
  pl.synchronize();
  expect_error([&] { p.execute(View<const float>{a.as<float>(), Shape::image(6, 8)}, out); }, ExitCode::Runtime,
               "input view is 6x8");
  expect_error([&] { p.execute(in, View<Complex>{b.as<Complex>(), oop.input_shape()}); }, ExitCode::Runtime,
               "output view");
  expect_error([&] { p.execute(in, View<Complex>{a.as<Complex>() + 2, oop.output_shape()}); }, ExitCode::Runtime,
               "overlap");
  const FftPlan c2r = pl.plan(oop.inverse());
  View<const Complex> const_spec{b.as<Complex>(), oop.output_shape()};
  View<float> real_out{a.as<float>(), oop.input_shape()};
  expect_error([&] { c2r.execute(const_spec, real_out); }, ExitCode::Runtime, "preserve_input");
  expect_error([&] { c2r.execute(const_spec, View<Complex>{a.as<Complex>(), oop.output_shape()}); },
               ExitCode::Runtime, "views of a c2c transform");
  // Buffers refuse transfers larger than themselves.
  std::vector<std::byte> big(oop.data_bytes() + 1);
  expect_error([&] { a.upload(big.data(), big.size()); }, ExitCode::Runtime, "upload");
}

TYPED_TEST(FftPlans, InPlaceViewsShareOneBuffer) {
  // In place, the input view is the padded real layout and the output view the half spectrum,
  // both over the same memory.
  Planner& pl = this->planner();
  const FftSpec s = FftSpec::r2c(Shape::image(9, 4, 2), Placement::InPlace);
  FftBuffer buf = pl.allocate(s.data_bytes());
  const auto x = test::random_floats(72, 8);
  const auto padded = pad_rows(x, s);
  buf.upload(padded.data(), s.input_bytes());
  pl.plan(s).execute(View<const float>{buf.as<float>(), s.input_shape()},
                     View<Complex>{buf.as<Complex>(), s.output_shape()});
  std::vector<Complex> got(static_cast<std::size_t>(s.output_shape().total()));
  buf.download(got.data(), s.output_bytes());
  EXPECT_LT(rel_l2(got, direct_r2c(to_double(x), s)), 1e-5);
}

TYPED_TEST(FftPlans, DescribeNamesBackendAndSpec) {
  Planner& pl = this->planner();
  const FftSpec s = FftSpec::c2c(Shape::volume(8, 8, 8, 2), Direction::Inverse);
  const FftPlan p = pl.plan(s);
  EXPECT_NE(p.describe().find(to_string(s)), std::string::npos) << p.describe();
  EXPECT_NE(p.describe().find(to_string(TypeParam::value)), std::string::npos) << p.describe();
  EXPECT_EQ(p.backend(), TypeParam::value);
  EXPECT_FALSE(pl.describe().empty());
}

} // namespace
} // namespace frost::fft
