#include "frost/motion_session/motion_record.hpp"

#include <cmath>

#include "frost/session/accumulated_motion.hpp"
#include "frost/session/dose_weight_check.hpp"
#include "frost/session/half_sum_frc.hpp"

namespace frost::motion_session {

motion::RenderRequest session_render_request(motion::RenderRequest request) {
  request.quality = true;
  return request;
}

void fill_motion_fields(session::MovieRecord& r, const motion::LoadedMovie& m, const motion::MovieAlignment& a) {
  const double raw_A = m.pixel_size;                 // Å per raw pixel
  const double processed_A = m.pixel_size * m.binning;
  r.width = static_cast<int>(m.reader->raw_width());
  r.height = static_cast<int>(m.reader->raw_height());
  r.frames = static_cast<int>(m.reader->file_info().shape.n);
  r.pixel_size_A = raw_A;
  if (m.dose_known) {
    r.dose_per_frame = m.dose.dose_per_frame;
    r.pre_exposure = m.dose.pre_exposure;
    r.total_dose = m.dose.pre_exposure + m.dose.dose_per_frame * m.frame_count;
  }

  std::vector<double> x, y;
  for (const motion::Vec2& s : a.model.global) {
    x.push_back(s.x * a.model.binning);
    y.push_back(s.y * a.model.binning);
  }
  const session::AccumulatedMotion acc =
      session::accumulated_motion(x, y, raw_A, m.dose_known ? m.dose.dose_per_frame : 0, m.dose.pre_exposure);
  r.accum_motion_total = acc.total;
  r.accum_motion_early = acc.early;
  r.accum_motion_late = acc.late;
  r.max_frame_shift_A = acc.max_frame_shift;

  if (a.local) {
    r.fallback = a.local->fell_back;
    r.fallback_reason = a.local->fallback_reason;
    if (a.local->fit) {
      r.local_fit_rmsd_A = a.local->fit->rmsd * processed_A;
      // The fitted field at the measurements is the local part of the motion (residual model).
      if (!a.local->fell_back && a.model.kind == motion::LocalModelKind::Residual && !a.local->fit->fitted.empty()) {
        double s2 = 0;
        for (const motion::Vec2& v : a.local->fit->fitted) s2 += v.x * v.x + v.y * v.y;
        r.local_motion_rms_A = std::sqrt(s2 / static_cast<double>(a.local->fit->fitted.size())) * processed_A;
      }
    }
  }

  if (a.sums && a.sums->quality) {
    const motion::SumQuality& q = *a.sums->quality;
    if (q.halves.rings >= 8) // the FRC's smallest image, as fourier_ring_correlation()
      r.frc_resolution_A = session::frc_resolution(session::frc_from_shell_sums(q.halves, processed_A), 0.143);
    if (q.weighting) r.dw_hf_power_ratio = session::high_frequency_power_ratio(*q.weighting);
  }

  // Pipeline order; the loop appends "write".
  static const std::pair<const char*, const char*> kStages[] = {
      {"Load", "read"}, {"Global", "global"}, {"Local", "local"}, {"Render", "sum"}};
  for (const auto& [from, to] : kStages)
    if (auto it = a.seconds.find(from); it != a.seconds.end()) r.timings_s.emplace_back(to, it->second);
}

} // namespace frost::motion_session
