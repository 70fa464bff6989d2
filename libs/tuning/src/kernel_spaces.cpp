// The spaces of frost's kernels (docs/tune.md#the-spaces-of-frost-kernels). Constraint ids are part
// of the signatures: rename one only together with the kernel version. Size fields are those of the
// kernels' problem keys (cuda/reconstruction insert_tuning.hpp, cuda/motion motion_tuning.hpp); the
// extrema and reduction kernels get theirs with their problem keys.
#include "frost/tuning/kernel_spaces.hpp"


namespace frost::tuning {

namespace {

const std::vector<std::int64_t> kPowersTo128 = {1, 2, 4, 8, 16, 32, 64, 128};

} // namespace

KernelSpace fr_insert_space(const DeviceLimits& limits, const FrInsertSettings& settings) {
  // Version 2: the parameters frost's column gather kernel has (cuda/reconstruction,
  // insert_kernel.cu). From the published space: BLOCK_DIM, SHARED_BLOB_TABLE, TILE
  // (here a remap of the block's threads onto TILE x TILE squares of the iteration plane) and
  // GRID_DIM_Z, whose values are extended up to "every space of the batch at once" (65535):
  // 1 to 16 blocks along z kept a GTX 1070's 15 multiprocessors busy, not an H100's 132.
  // SHARED_IMG is not a parameter: the gather reads the samples through the code it shares with
  // the CPU (recon::gather_column), which has no shared-memory sample tile.
  TuningSpace s(kFrInsertVersion);
  s.param("BLOCK_DIM", ParamKind::Launch, {8, 12, 16, 20, 24, 28, 32})
      .param("GRID_DIM_Z", ParamKind::Launch, {1, 4, 16, 64, 256, 1024, 4096, 65535})
      .param("SHARED_BLOB_TABLE", ParamKind::Compile, {0, 1})
      .param("TILE", ParamKind::Launch, {1, 2, 4, 8})
      // Fixed by the interpolation setting: tabulated and computed weights differ numerically,
      // so this is a user choice, not a tuning decision.
      .param("PRECOMPUTE_BLOB_VAL", ParamKind::Compile, {settings.lookup_interpolation ? 1 : 0});
  const std::int64_t max_threads = limits.max_threads_per_block;
  s.constraint("block_threads", {"BLOCK_DIM"},
               [max_threads](const Assignment& a) { return a["BLOCK_DIM"] * a["BLOCK_DIM"] <= max_threads; })
      .constraint("tile_divides_block", {"BLOCK_DIM", "TILE"},
                  [](const Assignment& a) { return a["TILE"] == 1 || a["BLOCK_DIM"] % a["TILE"] == 0; })
      .constraint("tile_below_block", {"BLOCK_DIM", "TILE"}, [](const Assignment& a) { return a["TILE"] < a["BLOCK_DIM"]; })
      .constraint("blob_table_needs_precompute", {"SHARED_BLOB_TABLE", "PRECOMPUTE_BLOB_VAL"},
                  [](const Assignment& a) { return a["SHARED_BLOB_TABLE"] == 0 || a["PRECOMPUTE_BLOB_VAL"] == 1; })
      .constraint("blob_table_fits", {"SHARED_BLOB_TABLE"},
                  [limits, bytes = settings.blob_table_bytes](const Assignment& a) {
                    return a["SHARED_BLOB_TABLE"] == 0 || bytes <= limits.max_shared_bytes_per_block;
                  });
  NamedConfig def = {{"BLOCK_DIM", 16}, {"GRID_DIM_Z", 65535}, {"SHARED_BLOB_TABLE", 0}, {"TILE", 1},
                     {"PRECOMPUTE_BLOB_VAL", settings.lookup_interpolation ? 1 : 0}};
  return {"fr_insert", std::move(s), std::move(def), {"spec", "vol", "batch"}};
}

KernelSpace ma_correlate_space(const DeviceLimits& limits) {
  TuningSpace s(kMaCorrelateVersion);
  s.param("TILE", ParamKind::Compile, {1, 2, 4, 8})
      .param("BLOCK_X", ParamKind::Launch, kPowersTo128)
      .param("BLOCK_Y", ParamKind::Launch, kPowersTo128);
  const std::int64_t max_threads = limits.max_threads_per_block;
  s.constraint("block_threads", {"BLOCK_X", "BLOCK_Y"},
               [max_threads](const Assignment& a) { return a["BLOCK_X"] * a["BLOCK_Y"] <= max_threads; })
      .constraint("block_x_covers_tile", {"TILE", "BLOCK_X"}, [](const Assignment& a) { return a["BLOCK_X"] >= a["TILE"]; });
  return {"ma_correlate", std::move(s), {{"TILE", 8}, {"BLOCK_X", 32}, {"BLOCK_Y", 32}}, {"size", "batch"}};
}

KernelSpace fourier_crop_filter_space(const DeviceLimits& limits) {
  TuningSpace s(kFourierCropFilterVersion);
  s.param("BLOCK_X", ParamKind::Launch, kPowersTo128).param("BLOCK_Y", ParamKind::Launch, kPowersTo128);
  const std::int64_t max_threads = limits.max_threads_per_block;
  s.constraint("block_threads", {"BLOCK_X", "BLOCK_Y"},
               [max_threads](const Assignment& a) { return a["BLOCK_X"] * a["BLOCK_Y"] <= max_threads; });
  return {"fourier_crop_filter", std::move(s), {{"BLOCK_X", 32}, {"BLOCK_Y", 8}}, {"in", "out", "batch"}};
}

KernelSpace extrema_window_space(const DeviceLimits& limits) {
  TuningSpace s(kExtremaWindowVersion);
  s.param("BLOCK_X", ParamKind::Launch, {4, 8, 16, 32, 64, 128})
      .param("BLOCK_Y", ParamKind::Launch, {1, 2, 4, 8, 16, 32, 64});
  const std::int64_t max_threads = limits.max_threads_per_block;
  s.constraint("block_threads", {"BLOCK_X", "BLOCK_Y"},
               [max_threads](const Assignment& a) { return a["BLOCK_X"] * a["BLOCK_Y"] <= max_threads; });
  return {"extrema_window", std::move(s), {{"BLOCK_X", 64}, {"BLOCK_Y", 2}}, {}};
}

namespace {

KernelSpace block_only_space(const std::string& kernel, int version, const DeviceLimits& limits) {
  TuningSpace s(version);
  s.param("BLOCK", ParamKind::Launch, {32, 64, 128, 256, 512, 1024});
  const std::int64_t max_threads = limits.max_threads_per_block;
  s.constraint("block_threads", {"BLOCK"}, [max_threads](const Assignment& a) { return a["BLOCK"] <= max_threads; });
  return {kernel, std::move(s), {{"BLOCK", 1024}}, {}};
}

} // namespace

KernelSpace extrema_full_space(const DeviceLimits& limits) {
  return block_only_space("extrema_full", kExtremaFullVersion, limits);
}

KernelSpace reduce_space(const DeviceLimits& limits) { return block_only_space("reduce", kReduceVersion, limits); }

} // namespace frost::tuning
