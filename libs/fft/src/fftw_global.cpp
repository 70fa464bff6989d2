// FFTW's planner is global and not re-entrant: one lock for the whole process.
#include "fftw_global.hpp"

#include <fftw3.h>

#include "frost/core/error.hpp"

namespace frost::fft::detail {

std::mutex& fftw_mutex() {
  // Never destroyed: plans held by static objects are destroyed at exit and still lock it.
  static std::mutex* m = new std::mutex;
  return *m;
}

void fftw_init() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (fftwf_init_threads() == 0) FROST_THROW(ExitCode::Runtime, "fftwf_init_threads failed");
    // frost plans under fftw_mutex(); this also protects code that calls FFTW directly.
    fftwf_make_planner_thread_safe();
  });
}

} // namespace frost::fft::detail
