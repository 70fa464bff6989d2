// --device <id> in a build without CUDA: exit status 4 with the reason.
#include "frost/core/error.hpp"
#include "loaded_movie.hpp"

namespace frost::movie_align {

std::unique_ptr<LoadedMovie> gpu_movie(motion::MovieReader&, int gpu, double, bool) {
  FROST_THROW(ExitCode::Device, "--device " + std::to_string(gpu) + ": frost was built without CUDA; use --device cpu");
}

} // namespace frost::movie_align
