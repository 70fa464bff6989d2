// The CUDA entry point of a build without CUDA (FROST_USE_CUDA=OFF).
#include "frost/alignment/backend.hpp"
#include "frost/core/error.hpp"

namespace frost::align::detail {

std::unique_ptr<AlignmentBackend> make_cuda_alignment_backend(const std::vector<int>&, const AlignmentBackendOptions&) {
  FROST_THROW(ExitCode::Device, "GPU alignment requested but frost was built without CUDA; use --device cpu");
}

} // namespace frost::align::detail
