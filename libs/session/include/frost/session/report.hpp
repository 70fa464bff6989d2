#pragma once
/// @file report.hpp
/// @brief DIR/report.html: one self-contained page on the session (no server, no network,
/// images inline), rewritten as movies finish (docs/session.md#report).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frost/session/movie_record.hpp"

namespace frost::session {

/// A micrograph and its power spectrum as PNG bytes (report_thumbnail.hpp makes them).
struct ReportThumbnail {
  std::string movie;
  std::string label; ///< "latest", "worst FRC resolution", ...
  std::vector<std::uint8_t> micrograph_png, spectrum_png;
};

struct ReportInput {
  std::string title = "frost live session";
  std::vector<MovieRecord> records; ///< done and failed, any order
  std::vector<ReportThumbnail> thumbnails;
  /// Movies seen but not finished (journal seen + running), shown beside the counts.
  std::int64_t pending = 0;
};

/// The page: counts (done, failed, pending), throughput over time (movies done against minutes
/// since the first), total motion and half-sum FRC resolution against acquisition order (inline
/// SVG drawn by the page's script from JSON embedded in the page), thumbnails as data: URIs, and
/// a table of failures. The script adds an element with id `frost-report-ok` when it ran
/// without an exception, and `frost-report-error` with the message otherwise.
std::string report_html(const ReportInput& input);

/// Writes report_html() to `path` atomically (temporary file + rename).
void write_report(const std::string& path, const ReportInput& input);

/// The record to show as "worst": the done movie with the largest FRC resolution in Å, or
/// where none has one, the largest total motion; nullopt when no movie is done.
std::optional<std::size_t> worst_record(const std::vector<MovieRecord>& records);

/// Standard base64 of `bytes` (for data: URIs).
std::string base64(const std::vector<std::uint8_t>& bytes);

} // namespace frost::session
