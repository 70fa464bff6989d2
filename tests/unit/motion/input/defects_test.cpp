// Defects (docs/movie_align.md#gain-dark-defects-and-hot-pixels): MotionCor2 `x y w h` files,
// SerialEM lists rejected with a message, defect images oriented like the gain, zero-gain pixels.
#include <fstream>

#include "frost/io/image_io.hpp"
#include "frost/motion/defects.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_defect_text(text, "defects.txt");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    return e.what();
  }
  return "";
}

TEST(DefectFile, RectanglesCommentsAndBlankLines) {
  const auto rects = parse_defect_text("10 20 3 4\n# a comment\n\n   0 0 1 1  \n5\t6\t7\t8\n", "d.txt");
  ASSERT_EQ(rects.size(), 3u);
  EXPECT_EQ(rects[0].x, 10);
  EXPECT_EQ(rects[0].y, 20);
  EXPECT_EQ(rects[0].w, 3);
  EXPECT_EQ(rects[0].h, 4);
  EXPECT_EQ(rects[2].h, 8);
}

TEST(DefectFile, SerialEmListIsRejectedWithAMessage) {
  const std::string msg = error_of("CameraSizeX 4096\nCameraSizeY 4096\nRotationAndFlip 0\nBadColumns 12 13\n");
  std::printf("%s\n", msg.c_str());
  EXPECT_NE(msg.find("SerialEM defect list"), std::string::npos);
  EXPECT_NE(msg.find("defects.txt"), std::string::npos);
  EXPECT_NE(error_of("# K2 defects\nK2Type 1\n").find("SerialEM"), std::string::npos);
  EXPECT_NE(error_of("BadPixels 1 2\n").find("SerialEM"), std::string::npos);
}

TEST(DefectFile, MalformedLinesNameTheLine) {
  std::string msg = error_of("1 2 3 4\n1 2 3\n");
  std::printf("%s\n", msg.c_str());
  EXPECT_NE(msg.find("line 2"), std::string::npos);
  EXPECT_NE(error_of("1 2 3 4 5\n").find("line 1"), std::string::npos);
  EXPECT_NE(error_of("1.5 2 3 4\n").find("line 1"), std::string::npos);
  EXPECT_NE(error_of("1 2 0 4\n").find("w, h >= 1"), std::string::npos);
  EXPECT_NE(error_of("-1 2 3 4\n").find("x, y >= 0"), std::string::npos);
}

TEST(DefectFile, MarkedWithClippingAndAWarningForRectanglesOutside) {
  Image<std::uint8_t> mask(Shape::image(8, 6));
  testing::internal::CaptureStderr();
  mark_defect_rects({{6, 4, 5, 5}, {1, 0, 1, 6}, {20, 1, 2, 2}}, mask, "d.txt");
  const std::string log = testing::internal::GetCapturedStderr();
  std::printf("log: %s", log.c_str());
  EXPECT_NE(log.find("1 defect rectangle(s) lie outside"), std::string::npos);
  EXPECT_EQ(count_bad(mask.cview()), 4 + 6); // 2x2 clipped corner + a full column
  EXPECT_EQ(mask(7, 5), kDefectPixel);
  EXPECT_EQ(mask(1, 3), kDefectPixel);
  EXPECT_EQ(mask(0, 3), kGoodPixel);
}

TEST(DefectFile, TextAndImageFilesThroughAddDefects) {
  test::TempDir dir;
  const std::string text = dir.file("defects.txt");
  std::ofstream(text) << "2 1 2 1\n";
  Image<std::uint8_t> mask(Shape::image(6, 4));
  add_defects(text, {1, 0}, true, mask); // the transform does not apply to rectangles
  EXPECT_EQ(count_bad(mask.cview()), 2);
  EXPECT_EQ(mask(2, 1), kDefectPixel);
  EXPECT_EQ(mask(3, 1), kDefectPixel);

  // A 4 x 6 defect map in the gain's orientation: rotated by 1 it fits 6 x 4 frames.
  Image<float> map(Shape::image(4, 6));
  map(0, 5) = 7; // rot 1: (x, y) -> (H-1-y, x) = (0, 0)
  map(3, 0) = 1; // -> (5, 3)
  const std::string image = dir.file("defects.mrc");
  io::write_image(image, map.cview());
  Image<std::uint8_t> m2(Shape::image(6, 4));
  add_defects(image, {1, 0}, true, m2);
  EXPECT_EQ(count_bad(m2.cview()), 2);
  EXPECT_EQ(m2(0, 0), kDefectPixel);
  EXPECT_EQ(m2(5, 3), kDefectPixel);
  Image<std::uint8_t> m3(Shape::image(6, 4));
  EXPECT_THROW(add_defects(image, {0, 0}, true, m3), Error); // 4x6 map, 6x4 frames
  EXPECT_TRUE(is_defect_image("a/b.TIF"));
  EXPECT_FALSE(is_defect_image("a/b.txt"));
}

TEST(DefectFile, ZeroGainPixelsAreBad) {
  Image<float> gain(Shape::image(3, 2));
  for (float& g : gain) g = 1.0f;
  gain(1, 1) = 0;
  gain(2, 0) = 0;
  Image<std::uint8_t> mask(Shape::image(3, 2));
  mask(2, 0) = kDefectPixel; // already bad: kept as a defect
  EXPECT_EQ(mark_zero_gain(gain.cview(), mask), 1);
  EXPECT_EQ(mask(1, 1), kZeroGainPixel);
  EXPECT_EQ(mask(2, 0), kDefectPixel);
}

} // namespace
} // namespace frost::motion
