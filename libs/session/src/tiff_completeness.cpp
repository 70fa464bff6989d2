// A walk of the TIFF (and BigTIFF, and EER, which is TIFF) directory chain without libtiff:
// libtiff reports a truncated file with warnings on stderr and partial results, while a live
// session needs a typed answer for files that are still being copied
// (docs/session.md#completeness).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <vector>

#include "frost/session/completeness.hpp"

namespace frost::session {

namespace {

/// Directories beyond this are taken as a loop or garbage (EER movies have tens of thousands).
constexpr std::uint64_t kMaxDirectories = 1u << 22;

struct Truncation {
  std::string what;
  std::uint64_t needed;
};

class TiffWalk {
public:
  TiffWalk(int fd, std::uint64_t size) : fd_(fd), size_(size) {}

  /// Reads `n` bytes at `offset`; false when they are not all in the file.
  bool read(std::uint64_t offset, void* out, std::size_t n) const {
    if (offset > size_ || n > size_ - offset) return false;
    return ::pread(fd_, out, n, static_cast<off_t>(offset)) == static_cast<ssize_t>(n);
  }
  std::uint64_t uint(const unsigned char* p, int bytes) const {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(p[big_ ? bytes - 1 - i : i]) << (8 * i);
    return v;
  }

  CompletenessResult run();

private:
  static int type_bytes(std::uint64_t type) {
    switch (type) {
    case 1: case 2: case 6: case 7: return 1;
    case 3: case 8: return 2;
    case 4: case 9: case 11: case 13: return 4;
    case 5: case 10: case 12: case 16: case 17: case 18: return 8;
    default: return 0;
    }
  }
  /// The values of an integer array entry (SHORT, LONG, LONG8), inline or at its offset.
  bool values(const unsigned char* entry, std::vector<std::uint64_t>& out, Truncation& t, std::uint64_t& extent) const;

