#include "frost/core/threads.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace frost {

namespace {
int g_threads = 0;
}

int num_threads() {
  if (g_threads > 0) return std::min(g_threads, kMaxThreads);
  if (const char* env = std::getenv("FROST_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n > 0) return std::min(n, kMaxThreads);
  }
  const unsigned hc = std::thread::hardware_concurrency();
  return hc > 0 ? static_cast<int>(hc) : 1;
}

void set_num_threads(int n) {
  g_threads = n > 0 ? n : 0;
  omp_set_num_threads(num_threads());
}

} // namespace frost
