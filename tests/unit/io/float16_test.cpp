// binary16 conversion must be exact both ways (MRC mode 12, docs/formats.md#modes).
#include <cmath>
#include <cstdint>
#include <limits>

#include "frost/io/float16.hpp"
#include "frost/test/support.hpp"

namespace frost::io {
namespace {

TEST(Float16, EveryHalfValueSurvivesARoundTrip) {
  for (std::uint32_t h = 0; h < 65536; ++h) {
    const float f = half_to_float(static_cast<std::uint16_t>(h));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(half_to_float(float_to_half(f)))) << h;
      continue;
    }
    EXPECT_EQ(float_to_half(f), h) << "half bits " << h;
  }
}

TEST(Float16, KnownValuesIncludingSubnormals) {
  EXPECT_EQ(half_to_float(0x3c00), 1.0f);
  EXPECT_EQ(half_to_float(0xc000), -2.0f);
  EXPECT_EQ(half_to_float(0x7bff), 65504.0f);
  EXPECT_EQ(half_to_float(0x0400), std::ldexp(1.0f, -14)); // smallest normal
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24)); // smallest subnormal
  EXPECT_EQ(half_to_float(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_EQ(half_to_float(0x8000), -0.0f);
  EXPECT_TRUE(std::signbit(half_to_float(0x8000)));
  EXPECT_EQ(half_to_float(0x7c00), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(half_to_float(0x7e00)));
}

TEST(Float16, RoundsToNearestEven) {
  // Between 1 and 1 + 2^-10 the midpoint goes to the even mantissa (1.0).
  EXPECT_EQ(float_to_half(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(float_to_half(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
  // Subnormal midpoints: 2^-25 is halfway between 0 and the smallest subnormal -> 0 (even).
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(float_to_half(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(float_to_half(std::ldexp(3.0f, -25)), 0x0002); // 1.5 units -> 2 (even)
  // Largest subnormal rounds up into the smallest normal.
  EXPECT_EQ(float_to_half(std::ldexp(1023.75f, -24)), 0x0400);
  EXPECT_EQ(float_to_half(65519.0f), 0x7bff);
  EXPECT_EQ(float_to_half(65520.0f), 0x7c00);
  EXPECT_EQ(float_to_half(-1e30f), 0xfc00);
  EXPECT_EQ(float_to_half(1e-30f), 0x0000);
  EXPECT_TRUE(std::isnan(half_to_float(float_to_half(std::numeric_limits<float>::quiet_NaN()))));
}

TEST(Float16, RelativeErrorOfNormalValuesIsAtMostTwoToTheMinus11) {
  const auto values = test::random_floats(100000, 7, -60000.f, 60000.f);
  for (float v : values) {
    if (std::fabs(v) < std::ldexp(1.0f, -14)) continue;
    const float back = half_to_float(float_to_half(v));
    EXPECT_LE(std::fabs(back - v), std::ldexp(std::fabs(v), -11)) << v;
  }
}

} // namespace
} // namespace frost::io
