#include "gallery.hpp"

#include <cmath>

#include "frost/alignment/directions.hpp"
#include "frost/core/error.hpp"
#include "frost/core/finite.hpp"
#include "frost/geometry/projection.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/metadata/image_location.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/value_text.hpp"

namespace frost::app {

std::vector<geom::EulerAngles> gallery_directions(double step_deg, const std::string& sym, double min_tilt,
                                                  double max_tilt) {
  std::vector<geom::EulerAngles> dirs =
      align::gallery_directions(step_deg, geom::parse_symmetry(sym), min_tilt, max_tilt);
  if (dirs.size() < 2)
    throw_usage_error("--sampling " + std::to_string(step_deg) + " with --sym " + sym + " gives fewer than 2 references");
  return dirs;
}

Gallery make_gallery(const std::string& volume_path, std::vector<geom::EulerAngles> directions, index_t box) {
  const io::LoadedImage vol = io::read_volume(volume_path);
  const Shape s = vol.image.shape();
  if (s.x != s.y || s.x != s.z) throw_input_error(volume_path, "the map must be cubic (got " + to_string(s) + ")");
  if (s.x != box)
    throw_input_error(volume_path, "the map is " + to_string(s) + " but the images are " + std::to_string(box) + "x" +
                                       std::to_string(box) + " px");
  // A NaN or Inf voxel would spread NaN into the projections.
  if (const index_t i = find_non_finite(vol.image.cview()).first; i >= 0)
    throw_input_error(volume_path, std::string(std::isnan(vol.image[i]) ? "NaN" : "Inf") + " at voxel (" +
                                       std::to_string(i % s.x) + ", " + std::to_string(i / s.x % s.y) + ", " +
                                       std::to_string(i / (s.x * s.y)) + ")");
  Gallery g;
  g.info.angles = std::move(directions);
  const index_t n = static_cast<index_t>(g.info.angles.size());
  g.images = Image<float>(Shape::image(s.x, s.x, n));
#pragma omp parallel for schedule(dynamic, 1)
  for (index_t r = 0; r < n; ++r)
    geom::project_real_space(vol.image.cview(), geom::euler_to_matrix(g.info.angles[std::size_t(r)]), 0, 0,
                             g.images.view().item(r));
  // A finite map can still project to values the single-precision alignment cannot hold.
  const int even = static_cast<int>(s.x - s.x % 2);
  for (index_t r = 0; r < n; ++r) {
    double squares = 0;
    const float* p = g.images.data() + std::size_t(r) * std::size_t(s.x) * std::size_t(s.x);
    for (index_t k = 0; k < s.x * s.x; ++k) squares += double(p[k]) * p[k];
    if (!(std::sqrt(squares) <= max_image_norm(even)))
      throw_input_error(volume_path, "voxel values too large for the single-precision alignment: projection " +
                                         std::to_string(r + 1) + " has norm " + meta::format_shortest(std::sqrt(squares)) +
                                         ", at most " + meta::format_shortest(max_image_norm(even)));
  }
  for (index_t r = 0; r < n; ++r) g.info.ids.push_back(r);
  return g;
}

void save_gallery(const Gallery& g, const std::string& base, double pixel_size) {
  const std::string stack = base + ".mrcs", xmd = base + ".xmd";
  io::MrcWriteOptions o;
  if (pixel_size > 0) o.pixel_size = pixel_size;
  io::write_image(stack, g.images.cview(), o);
  meta::MetadataFile md(meta::Dialect::Xmipp);
  meta::Block& b = md.add_block("");
  std::vector<std::string> names;
  std::vector<double> rot, tilt, psi;
  for (std::size_t r = 0; r < g.info.angles.size(); ++r) {
    names.push_back(meta::location_for_metadata(io::make_image_address(static_cast<index_t>(r), stack), xmd));
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
  if (pixel_size > 0) b.set_column("samplingRate", std::vector<double>(names.size(), pixel_size));
  md.write(xmd);
}

} // namespace frost::app
