#include "pictures.hpp"

#include "frost/core/log.hpp"
#include "frost/picture/figures.hpp"
#include "frost/picture/png.hpp"
#include "frost/picture/power_spectrum.hpp"
#include "frost/picture/tone.hpp"

namespace frost::movie_align {

void write_thumbnail(const std::string& path, const Image<float>& micrograph, int longest_side) {
  const Image<float> small = picture::shrink_to_fit(micrograph.cview(), longest_side);
  picture::write_png(path, picture::to_grey(small.cview()));
  log_info("wrote " + path);
}

void write_psd_picture(const std::string& path, const Image<float>& periodogram) {
  picture::write_png(path, picture::power_spectrum_picture(periodogram.cview()));
  log_info("wrote " + path);
}

void write_drift_plot(const std::string& path, const motion::MotionModel& model, const motion::PatchGrid* grid,
                      double width, double height) {
  const double b = model.binning;
  picture::DriftFigure f;
  for (const motion::Vec2& s : model.global) {
    f.x.push_back(s.x * b);
    f.y.push_back(s.y * b);
  }
  f.width = width * b;
  f.height = height * b;
  if (model.local && grid) {
    for (int p = 0; p < grid->count(); ++p) {
      const motion::Vec2 c = grid->centre(p);
      picture::DriftTrack track;
      track.x = c.x * b;
      track.y = c.y * b;
      for (int t = 0; t < model.frames(); ++t) {
        const motion::Vec2 s = model.shift(c.x, c.y, t);
        track.dx.push_back(s.x * b);
        track.dy.push_back(s.y * b);
      }
      f.local.push_back(std::move(track));
    }
  }
  picture::write_png(path, picture::drift_figure(f));
  log_info("wrote " + path + (f.local.empty() ? " (global trajectory)" : " (global trajectory, local model at " +
                                                                             std::to_string(f.local.size()) +
                                                                             " patch centres)"));
}

} // namespace frost::movie_align
