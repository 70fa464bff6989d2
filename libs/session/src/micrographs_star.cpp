#include "frost/session/micrographs_star.hpp"

#include <algorithm>

namespace frost::session {

meta::MetadataFile micrographs_star(const std::vector<MovieRecord>& records, const OpticsGroup& optics) {
  meta::MetadataFile file(meta::Dialect::Relion31);
  meta::Block& o = file.add_block("optics");
  o.add_row();
  o.set_string(0, "rlnOpticsGroupName", optics.name);
  o.set_int(0, "rlnOpticsGroup", optics.number);
  if (!optics.mtf.empty()) o.set_string(0, "rlnMtfFileName", optics.mtf);
  o.set_double(0, "rlnMicrographOriginalPixelSize", optics.original_pixel_size_A);
  o.set_double(0, "rlnVoltage", optics.voltage_kV);
  o.set_double(0, "rlnSphericalAberration", optics.cs_mm);
  o.set_double(0, "rlnAmplitudeContrast", optics.amplitude_contrast);
  o.set_double(0, "rlnMicrographPixelSize", optics.micrograph_pixel_size_A);

  std::vector<const MovieRecord*> done;
  for (const MovieRecord& r : records)
    if (r.done()) done.push_back(&r);
  const bool all_ps = !done.empty() && std::all_of(done.begin(), done.end(), [](auto* r) { return !r->power_spectrum.empty(); });
  const bool all_nodw = !done.empty() && std::all_of(done.begin(), done.end(), [](auto* r) { return !r->micrograph_nodw.empty(); });
  meta::Block& m = file.add_block("micrographs");
  // The labels exist even with no rows, so a reader sees the layout from the first rewrite.
  if (all_ps) m.add_column("rlnCtfPowerSpectrum");
  m.add_column("rlnMicrographName");
  if (all_nodw) m.add_column("rlnMicrographNameNoDW");
  m.add_column("rlnMicrographMetadata");
  m.add_column("rlnOpticsGroup", meta::Column::Kind::Int);
  m.add_column("rlnAccumMotionTotal", meta::Column::Kind::Double);
  m.add_column("rlnAccumMotionEarly", meta::Column::Kind::Double);
  m.add_column("rlnAccumMotionLate", meta::Column::Kind::Double);
  for (const MovieRecord* r : done) {
    const std::size_t row = m.add_row();
    if (all_ps) m.set_string(row, "rlnCtfPowerSpectrum", r->power_spectrum);
    m.set_string(row, "rlnMicrographName", r->micrograph);
    if (all_nodw) m.set_string(row, "rlnMicrographNameNoDW", r->micrograph_nodw);
    m.set_string(row, "rlnMicrographMetadata", r->motion_star);
    m.set_int(row, "rlnOpticsGroup", optics.number);
    m.set_double(row, "rlnAccumMotionTotal", r->accum_motion_total.value_or(0));
    m.set_double(row, "rlnAccumMotionEarly", r->accum_motion_early.value_or(0));
    m.set_double(row, "rlnAccumMotionLate", r->accum_motion_late.value_or(0));
  }
  return file;
}

void write_micrographs_star(const std::string& path, const std::vector<MovieRecord>& records, const OpticsGroup& optics) {
  micrographs_star(records, optics).write(path);
}

} // namespace frost::session
