// The cuFFT measurer: timings per docs/fft_advisor.md#measurement-protocol, errors as status (never
// exceptions), identity strings, and the device scratch model never below the work area a real plan
// asks for (G4-style).
#include <cuda_runtime.h>

#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/fft/advisor_backend.hpp"
#include "frost/test/support.hpp"

namespace frost::fft {
namespace {

Candidate make(index_t x, index_t y, index_t z, index_t batch, Kind kind, Precision prec,
               Placement place = Placement::OutOfPlace, Direction dir = Direction::Forward) {
  Candidate c;
  c.size = {x, y, z};
  c.batch = batch;
  c.kind = kind;
  c.precision = prec;
  c.placement = place;
  c.direction = kind == Kind::R2C ? Direction::Forward : kind == Kind::C2R ? Direction::Inverse : dir;
  c.batched = batch > 1;
  return c;
}

std::string name(const Candidate& c) {
  return std::to_string(c.size.x) + "x" + std::to_string(c.size.y) + "x" + std::to_string(c.size.z) + " b" +
         std::to_string(c.batch) + " " + to_string(c.kind) + " " + to_string(c.precision) + " " +
         to_string(c.placement);
}

Protocol quick_protocol() {
  Protocol p;
  p.warmup = 2;
  p.reps = 5;
  p.min_total_ms = 2;
  p.max_samples = 50;
  p.cold_cache = true;
  return p;
}

TEST(CufftMeasurer, MissingDeviceThrowsDeviceError) {
  // Runs everywhere: without a driver or GPU, and with one (device 9999 never exists).
  try {
    (void)make_cufft_measurer(9999);
    FAIL() << "expected frost::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Device);
  }
  cudaGetLastError();
}

TEST(CufftMeasurer, TimesConfigurations) {
  FROST_REQUIRE_GPU();
  auto m = make_cufft_measurer(0);
  const Protocol p = quick_protocol();
  const std::vector<Candidate> cases = {
      make(4096, 1, 1, 4, Kind::R2C, Precision::F32),
      make(10007, 1, 1, 2, Kind::C2R, Precision::F32, Placement::InPlace),
      make(512, 480, 1, 1, Kind::C2C, Precision::F64, Placement::InPlace, Direction::Inverse),
      make(64, 64, 64, 2, Kind::R2C, Precision::F64),
      make(1 << 20, 1, 1, 3, Kind::C2C, Precision::F32),
      make(2310, 1, 1, 6, Kind::C2R, Precision::F64),
  };
  for (const Candidate& c : cases) {
    SCOPED_TRACE(name(c));
    const Measurement r = m->measure(c, p);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_GT(r.median_ms_per_signal, 0.0);
    EXPECT_GE(r.samples, p.reps);
    EXPECT_LE(r.samples, p.max_samples);
    EXPECT_LE(r.min_ms_per_signal, r.median_ms_per_signal);
    EXPECT_GE(r.std_ms_per_signal, 0.0);
    EXPECT_NEAR(r.ms_per_exec, r.median_ms_per_signal * static_cast<double>(c.batch), 1e-9 * r.ms_per_exec + 1e-12);
    EXPECT_GE(r.plan_ms, 0.0);
    // Fewer than max_samples means both stopping rules were met: >= reps and >= min_total_ms.
    if (r.samples < p.max_samples) {
      EXPECT_GE(r.mean_ms_per_signal * static_cast<double>(c.batch) * r.samples, p.min_total_ms * 0.999);
    }
  }
}

TEST(CufftMeasurer, WarmCacheAndMinimumTotalTime) {
  FROST_REQUIRE_GPU();
  auto m = make_cufft_measurer(0);
  Protocol p = quick_protocol();
  p.cold_cache = false;
  p.reps = 3;
  p.min_total_ms = 1;
  p.max_samples = 400;
  const Measurement r = m->measure(make(1024, 1, 1, 1, Kind::R2C, Precision::F32), p);
  ASSERT_TRUE(r.ok()) << r.error;
  // A tiny transform (microseconds) needs many samples to reach 1 ms of summed device time.
  EXPECT_GT(r.samples, p.reps);
  EXPECT_LE(r.samples, p.max_samples);
  if (r.samples < p.max_samples) {
    EXPECT_GE(r.mean_ms_per_signal * r.samples, p.min_total_ms * 0.999);
  }
}

TEST(CufftMeasurer, IdentityStrings) {
  FROST_REQUIRE_GPU();
  auto m = make_cufft_measurer(0);
  EXPECT_TRUE(std::regex_match(m->device_identity(), std::regex(R"(cuda\|[^|]+\|\d+\.\d+\|\d+\|\d+)")))
      << m->device_identity();
  EXPECT_TRUE(std::regex_match(m->library_versions(), std::regex(R"(driver \d+\|runtime \d+\|cufft \d+)")))
      << m->library_versions();
  EXPECT_EQ(m->device_uuid().rfind("GPU-", 0), 0u) << m->device_uuid();
  EXPECT_EQ(m->device_uuid().size(), 40u) << m->device_uuid();
  EXPECT_GT(m->default_memory_limit(), 0u);
  auto scratch = m->device_scratch_model();
  ASSERT_NE(scratch, nullptr);
  EXPECT_EQ(scratch->name(), "device");
}

TEST(CufftMeasurer, ScratchModelCoversActualWorkArea) {
  FROST_REQUIRE_GPU();
  auto m = make_cufft_measurer(0);
  auto scratch = m->device_scratch_model();
  Protocol p;
  p.warmup = 0;
  p.reps = 1;
  p.min_total_ms = 0;
  p.max_samples = 1;
  const index_t sizes[] = {4096, 4097, 10007, 2310, 5103, 1 << 20, 1048573, 3 * 5 * 7 * 11 * 13, 6000000};
  int checked = 0;
  for (index_t x : sizes)
    for (Kind k : {Kind::R2C, Kind::C2R, Kind::C2C})
      for (Precision pr : {Precision::F32, Precision::F64})
        for (Placement pl : {Placement::OutOfPlace, Placement::InPlace}) {
          const Candidate c = make(x, 1, 1, 3, k, pr, pl);
          SCOPED_TRACE(name(c));
          const Measurement r = m->measure(c, p);
          ASSERT_TRUE(r.ok()) << r.error;
          EXPECT_GE(scratch->scratch_bytes(c), r.plan_bytes_actual);
          ++checked;
        }
  for (const Candidate& c : {make(3838, 3710, 1, 1, Kind::R2C, Precision::F32),
                             make(4096, 4096, 1, 2, Kind::R2C, Precision::F32, Placement::InPlace),
                             make(7, 1001, 1, 1, Kind::C2C, Precision::F64),
                             make(100, 98, 97, 1, Kind::C2R, Precision::F32)}) {
    SCOPED_TRACE(name(c));
    const Measurement r = m->measure(c, p);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_GE(scratch->scratch_bytes(c), r.plan_bytes_actual);
    ++checked;
  }
  EXPECT_EQ(checked, 9 * 12 + 4);
}

TEST(CufftMeasurer, FailingConfigurationIsAnErrorStatus) {
  FROST_REQUIRE_GPU();
  auto m = make_cufft_measurer(0);
  const Protocol p = quick_protocol();
  // 2^20 x 2^22 signals of complex double: 64 TiB of data cannot be allocated anywhere.
  Measurement r;
  EXPECT_NO_THROW(r = m->measure(make(1 << 20, 1, 1, index_t{1} << 22, Kind::C2C, Precision::F64), p));
  EXPECT_EQ(r.status, "error");
  EXPECT_FALSE(r.error.empty());
  // Nonsense configurations are errors too.
  Measurement bad;
  EXPECT_NO_THROW(bad = m->measure(make(0, 1, 1, 1, Kind::C2C, Precision::F32), p));
  EXPECT_EQ(bad.status, "error");
  // The measurer recovers: the next configuration is measured normally.
  const Measurement ok = m->measure(make(4096, 1, 1, 2, Kind::C2C, Precision::F32), p);
  EXPECT_TRUE(ok.ok()) << ok.error;
}

TEST(CufftMeasurer, RealTransformsImplyTheirDirectionAndUnbatchedMeansOneSignal) {
  FROST_REQUIRE_GPU();
  auto m = make_cufft_measurer(0);
  const Protocol p = quick_protocol();
  Candidate c2r = make(4096, 1, 1, 1, Kind::C2R, Precision::F32);
  c2r.direction = Direction::Forward; // ignored: C2R is always inverse (as Candidate::spec())
  const Measurement a = m->measure(c2r, p);
  EXPECT_TRUE(a.ok()) << a.error;
  Candidate single = make(4096, 1, 1, 8, Kind::R2C, Precision::F32);
  single.batched = false; // one signal per execution: per-signal time = time per execution
  const Measurement b = m->measure(single, p);
  ASSERT_TRUE(b.ok()) << b.error;
  EXPECT_DOUBLE_EQ(b.ms_per_exec, b.median_ms_per_signal);
}

TEST(CufftMeasurer, PowerOfTwoNotSlowerThanNearbyPrime) {
  FROST_REQUIRE_GPU();
  auto m = make_cufft_measurer(0);
  Protocol p = quick_protocol();
  p.reps = 10;
  const Measurement pow2 = m->measure(make(1 << 20, 1, 1, 4, Kind::C2C, Precision::F32), p);
  const Measurement prime = m->measure(make(1048573, 1, 1, 4, Kind::C2C, Precision::F32), p); // 2^20 - 3, prime
  ASSERT_TRUE(pow2.ok()) << pow2.error;
  ASSERT_TRUE(prime.ok()) << prime.error;
  EXPECT_LT(pow2.median_ms_per_signal, prime.median_ms_per_signal)
      << "2^20: " << pow2.median_ms_per_signal << " ms, 1048573: " << prime.median_ms_per_signal << " ms";
}

} // namespace
} // namespace frost::fft
