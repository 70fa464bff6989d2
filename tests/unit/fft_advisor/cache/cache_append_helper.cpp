// Test helper for the cache concurrency test (C8): appends COUNT records with keys
// "proc-<TAG>-<i>" to the cache in DIR, as fast as it can. Exit status 0 when every store
// succeeded.
#include <cstdlib>
#include <iostream>
#include <string>

#include "frost/fft/advisor_cache.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: " << argv[0] << " DIR TAG COUNT\n";
    return 2;
  }
  frost::fft::AdvisorCache cache(argv[1]);
  const std::string tag = argv[2];
  const int count = std::atoi(argv[3]);
  for (int i = 0; i < count; ++i) {
    frost::fft::CacheRecord r;
    r.key = "proc-" + tag + "-" + std::to_string(i);
    r.answer.size = {2304 + i, 1, 1};
    r.source = "measured";
    r.ms_per_signal = 0.001 * i;
    r.required_bytes = 4096;
    if (!cache.store(r)) {
      std::cerr << "store " << i << " failed\n";
      return 1;
    }
  }
  return 0;
}
