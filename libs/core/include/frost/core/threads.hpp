#pragma once
/// @file threads.hpp
/// @brief How many CPU threads frost uses: `--thr`, else FROST_NUM_THREADS, else all cores.

namespace frost {

/// The most threads any setting asks for: more would only exhaust memory and thread limits
/// (--thr above it is a usage error; FROST_NUM_THREADS is clamped to it).
constexpr int kMaxThreads = 1024;

int num_threads();
/// Set by the program base from `--thr` (0 = back to the default rule).
void set_num_threads(int n);

} // namespace frost
