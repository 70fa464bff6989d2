// Shape indexing and the half-spectrum rule that every FFT buffer depends on.
#include "frost/core/image.hpp"
#include "frost/core/shape.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

TEST(Shape, IndexIsXFastestThenYThenZThenN) {
  const Shape s = Shape::volume(5, 4, 3, 2);
  EXPECT_EQ(s.index(1, 0, 0, 0), 1);
  EXPECT_EQ(s.index(0, 1, 0, 0), 5);
  EXPECT_EQ(s.index(0, 0, 1, 0), 20);
  EXPECT_EQ(s.index(0, 0, 0, 1), 60);
  EXPECT_EQ(s.total(), 120);
  EXPECT_EQ(s.item(), Shape::volume(5, 4, 3));
}

TEST(Shape, HalfSpectrumKeepsOnlyNonNegativeX) {
  EXPECT_EQ(Shape::image(64, 48).half_spectrum(), Shape::image(33, 48));
  EXPECT_EQ(Shape::image(65, 48).half_spectrum(), Shape::image(33, 48));
  EXPECT_EQ(to_string(Shape::volume(4, 5, 6, 2)), "4x5x6 (n=2)");
}

TEST(Image, IsZeroedAndViewsAddressItems) {
  Image<float> img(Shape::image(3, 2, 4));
  for (float v : img) EXPECT_EQ(v, 0.f);
  img(2, 1, 0, 3) = 7.f;
  EXPECT_EQ(img.view().item(3)(2, 1), 7.f);
  EXPECT_EQ(img[img.size() - 1], 7.f);
}

} // namespace
} // namespace frost
