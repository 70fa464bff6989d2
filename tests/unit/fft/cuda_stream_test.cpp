// CUDA-only behaviour: execution on caller streams, one shared plan used from two streams, and
// device-side scaling. Compiled only with FROST_USE_CUDA=ON; skips without a GPU.
#include "fft_test_util.hpp"
#include "frost/cuda/device_buffer.hpp"
#include "frost/cuda/fft.hpp"

namespace frost::fft {
namespace {

using namespace test_util;

TEST(FftCuda, SharedPlanOnTwoStreamsGivesCorrectResults) {
  FROST_REQUIRE_GPU();
  auto pl = make_planner(Backend::Cuda, 0);
  const FftSpec s = FftSpec::r2c(Shape::image(256, 240, 4));
  const FftPlan p = pl->plan(s);
  EXPECT_EQ(p.device(), 0);
  cuda::Stream s1, s2;
  const auto x1 = test::random_floats(static_cast<std::size_t>(s.logical_shape().total()), 1);
  const auto x2 = test::random_floats(static_cast<std::size_t>(s.logical_shape().total()), 2);
  FftBuffer in1 = pl->allocate(s.input_bytes()), in2 = pl->allocate(s.input_bytes());
  FftBuffer out1 = pl->allocate(s.output_bytes()), out2 = pl->allocate(s.output_bytes());
  in1.upload(x1.data(), s.input_bytes(), cuda::on_stream(s1.get()));
  in2.upload(x2.data(), s.input_bytes(), cuda::on_stream(s2.get()));
  for (int rep = 0; rep < 5; ++rep) { // interleaved: the plan's work area is shared
    p.execute(in1.data(), out1.data(), cuda::on_stream(s1.get()));
    p.execute(in2.data(), out2.data(), cuda::on_stream(s2.get()));
  }
  std::vector<Complex> y1(static_cast<std::size_t>(s.output_shape().total())), y2(y1.size());
  out1.download(y1.data(), s.output_bytes(), cuda::on_stream(s1.get()));
  out2.download(y2.data(), s.output_bytes(), cuda::on_stream(s2.get()));
  auto cpu = make_planner(Backend::Cpu);
  EXPECT_LT(rel_l2(y1, run<float, Complex>(*cpu, cpu->plan(s), x1)), 1e-5);
  EXPECT_LT(rel_l2(y2, run<float, Complex>(*cpu, cpu->plan(s), x2)), 1e-5);
}

TEST(FftCuda, ScaleAsyncOnStream) {
  FROST_REQUIRE_GPU();
  cuda::Stream st;
  std::vector<float> v(1000, 3.f);
  cuda::DeviceBuffer<float> d(v.size());
  d.upload_async(v.data(), v.size(), st.get());
  cuda::scale_async(d.data(), v.size(), 1.f / 3.f, st.get());
  d.download_async(v.data(), v.size(), st.get());
  st.synchronize();
  for (float f : v) EXPECT_FLOAT_EQ(f, 1.f);
}

TEST(FftCuda, PlannerForMissingDeviceIsADeviceError) {
  FROST_REQUIRE_GPU();
  expect_error([] { make_planner(Backend::Cuda, 1000); }, ExitCode::Device, "not available");
}

} // namespace
} // namespace frost::fft
