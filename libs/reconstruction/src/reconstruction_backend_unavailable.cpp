// The CUDA entry point of a build without CUDA (FROST_USE_CUDA=OFF).
#include "frost/core/error.hpp"
#include "frost/reconstruction/backend.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace detail {

std::unique_ptr<GridAccumulator> make_cuda_reconstruction_backend(const std::vector<int>&, const ReconstructionSettings&,
                                                                  const GridLayout&, int,
                                                                  const ReconstructionBackendOptions&) {
  FROST_THROW(ExitCode::Device, "GPU reconstruction requested but frost was built without CUDA; use --device cpu");
}

} // namespace detail
} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
