#include "relion_export.hpp"

#include <cstdint>
#include <vector>

#include "frost/metadata/value_text.hpp"

namespace frost::movie_align {

meta::MetadataFile relion_motion_star(const MovieFacts& f, const motion::MotionModel& model) {
  meta::MetadataFile file(meta::Dialect::Relion31);
  {
    meta::Block& g = file.add_block("general", true);
    g.add_row();
    g.set_int(0, "rlnImageSizeX", f.raw_x);
    g.set_int(0, "rlnImageSizeY", f.raw_y);
    g.set_int(0, "rlnImageSizeZ", f.movie_frames);
    g.set_string(0, "rlnMicrographMovieName", f.movie);
    if (!f.gain.empty()) g.set_string(0, "rlnMicrographGainName", f.gain);
    g.set_double(0, "rlnMicrographBinning", f.binning);
    g.set_double(0, "rlnMicrographOriginalPixelSize", f.pixel_size);
    g.set_double(0, "rlnMicrographDoseRate", f.dose_known ? f.dose.dose_per_frame : 0.0);
    g.set_double(0, "rlnMicrographPreExposure", f.dose.pre_exposure);
    g.set_double(0, "rlnVoltage", f.dose.voltage_kv);
    g.set_int(0, "rlnMicrographStartFrame", model.first_frame + 1);
    g.set_int(0, "rlnMotionModelVersion", 0);
    if (f.eer) {
      g.set_int(0, "rlnEERUpsampling", f.eer_upsampling);
      g.set_int(0, "rlnEERGrouping", f.eer_group);
    }
  }
  meta::Block& shifts = file.add_block("global_shift");
  const motion::Vec2 first = model.global.front(); // RELION's reference: the first aligned frame
  std::vector<std::int64_t> number;
  std::vector<std::string> sx, sy;
  for (int frame = 0; frame < f.movie_frames; ++frame) {
    number.push_back(frame + 1);
    const int t = frame - model.first_frame;
    if (t < 0 || t >= model.frames()) {
      sx.push_back(meta::format_shortest(kRelionNotObserved));
      sy.push_back(meta::format_shortest(kRelionNotObserved));
      continue;
    }
    const motion::Vec2& s = model.global[static_cast<std::size_t>(t)];
    // 0.0 + keeps the first frame at +0 rather than -0.
    sx.push_back(meta::format_shortest(0.0 + (s.x - first.x) * model.binning));
    sy.push_back(meta::format_shortest(0.0 + (s.y - first.y) * model.binning));
  }
  shifts.set_column("rlnMicrographFrameNumber", number);
  shifts.set_column("rlnMicrographShiftX", sx);
  shifts.set_column("rlnMicrographShiftY", sy);
  return file;
}

} // namespace frost::movie_align
