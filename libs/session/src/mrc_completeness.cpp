#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <exception>

#include "frost/io/mrc_codec.hpp"
#include "frost/io/mrc_header.hpp"
#include "frost/session/completeness.hpp"

namespace frost::session {

CompletenessResult check_mrc_structure(const std::string& path) {
  CompletenessResult r;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    r.status = Completeness::NotYet;
    r.reason = std::string("cannot open (") + std::strerror(errno) + ")";
    return r;
  }
  struct stat st {};
  ::fstat(fd, &st);
  r.file_bytes = static_cast<std::int64_t>(st.st_size);
  std::array<unsigned char, io::kMrcHeaderBytes> raw{};
  const ssize_t got = r.file_bytes >= io::kMrcHeaderBytes ? ::pread(fd, raw.data(), raw.size(), 0) : 0;
  ::close(fd);
  if (got != static_cast<ssize_t>(raw.size())) {
    r.status = Completeness::Truncated;
    r.expected_bytes = io::kMrcHeaderBytes;
    r.reason = "truncated: " + std::to_string(r.file_bytes) + " bytes, less than the 1024-byte MRC header";
    return r;
  }
  try {
    const io::MrcHeader h = io::parse_mrc_header(raw.data(), path);
    if (h.nx <= 0 || h.ny <= 0 || h.nz <= 0 || h.nsymbt < 0) {
      r.status = Completeness::Invalid;
      r.reason = "MRC header gives sizes " + std::to_string(h.nx) + " x " + std::to_string(h.ny) + " x " +
                 std::to_string(h.nz) + " and extended header " + std::to_string(h.nsymbt) + " bytes";
      return r;
    }
    const auto row = static_cast<std::int64_t>(io::mrc_row_bytes(h.mode, h.nx));
    const std::int64_t frame = row * h.ny;
    const std::int64_t data_start = io::kMrcHeaderBytes + static_cast<std::int64_t>(h.nsymbt);
    r.expected_bytes = data_start + frame * h.nz;
    r.frames = h.nz;
    if (r.file_bytes < r.expected_bytes) {
      const std::int64_t whole = r.file_bytes > data_start ? (r.file_bytes - data_start) / frame : 0;
      r.status = Completeness::Truncated;
      r.reason = "truncated: the header promises " + std::to_string(h.nz) + " frames of " + std::to_string(h.nx) +
                 " x " + std::to_string(h.ny) + " in mode " + std::to_string(h.mode) + " (" +
                 std::to_string(r.expected_bytes) + " bytes), the file holds " + std::to_string(r.file_bytes) +
                 " bytes (" + std::to_string(whole) + " whole frames)";
      return r;
    }
  } catch (const std::exception& e) {
    r.status = Completeness::Invalid;
    r.reason = e.what();
    return r;
  }
  r.status = Completeness::Complete;
  return r;
}

} // namespace frost::session
