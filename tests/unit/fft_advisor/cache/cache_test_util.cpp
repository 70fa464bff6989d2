#include "cache_test_util.hpp"

#include <fstream>
#include <sstream>

#include "frost/core/log.hpp"

namespace frost::fft::test {

CacheRecord make_record(const std::string& key, const std::string& source, const std::string& time,
                        std::size_t required_bytes, index_t n) {
  CacheRecord r;
  r.key = key;
  r.answer.size = {n, 1, 1};
  r.answer.batch = 1;
  r.answer.kernels = {1, 0, 0};
  r.answer.kernels_total = 1;
  r.answer.data_bytes = required_bytes / 2;
  r.answer.plan_bytes_estimate = required_bytes - required_bytes / 2;
  r.source = source;
  if (source == "measured") r.ms_per_signal = 0.25;
  r.time_iso8601 = time;
  r.required_bytes = required_bytes;
  r.tool_version = "test";
  r.host = "test-host";
  return r;
}

LogCapture::LogCapture(const std::string& path) : path_(path) {
  std::ofstream(path_, std::ios::trunc).flush();
  set_log_file(path_);
}

LogCapture::~LogCapture() { set_log_file(""); }

std::string LogCapture::text() const { return slurp(path_); }

int LogCapture::warnings() const {
  std::istringstream in(text());
  std::string line;
  int n = 0;
  while (std::getline(in, line))
    if (line.rfind("warning: ", 0) == 0) ++n;
  return n;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void append_raw(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::app | std::ios::binary) << text;
}

} // namespace frost::fft::test
