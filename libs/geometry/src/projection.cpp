#include "frost/geometry/projection.hpp"

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"

namespace frost::geom {

void project_real_space(View<const float> volume, const Mat3d& A, double shift_x, double shift_y, View<float> out) {
  FROST_EXPECTS(out.shape.z == 1 && out.shape.n == 1, "project_real_space: output must be one 2-D image, got " +
                                                          to_string(out.shape));
  FROST_EXPECTS(volume.shape.total() > 0, "project_real_space: empty volume");
  const Mat3d At = A.transposed();
  const index_t L = projection_half_length(volume.shape);
  const index_t w = out.shape.x, h = out.shape.y;
  const double ox = static_cast<double>(w / 2) + shift_x, oy = static_cast<double>(h / 2) + shift_y;
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t j = 0; j < h; ++j)
    for (index_t i = 0; i < w; ++i) {
      // P_s(x) = P(x − s): the ray of pixel i passes through centred x = i − w/2 − sx.
      const double x = static_cast<double>(i) - ox, y = static_cast<double>(j) - oy;
      out(i, j) = static_cast<float>(project_ray(volume, At, x, y, L));
    }
}

Image<float> project_real_space(View<const float> volume, const EulerAngles& pose, double shift_x, double shift_y,
                                index_t out_nx, index_t out_ny) {
  Image<float> out(Shape::image(out_nx > 0 ? out_nx : volume.shape.x, out_ny > 0 ? out_ny : volume.shape.y));
  project_real_space(volume, euler_to_matrix(pose), shift_x, shift_y, out.view());
  return out;
}

} // namespace frost::geom
