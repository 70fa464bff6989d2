#include "frost/metadata/dialect.hpp"

namespace frost::meta {

std::string_view dialect_name(Dialect dialect) noexcept {
  switch (dialect) {
  case Dialect::Relion30: return "relion-3.0";
  case Dialect::Relion31: return "relion-3.1";
  case Dialect::Relion5: return "relion-5";
  case Dialect::Xmipp: return "xmipp";
  }
  return "unknown";
}

int default_version(Dialect dialect) noexcept {
  switch (dialect) {
  case Dialect::Relion31: return 30001;
  case Dialect::Relion5: return 50001;
  default: return 0;
  }
}

bool is_relion(Dialect dialect) noexcept { return dialect != Dialect::Xmipp; }

std::optional<Dialect> parse_dialect(std::string_view name) noexcept {
  if (name == "star" || name == "relion" || name == "relion-3.1" || name == "relion-4") return Dialect::Relion31;
  if (name == "relion-3.0") return Dialect::Relion30;
  if (name == "relion-5") return Dialect::Relion5;
  if (name == "xmd" || name == "xmipp") return Dialect::Xmipp;
  return std::nullopt;
}

Dialect detect_dialect(const DialectEvidence& e) noexcept {
  if (e.xmipp_header) return Dialect::Xmipp;
  if (e.version >= 50000) return Dialect::Relion5;
  if (e.version > 0) return Dialect::Relion31;
  if (e.has_optics_block) return Dialect::Relion31;
  if (e.has_rln_labels) return Dialect::Relion30;
  if (e.has_xmipp_labels) return Dialect::Xmipp;
  return Dialect::Relion30;
}

bool is_common_xmipp_label(std::string_view label) noexcept {
  static constexpr std::string_view kLabels[] = {
      "image",    "itemId",   "enabled",  "angleRot",    "angleTilt",   "anglePsi",   "shiftX",
      "shiftY",   "shiftZ",   "flip",     "weight",      "maxCC",       "ref",        "ref3d",
      "micrograph", "movie",  "xcoor",    "ycoor",       "samplingRate", "ctfDefocusU", "ctfDefocusV",
      "ctfDefocusAngle", "ctfVoltage", "ctfSphericalAberration", "ctfQ0", "imageIndex"};
  for (std::string_view known : kLabels)
    if (label == known) return true;
  return false;
}

} // namespace frost::meta
