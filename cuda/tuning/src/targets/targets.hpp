#pragma once
// frost_tune's targets, one factory per kernel (make_target.cpp picks one by name).
#include <memory>
#include <string>

#include "frost/tuning/tune_target.hpp"

namespace frost::tuning::detail {

std::unique_ptr<TuneTarget> make_fr_insert_target(const std::string& preset, int device);
std::unique_ptr<TuneTarget> make_ma_correlate_target(const std::string& preset, int device);
std::unique_ptr<TuneTarget> make_crop_filter_target(const std::string& preset, int device);

} // namespace frost::tuning::detail
