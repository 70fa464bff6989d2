#include "frost/session/selection.hpp"

#include <cmath>
#include <sstream>

#include "frost/metadata/metadata_file.hpp"

namespace frost::session {

namespace {

/// Empty when `value` passes `limit` (value <= limit), else the reason.
std::string check_at_most(const char* name, const std::optional<double>& value, const std::optional<double>& limit) {
  if (!limit) return {};
  if (!value || !std::isfinite(*value)) return std::string(name) + " unknown";
  if (*value <= *limit) return {};
  std::ostringstream why;
  why << name << " " << *value << " > " << *limit;
  return why.str();
}

} // namespace

Selection select(const std::vector<MovieRecord>& records, const SelectionCriteria& c) {
  Selection s;
  for (const MovieRecord& r : records) {
    std::string why;
    if (!r.done()) why = "failed";
    for (const std::string& w : {check_at_most("rlnAccumMotionTotal", r.accum_motion_total, c.max_total_motion_A),
                                 check_at_most("rlnAccumMotionEarly", r.accum_motion_early, c.max_early_motion_A),
                                 check_at_most("rlnAccumMotionLate", r.accum_motion_late, c.max_late_motion_A),
                                 check_at_most("max_frame_shift_A", r.max_frame_shift_A, c.max_frame_shift_A),
                                 check_at_most("frc_resolution_A", r.frc_resolution_A, c.min_resolution_A)})
      if (why.empty()) why = w;
    if (why.empty() && c.exclude_fallback && r.fallback) why = "local alignment fell back to global";
    if (why.empty()) s.kept.push_back(r);
    else s.refused.emplace_back(r.movie, why);
  }
  return s;
}

void write_selection(const Selection& selection, const OpticsGroup& optics, const std::string& star_path,
                     const std::string& xmd_path) {
  if (!star_path.empty()) write_micrographs_star(star_path, selection.kept, optics);
  if (xmd_path.empty()) return;
  meta::MetadataFile xmd(meta::Dialect::Xmipp);
  meta::Block& b = xmd.add_block("micrographs");
  b.add_column("micrograph");
  b.add_column("movie");
  b.add_column("enabled", meta::Column::Kind::Int);
  b.add_column("accumMotionTotal", meta::Column::Kind::Double);
  b.add_column("accumMotionEarly", meta::Column::Kind::Double);
  b.add_column("accumMotionLate", meta::Column::Kind::Double);
  b.add_column("resolutionFRC", meta::Column::Kind::Double);
  for (const MovieRecord& r : selection.kept) {
    const std::size_t row = b.add_row();
    b.set_string(row, "micrograph", r.micrograph);
    b.set_string(row, "movie", r.movie);
    b.set_int(row, "enabled", 1);
    b.set_double(row, "accumMotionTotal", r.accum_motion_total.value_or(0));
    b.set_double(row, "accumMotionEarly", r.accum_motion_early.value_or(0));
    b.set_double(row, "accumMotionLate", r.accum_motion_late.value_or(0));
    b.set_double(row, "resolutionFRC", r.frc_resolution_A.value_or(0));
  }
  xmd.write(xmd_path);
}

} // namespace frost::session
