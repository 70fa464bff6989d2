// --device <id> in a build without CUDA: exit status 4 with the reason.
#include <future>

#include "frost/core/error.hpp"
#include "loaded_movie.hpp"

namespace frost::movie_align {

std::future<void> prepare_gpu(int) {
  std::promise<void> nothing;
  nothing.set_value();
  return nothing.get_future();
}

std::unique_ptr<LoadedMovie> gpu_movie(motion::MovieReader&, int gpu, double, bool, std::future<void>,
                                       const tuning::TuningOptions&) {
  FROST_THROW(ExitCode::Device, "--device " + std::to_string(gpu) + ": frost was built without CUDA; use --device cpu");
}

} // namespace frost::movie_align
