#include "frost/metadata/xmipp_relion.hpp"

#include <cmath>
#include <utility>

#include "frost/core/error.hpp"

namespace frost::meta {

namespace {

struct LabelPair {
  std::string_view xmipp, relion;
};

// The label mapping of docs/formats.md#xmipp-and-relion-mapping. Shifts need the pixel size and are
// handled apart.
constexpr LabelPair kLabelMap[] = {
    {"image", "rlnImageName"},
    {"micrograph", "rlnMicrographName"},
    {"xcoor", "rlnCoordinateX"},
    {"ycoor", "rlnCoordinateY"},
    {"angleRot", "rlnAngleRot"},
    {"angleTilt", "rlnAngleTilt"},
    {"anglePsi", "rlnAnglePsi"},
    {"shiftX", "rlnOriginXAngst"},
    {"shiftY", "rlnOriginYAngst"},
    {"shiftZ", "rlnOriginZAngst"},
    {"ctfDefocusU", "rlnDefocusU"},
    {"ctfDefocusV", "rlnDefocusV"},
    {"ctfDefocusAngle", "rlnDefocusAngle"},
    {"ctfVoltage", "rlnVoltage"},
    {"ctfSphericalAberration", "rlnSphericalAberration"},
    {"ctfQ0", "rlnAmplitudeContrast"},
    {"ctfVPPphaseshift", "rlnPhaseShift"},
    {"ref3d", "rlnClassNumber"},
    {"samplingRate", "rlnImagePixelSize"},
    {"itemId", "rlnImageId"},
};

// Legacy Xmipp label spellings frost accepts on read.
constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
    {"rot", "angleRot"},
    {"tilt", "angleTilt"},
    {"psi", "anglePsi"},
    {"Xoff", "shiftX"},
    {"Yoff", "shiftY"},
    {"Zoff", "shiftZ"},
    {"Flip", "flip"},
    {"Weight", "weight"},
    {"MaxCC", "maxCC"},
    {"Ref", "ref"},
    {"Enabled", "enabled"},
    {"CTFModel", "ctfModel"},
    {"CTF_Defocus_U", "ctfDefocusU"},
    {"CTF_Defocus_V", "ctfDefocusV"},
    {"CTF_Defocus_Angle", "ctfDefocusAngle"},
    {"CTF_Voltage", "ctfVoltage"},
    {"CTF_Spherical_Aberration", "ctfSphericalAberration"},
    {"CTF_Q0", "ctfQ0"},
    {"defocusU", "ctfDefocusU"},
    {"defocusV", "ctfDefocusV"},
    {"Xcoor", "xcoor"},
    {"Ycoor", "ycoor"},
};

void check_pixel_size(double pixel_size) {
  if (!(pixel_size > 0) || !std::isfinite(pixel_size))
    throw Error(ExitCode::Input, "pixel size must be a positive number of Angstrom (got " +
                                     std::to_string(pixel_size) + ")");
}

Column copy_rows(const Column& from, std::string label, const std::vector<std::size_t>& rows) {
  Column out(std::move(label), from.kind());
  out.reserve(rows.size());
  for (std::size_t r : rows) out.push_from(from, r);
  return out;
}

Column double_column(std::string label, const std::vector<double>& values) {
  Column out(std::move(label), Column::Kind::Double);
  out.reserve(values.size());
  for (double v : values) out.push_double(v);
  return out;
}

} // namespace

XmippPose unflip(const XmippPose& pose) noexcept {
  if (!pose.flip) return pose;
  XmippPose out = pose;
  out.tilt = pose.tilt + 180.0;
  out.psi = -pose.psi;
  out.shift_x = -pose.shift_x;
  out.flip = false;
  return out;
}

RelionPose xmipp_to_relion(const XmippPose& pose, double pixel_size) {
  check_pixel_size(pixel_size);
  const XmippPose p = unflip(pose);
  return RelionPose{p.rot, p.tilt, p.psi, p.shift_x * pixel_size, p.shift_y * pixel_size, p.shift_z * pixel_size};
}

XmippPose relion_to_xmipp(const RelionPose& pose, double pixel_size) {
  check_pixel_size(pixel_size);
  return XmippPose{pose.rot, pose.tilt, pose.psi, pose.origin_x_angst / pixel_size,
                   pose.origin_y_angst / pixel_size, pose.origin_z_angst / pixel_size, false};
}

std::optional<std::string_view> relion_label_for(std::string_view xmipp_label) noexcept {
  for (const LabelPair& p : kLabelMap)
    if (p.xmipp == xmipp_label) return p.relion;
  return std::nullopt;
}

std::optional<std::string_view> xmipp_label_for(std::string_view relion_label) noexcept {
  for (const LabelPair& p : kLabelMap)
    if (p.relion == relion_label) return p.xmipp;
  if (relion_label == "rlnOriginX") return std::string_view("shiftX");
  if (relion_label == "rlnOriginY") return std::string_view("shiftY");
  if (relion_label == "rlnOriginZ") return std::string_view("shiftZ");
  return std::nullopt;
}

std::string_view canonical_xmipp_label(std::string_view label) noexcept {
  for (const auto& alias : kAliases)
    if (alias.first == label) return alias.second;
  return label;
}

