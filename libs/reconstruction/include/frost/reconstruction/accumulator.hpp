#pragma once
/// @file accumulator.hpp
/// @brief The insertion backend interface (CPU or CUDA) and the CPU implementation
/// (docs/reconstruct_fourier.md#the-cpu-backend): one full cube per output grid, traverse spaces processed in
/// order, the columns of one space split among OpenMP threads (a voxel belongs to one column, so
/// no atomics and bit-identical results for any thread count).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frost/reconstruction/precision.hpp"
#include "frost/reconstruction/grid.hpp"
#include "frost/reconstruction/grid_symmetry.hpp"
#include "frost/reconstruction/sample_batch.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// Traverse spaces (images x inserted symmetry copies) a grid's float cube takes before the
/// accumulator folds it into a double half grid and zeroes it (docs/reconstruct_fourier.md#long-sums):
/// it bounds the length of every float sum, so a map does not drift with the number of images
/// nor depend on how they are split over devices and ranks.
constexpr std::int64_t kFoldPeriodSpaces = std::int64_t(1) << 15;

class GridAccumulator {
public:
  virtual ~GridAccumulator() = default;
  /// The periodic fold's period in spaces per cube (kFoldPeriodSpaces by default; 0 folds only
  /// in finish()). Before the first insert().
  void set_fold_period(std::int64_t spaces) { fold_period_ = spaces; }
  std::int64_t fold_period() const { return fold_period_; }
  /// How many threads may call insert() at the same time, each with its own lane 0..lanes()-1.
  virtual int lanes() const = 0;
  /// Inserts every traverse space of `batch` into grid `grid` (0, or 1 for the second half map).
  /// The batch may be reused as soon as the call returns.
  virtual void insert(const SampleBatch& batch, int grid, int lane) = 0;
  /// After the last insert: fast-mode convolution and the fold; grid g is added to out[g]
  /// (out has one half grid per grid, already sized).
  virtual void finish(std::vector<HalfGrid>& out) = 0;
  /// After finish(): replaces the folded `grid` by its sum over `rotations` (the grid part of
  /// a SymmetryPlan, grid_symmetry.hpp) on this backend's hardware; the CPU by default.
  virtual void symmetrise(HalfGrid& grid, const std::vector<Rotation9<double>>& rotations, double max_r2) {
    symmetrise_grid(grid, rotations, max_r2);
  }
  /// @brief After the last insert, with the grid part of a SymmetryPlan: finish(), then every
  /// half grid summed over `rotations` (nothing to sum for fewer than two). Backends that hold
  /// the grids elsewhere (CUDA) symmetrise there, before the grids come to the host. Adds the
  /// seconds spent symmetrising to *symmetrise_s.
  virtual void finish_symmetrised(std::vector<HalfGrid>& out, const std::vector<Rotation9<double>>& rotations,
                                  double max_r2, double* symmetrise_s);
  /// "cpu, 16 threads" / "cuda:0 NVIDIA H100 ..., 4 streams".
  virtual std::string describe() const = 0;
  /// True when insert() takes image batches (SampleBatch::holds_images) and transforms them on
  /// its device (--fftOnGPU, docs/reconstruct_fourier.md#cpu-and-gpu-split); the loaders then only
  /// check, copy and make traverse spaces.
  virtual bool fft_on_device() const { return false; }
  /// Memory the loaders should allocate batches in (pinned for GPU uploads).
  virtual HostMemory host_memory() const { return HostMemory::Pageable; }

protected:
  std::int64_t fold_period_ = kFoldPeriodSpaces;
};

/// CPU accumulator with `grids` full cubes.
std::unique_ptr<GridAccumulator> make_cpu_accumulator(const ReconstructionSettings& settings,
                                                      const GridLayout& layout, int grids);

/// @brief Inserts every traverse space of `batch` into `grid` on the CPU (OpenMP over columns).
/// The routine the CPU accumulator runs; exposed for tests.
void insert_batch_cpu(const SampleBatch& batch, FullGrid& grid, const ReconstructionSettings& settings,
                      const BlobTable& table);

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
