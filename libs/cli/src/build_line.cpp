#include "frost/cli/program.hpp"
#include "frost/core/version.hpp"
#include "frost/fft/versions.hpp"

namespace frost::cli {

std::string build_line(const std::string& program) {
  return program + " " + version_string() + " (git " + git_hash() + ", " + build_type() + "; " + cuda_versions() +
         "; " + fft::fft_versions() + ")";
}

} // namespace frost::cli
