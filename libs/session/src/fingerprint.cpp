#include "frost/session/fingerprint.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "frost/cache/text_hash.hpp"
#include "frost/core/error.hpp"

namespace frost::session {

Fingerprint fingerprint_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw_input_error(path, std::string("cannot stat (") + std::strerror(errno) + ")");
  Fingerprint f;
  f.path = path;
  f.size = static_cast<std::int64_t>(st.st_size);
  f.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  return f;
}

std::string parameter_hash(std::vector<std::pair<std::string, std::string>> parameters) {
  std::sort(parameters.begin(), parameters.end());
  std::string text;
  for (const auto& [name, value] : parameters) text += name + "=" + value + "\n";
  return cache::hex64(cache::fnv1a64(text));
}

} // namespace frost::session
