#pragma once
// What the exporters need to know about one aligned movie besides its motion model.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "frost/core/shape.hpp"
#include "frost/motion/dose_weighting.hpp"
#include "frost/motion/gain_transform.hpp"

namespace frost::movie_align {

struct MovieFacts {
  std::string movie;            ///< -i as given
  std::string gain;             ///< --gain ("" = none)
  std::string relion_gain;      ///< the gain --ostar_motion names: --gain, or its copy as applied
  std::string relion_defects;   ///< the defects --ostar_motion names: --defects, or its copy as applied
  index_t raw_x = 0, raw_y = 0; ///< raw frame size (EER: the render grid)
  int movie_frames = 0;         ///< frames (EER: fractions) in the whole file
  double pixel_size = 1;        ///< Ts, raw pixel size [A/px]
  double binning = 1;           ///< b = raw / processed size
  index_t processed_x = 0, processed_y = 0;
  int sum_first = 0, sum_last = 0; ///< absolute 0-based frames summed
  bool dose_known = false;      ///< dose values were given on the command line
  motion::DoseSchedule dose;
  bool eer = false;
  int eer_upsampling = 1;
  long long eer_group = 0;      ///< raw frames per fraction (0 = from the fraction count)
  bool tiff_flip_y = true;
  motion::GainTransform gain_transform;
  std::map<std::string, double> seconds; ///< stage timings (load, global, local, render, write)
  bool hot_pixel_detection = false;      ///< --hot-pixel-sigma > 0
  std::vector<std::pair<index_t, index_t>> hot_pixels; ///< (x, y) at the raw size
};

} // namespace frost::movie_align
