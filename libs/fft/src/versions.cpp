// Library versions for --version lines and logs.
#include "frost/fft/versions.hpp"

#include <fftw3.h>

#include "frost/fft/backend.hpp"

namespace frost::fft {

std::string fftw_version() { return fftwf_version; }
std::string cufft_version() { return detail::cufft_version_string(); }
int cufft_version_number() { return detail::cufft_version_number(); }
std::string fft_versions() { return "FFTW " + fftw_version() + " (f32, threads); " + cufft_version(); }

} // namespace frost::fft
