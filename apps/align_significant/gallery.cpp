#include "gallery.hpp"

#include <cmath>

#include "frost/alignment/directions.hpp"
#include "frost/core/error.hpp"
#include "frost/geometry/projection.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/metadata/metadata_file.hpp"

namespace frost::app {

Gallery make_gallery(const std::string& volume_path, double step_deg, const std::string& sym, double min_tilt,
                     double max_tilt) {
  const geom::SymmetryGroup group = geom::parse_symmetry(sym);
  const io::LoadedImage vol = io::read_volume(volume_path);
  const Shape s = vol.image.shape();
  if (s.x != s.y || s.x != s.z) throw_input_error(volume_path, "the map must be cubic (got " + to_string(s) + ")");
  for (index_t i = 0; i < s.total(); ++i) // a NaN or Inf voxel would spread NaN into the projections
    if (!std::isfinite(vol.image[i]))
      throw_input_error(volume_path, std::string(std::isnan(vol.image[i]) ? "NaN" : "Inf") + " at voxel (" +
                                         std::to_string(i % s.x) + ", " + std::to_string(i / s.x % s.y) + ", " +
                                         std::to_string(i / (s.x * s.y)) + ")");
  Gallery g;
  g.info.angles = align::gallery_directions(step_deg, group, min_tilt, max_tilt);
  const index_t n = static_cast<index_t>(g.info.angles.size());
  if (n < 2) throw_usage_error("--sampling " + std::to_string(step_deg) + " with --sym " + sym + " gives fewer than 2 references");
  g.images = Image<float>(Shape::image(s.x, s.x, n));
#pragma omp parallel for schedule(dynamic, 1)
  for (index_t r = 0; r < n; ++r)
    geom::project_real_space(vol.image.cview(), geom::euler_to_matrix(g.info.angles[std::size_t(r)]), 0, 0,
                             g.images.view().item(r));
  for (index_t r = 0; r < n; ++r) g.info.ids.push_back(r);
  return g;
}

void save_gallery(const Gallery& g, const std::string& base) {
  const std::string stack = base + ".mrcs";
  io::write_image(stack, g.images.cview());
  meta::MetadataFile md(meta::Dialect::Xmipp);
  meta::Block& b = md.add_block("");
  std::vector<std::string> names;
  std::vector<double> rot, tilt, psi;
  for (std::size_t r = 0; r < g.info.angles.size(); ++r) {
    names.push_back(io::make_image_address(static_cast<index_t>(r), stack));
    rot.push_back(g.info.angles[r].rot);
    tilt.push_back(g.info.angles[r].tilt);
    psi.push_back(g.info.angles[r].psi);
  }
  b.set_column("image", names);
  b.set_column("enabled", std::vector<std::int64_t>(names.size(), 1));
  b.set_column("ref", g.info.ids);
  b.set_column("angleRot", rot);
  b.set_column("angleTilt", tilt);
  b.set_column("anglePsi", psi);
  md.write(base + ".xmd");
}

} // namespace frost::app
