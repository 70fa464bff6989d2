#pragma once
// The finish on one device (docs/reconstruct_fourier.md#the-cuda-backend): fold (fast mode:
// convolve, then fold) a cube into half-grid planes, optionally symmetrise them with the grid
// subgroup, and bring them down into the host's double half grid.
#include <vector>

#include "accumulator_spec.hpp"
#include "device_state.hpp"
#include "frost/reconstruction/grid_symmetry.hpp"
#include "plane_download.hpp"

namespace frost::cuda::detail {

/// The periodic fold (docs/reconstruct_fourier.md#long-sums): adds the fold of grid g's cube
/// into the device's double half grid (made and zeroed on first use) and zeroes the cube. The
/// caller has waited for every kernel that writes the cube; complete on return.
void fold_into_device_half(DeviceState& device, int g, const AccumulatorSpec& spec);

/// Folds grid g's cube on `device`, plane chunk by plane chunk, and adds the float half grid
/// into `out` (double). After periodic folds, the remaining cube is folded into the device's
/// double half grid first, and that grid comes down rounded to float.
void fold_to_host(DeviceState& device, int g, const AccumulatorSpec& spec, recon::HalfGrid& out,
                  PlaneDownload& download, FinishTimes& times);

/// fold_to_host with the grid symmetrisation (finish_symmetrised): the whole cube is folded into
/// a device half grid (its kx = 0 plane made Hermitian), the cube is freed, and the half grid is
/// symmetrised plane chunk by plane chunk into `out`. Adds the symmetrisation's time to
/// `symmetrise_s` when not null.
void fold_symmetrise_to_host(DeviceState& device, int g, const AccumulatorSpec& spec, recon::HalfGrid& out,
                             const std::vector<recon::Rotation9<double>>& rotations, double max_r2,
                             double* symmetrise_s, PlaneDownload& download, FinishTimes& times);

} // namespace frost::cuda::detail
