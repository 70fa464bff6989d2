// FftSpec as a value: layouts, the text key and its parser, hashing, validation.
#include <unordered_set>

#include "fft_test_util.hpp"

namespace frost::fft {
namespace {

using test_util::expect_error;

TEST(FftSpec, LayoutsFollowTheHalfSpectrumConvention) {
  const FftSpec oop = FftSpec::r2c(Shape::image(512, 480, 3));
  EXPECT_EQ(oop.rank(), 2);
  EXPECT_EQ(oop.input_shape(), Shape::image(512, 480, 3));
  EXPECT_EQ(oop.output_shape(), Shape::image(257, 480, 3));
  EXPECT_EQ(oop.input_bytes(), 512u * 480 * 3 * 4);
  EXPECT_EQ(oop.output_bytes(), 257u * 480 * 3 * 8);
  EXPECT_EQ(oop.data_bytes(), oop.input_bytes() + oop.output_bytes());

  const FftSpec ip = FftSpec::c2r(Shape::volume(65, 64, 63), Placement::InPlace);
  EXPECT_EQ(ip.rank(), 3);
  EXPECT_EQ(ip.input_shape(), Shape::volume(33, 64, 63));
  EXPECT_EQ(ip.output_shape(), Shape::volume(66, 64, 63)); // rows padded to 2*(x/2+1)
  EXPECT_EQ(ip.input_bytes(), ip.output_bytes());
  EXPECT_EQ(ip.data_bytes(), ip.input_bytes());

  const FftSpec c = FftSpec::c2c(Shape::image(9, 1, 5), Direction::Inverse);
  EXPECT_EQ(c.rank(), 1);
  EXPECT_EQ(c.input_shape(), c.output_shape());
  EXPECT_EQ(c.signal_elements(), 9);
  EXPECT_DOUBLE_EQ(inverse_scale(FftSpec::r2c(Shape::volume(4, 5, 6))), 1.0 / 120.0);
}

TEST(FftSpec, InverseSwapsKindAndDirection) {
  const FftSpec r = FftSpec::r2c(Shape::image(8, 8, 2), Placement::InPlace);
  EXPECT_EQ(r.inverse(), FftSpec::c2r(Shape::image(8, 8, 2), Placement::InPlace));
  EXPECT_EQ(r.inverse().inverse(), r);
  const FftSpec c = FftSpec::c2c(Shape::image(8, 8), Direction::Forward);
  EXPECT_EQ(c.inverse().direction, Direction::Inverse);
}

TEST(FftSpec, TextKeyRoundTripsAndIsStable) {
  const FftSpec s = FftSpec::c2r(Shape::volume(64, 60, 50, 7), Placement::InPlace);
  EXPECT_EQ(to_string(s), "c2r inv 64x60x50 b7 inplace f32");
  EXPECT_EQ(parse_fft_spec(to_string(s)), s);
  for (const FftSpec& t : {FftSpec::r2c(Shape::image(3, 1)), FftSpec::c2c(Shape::image(5, 4, 2), Direction::Forward)})
    EXPECT_EQ(parse_fft_spec(to_string(t)), t);
  expect_error([] { parse_fft_spec("r2c fwd 8x8 b1 oop f32"); }, ExitCode::Usage, "XxYxZ");
  expect_error([] { parse_fft_spec("r2c sideways 8x8x1 b1 oop f32"); }, ExitCode::Usage, "sideways");
  expect_error([] { parse_fft_spec("r2c fwd 8x8x1 b1 oop f32 extra"); }, ExitCode::Usage, "expected");
  EXPECT_EQ(parse_rigor("patient"), FftRigor::Patient);
  EXPECT_EQ(to_string(FftRigor::WisdomOnly), "wisdom-only");
  EXPECT_EQ(parse_rigor("exhaustive"), FftRigor::Exhaustive);
  expect_error([] { parse_rigor("thorough"); }, ExitCode::Usage, "unknown FFT rigor");
}

TEST(FftSpec, HashSeparatesFieldsAndIsDeterministic) {
  const FftSpec base = FftSpec::r2c(Shape::image(128, 128, 1000));
  EXPECT_EQ(std::hash<FftSpec>{}(base), hash_value(parse_fft_spec(to_string(base))));
  std::unordered_set<std::size_t> seen{hash_value(base)};
  FftSpec v = base;
  v.x = 129;
  seen.insert(hash_value(v));
  v = base;
  v.batch = 999;
  seen.insert(hash_value(v));
  v = base;
  v.placement = Placement::InPlace;
  seen.insert(hash_value(v));
  seen.insert(hash_value(base.inverse()));
  v = base;
  std::swap(v.x, v.y);
  v.y = 127;
  seen.insert(hash_value(v));
  EXPECT_EQ(seen.size(), 6u);
}

TEST(FftSpec, ValidateNamesTheSpecAndTheProblem) {
  FftSpec s = FftSpec::r2c(Shape::image(64, 0));
  expect_error([&] { s.validate(); }, ExitCode::Runtime, "FFT r2c fwd 64x0x1 b1 oop f32: every size");
  s = FftSpec::r2c(Shape::image(1, 1));
  EXPECT_NO_THROW(s.validate()); // a single point is a valid (trivial) transform
}

} // namespace
} // namespace frost::fft
