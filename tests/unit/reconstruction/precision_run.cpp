// precision_map_f32 or precision_map_f64 (precision_runs.hpp), whichever build of the library this
// file is compiled against: frost_recon_precision_f32 compiles it for the float build, the
// precision test binary for the double build (FROST_RECON_DOUBLE=1).
#include <algorithm>

#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/accumulator.hpp"
#include "frost/reconstruction/finalise.hpp"
#include "frost/reconstruction/reconstruct.hpp"
#include "precision_runs.hpp"

#if FROST_RECON_DOUBLE
#define FROST_PRECISION_MAP precision_map_f64
#else
#define FROST_PRECISION_MAP precision_map_f32
#endif

namespace frost::test {

Image<recon::Real> FROST_PRECISION_MAP(const Image<float>& stack, const std::vector<recon::ParticleRecord>& particles,
                                       const std::string& sym) {
  recon::ReconstructionSettings settings;
  settings.box = static_cast<int>(stack.shape().x);
  const recon::GridLayout layout = recon::make_grid_layout(settings);
  auto accumulator = recon::make_cpu_accumulator(settings, layout, 1);
  const recon::ImageLoader load = [&stack](const recon::ParticleRecord& p, Image<float>& out) {
    const index_t nx = stack.shape().x, ny = stack.shape().y;
    if (out.shape().x != nx || out.shape().y != ny) out = Image<float>(Shape::image(nx, ny));
    const float* src = stack.data() + static_cast<index_t>(p.row) * nx * ny;
    std::copy(src, src + nx * ny, out.data());
  };
  auto grids = recon::accumulate(settings, layout, geom::parse_symmetry(sym), particles, load, *accumulator,
                                 recon::AccumulateOptions{});
  return recon::finalise(grids[0], settings, layout);
}

} // namespace frost::test
