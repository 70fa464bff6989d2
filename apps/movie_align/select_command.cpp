#include "select_command.hpp"

#include <iostream>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/motion_session/session_loop.hpp"
#include "frost/session/records_file.hpp"
#include "frost/session/selection.hpp"

namespace frost::movie_align {

namespace {

std::optional<double> optional_real(const cli::Params& p, const char* name) {
  return p.given(name) ? std::optional<double>(p.get_real(name)) : std::nullopt;
}

} // namespace

SelectCommand::SelectCommand()
    : Program("frost_movie_align select",
              "Keeps the done movies of a live session (--session DIR of frost_movie_align) whose records pass\n"
              "every threshold given; a threshold refuses a movie whose value is unknown. Writes the kept\n"
              "micrographs as a RELION STAR (the micrographs.star layout) and an Xmipp .xmd list.\n"
              "  frost_movie_align select --session S --max-total-motion 30 --min-resolution 6") {}

void SelectCommand::define(cli::Params& p) {
  p.text_required("--session", "session folder (reads DIR/records.jsonl)").meta("DIR");
  p.real("--max-total-motion", 0, "keep rlnAccumMotionTotal <= this [A] (checked only when given)").at_least(0);
  p.real("--max-early-motion", 0, "keep rlnAccumMotionEarly <= this [A] (checked only when given)").at_least(0);
  p.real("--max-late-motion", 0, "keep rlnAccumMotionLate <= this [A] (checked only when given)").at_least(0);
  p.real("--max-frame-shift", 0, "keep the largest frame-to-frame shift <= this [A] (checked only when given)").at_least(0);
  p.real("--min-resolution", 0, "keep a half-sum FRC resolution this good or better (<= this) [A] (checked only when given)").at_least(0);
  p.flag("--exclude-fallback", "refuse movies whose local alignment fell back to the global model");
  p.text("--ostar", "", "selected micrographs, STAR (default DIR/selected_micrographs.star)").meta("sel.star");
  p.text("--oxmd", "", "selected micrographs, Xmipp list (default DIR/selected_micrographs.xmd)").meta("sel.xmd");
  p.real("--voltage", 300.0, "acceleration voltage for the optics table [kV]");
}

int SelectCommand::run() {
  const cli::Params& p = params();
  const std::string dir = p.get_text("--session");
  const session::RecordsRead read = session::read_records(motion_session::records_path(dir));
  if (read.records.empty()) throw_input_error(motion_session::records_path(dir), "the session has no records");
  session::SelectionCriteria c;
  c.max_total_motion_A = optional_real(p, "--max-total-motion");
  c.max_early_motion_A = optional_real(p, "--max-early-motion");
  c.max_late_motion_A = optional_real(p, "--max-late-motion");
  c.max_frame_shift_A = optional_real(p, "--max-frame-shift");
  c.min_resolution_A = optional_real(p, "--min-resolution");
  c.exclude_fallback = p.flag_value("--exclude-fallback");
  const session::Selection sel = session::select(read.records, c);

  session::OpticsGroup optics;
  optics.voltage_kV = p.get_real("--voltage");
  for (const session::MovieRecord& r : sel.kept)
    if (r.pixel_size_A) {
      optics.original_pixel_size_A = optics.micrograph_pixel_size_A = *r.pixel_size_A;
      break;
    }
  const std::string star = p.get_text("--ostar").empty() ? dir + "/selected_micrographs.star" : p.get_text("--ostar");
  const std::string xmd = p.get_text("--oxmd").empty() ? dir + "/selected_micrographs.xmd" : p.get_text("--oxmd");
  session::write_selection(sel, optics, star, xmd);
  for (const auto& [movie, why] : sel.refused) log_info("refused " + movie + ": " + why);
  std::cout << sel.kept.size() << " kept, " << sel.refused.size() << " refused; wrote " << star << " and " << xmd
            << "\n";
  return 0;
}

} // namespace frost::movie_align
