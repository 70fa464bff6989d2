#pragma once
/// @file report_thumbnail.hpp
/// @brief The report's pictures of one micrograph: a shrunken grey image and its power spectrum,
/// as PNG bytes (docs/session.md#report).
#include <string>

#include "frost/core/image.hpp"
#include "frost/session/report.hpp"

namespace frost::session {

/// Shrinks `micrograph` to at most `max_side` pixels (0.5/99.5 percentile window) and computes
/// its mean periodogram on tiles of `spectrum_side` (even, at most the micrograph's smaller side).
/// frost::Error(Runtime) "built without PNG support" where libpng is absent.
ReportThumbnail make_report_thumbnail(const std::string& movie, const std::string& label, View<const float> micrograph,
                                      int max_side = 256, int spectrum_side = 256);

} // namespace frost::session
