#pragma once
/// @file accumulator_factory.hpp
/// @brief The insertion backend for a device selection: the CPU accumulator, or the CUDA one
/// when frost was built with CUDA (the only place the app names the CUDA library).
#include <memory>
#include <vector>

#include "frost/reconstruction/accumulator.hpp"

namespace frost::app {

/// `gpus` empty = CPU. `streams` = CUDA streams (loader lanes) per GPU.
std::unique_ptr<recon::GridAccumulator> make_accumulator(const recon::ReconstructionSettings& settings,
                                                         const recon::GridLayout& layout, int grids,
                                                         const std::vector<int>& gpus, int streams);

} // namespace frost::app
