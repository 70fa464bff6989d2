#pragma once
/// @file kernel_spaces.hpp
/// @brief The tuning spaces of frost's CUDA kernels (docs/tune.md#the-spaces-of-frost-kernels), with
/// their defaults. Their valid counts and signatures are golden values of the CPU tests
/// (T1, T3 of docs/tune.md#cpu-tests); the kernels themselves (cuda/) will take their spaces from here.
#include <string>
#include <vector>

#include "frost/tuning/geometry.hpp"
#include "frost/tuning/space.hpp"

namespace frost::tuning {

/// A kernel's space for one device and setting, with its default configuration and the
/// problem-key fields in which two problems may differ and still be similar (docs/tune.md#lookup-order).
struct KernelSpace {
  std::string kernel;
  TuningSpace space;
  NamedConfig default_config;
  std::vector<std::string> size_fields;
};

/// Settings of the reconstruction that fix parameters of `fr_insert`.
struct FrInsertSettings {
  bool lookup_interpolation = true; ///< "interpolation = lookup" (PRECOMPUTE_BLOB_VAL = 1)
  /// Bytes of the blob table SHARED_BLOB_TABLE = 1 copies into shared memory (10,000 floats).
  std::int64_t blob_table_bytes = 40000;
};

/// Versions of the kernels' code; bump when a kernel changes (changes the signature).
constexpr int kFrInsertVersion = 2;
constexpr int kMaCorrelateVersion = 1;
constexpr int kFourierCropFilterVersion = 1;
constexpr int kExtremaWindowVersion = 1;
constexpr int kExtremaFullVersion = 1;
constexpr int kReduceVersion = 1;

/// Gather insertion of the reconstruction, frost's column kernel (BLOCK_DIM, GRID_DIM_Z,
/// SHARED_BLOB_TABLE, TILE; PRECOMPUTE_BLOB_VAL fixed by the setting). Version 2: see the
/// comment in kernel_spaces.cpp for how it differs from the published space.
KernelSpace fr_insert_space(const DeviceLimits& limits, const FrInsertSettings& settings);
/// Movie alignment's conjugate product with centring (TILE, BLOCK_X, BLOCK_Y).
KernelSpace ma_correlate_space(const DeviceLimits& limits);
/// Crop, normalise, low-pass filter and centre spectra (BLOCK_X, BLOCK_Y).
KernelSpace fourier_crop_filter_space(const DeviceLimits& limits);
/// Maximum in a rectangular window of correlation images (BLOCK_X, BLOCK_Y).
KernelSpace extrema_window_space(const DeviceLimits& limits);
/// Whole-image maximum (BLOCK).
KernelSpace extrema_full_space(const DeviceLimits& limits);
/// Sums (BLOCK), the same space as extrema_full.
KernelSpace reduce_space(const DeviceLimits& limits);

} // namespace frost::tuning