void canonicalize_xmipp_labels(Block& block) {
  for (const std::string& label : block.labels()) {
    const std::string_view canonical = canonical_xmipp_label(label);
    if (canonical != label && !block.has(canonical)) block.rename_column(label, std::string(canonical));
  }
}

Block xmipp_to_relion(const Block& xmipp, double pixel_size) {
  check_pixel_size(pixel_size);
  std::vector<std::size_t> rows;
  rows.reserve(xmipp.rows());
  const std::vector<std::int64_t> enabled =
      xmipp.has("enabled") ? xmipp.ints("enabled") : std::vector<std::int64_t>(xmipp.rows(), 1);
  for (std::size_t r = 0; r < xmipp.rows(); ++r)
    if (enabled[r] != -1) rows.push_back(r);

  // Poses of the kept rows, unflipped and in Å. Labels are looked up under their legacy
  // names too.
  auto find_label = [&](std::string_view canonical) -> std::string {
    for (const Column& c : xmipp.columns())
      if (canonical_xmipp_label(c.label()) == canonical) return c.label();
    return std::string();
  };
  auto values = [&](std::string_view canonical) {
    const std::string label = find_label(canonical);
    return label.empty() ? std::vector<double>(xmipp.rows(), 0.0) : xmipp.doubles(label);
  };
  const std::vector<double> rot = values("angleRot"), tilt = values("angleTilt"), psi = values("anglePsi");
  const std::vector<double> sx = values("shiftX"), sy = values("shiftY"), sz = values("shiftZ");
  const std::string flip_label = find_label("flip");
  const std::vector<std::int64_t> flip =
      flip_label.empty() ? std::vector<std::int64_t>(xmipp.rows(), 0) : xmipp.ints(flip_label);
  std::vector<std::vector<double>> pose(6, std::vector<double>(rows.size()));
  bool any_flip = false;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const std::size_t r = rows[k];
    any_flip = any_flip || flip[r] != 0;
    const RelionPose p = xmipp_to_relion(XmippPose{rot[r], tilt[r], psi[r], sx[r], sy[r], sz[r], flip[r] != 0}, pixel_size);
    const double v[6] = {p.rot, p.tilt, p.psi, p.origin_x_angst, p.origin_y_angst, p.origin_z_angst};
    for (int i = 0; i < 6; ++i) pose[i][k] = v[i];
  }
  static constexpr std::string_view kPose[6] = {"angleRot", "angleTilt", "anglePsi", "shiftX", "shiftY", "shiftZ"};

  Block out(xmipp.name());
  out.set_origin(xmipp.origin());
  for (const Column& c : xmipp.columns()) {
    const std::string_view label = canonical_xmipp_label(c.label());
    if (label == "flip") continue; // folded into the poses
    const std::string name(relion_label_for(label).value_or(label));
    if (out.has(name)) continue;
    int pose_index = -1;
    for (int i = 0; i < 6; ++i)
      if (kPose[i] == label) pose_index = i;
    if (pose_index >= 0) {
      out.insert_column(double_column(name, pose[pose_index]));
    } else if (label == "ctfQ0") {
      std::vector<double> q0;
      const std::vector<double> all = xmipp.doubles(c.label());
      for (std::size_t r : rows) q0.push_back(std::fabs(all[r])); // old files store Q0 negative
      out.insert_column(double_column(name, q0));
    } else {
      out.insert_column(copy_rows(c, name, rows));
    }
  }
  if (any_flip) { // a mirrored row changes tilt, psi and x even where the input lacked them
    for (int i : {1, 2, 3}) {
      const std::string name(*relion_label_for(kPose[i]));
      if (!out.has(name)) out.insert_column(double_column(name, pose[i]));
    }
  }
  return out;
}

Block relion_to_xmipp(const Block& relion, const std::vector<double>& pixel_sizes) {
  FROST_EXPECTS(pixel_sizes.size() == relion.rows(), "one pixel size per row is needed for " + relion.describe());
  for (double p : pixel_sizes) check_pixel_size(p);
  std::vector<std::size_t> all(relion.rows());
  for (std::size_t r = 0; r < all.size(); ++r) all[r] = r;

  Block out(relion.name());
  out.set_origin(relion.origin());
  for (const Column& c : relion.columns()) {
    const std::string& label = c.label();
    const std::string name(xmipp_label_for(label).value_or(std::string_view(label)));
    if (out.has(name)) continue;
    const bool angst = label == "rlnOriginXAngst" || label == "rlnOriginYAngst" || label == "rlnOriginZAngst";
    const bool pixels = label == "rlnOriginX" || label == "rlnOriginY" || label == "rlnOriginZ";
    if (angst) {
      std::vector<double> shift = relion.doubles(label);
      for (std::size_t r = 0; r < shift.size(); ++r) shift[r] /= pixel_sizes[r];
      out.insert_column(double_column(name, shift));
    } else if (pixels) {
      // RELION 3.0 pixel origins; when the Å column is also present it is the one RELION 3.1
      // uses, so the pixel copy is dropped.
      if (relion.has(label + "Angst")) continue;
      out.insert_column(double_column(name, relion.doubles(label)));
    } else {
      out.insert_column(copy_rows(c, name, all));
    }
  }
  return out;
}

Block relion_to_xmipp(const Block& relion, double pixel_size) {
  return relion_to_xmipp(relion, std::vector<double>(relion.rows(), pixel_size));
}

} // namespace frost::meta
