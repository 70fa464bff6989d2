#pragma once
// What every part of the CUDA accumulator reads and nothing changes after construction.
#include <vector>

#include "frost/cuda/reconstruction.hpp"
#include "frost/reconstruction/blob.hpp"
#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/scatter.hpp"

namespace frost::cuda::detail {

struct AccumulatorSpec {
  AccumulatorSpec(const recon::ReconstructionSettings& run_settings, const recon::GridLayout& grid_layout,
                  int grid_count, int streams_per_device, const InsertLaunchConfig& insert_launch)
      : settings(run_settings), layout(grid_layout), grids(grid_count), streams(streams_per_device),
        launch(insert_launch), table(run_settings.blob), taps(recon::blob_convolution_taps(table)),
        windows(run_settings.blob, recon::scatter_window(static_cast<float>(run_settings.blob.radius))) {
    const recon::BlobParams& bp = settings.blob;
    dynamic.inv_radius2 = static_cast<float>(1.0 / (bp.radius * bp.radius));
    dynamic.alpha = static_cast<float>(bp.alpha);
    dynamic.order = bp.order;
    // The separable kernel's factor is normalised in 1-D (docs/reconstruct_fourier.md#the-separable-kernel).
    dynamic.scale = static_cast<float>((separable() ? windows.scale() : table.scale()) /
                                       recon::bessel_i(bp.order, bp.alpha));
  }
  bool separable() const { return settings.kernel == recon::Kernel::Separable && !settings.fast; }

  recon::ReconstructionSettings settings;
  recon::GridLayout layout;
  int grids = 1;
  int streams = 1;                   ///< lanes per device
  InsertLaunchConfig launch;         ///< the launch given at construction (a tuner may pick others per batch)
  recon::BlobTable table;
  std::vector<recon::BlobTap> taps;  ///< fast-mode convolution taps
  recon::WindowTable windows;        ///< the separable kernel's window factors
  recon::DynamicWeight dynamic;      ///< the kernel weight computed on the fly (precise mode, --interp dynamic)
};

} // namespace frost::cuda::detail
