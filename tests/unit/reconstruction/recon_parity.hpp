#pragma once
/// @file recon_parity.hpp
/// @brief The cases and the comparison of G1 (docs/reconstruct_fourier.md#gpu-tests), shared by the
/// one backend-parity suite (backend_test.cpp, through make_reconstruction_backend) and the CUDA
/// tests of what the factory does not build (cuda_reconstruction_test.cpp: the brick kernel,
/// samples prepared on the CPU, lanes, devices).
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/reconstruction/accumulator.hpp"
#include "frost/reconstruction/grid.hpp"
#include "frost/reconstruction/particle.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost::test {

/// G1: relative L2 of the final maps and of the folded G and W, GPU against CPU.
constexpr double kG1MapTolerance = 1e-4;
/// G1: FSC of the GPU map against the CPU map, every shell k <= kG1FscLastShell.
constexpr double kG1FscTolerance = 0.9999;
constexpr int kG1FscLastShell = 15;
/// G3: relative L2 of the maps of repeated GPU runs (and of 1 vs 2 lanes or devices).
constexpr double kG3RepeatTolerance = 1e-5;

/// Images in memory, their particles (row = index) and the group they are inserted with.
struct ReconData {
  int box = 32;
  std::string sym = "c1";
  std::vector<recon::ParticleRecord> views;
  Image<float> stack;
};

/// PH1 (docs/reconstruct_fourier.md#fixture) at N = 32, `count` random views; with a symmetry
/// other than c1 the phantom carries it; with `ctf` the T9 CTF (4 A/px) modulates the images.
ReconData make_recon_data(const std::string& sym, int count, std::uint32_t seed, bool ctf = false);

/// One accumulate() + finalise(): the folded (and symmetrised) half grids and their maps.
struct ReconRun {
  std::vector<recon::HalfGrid> grids;
  std::vector<Image<float>> maps;
};

/// accumulate() with `accumulator` in batches of `buffer` images, then finalise() each grid.
ReconRun run_reconstruction(const recon::ReconstructionSettings& s, const ReconData& d,
                            recon::GridAccumulator& accumulator, int grids = 1, int buffer = 25);
/// The same with the CPU accumulator: the reference of every parity comparison.
ReconRun run_cpu_reconstruction(const recon::ReconstructionSettings& s, const ReconData& d, int grids = 1,
                                int buffer = 25);

/// Relative L2 of the folded data (weights = false) or weights of two half grids.
double grid_l2(const recon::HalfGrid& a, const recon::HalfGrid& b, bool weights);

/// G1's comparison of a run against the CPU run, printed: maps (relative L2 and FSC) and the
/// folded G and W, within the G1 tolerances above.
void expect_g1_parity(const std::string& label, const ReconRun& got, const ReconRun& cpu);

/// One case of G1: the data, the settings that differ from the defaults and how the run is cut.
struct ParityCase {
  const char* name = "";
  const char* sym = "c1";
  int views = 300;
  std::uint32_t seed = 11;
  bool fast = false;
  recon::Interpolation interp = recon::Interpolation::Lookup;
  recon::CtfMode ctf = recon::CtfMode::None;
  recon::SymMode sym_mode = recon::SymMode::Insert;
  int grids = 1;         ///< 2: half maps, the views alternate between subsets 1 and 2
  int buffer = 25;       ///< images per batch
  int streams = 1;       ///< CUDA streams (lanes) per device; the CPU has one lane
  bool cpu_fft = false;  ///< GPU samples prepared on the CPU (not reachable through the factory)
  recon::Kernel kernel = recon::Kernel::Blob; ///< Separable: a 1.5, alpha 12 (the separable default)
};

/// Test names and ctest lines show the case name, not the bytes of the struct.
void PrintTo(const ParityCase& c, std::ostream* os);

/// Every case of G1, in the order of docs/reconstruct_fourier.md#gpu-tests: precise with table
/// and on-the-fly weights, fast, c4, i, i fast, i in grid mode, CTF invert and Wiener, samples
/// prepared on the CPU (two cases), half maps, small batches on two lanes, and the separable
/// kernel with table and on-the-fly weights and with Wiener CTF and c4.
const std::vector<ParityCase>& g1_cases();
/// The case of g1_cases() called `name` (a test failure and an empty case when there is none).
ParityCase g1_case(const std::string& name);

/// The data of a case (views split into subsets 1 and 2 for half maps).
ReconData parity_data(const ParityCase& c);
/// The settings of a case (4 A/px with a CTF).
recon::ReconstructionSettings parity_settings(const ParityCase& c, int box);

} // namespace frost::test
