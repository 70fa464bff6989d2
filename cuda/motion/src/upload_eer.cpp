// EER movies to the device ("Upload" in docs/movie_align.md#the-cuda-backend). The compressed raw
// frames (about 1.5 bytes per electron, a small fraction of the rendered floats) are read by all
// CPU threads into one of two pinned slots while the other slot's chunk uploads; then one kernel
// renders every raw frame at once (a thread walks one frame's bit stream; a movie has hundreds to
// thousands of them), and one kernel applies dark and gain. Decoding on the host instead costs a
// sequential walk per raw frame on each of a few threads per group of fractions.
#include <algorithm>
#include <chrono>
#include <exception>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/core/threads.hpp"
#include "motion_kernels.hpp"
#include "movie_state.hpp"

namespace frost::cuda {

namespace {

/// Bytes of one pinned slot (two alternate); a larger raw frame gets a slot of its size.
constexpr std::size_t kEerChunkBytes = std::size_t{32} << 20;

} // namespace

void CudaMovie::Impl::upload_eer(const EerFrameSource& source) {
  FROST_EXPECTS(source.raw_bytes && source.read_raw, "upload_eer: no reader");
  FROST_EXPECTS(source.group >= 1 && (source.upsampling == 1 || source.upsampling == 2 || source.upsampling == 4),
                "upload_eer: bad grouping or upsampling");
  FROST_EXPECTS(source.sensor_width * source.upsampling == size.x && source.sensor_height * source.upsampling == size.y,
                "upload_eer: the render grid is not the frame size");
  const auto t_setup = std::chrono::steady_clock::now();
  const DeviceBuffer<float> dark = upload_reference(source.dark, "dark"), gain = upload_reference(source.gain, "gain");
  const index_t raw_count = static_cast<index_t>(count) * source.group;
  std::vector<std::uint64_t> offsets(static_cast<std::size_t>(raw_count) + 1, 0);
  std::size_t largest = 0;
  for (index_t r = 0; r < raw_count; ++r) {
    const std::size_t b = source.raw_bytes(source.first_raw + r);
    largest = std::max(largest, b);
    offsets[static_cast<std::size_t>(r) + 1] = offsets[static_cast<std::size_t>(r)] + b;
  }
  const std::size_t total = offsets.back();
  // 8 bytes of padding: the device reads each stream in aligned words (StreamWords).
  DeviceBuffer<unsigned char> streams(total + 8);
  DeviceBuffer<std::uint64_t> device_offsets(offsets.size());
  DeviceBuffer<int> corrupt(static_cast<std::size_t>(raw_count));
  device_offsets.upload_async(offsets.data(), offsets.size(), stream.get());
  corrupt.zero_async(stream.get());
  frames.zero_async(stream.get());

  // Chunks of consecutive raw frames that fill a slot.
  const std::size_t slot_bytes = std::max(kEerChunkBytes, largest);
  std::vector<index_t> chunk_start = {0};
  for (index_t r = 0; r < raw_count; ++r)
    if (offsets[static_cast<std::size_t>(r) + 1] - offsets[static_cast<std::size_t>(chunk_start.back())] > slot_bytes)
      chunk_start.push_back(r);
  chunk_start.push_back(raw_count);
  HostBuffer<unsigned char> slots[2] = {
      HostBuffer<unsigned char>(std::min(slot_bytes, std::max<std::size_t>(total, 1)), HostMemory::Pinned),
      HostBuffer<unsigned char>(chunk_start.size() > 2 ? slot_bytes : 0, HostMemory::Pinned)};
  Stream copies[2];
  Event done[2] = {Event(cudaEventDisableTiming | cudaEventBlockingSync),
                   Event(cudaEventDisableTiming | cudaEventBlockingSync)};
  bool pending[2] = {false, false};
  stats.upload_setup_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_setup).count();

  const auto t_read = std::chrono::steady_clock::now();
  for (std::size_t c = 0; c + 1 < chunk_start.size(); ++c) {
    const int set = static_cast<int>(c % 2);
    if (pending[set]) done[set].synchronize(); // the slot's previous chunk has been copied
    const index_t r0 = chunk_start[c], r1 = chunk_start[c + 1];
    const std::uint64_t base = offsets[static_cast<std::size_t>(r0)];
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(r1 - r0));
#pragma omp parallel for num_threads(std::max(1, std::min<int>(num_threads(), static_cast<int>(r1 - r0)))) \
    schedule(dynamic, 1)
    for (index_t r = r0; r < r1; ++r) {
      try {
        source.read_raw(source.first_raw + r, slots[set].data() + (offsets[static_cast<std::size_t>(r)] - base));
      } catch (...) {
        errors[static_cast<std::size_t>(r - r0)] = std::current_exception();
      }
    }
    for (const std::exception_ptr& e : errors)
      if (e) {
        for (Stream& s : copies) s.synchronize(); // no copy may outlive its slot
        std::rethrow_exception(e);
      }
    const std::size_t bytes = offsets[static_cast<std::size_t>(r1)] - base;
    FROST_CUDA_CHECK(cudaMemcpyAsync(streams.data() + base, slots[set].data(), bytes, cudaMemcpyHostToDevice,
                                     copies[set].get()));
    done[set].record(copies[set].get());
    pending[set] = true;
  }
  for (Stream& s : copies) s.synchronize();
  stats.upload_read_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_read).count();

  const Event decode_start, decode_end;
  decode_start.record(stream.get());
  motion_kernels::render_eer_frames(streams.data(), device_offsets.data(), raw_count, source.group, source.codes,
                                    source.sensor_width, source.sensor_width * source.sensor_height,
                                    source.upsampling, pixels(), frames.data(), corrupt.data(), stream.get());
  motion_kernels::correct_frames(frames.data(), count, pixels(), dark.data(), gain.data(), stream.get());
  decode_end.record(stream.get());
  std::vector<int> flags(static_cast<std::size_t>(raw_count));
  corrupt.download_async(flags.data(), flags.size(), stream.get());
  stream.synchronize();
  stats.upload_decode_ms = decode_end.elapsed_ms_since(decode_start);
  for (index_t r = 0; r < raw_count; ++r)
    if (flags[static_cast<std::size_t>(r)] && source.corrupt) source.corrupt(source.first_raw + r);
}

} // namespace frost::cuda
