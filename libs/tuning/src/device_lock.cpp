#include "frost/tuning/device_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>

#include <cerrno>
#include <filesystem>

#include "frost/core/log.hpp"
#include "frost/fft/file_lock.hpp"

namespace frost::tuning {

std::shared_ptr<void> try_tuning_lock(const std::string& cache_dir, const std::string& device_uuid) {
  std::error_code ec;
  std::filesystem::create_directories(cache_dir, ec);
  const std::string path = cache_dir + "/device-" + fft::detail::file_safe_name(device_uuid) + ".lock";
  fft::detail::UniqueFd fd = fft::detail::open_locked(path, O_RDWR | O_CREAT, LOCK_EX, 0.0);
  if (!fd.valid()) {
    const int e = errno;
    log_info(std::string("tuning lock ") + path +
             (e == ETIMEDOUT ? " is held by another process" : " cannot be taken") +
             "; not tuning on this device");
    return nullptr;
  }
  return std::make_shared<fft::detail::UniqueFd>(std::move(fd));
}

} // namespace frost::tuning
