#include "trajectories_command.hpp"

#include <iostream>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/motion/model_star.hpp"
#include "frost/motion/trajectories.hpp"

namespace frost::movie_align {

namespace {

/// Coordinates of the first block that has them: RELION _rlnCoordinateX/Y or Xmipp xcoor/ycoor.
std::vector<motion::Vec2> read_coordinates(const std::string& path, double scale) {
  const meta::MetadataFile file = meta::MetadataFile::read(path);
  for (const meta::Block& b : file.blocks()) {
    const char* lx = b.has("rlnCoordinateX") ? "rlnCoordinateX" : b.has("xcoor") ? "xcoor" : nullptr;
    const char* ly = b.has("rlnCoordinateY") ? "rlnCoordinateY" : b.has("ycoor") ? "ycoor" : nullptr;
    if (lx == nullptr || ly == nullptr) continue;
    const std::vector<double> x = b.doubles(lx), y = b.doubles(ly);
    std::vector<motion::Vec2> out;
    for (std::size_t i = 0; i < x.size(); ++i) out.push_back({x[i] * scale, y[i] * scale});
    if (out.empty()) throw_input_error(path, "no coordinates in " + b.describe());
    return out;
  }
  throw_input_error(path, "no block with _rlnCoordinateX/Y (or Xmipp xcoor/ycoor)");
}

} // namespace

TrajectoriesCommand::TrajectoriesCommand()
    : Program("frost_movie_align trajectories",
              "The shift to apply at given coordinates for every frame, from a frost alignment STAR file:\n"
              "a particle picked at p on the micrograph sits in frame t at p - shift_t(p). Writes the loop\n"
              "data_trajectories (_rlnCoordinateX/Y, _frostFrameIndex, _rlnMicrographShiftX/Y, raw pixels).") {}

void TrajectoriesCommand::define(cli::Params& p) {
  p.text_required("--alignment", "frost alignment STAR written by frost_movie_align -o").meta("align.star")
      .input_file();
  p.text_required("--coords", "coordinates (STAR with _rlnCoordinateX/Y or XMD with xcoor/ycoor)").meta("coords.star")
      .input_file();
  p.text_required("--out", "output STAR").alias("-o").meta("traj.star").output_file();
  p.real("--coord-bin", 1.0, "the coordinates were picked on a micrograph binned c times relative to the raw movie "
                             "(they are multiplied by c)").alias("--coord_bin").at_least(1e-6);
  p.flag("--first-frame-reference", "re-reference every trajectory to the first aligned frame (RELION)")
      .alias("--relion");
}

int TrajectoriesCommand::run() {
  const motion::MotionModel model = motion::read_motion_model_file(params().get_text("--alignment"));
  const std::vector<motion::Vec2> coords =
      read_coordinates(params().get_text("--coords"), params().get_real("--coord-bin"));
  meta::MetadataFile out(meta::Dialect::Relion31);
  out.blocks().push_back(motion::trajectories_block(model, coords, params().flag_value("--first-frame-reference")));
  out.write(params().get_text("--out"));
  std::cout << "wrote " << params().get_text("--out") << ": " << coords.size() << " coordinates x " << model.frames()
            << " frames (" << (model.local ? "B-spline" : "global") << " model)\n";
  return 0;
}

} // namespace frost::movie_align
