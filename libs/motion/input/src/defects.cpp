#include "frost/motion/defects.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/motion/reference_images.hpp"

namespace frost::motion {

namespace {

/// First words of the lines of a SerialEM defect list (its own format, not MotionCor2's).
bool is_serialem_keyword(const std::string& word) {
  static const char* const kPrefixes[] = {"CameraSize", "RotationAndFlip", "K2Type", "Bad", "PartialBad",
                                          "WasScaled", "UsableArea", "DefectsCamera"};
  return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                     [&](const char* p) { return word.rfind(p, 0) == 0; });
}

} // namespace

std::vector<DefectRect> parse_defect_text(const std::string& text, const std::string& path) {
  std::vector<DefectRect> rects;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line);
    std::string first;
    if (!(words >> first) || first[0] == '#') continue;
    if (is_serialem_keyword(first))
      throw_input_error(path, "line " + std::to_string(number) + " starts with '" + first +
                                  "': this is a SerialEM defect list, not a MotionCor2 defect file (one 'x y w h' "
                                  "rectangle per line); convert it to a defect image (e.g. IMOD clip defect) or to rectangles");
    DefectRect r;
    std::istringstream all(line);
    std::string extra;
    if (!(all >> r.x >> r.y >> r.w >> r.h) || (all >> extra))
      throw_input_error(path, "line " + std::to_string(number) + " is not 'x y w h' (four integers): '" + line + "'");
    if (r.x < 0 || r.y < 0 || r.w < 1 || r.h < 1)
      throw_input_error(path, "line " + std::to_string(number) + ": a defect needs x, y >= 0 and w, h >= 1: '" + line + "'");
    rects.push_back(r);
  }
  return rects;
}

bool is_defect_image(const std::string& path) {
  const std::string e = io::file_extension(path);
  return e == "mrc" || e == "mrcs" || e == "map" || e == "st" || e == "tif" || e == "tiff";
}

void mark_defect_rects(const std::vector<DefectRect>& rects, Image<std::uint8_t>& mask, const std::string& path) {
  const index_t w = mask.shape().x, h = mask.shape().y;
  index_t outside = 0;
  for (const DefectRect& r : rects) {
    const index_t x1 = std::min(w, r.x + r.w), y1 = std::min(h, r.y + r.h);
    if (r.x >= w || r.y >= h) {
      ++outside;
      continue;
    }
    for (index_t y = r.y; y < y1; ++y)
      for (index_t x = r.x; x < x1; ++x) mask(x, y) = kDefectPixel;
  }
  if (outside > 0)
    log_warning(path + ": " + std::to_string(outside) + " defect rectangle(s) lie outside the " + std::to_string(w) + "x" +
                std::to_string(h) + " frame and are ignored");
}

void add_defects(const std::string& path, const GainTransform& transform, bool tiff_flip_y, Image<std::uint8_t>& mask) {
  if (!is_defect_image(path)) {
    std::ifstream in(path);
    if (!in) throw_input_error(path, "cannot open the defect file");
    std::stringstream text;
    text << in.rdbuf();
    mark_defect_rects(parse_defect_text(text.str(), path), mask, path);
    return;
  }
  io::ReadOptions ro;
  ro.expect = io::Expect::Image;
  ro.tiff_flip_y = tiff_flip_y;
  io::LoadedImage map = io::read_image(path, ro);
  if (!transform.identity()) map.image = orient(map.image.cview(), transform);
  check_reference_size("defect map", path, map.image.shape().x, map.image.shape().y, mask.shape().x, mask.shape().y,
                       transform);
  for (index_t i = 0; i < mask.size(); ++i)
    if (map.image[i] != 0.0f) mask[i] = kDefectPixel;
}

index_t mark_zero_gain(View<const float> gain, Image<std::uint8_t>& mask) {
  FROST_EXPECTS(gain.shape.total() == mask.size(), "gain and mask sizes differ");
  index_t n = 0;
  for (index_t i = 0; i < mask.size(); ++i)
    if (gain[i] == 0.0f && mask[i] == kGoodPixel) {
      mask[i] = kZeroGainPixel;
      ++n;
    }
  return n;
}

index_t count_bad(View<const std::uint8_t> mask) {
  index_t n = 0;
  for (index_t i = 0; i < mask.shape.total(); ++i) n += mask[i] != kGoodPixel;
  return n;
}

} // namespace frost::motion
