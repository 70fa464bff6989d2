#pragma once
/// @file threads.hpp
/// @brief How many CPU threads frost uses: `--thr`, else FROST_NUM_THREADS, else the cores this
/// process may run on, shared among the node's ranks when a launcher started several unbound ones
/// (docs/conventions.md#threads).

namespace frost {

/// The most threads any setting asks for: more would only exhaust memory and thread limits
/// (--thr above it is a usage error; FROST_NUM_THREADS is clamped to it).
constexpr int kMaxThreads = 1024;

int num_threads();
/// The default rule: `usable_cpus` (the process's affinity mask) of `machine_cpus`, divided among
/// `local_ranks` unbound ranks of one node (a mask as large as the machine means unbound).
int default_threads(int usable_cpus, int machine_cpus, int local_ranks);
/// Set by the program base from `--thr` (0 = back to the default rule).
void set_num_threads(int n);

} // namespace frost
