#pragma once
/// @file motion_tuning.hpp
/// @brief Autotuning of the movie-alignment kernels (`ma_correlate` and `fourier_crop_filter` in
/// docs/tune.md#the-spaces-of-frost-kernels): configurations as launch shapes, the problem keys
/// (docs/tune.md#key), and benches that keep random spectra on a device to time and verify
/// configurations (docs/tune.md#offline-protocol; both kernels are pure, so every configuration
/// must reproduce the default's output bit for bit). Host-compiler header (no CUDA types).
#include <memory>

#include "frost/core/shape.hpp"
#include "frost/cuda/motion.hpp"
#include "frost/tuning/policy.hpp"
#include "frost/tuning/problem_key.hpp"
#include "frost/tuning/space.hpp"

namespace frost::cuda {

/// TILE, BLOCK_X, BLOCK_Y of the `ma_correlate` space; frost::Error(Usage) when one is missing.
CorrelateLaunch correlate_launch_from(const tuning::NamedConfig& config);
/// BLOCK_X, BLOCK_Y of the `fourier_crop_filter` space.
CropFilterLaunch crop_filter_launch_from(const tuning::NamedConfig& config);

/// The launch a movie uses on `device` under `options` (docs/tune.md#lookup-order and #common-options):
/// --tune off and a cache miss give `fallback` (the pipeline's default launch); cached, auto and dynamic
/// take an exact, stale or similar record whose configuration is valid here. Both kernels are pure and
/// cheap, so they are not tuned during a run (auto and dynamic read the cache like cached; frost_tune
/// fills it). The cache is read and the choice logged once per process, kernel, device and problem key.
CorrelateLaunch select_correlate_launch(index_t cx, index_t cy, int pairs, int device,
                                        const tuning::TuningOptions& options, const CorrelateLaunch& fallback);
CropFilterLaunch select_crop_filter_launch(index_t mx, index_t my, index_t cx, index_t cy, int count, int device,
                                           const tuning::TuningOptions& options, const CropFilterLaunch& fallback);

/// `size=<cx/2+1>x<cy>;cplx=f32;batch<=<pairs per launch, next power of two>`.
tuning::ProblemKey ma_correlate_problem_key(index_t cx, index_t cy, int pairs);
/// `in=<mx/2+1>x<my>;out=<cx/2+1>x<cy>;cplx=f32;batch<=<spectra per launch>`.
tuning::ProblemKey crop_filter_problem_key(index_t mx, index_t my, index_t cx, index_t cy, int count);

/// @brief `pairs` pair products of half spectra of a cx x cy correlation grid taken from
/// `frames` random spectra (pairs (i, j), i < j, in frame_pairs order), on `device`.
class CorrelateKernelBench {
public:
  CorrelateKernelBench(index_t cx, index_t cy, int frames, int pairs, int device);
  ~CorrelateKernelBench();
  CorrelateKernelBench(const CorrelateKernelBench&) = delete;
  CorrelateKernelBench& operator=(const CorrelateKernelBench&) = delete;
  /// One launch, timed with CUDA events (ms).
  double sample_ms(const CorrelateLaunch& launch);
  /// tuning::relative_max_difference of one launch's output against the default launch's.
  double difference(const CorrelateLaunch& launch);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// @brief Crop + filter of `count` random half spectra of an mx x my transform window to
/// cx x cy, with a random filter, on `device`.
class CropFilterKernelBench {
public:
  CropFilterKernelBench(index_t mx, index_t my, index_t cx, index_t cy, int count, int device);
  ~CropFilterKernelBench();
  CropFilterKernelBench(const CropFilterKernelBench&) = delete;
  CropFilterKernelBench& operator=(const CropFilterKernelBench&) = delete;
  double sample_ms(const CropFilterLaunch& launch);
  double difference(const CropFilterLaunch& launch);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace frost::cuda
