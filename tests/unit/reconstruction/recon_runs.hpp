#pragma once
/// @file recon_runs.hpp
/// @brief Shared plumbing of the CPU reconstruction tests (docs/reconstruct_fourier.md#reconstruction-tests):
/// the standard PH1 data set, CPU runs through accumulate()/finalise(), and the quality printout.
#include <cstdint>
#include <string>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/grid.hpp"
#include "frost/reconstruction/particle.hpp"
#include "frost/reconstruction/reconstruct.hpp"
#include "frost/reconstruction/settings.hpp"
#include "frost/simulate/phantom.hpp"

namespace frost::test {

/// A phantom, its views and their exact projections.
struct Ph1Case {
  int box = 0;
  std::vector<sim::Blob> blobs;
  std::vector<recon::ParticleRecord> views;
  Image<float> stack;   ///< box x box x views
  Image<float> phantom; ///< box^3
};

/// PH1 with `views` random views (blob seed `seed`, pose seed `seed + 1`).
Ph1Case make_ph1_case(int box, int views, std::uint32_t seed);

/// The default case of docs/reconstruct_fourier.md#reconstruction-tests (N = 32, 300 views, seeds
/// 11/12 as in T1), built once per process.
const Ph1Case& standard_case();

/// The standard views with the CTF parameters of T9 (docs/reconstruct_fourier.md#reconstruction-tests;
/// 300 kV, Cs 2.7 mm, A = 0.1, dU ~ U(3000, 8000) A, dV = dU - U(0, 300) A, azimuth U(0, 180) deg), and
/// their projections rendered in a 2N box, multiplied by the CTF at 4 A/px and cropped to N. Built once.
struct CtfCase {
  double pixel_size = 4.0;
  std::vector<recon::ParticleRecord> views;
  Image<float> stack;
};
const CtfCase& ctf_case();

/// Default options (docs/reconstruct_fourier.md#command-line) for box N (pad 2, blob 1.9/0/15,
/// precise, lookup, kb).
recon::ReconstructionSettings default_settings(int box);

/// accumulate() on the CPU; particles[i].row must index `stack`.
std::vector<recon::HalfGrid> accumulate_cpu(const recon::ReconstructionSettings& settings,
                                            const geom::SymmetryGroup& group,
                                            const std::vector<recon::ParticleRecord>& particles,
                                            const Image<float>& stack, int grids = 1);

/// accumulate_cpu() with one grid, then finalise(): the map of a run whose particles may share
/// images (particles[i].row indexes `stack`).
Image<float> run_accumulate(const recon::ReconstructionSettings& settings, const geom::SymmetryGroup& group,
                            const std::vector<recon::ParticleRecord>& particles, const Image<float>& stack);

/// Full CPU run (reconstruct_cpu): image i of `stack` belongs to particles[i].
Image<float> run_cpu(const recon::ReconstructionSettings& settings, const Image<float>& stack,
                     const std::vector<recon::ParticleRecord>& particles, const std::string& sym = "c1");

/// NCC in the 0.45 N sphere, scale and FSC of a map against a reference.
struct Quality {
  double ncc = 0, scale = 0;
  std::vector<double> fsc;
};
Quality measure(const Image<float>& map, const Image<float>& reference);
/// "<label> NCC 0.99917 scale 1.0178 FSC: 1.000 0.999 ..." on stdout.
void print_quality(const char* label, const Quality& q);

/// The T1 requirements of docs/reconstruct_fourier.md#reconstruction-tests for box N: NCC >= 0.998, FSC
/// >= 0.95 for 1 <= k <= last_095, FSC >= 0.7 at k = floor(N/2), FSC >= 0.143 everywhere (gtest EXPECTs).
void expect_t1_thresholds(const Quality& q, int box, int last_095);

/// True when both images have the same shape and the same bits.
bool bit_identical(const Image<float>& a, const Image<float>& b);

/// Fraction of the spectral power of `volume` (all frequencies, corners included) at radii that
/// round to a shell above `shell`.
double power_beyond_shell(const Image<float>& volume, int shell);

} // namespace frost::test
