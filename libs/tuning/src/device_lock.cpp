#include "frost/tuning/device_lock.hpp"

#include <sys/file.h>

#include <cerrno>

#include "frost/cache/file_lock.hpp"
#include "frost/core/log.hpp"

namespace frost::tuning {

std::shared_ptr<void> try_tuning_lock(const std::string& cache_dir, const std::string& device_uuid) {
  const std::string name = cache::device_lock_name(device_uuid);
  cache::UniqueFd fd = cache::open_lock_file(cache_dir, name);
  if (!fd.valid() || !cache::flock_wait(fd.get(), LOCK_EX, 0.0)) {
    const int e = errno;
    log_info(std::string("tuning lock ") + cache_dir + "/" + name +
             (e == ETIMEDOUT ? " is held by another process" : " cannot be taken") +
             "; not tuning on this device");
    return nullptr;
  }
  return std::make_shared<cache::UniqueFd>(std::move(fd));
}

} // namespace frost::tuning
