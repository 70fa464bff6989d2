// The offline measurement protocol (docs/tune.md#offline-protocol) with scripted samples: sample
// counts (>= 3 samples and >= 10 ms summed, <= 50), the median, the early stop of a hopeless
// configuration, and the output check against the default's.
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "frost/core/error.hpp"
#include "frost/tuning/measure.hpp"

namespace frost::tuning {
namespace {

/// Returns the scripted samples in turn (the last one repeated) and counts the calls.
struct Script {
  std::vector<double> values;
  std::size_t calls = 0;
  double operator()() { return values[std::min(calls++, values.size() - 1)]; }
};

TEST(TuningMeasure, FastKernelsTakeSamplesUntilTenMilliseconds) {
  Script s{{1.0}};
  int warm = 0;
  const Measurement m = measure([&] { ++warm; }, std::ref(s), std::nullopt);
  EXPECT_EQ(warm, 1);
  EXPECT_EQ(m.samples_ms.size(), 10u); // 10 x 1 ms reaches the 10 ms total
  EXPECT_DOUBLE_EQ(m.median_ms, 1.0);
  EXPECT_FALSE(m.lower_bound);
}

TEST(TuningMeasure, SlowKernelsTakeThreeSamples) {
  Script s{{30.0, 20.0, 25.0, 1.0}};
  const Measurement m = measure(nullptr, std::ref(s), std::nullopt);
  ASSERT_EQ(m.samples_ms.size(), 3u);
  EXPECT_DOUBLE_EQ(m.median_ms, 25.0);
}

TEST(TuningMeasure, VeryFastKernelsStopAtFiftySamples) {
  Script s{{0.01}};
  const Measurement m = measure(nullptr, std::ref(s), std::nullopt);
  EXPECT_EQ(m.samples_ms.size(), 50u);
  EXPECT_NEAR(m.total_ms(), 0.5, 1e-12);
}

TEST(TuningMeasure, HopelessConfigurationIsALowerBoundAfterOneSample) {
  Script s{{6.0, 1.0}};
  const Measurement m = measure(nullptr, std::ref(s), 1.0); // best median so far 1 ms: 6 > 5 x 1
  EXPECT_TRUE(m.lower_bound);
  EXPECT_EQ(m.samples_ms.size(), 1u);
  EXPECT_DOUBLE_EQ(m.median_ms, 6.0);
  Script t{{4.9}};
  const Measurement n = measure(nullptr, std::ref(t), 1.0); // within 5x: measured in full
  EXPECT_FALSE(n.lower_bound);
  EXPECT_EQ(n.samples_ms.size(), 3u);
}

TEST(TuningMeasure, MedianOfEvenCountsIsTheMeanOfTheMiddleTwo) {
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({7}), 7);
  EXPECT_DOUBLE_EQ(median({}), 0);
}

TEST(TuningMeasure, NonFiniteSamplesAreErrors) {
  Script s{{std::numeric_limits<double>::quiet_NaN()}};
  EXPECT_THROW(measure(nullptr, std::ref(s), std::nullopt), Error);
  Script t{{-1.0}};
  EXPECT_THROW(measure(nullptr, std::ref(t), std::nullopt), Error);
}

TEST(TuningMeasure, OutputsAgreeWithinTheRelativeTolerance) {
  const std::vector<float> ref{1.0f, -4.0f, 2.0f, 0.0f};
  std::vector<float> out = ref;
  out[2] += 4e-5f; // 4e-5 / max|ref| 4 = 1e-5
  double d = 0;
  EXPECT_TRUE(outputs_agree(ref.data(), out.data(), ref.size(), 1.1e-5, &d));
  EXPECT_NEAR(d, 1e-5, 1e-7);
  EXPECT_FALSE(outputs_agree(ref.data(), out.data(), ref.size(), 0.9e-5));
  out[3] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(outputs_agree(ref.data(), out.data(), ref.size(), 1.0));
  const std::vector<float> zeros(4, 0.0f);
  EXPECT_TRUE(outputs_agree(zeros.data(), zeros.data(), 4, 0.0));
  EXPECT_FALSE(outputs_agree(zeros.data(), ref.data(), 4, 1e9));
}

} // namespace
} // namespace frost::tuning
