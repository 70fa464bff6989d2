#include "frost/metadata/particles.hpp"

#include <array>
#include <cmath>

#include "frost/core/error.hpp"
#include "frost/metadata/xmipp_relion.hpp"

namespace frost::meta {

double relion30_pixel_size(double detector_pixel_size_um, double magnification) {
  if (!(detector_pixel_size_um > 0) || !(magnification > 0))
    throw Error(ExitCode::Input, "RELION 3.0 pixel size needs positive rlnDetectorPixelSize (" +
                                     std::to_string(detector_pixel_size_um) + ") and rlnMagnification (" +
                                     std::to_string(magnification) + ")");
  return detector_pixel_size_um * 1e4 / magnification;
}

const Block& particle_block(const MetadataFile& file) {
  if (const Block* b = file.find("particles")) return *b;
  if (const Block* b = file.find("images")) return *b;
  for (const Block& b : file.blocks())
    if (!b.is_list() && b.name() != "optics") return b;
  throw_input_error(file.origin().empty() ? std::string("<memory>") : file.origin(),
                    "no particle table (data_particles, data_images or another loop_ block)");
}

Block& particle_block(MetadataFile& file) {
  return const_cast<Block&>(particle_block(static_cast<const MetadataFile&>(file)));
}

std::vector<std::size_t> optics_rows(const Block& optics, const Block& particles) {
  if (!particles.has("rlnOpticsGroup")) {
    if (optics.rows() == 1) return std::vector<std::size_t>(particles.rows(), 0);
    particles.column("rlnOpticsGroup"); // throws: names file, block and label
  }
  const std::vector<std::int64_t> groups = optics.ints("rlnOpticsGroup");
  for (std::size_t i = 0; i < groups.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (groups[i] == groups[j])
        optics.fail_at(i, "rlnOpticsGroup", "optics group " + std::to_string(groups[i]) + " is listed twice");
  const std::vector<std::int64_t> wanted = particles.ints("rlnOpticsGroup");
  std::vector<std::size_t> rows(wanted.size());
  std::size_t last = 0; // particles of one group usually come together: try the last match first
  for (std::size_t p = 0; p < wanted.size(); ++p) {
    if (last < groups.size() && groups[last] == wanted[p]) {
      rows[p] = last;
      continue;
    }
    std::size_t g = 0;
    while (g < groups.size() && groups[g] != wanted[p]) ++g;
    if (g == groups.size())
      particles.fail_at(p, "rlnOpticsGroup",
                        "optics group " + std::to_string(wanted[p]) + " is not in data_" + optics.name());
    rows[p] = last = g;
  }
  return rows;
}

std::vector<double> optics_doubles(const Block& optics, const Block& particles, std::string_view label) {
  const std::vector<double> per_group = optics.doubles(label);
  const std::vector<std::size_t> rows = optics_rows(optics, particles);
  std::vector<double> out(rows.size());
  for (std::size_t p = 0; p < rows.size(); ++p) out[p] = per_group[rows[p]];
  return out;
}

namespace {
/// The data_optics table `particles` joins, or nullptr (none, or `particles` is data_optics).
const Block* optics_of(const MetadataFile& file, const Block& particles) {
  const Block* optics = file.find("optics");
  return optics != &particles ? optics : nullptr;
}
} // namespace

std::vector<double> particle_pixel_sizes(const MetadataFile& file) {
  return particle_pixel_sizes(file, particle_block(file));
}

std::vector<double> particle_pixel_sizes(const MetadataFile& file, const Block& particles) {
  const Block* optics = optics_of(file, particles);
  if (optics && optics->has("rlnImagePixelSize")) return optics_doubles(*optics, particles, "rlnImagePixelSize");
  if (particles.has("rlnImagePixelSize")) return particles.doubles("rlnImagePixelSize");
  if (particles.has("rlnDetectorPixelSize") && particles.has("rlnMagnification")) {
    const std::vector<double> dps = particles.doubles("rlnDetectorPixelSize");
    const std::vector<double> mag = particles.doubles("rlnMagnification");
    std::vector<double> out(dps.size());
    for (std::size_t r = 0; r < out.size(); ++r) {
      if (!(dps[r] > 0) || !(mag[r] > 0))
        particles.fail_at(r, "rlnMagnification", "pixel size needs positive rlnDetectorPixelSize and rlnMagnification");
      out[r] = relion30_pixel_size(dps[r], mag[r]);
    }
    return out;
  }
  if (particles.has("samplingRate")) return particles.doubles("samplingRate"); // Xmipp
  throw_input_error(file.origin().empty() ? std::string("<memory>") : file.origin(),
                    "no pixel size: needs data_optics rlnImagePixelSize, rlnDetectorPixelSize and "
                    "rlnMagnification, or samplingRate in data_" + particles.name() +
                        " (or give it on the command line)");
}

std::optional<double> particle_pixel_size(const MetadataFile& file) {
  return particle_pixel_size(file, particle_block(file));
}

std::optional<double> particle_pixel_size(const MetadataFile& file, const Block& particles) {
  const Block* optics = optics_of(file, particles);
  const bool named = (optics && optics->has("rlnImagePixelSize")) || particles.has("rlnImagePixelSize") ||
                     (particles.has("rlnDetectorPixelSize") && particles.has("rlnMagnification")) ||
                     particles.has("samplingRate");
  if (!named || particles.rows() == 0) return std::nullopt;
  const std::vector<double> sizes = particle_pixel_sizes(file, particles);
  // The label the sizes came from, in particle_pixel_sizes()' order, for messages.
  std::string label = "samplingRate";
  if (optics && optics->has("rlnImagePixelSize")) label = "rlnImagePixelSize (data_" + optics->name() + ")";
  else if (particles.has("rlnImagePixelSize")) label = "rlnImagePixelSize";
  else if (particles.has("rlnDetectorPixelSize") && particles.has("rlnMagnification")) label = "rlnMagnification";
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    if (!(sizes[r] > 0) || !std::isfinite(sizes[r]))
      particles.fail_at(r, label, "pixel size " + std::to_string(sizes[r]) + " is not a positive number of Angstrom");
    if (std::abs(sizes[r] - sizes[0]) > 1e-6 * sizes[0])
      particles.fail_at(r, label, "particles have different pixel sizes (" + std::to_string(sizes[0]) + " and " +
                                      std::to_string(sizes[r]) + " A); frost does not rescale optics groups");
  }
  return sizes[0];
}

ParticlePoses particle_poses(const Block& particles, const std::vector<double>& pixel_sizes) {
  const std::size_t n = particles.rows();
  // RELION when the images are named the RELION way; a table naming them with Xmipp's `image` is
  // Xmipp even when it carries RELION labels it was converted with (rlnOpticsGroup,
  // rlnRandomSubset: frost_align_significant's .xmd of a STAR input).
  bool relion = particles.has("rlnImageName");
  if (!relion && !particles.has("image"))
    for (const Column& c : particles.columns()) relion = relion || c.label().compare(0, 3, "rln") == 0;
  ParticlePoses out;
  if (relion) {
    for (const char* label : {"rlnAngleRot", "rlnAngleTilt", "rlnAnglePsi"})
      if (!particles.has(label)) out.missing_angles.emplace_back(label);
    out.rot = particles.doubles_or("rlnAngleRot", 0.0);
    out.tilt = particles.doubles_or("rlnAngleTilt", 0.0);
    out.psi = particles.doubles_or("rlnAnglePsi", 0.0);
    for (const char* axis : {"X", "Y"}) {
      std::vector<double>& shift = axis[0] == 'X' ? out.shift_x : out.shift_y;
      const std::string angst = std::string("rlnOrigin") + axis + "Angst";
      const std::string pixels = std::string("rlnOrigin") + axis;
      if (particles.has(angst)) {
        if (pixel_sizes.size() != n)
          throw_input_error(particles.origin().empty() ? std::string("<memory>") : particles.origin(),
                            angst + " is in Angstrom: a pixel size is needed to convert it to pixels");
        shift = particles.doubles(angst);
        for (std::size_t r = 0; r < n; ++r) shift[r] /= pixel_sizes[r];
      } else {
        shift = particles.doubles_or(pixels, 0.0);
      }
    }
    return out;
  }
  // The current name wins over a legacy alias of it when a table has both.
  const auto label_of = [&](std::string_view canonical) -> const Column* {
    if (const Column* c = particles.find(canonical)) return c;
    for (const Column& c : particles.columns())
      if (canonical_xmipp_label(c.label()) == canonical) return &c;
    return nullptr;
  };
  const auto values = [&](std::string_view canonical) {
    if (const Column* c = label_of(canonical)) return particles.doubles(c->label());
    return std::vector<double>(n, 0.0);
  };
  for (const char* label : {"angleRot", "angleTilt", "anglePsi"})
    if (!label_of(label)) out.missing_angles.emplace_back(label);
  out.rot = values("angleRot");
  out.tilt = values("angleTilt");
  out.psi = values("anglePsi");
  out.shift_x = values("shiftX");
  out.shift_y = values("shiftY");
  std::vector<std::int64_t> flip(n, 0);
  if (const Column* c = label_of("flip")) flip = particles.ints(c->label());
  for (std::size_t r = 0; r < n; ++r) {
    const XmippPose p = unflip(XmippPose{out.rot[r], out.tilt[r], out.psi[r], out.shift_x[r], out.shift_y[r], 0, flip[r] != 0});
    out.tilt[r] = p.tilt;
    out.psi[r] = p.psi;
    out.shift_x[r] = p.shift_x;
  }
  return out;
}

std::string missing_angles_error(const ParticlePoses& poses, const std::string& option) {
  if (poses.missing_angles.empty()) return std::string();
  std::string labels;
  for (const std::string& l : poses.missing_angles) labels += (labels.empty() ? "" : ", ") + l;
  return "no " + labels + " column: a projection needs all three angles (give " + option +
         " if a missing angle means 0)";
}

DerivedOptics derive_relion30_optics(const Block& particles) {
  static constexpr std::array<std::string_view, 3> kLabels = {"rlnVoltage", "rlnSphericalAberration",
                                                              "rlnAmplitudeContrast"};
  const std::size_t n = particles.rows();
  std::vector<std::string_view> present;
  std::vector<std::vector<double>> values;
  for (std::string_view label : kLabels) {
    if (particles.has(label)) {
      present.push_back(label);
      values.push_back(particles.doubles(label));
    }
  }
  const bool has_pixel = particles.has("rlnDetectorPixelSize") && particles.has("rlnMagnification");
  if (has_pixel) {
    const std::vector<double> dps = particles.doubles("rlnDetectorPixelSize");
    const std::vector<double> mag = particles.doubles("rlnMagnification");
    std::vector<double> pixel(n);
    for (std::size_t r = 0; r < n; ++r) pixel[r] = relion30_pixel_size(dps[r], mag[r]);
    present.push_back("rlnImagePixelSize");
    values.push_back(std::move(pixel));
  }
  DerivedOptics out;
  out.optics = Block("optics");
  out.group.resize(n);
  std::vector<std::vector<double>> combos; // one entry per group, values in `present` order
  for (std::size_t r = 0; r < n; ++r) {
    std::vector<double> combo(present.size());
    for (std::size_t k = 0; k < present.size(); ++k) combo[k] = values[k][r];
    std::size_t g = 0;
    while (g < combos.size() && combos[g] != combo) ++g;
    if (g == combos.size()) combos.push_back(std::move(combo));
    out.group[r] = static_cast<std::int64_t>(g + 1);
  }
  if (combos.empty() && n > 0) combos.emplace_back(); // no optics labels: one empty group
  std::vector<std::int64_t> ids;
  std::vector<std::string> names;
  for (std::size_t g = 0; g < combos.size(); ++g) {
    ids.push_back(static_cast<std::int64_t>(g + 1));
    names.push_back("opticsGroup" + std::to_string(g + 1));
  }
  out.optics.set_column("rlnOpticsGroup", ids);
  out.optics.set_column("rlnOpticsGroupName", names);
  for (std::size_t k = 0; k < present.size(); ++k) {
    std::vector<double> column;
    for (const std::vector<double>& combo : combos) column.push_back(combo[k]);
    out.optics.set_column(present[k], std::move(column));
  }
  return out;
}

} // namespace frost::meta
