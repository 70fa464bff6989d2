#include "frost/session/completeness.hpp"

#include <algorithm>
#include <cctype>

namespace frost::session {

const char* to_string(Completeness c) {
  switch (c) {
  case Completeness::Complete: return "complete";
  case Completeness::NotYet: return "not-yet";
  case Completeness::Truncated: return "truncated";
  case Completeness::Invalid: return "invalid";
  }
  return "invalid";
}

CompletenessResult check_movie_structure(const std::string& path) {
  const std::size_t dot = path.find_last_of('.');
  const std::size_t slash = path.find_last_of('/');
  std::string ext = dot == std::string::npos || (slash != std::string::npos && dot < slash) ? "" : path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == "mrc" || ext == "mrcs" || ext == "st") return check_mrc_structure(path);
  if (ext == "tif" || ext == "tiff" || ext == "eer") return check_tiff_structure(path);
  CompletenessResult r;
  r.status = Completeness::Complete;
  r.reason = "no structure check for ." + ext + " files: complete when closed or stable";
  return r;
}

} // namespace frost::session
