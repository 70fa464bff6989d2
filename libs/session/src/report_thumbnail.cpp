#include "frost/session/report_thumbnail.hpp"

#include <algorithm>

#include "frost/picture/png.hpp"
#include "frost/picture/power_spectrum.hpp"
#include "frost/picture/tone.hpp"

namespace frost::session {

ReportThumbnail make_report_thumbnail(const std::string& movie, const std::string& label, View<const float> micrograph,
                                      int max_side, int spectrum_side) {
  ReportThumbnail t;
  t.movie = movie;
  t.label = label;
  const Image<float> small = picture::shrink_to_fit(micrograph, max_side);
  t.micrograph_png = picture::encode_png(picture::to_grey(small.cview()));
  index_t side = std::min<index_t>({static_cast<index_t>(spectrum_side), micrograph.shape.x, micrograph.shape.y});
  side -= side % 2;
  const Image<float> power = picture::mean_periodogram(micrograph, side);
  t.spectrum_png = picture::encode_png(picture::power_spectrum_picture(power.cview()));
  return t;
}

} // namespace frost::session
