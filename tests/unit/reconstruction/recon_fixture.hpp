#pragma once
/// @file recon_fixture.hpp
/// @brief The test fixture of docs/reconstruct_fourier.md#fixture: phantom PH1 (sharp Gaussian blobs),
/// exact analytic projections at random poses (optionally shifted and CTF-modulated), and the
/// metrics (FSC per shell, NCC in a sphere, scale). Shared by the CPU and GPU tests.
#include <cstdint>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/ctf/ctf.hpp"
#include "frost/geometry/euler.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/particle.hpp"
#include "frost/reconstruction/reconstruct.hpp"
#include "frost/simulate/phantom.hpp"

namespace frost::test {

/// PH1: `count` blobs of sigma 1 px, centres uniform in [-0.3N, 0.3N]^3, amplitudes U[0.5, 1.5].
std::vector<sim::Blob> ph1_blobs(int box, std::uint32_t seed, int count = 60, double sigma = 1.0);

/// The blobs replicated by every element of `group` (R c for each centre c): a phantom with
/// the group's symmetry.
std::vector<sim::Blob> symmetrise_blobs(const std::vector<sim::Blob>& blobs, const geom::SymmetryGroup& group);

/// Random poses (rot U[0,360), tilt = acos U[-1,1], psi U[0,360)), no shift, weight 1.
std::vector<recon::ParticleRecord> random_views(int count, std::uint32_t seed);

/// Each view expanded to one pose per group element, A R^T written through Euler angles as a
/// metadata file would carry it (the `row` still names the view's image): the input of T6.
std::vector<recon::ParticleRecord> expand_by_symmetry(const std::vector<recon::ParticleRecord>& views,
                                                      const geom::SymmetryGroup& group);

/// T9's CTFs on every view: 300 kV, Cs 2.7 mm, amplitude contrast 0.1, dU ~ U(3000, 8000) A,
/// dV = dU - U(0, 300) A, astigmatism angle U(0, 180) deg, drawn from `seed`.
void assign_t9_ctfs(std::vector<recon::ParticleRecord>& views, std::uint32_t seed);

/// How exact_projections renders.
struct ProjectionOptions {
  bool apply_ctf = false;  ///< render in a 2N box, multiply by the particle's CTF, crop to N
  double pixel_size = 1.0; ///< [A/px] for the CTF
};

/// @brief N x N x count stack: image i is the exact projection of the blobs at particles[i].pose,
/// its content displaced by -particles[i].shift (a blob of amplitude a projects to a 2D
/// Gaussian of amplitude a sigma sqrt(2 pi) at the first two components of A c).
Image<float> exact_projections(int box, const std::vector<sim::Blob>& blobs,
                               const std::vector<recon::ParticleRecord>& particles,
                               const ProjectionOptions& options = {});

/// FSC per shell k = round(|f| N), k = 0..N/2 (Re sum F1 F2* / sqrt(sum|F1|^2 sum|F2|^2)).
std::vector<double> fsc_shells(const Image<float>& a, const Image<float>& b);
/// Normalised cross-correlation inside a sphere of radius 0.45 N around the centre.
double ncc_sphere(const Image<float>& a, const Image<float>& b);
/// <rec, ref> / <ref, ref> over the whole box.
double scale_factor(const Image<float>& rec, const Image<float>& ref);

/// Loader for accumulate(): particle.row is the index of its image in `stack` (which must
/// outlive the loader).
recon::ImageLoader stack_loader(const Image<float>& stack);

} // namespace frost::test
