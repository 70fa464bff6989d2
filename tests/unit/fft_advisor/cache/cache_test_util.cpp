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

} // namespace frost::fft::test
