#include "frost/core/threads.hpp"

#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace frost {

namespace {
int g_threads = 0;

/// Processes a launcher started on this node (Open MPI, MPICH/Intel MPI), 1 when none says.
int node_local_ranks() {
  for (const char* var : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"})
    if (const char* v = std::getenv(var)) return std::max(1, std::atoi(v));
  return 1;
}

} // namespace

int default_threads(int usable_cpus, int machine_cpus, int local_ranks) {
  usable_cpus = std::max(1, usable_cpus);
  // Ranks bound to their own cores see only those; unbound ranks of one node share all of them.
  if (usable_cpus >= machine_cpus && local_ranks > 1) return std::max(1, usable_cpus / local_ranks);
  return usable_cpus;
}

int num_threads() {
  if (g_threads > 0) return std::min(g_threads, kMaxThreads);
  if (const char* env = std::getenv("FROST_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n > 0) return std::min(n, kMaxThreads);
  }
  const unsigned hc = std::thread::hardware_concurrency();
  const int machine = hc > 0 ? static_cast<int>(hc) : 1;
  int usable = machine;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) usable = std::max(1, CPU_COUNT(&set));
  return std::min(default_threads(usable, machine, node_local_ranks()), kMaxThreads);
}

void set_num_threads(int n) {
  g_threads = n > 0 ? n : 0;
  omp_set_num_threads(num_threads());
}

} // namespace frost
