#pragma once
// Helpers of the frost_movie_align option tests: run the programs, read outputs as text, and
// rewrite a simulated movie with hot pixels or as integer counts.
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "frost/io/image_io.hpp"

namespace frost::movie_align_test {

/// Runs `cmd` with stdout and stderr to `log` (or discarded); returns the exit status.
inline int run(const std::string& cmd, const std::string& log = "/dev/null") {
  const int status = std::system((cmd + " >" + log + " 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
inline int simulate(const std::string& args) { return run(std::string(FROST_SIMULATE_EXE) + " " + args); }
inline int align(const std::string& args, const std::string& log = "/dev/null") {
  return run(std::string(FROST_MOVIE_ALIGN_EXE) + " " + args, log);
}
inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Rewrites the stack `in` as `out` in MRC `mode`, after adding `extra` counts to the pixels
/// `hot` (x, y) of every frame.
inline void rewrite_movie(const std::string& in, const std::string& out, io::MrcMode mode,
                          const std::vector<std::pair<index_t, index_t>>& hot = {}, float extra = 0) {
  io::LoadedImage movie = io::read_stack(in);
  for (index_t t = 0; t < movie.image.shape().n; ++t)
    for (const auto& [x, y] : hot) movie.image(x, y, 0, t) += extra;
  io::MrcWriteOptions o;
  o.mode = mode;
  o.pixel_size = 1.0;
  o.content = io::Content::Stack;
  io::write_image(out, movie.image.cview(), o);
}

} // namespace frost::movie_align_test
