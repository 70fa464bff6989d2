#pragma once
/// @file motion_record.hpp
/// @brief The fields of a movie's record that come from its alignment (docs/session.md#records):
/// sizes, dose, accumulated motion, local fit, half-sum FRC, dose-weighting check, stage times.
#include "frost/motion/movie_pipeline.hpp"
#include "frost/session/movie_record.hpp"

namespace frost::motion_session {

/// @brief Fills `r` from the loaded movie and its alignment. The half-sum FRC and the
/// dose-weighting check come from the sums' SumQuality (session_render_request() asks for it),
/// computed by the backend where the sums were made; a value that cannot be computed stays null.
/// Motion is in Å over the aligned frames (raw pixel size times the shifts in raw pixels).
void fill_motion_fields(session::MovieRecord& r, const motion::LoadedMovie& m, const motion::MovieAlignment& a);

/// The program's render request plus the quality numbers of the record (RenderRequest::quality):
/// no sum is made or brought back for them beyond what the program writes.
motion::RenderRequest session_render_request(motion::RenderRequest request);

} // namespace frost::motion_session
