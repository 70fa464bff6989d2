#pragma once
// Process-wide FFTW state: the planner lock and one-time thread initialisation.
#include <mutex>

namespace frost::fft::detail {

/// Guards every FFTW call except execution: planning, destroying plans, wisdom, and the global
/// planner settings (thread count, time limit) that must not change between set and plan.
std::mutex& fftw_mutex();
/// fftwf_init_threads and fftwf_make_planner_thread_safe, once per process.
void fftw_init();

} // namespace frost::fft::detail
