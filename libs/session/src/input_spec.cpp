#include "frost/session/input_spec.hpp"

#include <fnmatch.h>
#include <sys/stat.h>

#include "frost/core/error.hpp"

namespace frost::session {

namespace {

bool has_wildcard(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

bool is_folder(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

} // namespace

InputSpec parse_input_spec(const std::string& input) {
  if (input.empty()) throw_usage_error("-i: empty input");
  std::string text = input;
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  if (!has_wildcard(text) && is_folder(text)) return {text, "*"};
  const std::size_t slash = text.find_last_of('/');
  InputSpec spec;
  spec.folder = slash == std::string::npos ? "." : (slash == 0 ? "/" : text.substr(0, slash));
  spec.pattern = slash == std::string::npos ? text : text.substr(slash + 1);
  if (has_wildcard(spec.folder))
    throw_usage_error("-i " + input + ": wildcards are allowed only in the file name, not in the folder (" +
                      spec.folder + ")");
  if (spec.pattern.empty()) throw_usage_error("-i " + input + ": no file name or pattern");
  return spec;
}

bool matches(const InputSpec& spec, const std::string& name) {
  if (name.empty() || name[0] == '.') return false;
  return ::fnmatch(spec.pattern.c_str(), name.c_str(), FNM_PERIOD) == 0;
}

} // namespace frost::session
