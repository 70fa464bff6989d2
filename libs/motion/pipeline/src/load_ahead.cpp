// Loading one movie ahead (docs/movie_align.md#loading-ahead): one std::async per movie, so a
// load's exception travels to take() with its movie.
#include "frost/motion/load_ahead.hpp"

#include <exception>

namespace frost::motion {

LoadAhead::LoadAhead(const MovieAlignSettings& settings, MotionBackend& backend, bool ahead)
    : settings_(settings), backend_(backend), ahead_(ahead && backend.loads_ahead()) {}

LoadAhead::~LoadAhead() { drop(); }

void LoadAhead::drop() {
  if (!pending_.valid()) return;
  try {
    pending_.get();
  } catch (...) { // a movie that is not taken does not fail anything
  }
  pending_path_.clear();
}

void LoadAhead::start(const std::string& path) {
  if (!ahead_) return;
  drop();
  pending_path_ = path;
  pending_ = std::async(std::launch::async, [this, path] { return load_movie(path, settings_, backend_); });
}

LoadedMovie LoadAhead::take(const std::string& path) {
  if (pending_.valid() && pending_path_ == path) {
    pending_path_.clear();
    return pending_.get(); // leaves pending_ invalid, also when it throws
  }
  drop();
  return load_movie(path, settings_, backend_);
}

} // namespace frost::motion
