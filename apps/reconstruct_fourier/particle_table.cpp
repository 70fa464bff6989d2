#include "particle_table.hpp"

#include <cmath>
#include <cstdio>
#include <optional>

#include "frost/core/error.hpp"
#include "frost/metadata/image_location.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/particles.hpp"

namespace frost::app {
namespace {

std::string row_text(std::size_t row) { return "row " + std::to_string(row + 1); }

std::string number_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

/// Per-row doubles of the first label present, or nothing.
std::optional<std::vector<double>> column_any(const meta::Block& b, std::initializer_list<const char*> labels) {
  for (const char* l : labels)
    if (b.has(l)) return b.doubles(l);
  return std::nullopt;
}

/// Value of a RELION optics-or-particle label for every particle row.
std::optional<std::vector<double>> relion_optics_values(const meta::MetadataFile& file, const meta::Block& particles,
                                                        const char* label) {
  if (particles.has(label)) return particles.doubles(label);
  if (const meta::Block* optics = file.find("optics"); optics && optics->has(label))
    return meta::optics_doubles(*optics, particles, label);
  return std::nullopt;
}

} // namespace

ParticleTable read_particle_table(const std::string& path, const ParticleTableOptions& options) {
  const meta::MetadataFile file = meta::MetadataFile::read(path);
  const meta::Block& block = meta::particle_block(file);
  ParticleTable table;
  table.path = path;
  table.rows = block.rows();
  table.relion = block.has("rlnImageName");
  const char* image_label = table.relion ? "rlnImageName" : "image";
  if (!block.has(image_label))
    throw_input_error(path, "no image column (need rlnImageName or image)");
  const std::size_t n = block.rows();
  // Pixel size: --sampling wins; else the file's, whatever its dialect (one for all particles).
  if (options.sampling > 0) {
    table.pixel_size = options.sampling;
    table.pixel_size_source = "--sampling";
  } else if (const std::optional<double> px = meta::particle_pixel_size(file)) {
    table.pixel_size = *px;
    table.pixel_size_source = path;
  } else if (!table.relion && block.has("ctfSamplingRate")) {
    // Older Xmipp particle files carry only the CTF's sampling: the particles' own unless they
    // were downsampled after extraction, which the log states.
    const std::vector<double> ctf_rate = block.doubles("ctfSamplingRate");
    for (std::size_t i = 0; i < ctf_rate.size(); ++i)
      if (!(ctf_rate[i] > 0) || !std::isfinite(ctf_rate[i]) ||
          std::abs(ctf_rate[i] - ctf_rate[0]) > 1e-6 * ctf_rate[0])
        block.fail_at(i, "ctfSamplingRate", "not one positive pixel size for all particles");
    if (!ctf_rate.empty()) {
      table.pixel_size = ctf_rate[0];
      table.pixel_size_source = path + " (ctfSamplingRate: no samplingRate)";
    }
  }
  const std::vector<double> pixel_sizes(table.pixel_size > 0 ? n : 0, table.pixel_size);

  const meta::ParticlePoses poses = meta::particle_poses(block, pixel_sizes);
  if (!poses.missing_angles.empty() && !options.missing_angles_zero)
    throw_input_error(path, meta::missing_angles_error(poses, "--missing_angles_zero"));
  table.missing_angles = poses.missing_angles;

  if (table.relion) {
    if (block.has("rlnImageSize")) {
      for (double v : block.doubles("rlnImageSize")) table.stated_image_size.push_back(std::llround(v));
      table.stated_image_size_label = "rlnImageSize";
    } else if (const auto sizes = relion_optics_values(file, block, "rlnImageSize")) {
      for (double v : *sizes) table.stated_image_size.push_back(std::llround(v));
      table.stated_image_size_label = "rlnImageSize of data_optics";
    }
  }
  const auto images = block.strings(image_label);
  const auto enabled = column_any(block, {"enabled"});
  std::optional<std::vector<double>> weights;
  if (options.use_weights) {
    weights = options.fom_weighting ? column_any(block, {"rlnParticleFigureOfMerit"})
                                    : column_any(block, {"weight", "rlnParticleFigureOfMerit"});
    if (!weights)
      throw_input_error(path, options.fom_weighting ? "--fom_weighting needs rlnParticleFigureOfMerit"
                                                    : "--weight needs a weight column (weight)");
  }
  const auto subsets = column_any(block, {"rlnRandomSubset"});
  table.has_subsets = subsets.has_value();
  const auto classes = column_any(block, {"rlnClassNumber", "ref3d"});
  if (options.klass > 0 && !classes)
    throw_input_error(path, "--class needs rlnClassNumber or ref3d");

  // CTF columns.
  struct CtfColumns {
    std::optional<std::vector<double>> du, dv, angle, voltage, cs, q0, phase, bfactor;
  } c;
  if (options.need_ctf) {
    if (table.relion) {
      c.du = column_any(block, {"rlnDefocusU"});
      c.dv = column_any(block, {"rlnDefocusV"});
      c.angle = column_any(block, {"rlnDefocusAngle"});
      c.voltage = relion_optics_values(file, block, "rlnVoltage");
      c.cs = relion_optics_values(file, block, "rlnSphericalAberration");
      c.q0 = relion_optics_values(file, block, "rlnAmplitudeContrast");
      c.phase = column_any(block, {"rlnPhaseShift"});
      c.bfactor = column_any(block, {"rlnCtfBfactor"});
    } else {
      c.du = column_any(block, {"ctfDefocusU"});
      c.dv = column_any(block, {"ctfDefocusV"});
      c.angle = column_any(block, {"ctfDefocusAngle"});
      c.voltage = column_any(block, {"ctfVoltage"});
      c.cs = column_any(block, {"ctfSphericalAberration"});
      c.q0 = column_any(block, {"ctfQ0"});
      c.phase = column_any(block, {"ctfVPPphaseshift"});
    }
    std::string missing;
    if (!c.du) missing += table.relion ? " rlnDefocusU" : " ctfDefocusU";
    if (!c.voltage) missing += table.relion ? " rlnVoltage" : " ctfVoltage";
    if (!c.cs) missing += table.relion ? " rlnSphericalAberration" : " ctfSphericalAberration";
    if (!missing.empty()) throw_input_error(path, "CTF correction requested but labels are missing:" + missing);
    if (table.pixel_size <= 0)
      throw_input_error(path, "CTF correction needs the pixel size: give --sampling or an optics table");
  }

  meta::DataPathResolver resolve(path);
  for (std::size_t i = 0; i < n; ++i) {
    if (enabled && (*enabled)[i] == -1) {
      ++table.disabled;
      continue;
    }
    if (options.klass > 0 && std::lround((*classes)[i]) != options.klass) {
      ++table.other_class;
      continue;
    }
    recon::ParticleRecord p;
    p.row = i;
    const meta::ImageLocation loc = meta::parse_image_location(images[i]);
    meta::ImageLocation resolved = loc;
    resolved.path = resolve(loc.path);
    p.image = meta::format_image_location(resolved);
    p.pose = {poses.rot[i], poses.tilt[i], poses.psi[i]};
    p.shift_x = poses.shift_x[i];
    p.shift_y = poses.shift_y[i];
    for (double v : {p.pose.rot, p.pose.tilt, p.pose.psi, p.shift_x, p.shift_y})
      if (!std::isfinite(v)) throw_input_error(path, row_text(i) + ": non-finite angle or shift");
    if (weights) {
      p.weight = (*weights)[i];
      // Beyond 1e20 a weight is no relative weight, and its products can overflow the
      // single-precision sums (as pixels can: ParticleImages::kMaxPixelMagnitude).
      if (!(p.weight >= 0 && p.weight <= 1e20))
        throw_input_error(path, row_text(i) + ": weight " + number_text(p.weight) + " is not a value from 0 to 1e20");
    }
    if (subsets) p.subset = static_cast<int>(std::lround((*subsets)[i]));
    if (options.need_ctf) {
      p.has_ctf = true;
      p.ctf.defocus_u = (*c.du)[i];
      p.ctf.defocus_v = c.dv ? (*c.dv)[i] : p.ctf.defocus_u;
      p.ctf.defocus_angle = c.angle ? (*c.angle)[i] : 0.0;
      p.ctf.voltage = (*c.voltage)[i];
      p.ctf.cs = (*c.cs)[i];
      p.ctf.amplitude_contrast = c.q0 ? std::abs((*c.q0)[i]) : 0.0; // old Xmipp files store -Q0
      p.ctf.phase_shift = c.phase ? (*c.phase)[i] : 0.0;
      p.ctf.bfactor = c.bfactor ? (*c.bfactor)[i] : 0.0;
      for (double v : {p.ctf.defocus_u, p.ctf.defocus_v, p.ctf.defocus_angle, p.ctf.voltage, p.ctf.cs})
        if (!std::isfinite(v)) throw_input_error(path, row_text(i) + ": non-finite CTF parameter");
      if (!(p.ctf.voltage > 0)) throw_input_error(path, row_text(i) + ": voltage must be positive");
      if (!(p.ctf.amplitude_contrast < 1.0))
        throw_input_error(path, row_text(i) + ": amplitude contrast must be below 1");
    }
    table.particles.push_back(std::move(p));
  }
  if (table.particles.empty())
    throw_input_error(path, "no usable particle rows (" + std::to_string(n) + " rows, " +
                                std::to_string(table.disabled) + " disabled, " + std::to_string(table.other_class) +
                                " of another class)");
  return table;
}

} // namespace frost::app
