#include "frost/cli/program.hpp"
#include "frost/core/version.hpp"
#include "frost/fft/versions.hpp"
#if FROST_HAVE_MPI
#include "frost/mpi/session.hpp"
#endif

namespace frost::cli {

std::string build_line(const std::string& program) {
#if FROST_HAVE_MPI
  const std::string mpi = mpi::library_version();
#else
  const std::string mpi = "MPI off";
#endif
  return program + " " + version_string() + " (git " + git_hash() + ", " + build_type() + "; " + cuda_versions() +
         "; " + fft::fft_versions() + "; " + mpi + ")";
}

} // namespace frost::cli
