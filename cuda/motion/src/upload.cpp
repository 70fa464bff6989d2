// Frames to the device once (movie-alignment.md §10.1 "Load"): CPU threads decode (or copy) a
// group of frames into pinned slots while the previous group is uploaded on its own stream; two
// groups of slots alternate, so decode and upload overlap and each slot is refilled only after its
// upload finished (event).
#include <algorithm>
#include <exception>
#include <string>

#include "frost/core/error.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/core/threads.hpp"
#include "movie_state.hpp"

namespace frost::cuda {

namespace {

// Pinned staging is bounded: two groups of this many bytes at most.
constexpr std::size_t kStagingGroupBytes = std::size_t{512} << 20;

} // namespace

void CudaMovie::Impl::upload(const FrameProducer& produce) {
  const std::size_t frame_bytes = static_cast<std::size_t>(pixels()) * sizeof(float);
  const int by_memory = static_cast<int>(std::max<std::size_t>(1, kStagingGroupBytes / frame_bytes));
  const int group = std::max(1, std::min({options.upload_group, by_memory, count}));
  HostBuffer<float> slots[2] = {HostBuffer<float>(static_cast<std::size_t>(group) * pixels(), HostMemory::Pinned),
                                HostBuffer<float>(static_cast<std::size_t>(group) * pixels(), HostMemory::Pinned)};
  Stream streams[2];
  Event done[2] = {Event(cudaEventDisableTiming | cudaEventBlockingSync),
                   Event(cudaEventDisableTiming | cudaEventBlockingSync)};
  bool pending[2] = {false, false};
  const int groups = (count + group - 1) / group;
  for (int g = 0; g < groups; ++g) {
    const int set = g % 2;
    if (pending[set]) done[set].synchronize(); // the slots of group g-2 have been uploaded
    const int t0 = g * group, n = std::min(group, count - t0);
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n));
#pragma omp parallel for num_threads(std::max(1, std::min(num_threads(), n))) schedule(static, 1)
    for (int i = 0; i < n; ++i) {
      try {
        produce(t0 + i, slots[set].data() + static_cast<std::size_t>(i) * pixels());
      } catch (...) {
        errors[static_cast<std::size_t>(i)] = std::current_exception();
      }
    }
    for (const std::exception_ptr& e : errors)
      if (e) {
        for (int s = 0; s < 2; ++s) streams[s].synchronize(); // no copy may outlive its slot
        std::rethrow_exception(e);
      }
    FROST_CUDA_CHECK(cudaMemcpyAsync(frames.data() + static_cast<std::size_t>(t0) * pixels(), slots[set].data(),
                                     static_cast<std::size_t>(n) * frame_bytes, cudaMemcpyHostToDevice,
                                     streams[set].get()));
    done[set].record(streams[set].get());
    pending[set] = true;
  }
  for (int s = 0; s < 2; ++s) streams[s].synchronize();
}

} // namespace frost::cuda
