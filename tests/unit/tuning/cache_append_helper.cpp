// Test helper of the tuning concurrency test (T9): appends COUNT records to the tuning cache in
// DIR as fast as it can. Record i has key "k<i % 50>" and best_ms = 1 + ((i * 37 + SALT) % 101)
// / 100, so both processes write records of the same keys with different times. Exit status 0
// when every append succeeded.
#include <cstdlib>
#include <iostream>
#include <string>

#include "frost/tuning/cache.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: " << argv[0] << " DIR SALT COUNT\n";
    return 2;
  }
  frost::tuning::TuningCache cache(argv[1]);
  const int salt = std::atoi(argv[2]);
  const int count = std::atoi(argv[3]);
  for (int i = 0; i < count; ++i) {
    frost::tuning::TuningRecord r;
    frost::tuning::TuningKey k;
    k.kernel = {"reduce", 1, 0x5eed};
    k.device = {"Test GPU", 9, 0, 1, 1};
    k.software = {1, 1, "aot", "0.1"};
    k.problem = "size=" + std::to_string(i % 50);
    r.key = k.str();
    r.best = {{"BLOCK", 32 << (i % 6)}};
    r.best_ms = 1 + ((i * 37 + salt) % 101) / 100.0;
    r.explored = 50;
    r.space_size = 6;
    r.searcher = "random";
    r.mode = "dynamic";
    r.host = "proc-" + std::to_string(salt);
    if (!cache.append(r)) {
      std::cerr << "append " << i << " failed\n";
      return 1;
    }
  }
  return 0;
}
