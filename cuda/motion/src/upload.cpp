// Frames to the device once ("Upload" in docs/movie_align.md#the-cuda-backend). Stored frames (upload_stored): the
// stored samples (MRC file bytes, decompressed TIFF strips) in chunks of rows, or of whole frames when the TIFF's
// strips are large; each of several CPU threads pins its own slots (so pinning overlaps the reads)
// and owns a device staging area and a stream, reads a chunk into a free slot, and queues its copy and the decode
// kernel (mode -> float, dark/gain) on its stream, then reads its next chunk while the copy runs. Mode 0 moves a
// quarter of the float bytes. Host frames (upload): CPU threads decode (or copy) a group of frames into pinned slots
// while the previous group is uploaded on its own stream; two groups of slots alternate, so decode and upload overlap
// and each slot is refilled only after its upload finished (event).
#include <algorithm>
#include <chrono>
#include <exception>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/core/threads.hpp"
#include "frost/motion/movie_reader.hpp"
#include "motion_kernels.hpp"
#include "movie_state.hpp"

namespace frost::cuda {

namespace {

// Pinned staging is bounded: two groups of this many bytes at most.
constexpr std::size_t kStagingGroupBytes = std::size_t{512} << 20;

// Stored frames: bytes per chunk (one pread, one copy, one decode) and reader threads; pinned
// staging is 2 x threads x chunk (64 MiB at 16 threads; pinning costs time in proportion).
constexpr std::size_t kChunkBytes = std::size_t{2} << 20;
constexpr int kMaxReaders = 16;
// Whole-frame chunks (large TIFF strips) are bounded by this much pinned staging in all.
constexpr std::size_t kFrameStagingBytes = std::size_t{512} << 20;

struct StagingPlan {
  index_t chunk_rows = 1, chunks = 1;
  int readers = 1, slots_per_reader = 2;
};

/// Chunks of about chunk_bytes rows, unless the reader decompresses units of rows so large that
/// chunk edges would cut many of them (each cut unit is decompressed twice): then one frame per
/// chunk, with one slot per reader when two would exceed the staging bound (a frame's decode
/// takes far longer than its copy, so a second slot gains little).
StagingPlan plan_staging(std::size_t chunk_bytes, std::int64_t row_bytes, std::int64_t decode_rows, index_t ny,
                         index_t total_rows) {
  StagingPlan p;
  // A unit of one row (MRC bytes, one-row strips) is never cut: row chunks as they always were.
  const auto unit_bytes = static_cast<std::size_t>(std::max<std::int64_t>(decode_rows, 1) * row_bytes);
  const bool whole_frames = decode_rows > 1 && unit_bytes * 16 > chunk_bytes;
  p.chunk_rows = whole_frames ? ny : std::max<index_t>(1, static_cast<index_t>(chunk_bytes / static_cast<std::size_t>(row_bytes)));
  p.chunks = (total_rows + p.chunk_rows - 1) / p.chunk_rows;
  p.readers = static_cast<int>(std::max<index_t>(1, std::min<index_t>({num_threads(), kMaxReaders, p.chunks})));
  if (!whole_frames) return p;
  const std::size_t slot = static_cast<std::size_t>(ny) * static_cast<std::size_t>(row_bytes);
  if (2 * slot * static_cast<std::size_t>(p.readers) > kFrameStagingBytes) p.slots_per_reader = 1;
  p.readers = static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(p.readers),
                                                                               kFrameStagingBytes / slot)));
  return p;
}

/// Waits for a stream at scope exit (before the pinned memory it reads is freed); a failure is
/// reported by the stream's own synchronize() on the normal path.
struct StreamDrain {
  cudaStream_t stream;
  ~StreamDrain() { static_cast<void>(cudaStreamSynchronize(stream)); }
};

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

DeviceBuffer<float> CudaMovie::Impl::upload_reference(View<const float> r, const char* what) {
  FROST_EXPECTS(r.data == nullptr || r.shape.total() == pixels(),
                std::string("upload: the ") + what + " reference is not the frame size");
  DeviceBuffer<float> d(r.data ? static_cast<std::size_t>(pixels()) : 0);
  if (r.data) d.upload_async(r.data, d.size(), stream.get());
  return d;
}

