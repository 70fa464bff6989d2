#pragma once
// Checks of the settings against one movie, made before its frames are loaded, so that a wrong
// setting costs no time and no memory.
#include <string>

#include "frost/core/shape.hpp"
#include "frost/motion/global_settings.hpp"
#include "frost/motion/movie_pipeline.hpp"

namespace frost::motion::detail {

/// @brief Absolute frames to sum: --frameRangeSum inside the aligned frames [first, first +
/// count) (-1 = first/last aligned). @throw frost::Error(Usage) naming the option otherwise.
SumRange sum_range(const std::string& movie, const MovieAlignSettings& settings, int first, int count);

/// @brief frost::Error(Usage) naming the option when a size-like setting (--reference,
/// --group-global, the correlation sizes, --minLocalRes, --patches, --controlPoints) does not fit
/// a movie of `frames` frames of width x height as processed; `global` has its pixel size.
void check_settings_fit(const std::string& movie, const MovieAlignSettings& settings, const GlobalSettings& global,
                        index_t width, index_t height, int frames);

} // namespace frost::motion::detail
