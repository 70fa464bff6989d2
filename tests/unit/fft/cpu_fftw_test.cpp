// What only the CPU backend has: wisdom, threads, a thread-safe planner, arbitrary alignment,
// and the library versions; plus the CUDA request on a machine or build without a GPU.
#include <algorithm>
#include <iterator>
#include <thread>

#include "fft_test_util.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/device.hpp"
#include "frost/core/threads.hpp"

namespace frost::fft {
namespace {

using namespace test_util;

struct Case3 {
  index_t x, y, z;
};

TEST(FftCpu, WisdomExportImportAndWisdomOnly) {
  test::TempDir dir;
  const std::string file = dir.file("wisdomf.txt");
  const FftSpec s = FftSpec::r2c(Shape::image(48, 40, 2));
  PlanOptions only;
  only.rigor = FftRigor::WisdomOnly;
  only.threads = 1;
  PlanOptions measure = only;
  measure.rigor = FftRigor::Measure;

  forget_wisdom();
  EXPECT_FALSE(make_planner(Backend::Cpu)->try_plan(s, only)) << "no wisdom yet: WisdomOnly gives no plan";
  expect_error([&] { make_planner(Backend::Cpu)->plan(s, only); }, ExitCode::Runtime, "no FFTW wisdom");

  EXPECT_TRUE(make_planner(Backend::Cpu)->plan(s, measure)); // measuring creates wisdom
  export_wisdom(file);
  EXPECT_NE(wisdom_string().find("fftw"), std::string::npos);
  forget_wisdom();
  EXPECT_FALSE(make_planner(Backend::Cpu)->try_plan(s, only));

  EXPECT_FALSE(import_wisdom(dir.file("absent.txt")));
  EXPECT_TRUE(import_wisdom(file));
  const FftPlan p = make_planner(Backend::Cpu)->plan(s, only);
  ASSERT_TRUE(p);
  // The plan made from wisdom computes the right transform.
  const auto x = test::random_floats(48 * 40 * 2, 2);
  auto pl = make_planner(Backend::Cpu);
  EXPECT_LT(rel_l2(run<float, Complex>(*pl, p, x), direct_r2c(to_double(x), s)), 1e-5);

  write_text_file_atomic(dir.file("junk.txt"), "not wisdom at all\n");
  expect_error([&] { import_wisdom(dir.file("junk.txt")); }, ExitCode::Input, "junk.txt");
  forget_wisdom();
}

TEST(FftCpu, ConcurrentPlanningAndExecutionIsSafe) {
  // FFTW's planner is not re-entrant; frost serialises it. Threads plan different and equal
  // specs on one shared planner and on their own planners at the same time.
  auto shared = make_planner(Backend::Cpu);
  const Case3 sizes[] = {{20, 18, 1}, {15, 9, 4}, {20, 18, 1}, {33, 1, 1}, {12, 10, 6}, {15, 9, 4}};
  std::vector<double> errors(std::size(sizes), 1.0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < std::size(sizes); ++t)
    threads.emplace_back([&, t] {
      auto own = make_planner(Backend::Cpu);
      Planner& pl = t % 2 ? *own : *shared;
      const FftSpec s = FftSpec::r2c(Shape::volume(sizes[t].x, sizes[t].y, sizes[t].z, 2));
      PlanOptions o;
      o.rigor = FftRigor::Measure;
      o.threads = 1 + static_cast<int>(t % 2);
      const auto x = test::random_floats(static_cast<std::size_t>(s.logical_shape().total()), 100 + t);
      for (int rep = 0; rep < 3; ++rep)
        errors[t] = rel_l2(run<float, Complex>(pl, pl.plan(s, o), x), direct_r2c(to_double(x), s));
    });
  for (auto& th : threads) th.join();
  for (double e : errors) EXPECT_LT(e, 1e-5);
}

TEST(FftCpu, ArraysOfAnyAlignmentWork) {
  // One item of a stack of odd-sized images starts at a 4-byte offset: FFTW's new-array execute
  // needs the planning alignment, so frost switches to an FFTW_UNALIGNED plan for such arrays.
  auto pl = make_planner(Backend::Cpu);
  const FftSpec s = FftSpec::r2c(Shape::image(7, 5));
  const FftPlan p = pl->plan(s);
  const auto x = test::random_floats(35, 9);
  HostBuffer<float> in(36);
  HostBuffer<Complex> out(s.output_shape().total() + 1);
  std::copy(x.begin(), x.end(), in.data() + 1);
  p.execute(View<const float>{in.data() + 1, s.input_shape()}, View<Complex>{out.data() + 1, s.output_shape()});
  std::vector<Complex> got(out.data() + 1, out.data() + 1 + s.output_shape().total());
  EXPECT_LT(rel_l2(got, direct_r2c(to_double(x), s)), 1e-5);
  EXPECT_LT(rel_l2(got, run<float, Complex>(*pl, p, x)), 1e-6);
}

TEST(FftCpu, ThreadCountIsPartOfThePlan) {
  auto pl = make_planner(Backend::Cpu);
  const FftSpec s = FftSpec::c2c(Shape::image(64, 64, 4), Direction::Forward);
  PlanOptions one, two;
  one.threads = 1;
  two.threads = 2;
  const FftPlan a = pl->plan(s, one), b = pl->plan(s, two);
  EXPECT_NE(a.identity(), b.identity());
  EXPECT_NE(b.describe().find("2 threads"), std::string::npos) << b.describe();
  EXPECT_EQ(pl->plan(s).options().threads, num_threads());
  EXPECT_EQ(a.device(), -1);
}

TEST(FftCpu, SharedPlannerIsOnePerBackend) {
  EXPECT_EQ(shared_planner(Backend::Cpu).get(), shared_planner(Backend::Cpu, 3).get());
  const FftSpec s = FftSpec::r2c(Shape::image(10, 10));
  EXPECT_EQ(shared_planner(Backend::Cpu)->plan(s).identity(), shared_planner(Backend::Cpu)->plan(s).identity());
}

TEST(FftCpu, HostScaleHelpers) {
  std::vector<float> v{1.f, -2.f, 4.f};
  scale(v.data(), v.size(), 0.5f);
  EXPECT_EQ(v, (std::vector<float>{0.5f, -1.f, 2.f}));
  std::vector<Complex> c{{2.f, -4.f}};
  scale(c.data(), c.size(), 0.25f);
  EXPECT_EQ(c[0], Complex(0.5f, -1.f));
}

TEST(FftCpu, VersionsNameBothLibraries) {
  EXPECT_EQ(fftw_version().rfind("fftw-3", 0), 0u) << fftw_version();
  const std::string all = fft_versions();
  EXPECT_NE(all.find(fftw_version()), std::string::npos);
  EXPECT_NE(all.find("cuFFT"), std::string::npos) << all;
  if (cuda_compiled()) {
    EXPECT_NE(cufft_version().find("cuFFT 1"), std::string::npos) << cufft_version();
  }
  RecordProperty("fft_versions", all);
}

TEST(FftCpu, CudaRequestForAMissingGpuIsADeviceError) {
  // Without CUDA or without a GPU, device 0 is missing; with GPUs, one past the last is.
  const int missing = cuda_device_count();
  const std::string why = !cuda_compiled() ? "built without CUDA" : "not available";
  expect_error([missing] { make_planner(Backend::Cuda, missing); }, ExitCode::Device, why);
  expect_error([missing] { shared_planner(Backend::Cuda, missing); }, ExitCode::Device, why);
}

} // namespace
} // namespace frost::fft
