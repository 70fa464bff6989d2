// A gain reference that cannot be one (issue 25, class 11): negative values or no positive value
// are input errors naming the file, whatever the transform or EER rule; a gain with some zero
// pixels (defects) stays valid.
#include "error_of.hpp"
#include "frost/io/image_io.hpp"
#include "frost/motion/reference_images.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

Image<float> flat(index_t w, index_t h, float v) {
  Image<float> img(Shape::image(w, h));
  for (float& x : img) x = v;
  return img;
}

TEST(GainValues, AllZeroGainIsAnInputErrorNamingTheFile) {
  test::TempDir dir;
  const std::string path = dir.file("zero_gain.mrc");
  io::write_image(path, flat(6, 4, 0.0f).cview());
  for (const GainOptions& o : {GainOptions{}, GainOptions{{2, 1}, true, true, false}}) {
    ExitCode code = ExitCode::Ok;
    const std::string msg = error_of([&] { load_gain(path, o, 6, 4); }, &code);
    EXPECT_EQ(code, ExitCode::Input) << msg;
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("zero everywhere"), std::string::npos) << msg;
  }
}

TEST(GainValues, NegativeGainIsAnInputErrorNamingThePixel) {
  test::TempDir dir;
  const std::string path = dir.file("negative_gain.mrc");
  Image<float> g = flat(6, 4, 1.0f);
  g(4, 2) = -0.5f;
  io::write_image(path, g.cview());
  ExitCode code = ExitCode::Ok;
  const std::string msg = error_of([&] { load_gain(path, GainOptions{}, 6, 4); }, &code);
  EXPECT_EQ(code, ExitCode::Input) << msg;
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("1 negative value(s)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(4, 2)"), std::string::npos) << msg;
  // --gain-invert keeps the sign: still refused.
  GainOptions inverted;
  inverted.invert = true;
  EXPECT_NE(error_of([&] { load_gain(path, inverted, 6, 4); }, &code).find("negative"), std::string::npos);
}

TEST(GainValues, ZeroPixelsAmongPositiveOnesAreDefectsNotErrors) {
  test::TempDir dir;
  const std::string path = dir.file("gain.mrc");
  Image<float> g = flat(6, 4, 1.25f);
  g(0, 0) = 0.0f;
  io::write_image(path, g.cview());
  const Image<float> loaded = load_gain(path, GainOptions{}, 6, 4);
  EXPECT_EQ(loaded(0, 0), 0.0f);
  EXPECT_EQ(loaded(1, 0), 1.25f);
}

} // namespace
} // namespace frost::motion
