#pragma once
/// @file load_ahead.hpp
/// @brief Loading the next movie while the current one aligns (docs/movie_align.md#loading-ahead).
/// On a GPU backend a stream of movies then costs about max(load, align) per movie instead of
/// their sum: the load decodes on CPU threads while the device aligns. A backend whose loading
/// and alignment share the same cores (the CPU) loads when the movie is taken instead.
#include <future>
#include <string>

#include "frost/motion/movie_pipeline.hpp"

namespace frost::motion {

class LoadAhead {
public:
  /// Loads with `settings` onto `backend` (both must outlive this); ahead of time only when
  /// `ahead` and the backend loads_ahead().
  LoadAhead(const MovieAlignSettings& settings, MotionBackend& backend, bool ahead = true);
  /// Waits for a load still in flight (its result or error is dropped).
  ~LoadAhead();
  LoadAhead(const LoadAhead&) = delete;
  LoadAhead& operator=(const LoadAhead&) = delete;

  /// @brief Begins loading `path` on a thread of its own (nothing when not ahead). A load started
  /// before and not taken is waited for and dropped first.
  void start(const std::string& path);
  /// @brief The movie `path`: the load started for it (waited for), else loaded now. Rethrows
  /// what load_movie() threw for it.
  LoadedMovie take(const std::string& path);
  /// True when start() loads ahead.
  bool ahead() const { return ahead_; }

private:
  void drop();

  const MovieAlignSettings& settings_;
  MotionBackend& backend_;
  bool ahead_;
  std::string pending_path_;
  std::future<LoadedMovie> pending_;
};

} // namespace frost::motion
