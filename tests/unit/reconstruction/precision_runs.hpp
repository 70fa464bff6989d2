#pragma once
/// @file precision_runs.hpp
/// @brief One CPU reconstruction with the float build and one with the double build of the
/// library, for the precision tests (T6 in double and T15 in
/// docs/reconstruct_fourier.md#reconstruction-tests). Both builds link into one binary (inline namespaces
/// recon::f32 / recon::f64), but a source file sees only one of them, so each entry point is compiled
/// against its own build (precision_run.cpp, twice) and takes and returns precision-neutral types only.
#include <string>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/reconstruction/particle.hpp"

namespace frost::test {

/// accumulate() + finalise() on the CPU with the default options (docs/reconstruct_fourier.md#command-line)
/// for box N, symmetry `sym`, images from `stack` (N x N x images; particles[i].row indexes it). Float build.
Image<float> precision_map_f32(const Image<float>& stack, const std::vector<recon::ParticleRecord>& particles,
                               const std::string& sym);
/// The same with the double build.
Image<double> precision_map_f64(const Image<float>& stack, const std::vector<recon::ParticleRecord>& particles,
                                const std::string& sym);

} // namespace frost::test
