#pragma once
/// @file motion_record.hpp
/// @brief The fields of a movie's record that come from its alignment (docs/session.md#records):
/// sizes, dose, accumulated motion, local fit, half-sum FRC, dose-weighting check, stage times.
#include "frost/motion/movie_pipeline.hpp"
#include "frost/session/movie_record.hpp"

namespace frost::motion_session {

/// @brief Fills `r` from the loaded movie and its alignment. The half-sum FRC needs the even and
/// odd sums in `a.sums` (session_render_request() asks for them), the dose-weighting check the
/// weighted and the plain aligned sum; a value that cannot be computed stays null. Motion is in
/// Å over the aligned frames (raw pixel size times the shifts in raw pixels). The sums' spectra are
/// transformed on GPU `gpu` when gpu >= 0 (the worker's device), else with FFTW.
void fill_motion_fields(session::MovieRecord& r, const motion::LoadedMovie& m, const motion::MovieAlignment& a,
                        int gpu = -1);

/// The program's render request plus the sums the record's quality numbers need: the halves
/// (FRC) and, with dose weighting, the plain aligned sum (the check's denominator).
motion::RenderRequest session_render_request(motion::RenderRequest request);

} // namespace frost::motion_session
