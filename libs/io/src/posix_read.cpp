#include "posix_read.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "frost/core/error.hpp"

namespace frost::io::detail {

std::string errno_text() { return std::strerror(errno); }

void pread_all(int fd, unsigned char* dst, std::size_t bytes, std::int64_t offset, const std::string& path) {
  while (bytes > 0) {
    const ssize_t got = ::pread(fd, dst, bytes, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw_input_error(path, "read failed at byte " + std::to_string(offset) + " (" + errno_text() + ")");
    if (got == 0) throw_input_error(path, "unexpected end of file at byte " + std::to_string(offset));
    dst += got;
    bytes -= static_cast<std::size_t>(got);
    offset += got;
  }
}

} // namespace frost::io::detail
