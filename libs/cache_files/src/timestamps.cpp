#include "frost/cache/timestamps.hpp"

#include <cctype>
#include <cstdio>
#include <ctime>

namespace frost::cache {

std::string iso8601_now() { return iso8601_at(std::chrono::system_clock::now()); }

std::string iso8601_at(std::chrono::system_clock::time_point now) {
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm {};
  ::gmtime_r(&t, &tm);
  char buf[64];
  const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof buf - n, ".%03dZ", static_cast<int>(ms));
  return buf;
}

std::string time_order(const std::string& t) {
  if (t.size() < 20 || t[10] != 'T' || (t[19] != 'Z' && t[19] != '.')) return t;
  std::string fraction;
  for (std::size_t i = 20; t[19] == '.' && i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); ++i)
    fraction += t[i];
  fraction.resize(9, '0');
  return t.substr(0, 19) + "." + fraction;
}

} // namespace frost::cache
