#include "frost/session/records_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include "frost/cache/record_store.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"

namespace frost::session {

void append_record(const std::string& path, const MovieRecord& r) {
  const std::string line = to_json_line(r);
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw_input_error(path, std::string("cannot open the records (") + std::strerror(errno) + ")");
  // The lock keeps lines of several processes whole on file systems where O_APPEND alone does
  // not (NFS); the fsync keeps the record through a crash right after (docs/session.md#records).
  std::string problem;
  if (::flock(fd, LOCK_EX) != 0) problem = "cannot lock";
  if (problem.empty()) {
    const ssize_t n = ::write(fd, line.data(), line.size());
    if (n != static_cast<ssize_t>(line.size())) problem = n < 0 ? "cannot write" : "short write";
    else if (::fsync(fd) != 0) problem = "cannot sync";
  }
  const std::string why = problem.empty() ? "" : problem + " (" + std::strerror(errno) + ")";
  ::close(fd);
  if (!why.empty()) throw_input_error(path, why + " appending the record of " + r.movie);
}

RecordsRead read_records(const std::string& path) {
  RecordsRead out;
  if (::access(path.c_str(), F_OK) != 0) return out;
  std::map<std::string, std::size_t> last; // movie -> index in records
  std::vector<MovieRecord> all;
  cache::for_each_line(read_text_file(path), [&](const std::string& line, std::size_t) {
    try {
      all.push_back(parse_record_line(line));
    } catch (const std::exception&) {
      ++out.malformed; // a line cut by a full disk, or not a record
    }
  });
  std::vector<bool> keep(all.size(), false);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto it = last.find(all[i].movie);
    if (it != last.end()) {
      keep[it->second] = false;
      ++out.superseded;
    }
    last[all[i].movie] = i;
    keep[i] = true;
  }
  for (std::size_t i = 0; i < all.size(); ++i)
    if (keep[i]) out.records.push_back(std::move(all[i]));
  std::stable_sort(out.records.begin(), out.records.end(),
                   [](const MovieRecord& a, const MovieRecord& b) { return a.order < b.order; });
  return out;
}

} // namespace frost::session
