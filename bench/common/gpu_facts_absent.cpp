// gpu_facts() of a build without CUDA: no GPU.
#include "gpu_facts.hpp"

namespace frost::bench {

GpuFacts gpu_facts(int) { return {}; }

} // namespace frost::bench
