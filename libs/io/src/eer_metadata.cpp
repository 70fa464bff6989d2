// EER acquisition XML: a small scanner for the two shapes the field writes (item entries with a
// name attribute, or plain elements), not a general XML parser; and the item form frost writes.
#include "frost/io/eer_metadata.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace frost::io {

namespace {

std::optional<double> number(const std::string& text) {
  const std::size_t a = text.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return std::nullopt;
  const std::string s = text.substr(a, text.find_last_not_of(" \t\r\n") - a + 1);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

/// Value of attribute `name` in the text of a start tag ("" when absent).
std::string attribute(std::string_view tag, std::string_view name) {
  for (std::size_t at = tag.find(name); at != std::string_view::npos; at = tag.find(name, at + 1)) {
    if (at > 0 && tag[at - 1] != ' ' && tag[at - 1] != '\t' && tag[at - 1] != '\n') continue;
    std::size_t p = at + name.size();
    while (p < tag.size() && tag[p] == ' ') ++p;
    if (p >= tag.size() || tag[p] != '=') continue;
    ++p;
    while (p < tag.size() && tag[p] == ' ') ++p;
    if (p >= tag.size() || (tag[p] != '"' && tag[p] != '\'')) continue;
    const char quote = tag[p];
    const std::size_t close = tag.find(quote, p + 1);
    if (close == std::string_view::npos) return {};
    return std::string(tag.substr(p + 1, close - p - 1));
  }
  return {};
}

void assign(EerAcquisition& a, const std::string& key, const std::string& text) {
  const std::optional<double> v = number(text);
  if (!v) return;
  if (key == "numberOfFrames") {
    if (*v >= 1 && *v == std::floor(*v) && *v < 1e12) a.frames = static_cast<index_t>(*v);
  } else if (key == "totalDose") {
    a.total_dose = *v;
  } else if (key == "meanDoseRate") {
    a.dose_rate = *v;
  } else if (key == "exposureTime") {
    a.exposure_time = *v;
  } else if (key == "sensorPixelSize.height") {
    a.pixel_height = *v;
  } else if (key == "sensorPixelSize.width") {
    a.pixel_width = *v;
  }
}

/// A pixel size at the specimen, in metres (0.01 to 100 Å); a sensor's own pixel (~14 µm) is not.
bool specimen_pixel_size(double m) { return m > 1e-12 && m < 1e-8; }

} // namespace

EerAcquisition parse_eer_metadata(const std::string& xml) {
  EerAcquisition a;
  std::vector<std::string> path; // open elements below the root (item entries by their name)
  int depth = 0;
  std::size_t text_from = std::string::npos; // text of the innermost open element starts here
  for (std::size_t lt = xml.find('<'); lt != std::string::npos; lt = xml.find('<', lt + 1)) {
    const std::size_t gt = xml.find('>', lt);
    if (gt == std::string::npos) break;
    const std::string_view tag(xml.data() + lt + 1, gt - lt - 1);
    if (tag.empty() || tag[0] == '?' || tag[0] == '!') continue; // declaration, comment
    if (tag[0] == '/') { // end tag: a leaf's text is what lies between its tags
      if (depth == 0) break;
      if (text_from != std::string::npos && !path.empty()) {
        std::string key;
        for (const std::string& part : path) key += (key.empty() ? "" : ".") + part;
        assign(a, key, xml.substr(text_from, lt - text_from));
      }
      text_from = std::string::npos;
      if (depth > 1 && !path.empty()) path.pop_back();
      --depth;
      lt = gt;
      continue;
    }
    const bool self_closing = tag.back() == '/';
    std::size_t name_end = 0;
    while (name_end < tag.size() && tag[name_end] != ' ' && tag[name_end] != '/' && tag[name_end] != '\t' &&
           tag[name_end] != '\n')
      ++name_end;
    const std::string name(tag.substr(0, name_end));
    if (!self_closing) {
      if (depth >= 1) path.push_back(name == "item" ? attribute(tag, "name") : name);
      ++depth;
      text_from = gt + 1;
    }
    lt = gt;
  }
  return a;
}

std::optional<double> EerAcquisition::raw_frame_dose(index_t file_frames) const {
  std::optional<double> total = total_dose;
  if (!total && dose_rate && exposure_time) total = *dose_rate * *exposure_time;
  const index_t n = frames ? *frames : file_frames;
  const std::optional<double> h = pixel_height ? pixel_height : pixel_width;
  const std::optional<double> w = pixel_width ? pixel_width : pixel_height;
  if (!total || !(*total > 0) || n < 1 || !h || !w) return std::nullopt;
  if (!specimen_pixel_size(*h) || !specimen_pixel_size(*w)) return std::nullopt;
  const double area = (*h * 1e10) * (*w * 1e10); // Å²
  const double dose = *total / static_cast<double>(n) / area;
  if (!std::isfinite(dose) || !(dose > 0)) return std::nullopt;
  return dose;
}

std::string EerAcquisition::missing_for_dose() const {
  if (raw_frame_dose(1)) return {};
  std::string missing;
  const auto add = [&](const char* what) { missing += (missing.empty() ? "" : ", ") + std::string(what); };
  if (!total_dose && !(dose_rate && exposure_time)) add("totalDose (or meanDoseRate and exposureTime)");
  else if (!(total_dose.value_or(1.0) > 0)) add("a positive totalDose");
  if (!pixel_height && !pixel_width) add("sensorPixelSize");
  else {
    const auto plausible = [](std::optional<double> m) { return !m || specimen_pixel_size(*m); };
    if (!plausible(pixel_height) || !plausible(pixel_width)) add("a specimen pixel size (sensorPixelSize in metres, 1e-12 to 1e-8)");
  }
  if (missing.empty()) add("a dose that is a finite positive number");
  return missing;
}

std::string eer_metadata_xml(index_t raw_frames, index_t width, index_t height, double total_dose, double pixel_size) {
  char xml[640];
  std::snprintf(xml, sizeof xml,
                "<metadata>\n"
                "  <item name=\"numberOfFrames\">%lld</item>\n"
                "  <item name=\"sensorImageWidth\" unit=\"pixel\">%lld</item>\n"
                "  <item name=\"sensorImageHeight\" unit=\"pixel\">%lld</item>\n"
                "  <item name=\"totalDose\" unit=\"e/pixel\">%.9g</item>\n"
                "  <item name=\"sensorPixelSize.height\" unit=\"m\">%.9g</item>\n"
                "  <item name=\"sensorPixelSize.width\" unit=\"m\">%.9g</item>\n"
                "</metadata>\n",
                static_cast<long long>(raw_frames), static_cast<long long>(width), static_cast<long long>(height),
                total_dose, pixel_size * 1e-10, pixel_size * 1e-10);
  return xml;
}

} // namespace frost::io
