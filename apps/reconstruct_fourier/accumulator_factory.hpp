#pragma once
/// @file accumulator_factory.hpp
/// @brief The insertion backend for a device selection: the CPU accumulator, or the CUDA one
/// when frost was built with CUDA (the only place the app names the CUDA library).
#include <memory>
#include <vector>

#include "frost/reconstruction/accumulator.hpp"
#include "frost/tuning/policy.hpp"

namespace frost::app {

/// `gpus` empty = CPU. `streams` = CUDA streams (loader lanes) per GPU. On GPUs the insertion
/// kernel's launch follows `tuning` (docs/tune.md#dynamic-tuning-in-the-main-loop: the cache, and
/// with auto or dynamic tuning during the run) for `spaces_per_launch` traverse spaces per batch
/// and about `estimated_launches` batches; the CPU ignores the tuning options (one note).
std::unique_ptr<recon::GridAccumulator> make_accumulator(const recon::ReconstructionSettings& settings,
                                                         const recon::GridLayout& layout, int grids,
                                                         const std::vector<int>& gpus, int streams,
                                                         const tuning::TuningOptions& tuning, long long spaces_per_launch,
                                                         double estimated_launches);

} // namespace frost::app