  int fd_;
  std::uint64_t size_;
  bool big_ = false, bigtiff_ = false;
};

bool TiffWalk::values(const unsigned char* entry, std::vector<std::uint64_t>& out, Truncation& t,
                      std::uint64_t& extent) const {
  const int word = bigtiff_ ? 8 : 4;
  const std::uint64_t type = uint(entry + 2, 2);
  const std::uint64_t count = uint(entry + 4, word);
  const int tb = type_bytes(type);
  out.clear();
  if (tb != 2 && tb != 4 && tb != 8) return true; // not an integer array: nothing to check
  if (count > size_) {
    t = {"a directory entry counts more values than the file has bytes", count};
    return false;
  }
  std::vector<unsigned char> raw(static_cast<std::size_t>(count) * tb);
  if (raw.size() <= static_cast<std::size_t>(word)) {
    std::memcpy(raw.data(), entry + 4 + word, raw.size());
  } else {
    const std::uint64_t at = uint(entry + 4 + word, word);
    if (!read(at, raw.data(), raw.size())) {
      t = {"the strip or tile table lies past the end", at + raw.size()};
      return false;
    }
    extent = std::max(extent, at + raw.size());
  }
  out.resize(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = uint(raw.data() + i * tb, tb);
  return true;
}

CompletenessResult TiffWalk::run() {
  CompletenessResult r;
  r.file_bytes = static_cast<std::int64_t>(size_);
  auto truncated = [&](const Truncation& t) {
    r.status = Completeness::Truncated;
    r.expected_bytes = static_cast<std::int64_t>(t.needed);
    r.reason = "truncated: " + t.what + " (needs " + std::to_string(t.needed) + " bytes, the file holds " +
               std::to_string(size_) + "; " + std::to_string(r.frames) + " whole directories)";
    return r;
  };
  auto invalid = [&](const std::string& why) {
    r.status = Completeness::Invalid;
    r.reason = why;
    return r;
  };

  unsigned char head[16];
  if (!read(0, head, 8)) return truncated({"shorter than the TIFF header", 8});
  if (head[0] == 'I' && head[1] == 'I') big_ = false;
  else if (head[0] == 'M' && head[1] == 'M') big_ = true;
  else return invalid("not a TIFF file (no II/MM byte-order mark)");
  const std::uint64_t magic = uint(head + 2, 2);
  std::uint64_t next = 0;
  if (magic == 42) {
    next = uint(head + 4, 4);
  } else if (magic == 43) {
    bigtiff_ = true;
    if (!read(0, head, 16)) return truncated({"shorter than the BigTIFF header", 16});
    next = uint(head + 8, 8);
  } else {
    return invalid("not a TIFF file (magic " + std::to_string(magic) + ")");
  }
  const int word = bigtiff_ ? 8 : 4;
  const int entry_bytes = bigtiff_ ? 20 : 12;
  const int count_bytes = bigtiff_ ? 8 : 2;
  std::uint64_t extent = bigtiff_ ? 16 : 8;
  std::set<std::uint64_t> visited;
  std::vector<unsigned char> ifd;
  std::vector<std::uint64_t> offsets, counts;
  if (next == 0) return invalid("the TIFF file has no directory");
  while (next != 0) {
    if (!visited.insert(next).second) return invalid("the TIFF directory chain loops");
    if (visited.size() > kMaxDirectories) return invalid("more than " + std::to_string(kMaxDirectories) + " TIFF directories");
    unsigned char nbuf[8];
    if (!read(next, nbuf, static_cast<std::size_t>(count_bytes)))
      return truncated({"directory " + std::to_string(r.frames + 1) + " lies past the end", next + count_bytes});
    const std::uint64_t n = uint(nbuf, count_bytes);
    const std::uint64_t ifd_bytes = n * entry_bytes + word;
    if (n > size_ || !(ifd.resize(static_cast<std::size_t>(ifd_bytes)), read(next + count_bytes, ifd.data(), ifd.size())))
      return truncated({"directory " + std::to_string(r.frames + 1) + " is cut off", next + count_bytes + ifd_bytes});
    extent = std::max(extent, next + count_bytes + ifd_bytes);
    offsets.clear();
    counts.clear();
    bool have_offsets = false;
    for (std::uint64_t i = 0; i < n; ++i) {
      const unsigned char* e = ifd.data() + i * entry_bytes;
      const std::uint64_t tag = uint(e, 2);
      Truncation t;
      std::vector<std::uint64_t> v;
      if (tag == 273 || tag == 324 || tag == 279 || tag == 325) {
        if (!values(e, v, t, extent)) return truncated(t);
        if (tag == 273 || tag == 324) {
          offsets = v;
          have_offsets = true;
        } else {
          counts = v;
        }
      } else {
        // Any other value stored out of line must be inside the file as well.
        const std::uint64_t bytes = type_bytes(uint(e + 2, 2)) * uint(e + 4, word);
        if (bytes > static_cast<std::uint64_t>(word)) {
          const std::uint64_t at = uint(e + 4 + word, word);
          if (at > size_ || bytes > size_ - at)
            return truncated({"a value of tag " + std::to_string(tag) + " lies past the end", at + bytes});
          extent = std::max(extent, at + bytes);
        }
      }
    }
    if (!have_offsets) return invalid("TIFF directory " + std::to_string(r.frames + 1) + " has no strips or tiles");
    if (counts.size() != offsets.size())
      return invalid("TIFF directory " + std::to_string(r.frames + 1) + " has " + std::to_string(offsets.size()) +
                     " strips or tiles but " + std::to_string(counts.size()) + " byte counts");
    for (std::size_t s = 0; s < offsets.size(); ++s) {
      const std::uint64_t end = offsets[s] + counts[s];
      if (offsets[s] > size_ || counts[s] > size_ - offsets[s])
        return truncated({"the data of frame " + std::to_string(r.frames + 1) + " lies past the end", end});
      extent = std::max(extent, end);
    }
    ++r.frames;
    next = uint(ifd.data() + n * entry_bytes, word);
  }
  r.status = Completeness::Complete;
  r.expected_bytes = static_cast<std::int64_t>(extent);
  return r;
}

} // namespace

CompletenessResult check_tiff_structure(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    CompletenessResult r;
    r.reason = std::string("cannot open (") + std::strerror(errno) + ")";
    return r;
  }
  struct stat st {};
  ::fstat(fd, &st);
  CompletenessResult r = TiffWalk(fd, static_cast<std::uint64_t>(st.st_size)).run();
  ::close(fd);
  return r;
}

} // namespace frost::session
