// The files of the session folder that are rewritten as movies finish (docs/session.md#report).
#include <optional>

#include "frost/core/log.hpp"
#include "frost/io/image_io.hpp"
#include "frost/motion_session/session_loop.hpp"
#include "frost/session/records_file.hpp"
#include "frost/session/report.hpp"
#include "frost/session/report_thumbnail.hpp"

namespace frost::motion_session {

std::string records_path(const std::string& dir) { return dir + "/records.jsonl"; }
std::string micrographs_star_path(const std::string& dir) { return dir + "/micrographs.star"; }
std::string report_path(const std::string& dir) { return dir + "/report.html"; }

namespace {

/// A thumbnail of a record's micrograph; none (logged at detail level) when it cannot be read or
/// frost has no PNG support: the report is still written.
std::optional<session::ReportThumbnail> thumbnail_of(const session::MovieRecord& r, const std::string& label) {
  if (r.micrograph.empty()) return std::nullopt;
  try {
    const io::LoadedImage img = io::read_image(r.micrograph);
    return session::make_report_thumbnail(r.movie, label, img.image.cview());
  } catch (const std::exception& e) {
    log_detail("report: no thumbnail of " + r.micrograph + ": " + e.what());
    return std::nullopt;
  }
}

} // namespace

void rewrite_session_summary(const std::string& dir, const session::OpticsGroup& given, long long pending) {
  const session::RecordsRead read = session::read_records(records_path(dir));
  // Without --sampling the pixel size is the movies' own: the first done record's, binned as the
  // given group says (micrograph / original).
  session::OpticsGroup optics = given;
  if (!(given.original_pixel_size_A > 0)) {
    const double bin = given.micrograph_pixel_size_A > 0 ? given.micrograph_pixel_size_A : 1.0;
    optics.original_pixel_size_A = 1.0;
    for (const session::MovieRecord& r : read.records)
      if (r.done() && r.pixel_size_A && *r.pixel_size_A > 0) {
        optics.original_pixel_size_A = *r.pixel_size_A;
        break;
      }
    optics.micrograph_pixel_size_A = optics.original_pixel_size_A * bin;
  }
  session::write_micrographs_star(micrographs_star_path(dir), read.records, optics);
  session::ReportInput report;
  report.records = read.records;
  report.pending = pending;
  std::optional<std::size_t> latest;
  for (std::size_t i = 0; i < read.records.size(); ++i)
    if (read.records[i].done() && (!latest || read.records[i].ready_at.value_or(0) >=
                                                  read.records[*latest].ready_at.value_or(0)))
      latest = i;
  if (latest)
    if (auto t = thumbnail_of(read.records[*latest], "latest")) report.thumbnails.push_back(std::move(*t));
  const std::optional<std::size_t> worst = session::worst_record(read.records);
  if (worst && worst != latest)
    if (auto t = thumbnail_of(read.records[*worst], "worst")) report.thumbnails.push_back(std::move(*t));
  session::write_report(report_path(dir), report);
}

} // namespace frost::motion_session
