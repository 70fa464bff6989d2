#pragma once
/// @file threads.hpp
/// @brief How many CPU threads frost uses: `--thr`, else FROST_NUM_THREADS, else all cores.

namespace frost {

int num_threads();
/// Set by the program base from `--thr` (0 = back to the default rule).
void set_num_threads(int n);

} // namespace frost
