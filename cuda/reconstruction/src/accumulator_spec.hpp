#pragma once
// What every part of the CUDA accumulator reads and nothing changes after construction.
#include <vector>

#include "frost/cuda/reconstruction.hpp"
#include "frost/reconstruction/blob.hpp"
#include "frost/reconstruction/gather.hpp"

namespace frost::cuda::detail {

/// The table the insertion looks weights up in: the blob's, or for the separable kernel its 1-D
/// factor (normalised in 1-D; docs/reconstruct_fourier.md#the-separable-kernel).
inline recon::BlobTable kernel_table(const recon::ReconstructionSettings& s) {
  const bool separable = s.kernel == recon::Kernel::Separable && !s.fast;
  return recon::BlobTable(s.blob, recon::BlobTable::kDefaultSize, true, separable ? 1 : 3);
}

struct AccumulatorSpec {
  AccumulatorSpec(const recon::ReconstructionSettings& run_settings, const recon::GridLayout& grid_layout,
                  int grid_count, int streams_per_device, const InsertLaunchConfig& insert_launch)
      : settings(run_settings), layout(grid_layout), grids(grid_count), streams(streams_per_device),
        launch(insert_launch), table(kernel_table(run_settings)), taps(recon::blob_convolution_taps(table)) {
    const recon::BlobParams& bp = settings.blob;
    dynamic.inv_radius2 = static_cast<float>(1.0 / (bp.radius * bp.radius));
    dynamic.alpha = static_cast<float>(bp.alpha);
    dynamic.order = bp.order;
    dynamic.scale = static_cast<float>(table.scale() / recon::bessel_i(bp.order, bp.alpha));
  }

  recon::ReconstructionSettings settings;
  recon::GridLayout layout;
  int grids = 1;
  int streams = 1;                   ///< lanes per device
  InsertLaunchConfig launch;         ///< the launch given at construction (a tuner may pick others per batch)
  recon::BlobTable table;            ///< kernel_table(settings)
  std::vector<recon::BlobTap> taps;  ///< fast-mode convolution taps
  recon::DynamicWeight dynamic;      ///< the blob weight computed on the fly (precise mode, --interp dynamic)
};

} // namespace frost::cuda::detail
