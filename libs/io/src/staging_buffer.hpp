#pragma once
// Private to frost_io: per-thread scratch memory for raw file bytes before conversion to float.
#include <cstddef>
#include <vector>

namespace frost::io::detail {

/// Returns `bytes` of scratch memory. Buffers up to 256 MiB are kept per thread and reused, so
/// streaming movie frames does not allocate (and page-fault) a fresh buffer for every frame;
/// larger requests (whole volumes) use `fallback`, which the caller owns and frees.
inline unsigned char* staging_buffer(std::size_t bytes, std::vector<unsigned char>& fallback) {
  constexpr std::size_t kKeepLimit = std::size_t(256) << 20;
  if (bytes > kKeepLimit) {
    fallback.resize(bytes);
    return fallback.data();
  }
  thread_local std::vector<unsigned char> kept;
  if (kept.size() < bytes) kept.resize(bytes);
  return kept.data();
}

} // namespace frost::io::detail
