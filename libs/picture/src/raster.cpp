#include "frost/picture/raster.hpp"

namespace frost::picture {

Raster Raster::grey(int width, int height, std::uint8_t value) {
  Raster r;
  r.width = width;
  r.height = height;
  r.channels = 1;
  r.pixels.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), value);
  return r;
}

Raster Raster::rgb(int width, int height, Rgb colour) {
  Raster r;
  r.width = width;
  r.height = height;
  r.channels = 3;
  r.pixels.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3);
  for (std::size_t i = 0; i < r.pixels.size(); i += 3) {
    r.pixels[i] = colour.r;
    r.pixels[i + 1] = colour.g;
    r.pixels[i + 2] = colour.b;
  }
  return r;
}

Rgb Raster::colour(int x, int y) const {
  const std::uint8_t* p = at(x, y);
  return channels == 1 ? Rgb{p[0], p[0], p[0]} : Rgb{p[0], p[1], p[2]};
}

} // namespace frost::picture
