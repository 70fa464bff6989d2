#pragma once
// Internal: positioned reads of whole byte ranges for the readers that use file descriptors
// (MRC, SPIDER), with the errors naming the file.
#include <cstddef>
#include <cstdint>
#include <string>

namespace frost::io::detail {

/// strerror(errno) now.
std::string errno_text();

/// Reads exactly `bytes` at `offset` (retrying short reads and EINTR); frost::Error(Input)
/// naming `path` and the byte offset on a read error or the end of the file.
void pread_all(int fd, unsigned char* dst, std::size_t bytes, std::int64_t offset, const std::string& path);

} // namespace frost::io::detail
