#include "backend_test_support.hpp"

#include <map>

#include "frost/io/image_io.hpp"
#include "local_movie_cases.hpp"

namespace frost::motion::backend_test {

std::unique_ptr<MotionBackend> cpu_backend(const MotionBackendOptions& options) {
  return make_motion_backend(-1, options);
}

const std::string& t3_movie_file(std::uint32_t seed) {
  static test::TempDir dir;
  static std::map<std::uint32_t, std::string> files;
  std::string& path = files[seed];
  if (path.empty()) {
    const local_test::Movie m = local_test::t3_movie(4.0, 4.0, 0.2, seed);
    path = dir.file("t3_" + std::to_string(seed) + ".mrcs");
    io::MrcWriteOptions o;
    o.mode = io::MrcMode::Int16; // Poisson counts: stored exactly, and the GPU decodes the stored bytes
    o.pixel_size = 1.0;
    io::write_image(path, m.frames, o);
  }
  return path;
}

MovieAlignSettings t3_settings() {
  MovieAlignSettings s;
  s.pixel_size = 1.0;
  s.global = local_test::global_settings();
  s.local_settings = local_test::local_settings();
  s.max_local_rmsd_raw = s.local_settings.max_local_rmsd;
  return s;
}

RenderRequest all_sums() {
  RenderRequest r;
  r.aligned_sum = r.unaligned_sum = r.halves = r.aligned_frames = r.dose_weighted = true;
  return r;
}

} // namespace frost::motion::backend_test
