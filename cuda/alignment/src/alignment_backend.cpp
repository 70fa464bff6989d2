// The GPU half of align::make_alignment_backend (libs/alignment/backend.hpp).
#include <algorithm>

#include "frost/alignment/backend.hpp"
#include "frost/cuda/alignment.hpp"

namespace frost::align::detail {

std::unique_ptr<AlignmentBackend> make_cuda_alignment_backend(const std::vector<int>& gpus,
                                                              const AlignmentBackendOptions& options) {
  cuda::CudaAlignOptions o;
  o.memory_fraction = options.memory_fraction;
  if (options.max_batch > 0) o.max_batch = std::min(options.max_batch, 1 << 20);
  if (options.max_reference_block > 0)
    o.max_reference_block = std::min(options.max_reference_block, o.max_reference_block);
  return cuda::make_cuda_align_backend(o, gpus);
}

} // namespace frost::align::detail
