#include "frost/cache/warn_once.hpp"

#include <mutex>
#include <set>

namespace frost::cache {

bool first_time(const std::string& topic) {
  static std::mutex mutex;
  static std::set<std::string> seen;
  std::lock_guard<std::mutex> lock(mutex);
  return seen.insert(topic).second;
}

} // namespace frost::cache