void CudaMovie::Impl::upload_stored(const StoredFrameSource& source) {
  const index_t nx = size.x, ny = size.y;
  FROST_EXPECTS(source.read != nullptr, "upload_stored: no reader");
  FROST_EXPECTS(source.row_bytes > 0 && source.frame_bytes == source.row_bytes * ny,
                "upload_stored: frame bytes must be height x row bytes");
  FROST_EXPECTS(source.mode == 0 || source.mode == 1 || source.mode == 2 || source.mode == 6 || source.mode == 12 ||
                    source.mode == 101,
                "upload_stored: MRC mode " + std::to_string(source.mode) + " cannot be decoded");
  const auto t_setup = std::chrono::steady_clock::now();
  const DeviceBuffer<float> dark = upload_reference(source.dark, "dark"), gain = upload_reference(source.gain, "gain");
  DeviceBuffer<int> first_non_finite(1);
  const int none = std::numeric_limits<int>::max();
  first_non_finite.upload_async(&none, 1, stream.get());
  stream.synchronize(); // the other streams read the references

  const index_t total_rows = static_cast<index_t>(count) * ny;
  const auto row_bytes = static_cast<std::size_t>(source.row_bytes);
  const std::size_t chunk_bytes = options.upload_chunk_bytes > 0 ? options.upload_chunk_bytes : kChunkBytes;
  const StagingPlan plan = plan_staging(chunk_bytes, source.row_bytes, source.decode_rows, ny, total_rows);
  const index_t chunk_rows = plan.chunk_rows, chunks = plan.chunks;
  const int readers = plan.readers, per_reader = plan.slots_per_reader;
  const std::size_t slot_bytes = static_cast<std::size_t>(chunk_rows) * row_bytes;
  const std::size_t slots = static_cast<std::size_t>(per_reader) * static_cast<std::size_t>(readers);
  DeviceBuffer<unsigned char> staging(slots * slot_bytes);
  std::vector<Stream> streams(static_cast<std::size_t>(readers));
  std::vector<std::unique_ptr<Event>> done;
  for (std::size_t i = 0; i < slots; ++i)
    done.push_back(std::make_unique<Event>(cudaEventDisableTiming | cudaEventBlockingSync));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(readers));
  const int device = options.device;
  stats.upload_setup_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_setup).count();

  const auto reader = [&](int r) {
    try {
      DeviceGuard guard(device);
      cudaStream_t s = streams[static_cast<std::size_t>(r)].get();
      // Each thread pins its own slots, so pinning (slow) overlaps the other threads' reads.
      HostBuffer<unsigned char> pinned(static_cast<std::size_t>(per_reader) * slot_bytes, HostMemory::Pinned);
      const StreamDrain drain{s}; // destroyed first: no copy outlives its slot, also on errors
      bool used[2] = {false, false};
      int turn = 0;
      for (index_t c = r; c < chunks; c += readers, turn = (turn + 1) % per_reader) {
        const std::size_t slot =
            static_cast<std::size_t>(per_reader) * static_cast<std::size_t>(r) + static_cast<std::size_t>(turn);
        if (used[turn]) done[slot]->synchronize(); // its previous copy and decode are finished
        const index_t row0 = c * chunk_rows, rows = std::min(chunk_rows, total_rows - row0);
        const std::size_t bytes = static_cast<std::size_t>(rows) * row_bytes;
        unsigned char* host = pinned.data() + static_cast<std::size_t>(turn) * slot_bytes;
        unsigned char* dev = staging.data() + slot * slot_bytes;
        source.read(static_cast<std::int64_t>(row0) * source.row_bytes, bytes, host);
        FROST_CUDA_CHECK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s));
        motion_kernels::decode_stored_rows(dev, source.mode, source.swap, source.mode0_unsigned, source.row_bytes, nx,
                                           ny, row0, rows, dark.data(), gain.data(), frames.data(),
                                           first_non_finite.data(), s);
        done[slot]->record(s);
        used[turn] = true;
      }
      streams[static_cast<std::size_t>(r)].synchronize(); // errors of the copies surface here
    } catch (...) {
      errors[static_cast<std::size_t>(r)] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (int r = 1; r < readers; ++r) threads.emplace_back(reader, r);
  reader(0);
  for (std::thread& t : threads) t.join();
  for (Stream& s : streams) s.synchronize(); // no copy may outlive its slot
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  int bad = none;
  first_non_finite.download_async(&bad, 1, stream.get());
  stream.synchronize();
  if (bad != none && source.reject_non_finite) throw_input_error(source.name, motion::non_finite_frame_problem(first_frame + bad));
}

} // namespace frost::cuda
