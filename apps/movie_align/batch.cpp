#include "batch.hpp"

#include <fstream>
#include <iostream>
#include <sys/stat.h>

#include "align_movie.hpp"
#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/io/mrc_reader.hpp"

namespace frost::movie_align {

namespace {

bool exists(const std::string& path) {
  struct stat st {};
  return !path.empty() && ::stat(path.c_str(), &st) == 0;
}

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

std::string stem_of(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  const std::size_t dot = name.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

std::string substitute(std::string pattern, const std::string& stem) {
  const std::string key = "{movie}";
  for (std::size_t at = pattern.find(key); at != std::string::npos; at = pattern.find(key, at + stem.size()))
    pattern.replace(at, key.size(), stem);
  return pattern;
}

std::string trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

} // namespace

bool is_movie_list(const std::string& path) {
  const std::string e = io::file_extension(path);
  return e == "txt" || e == "lst" || e == "list";
}

std::vector<std::string> read_movie_list(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw_input_error(path, "cannot open the movie list");
  std::vector<std::string> movies;
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    if (line[0] != '/' && !exists(line) && exists(folder_of(path) + line)) line = folder_of(path) + line;
    movies.push_back(line);
  }
  if (movies.empty()) throw_input_error(path, "the movie list names no movie");
  return movies;
}

OutputPaths outputs_for_movie(const OutputPaths& p, const std::string& movie) {
  const std::string s = stem_of(movie);
  return {substitute(p.alignment, s),       substitute(p.micrograph, s), substitute(p.micrograph_nodw, s),
          substitute(p.initial, s),         substitute(p.aligned_stack, s), substitute(p.halves_root, s),
          substitute(p.psd, s),             substitute(p.relion_motion, s),  substitute(p.thumbnail, s),
          substitute(p.psd_picture, s),     substitute(p.drift_plot, s)};
}

void check_batch_patterns(const OutputPaths& p) {
  const std::pair<const char*, const std::string*> named[] = {
      {"-o", &p.alignment},          {"--oavg", &p.micrograph}, {"--oavg-nodw", &p.micrograph_nodw},
      {"--oavgInitial", &p.initial}, {"--oaligned", &p.aligned_stack}, {"--ohalves", &p.halves_root},
      {"--opsd", &p.psd},            {"--ostar_motion", &p.relion_motion}, {"--othumbnail", &p.thumbnail},
      {"--opsd-png", &p.psd_picture}, {"--odrift-plot", &p.drift_plot}};
  for (const auto& [option, value] : named)
    if (!value->empty() && value->find("{movie}") == std::string::npos)
      throw_usage_error(std::string(option) + " " + *value +
                        ": in batch mode output names must contain {movie} (replaced by each movie's name)");
}

namespace {

/// An output counts as written when it is not empty and, for MRC files, as long as its header
/// says. Outputs are renamed into place without an fsync (unless $FROST_FSYNC), so after a
/// machine crash one may be there but empty or short: such a movie is redone, not skipped.
bool output_complete(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0 || st.st_size <= 0) return false;
  const std::string e = io::file_extension(path);
  if (e != "mrc" && e != "mrcs") return true;
  try {
    io::MrcReader check(path); // throws when the file is shorter than its header says
    return true;
  } catch (const Error&) {
    return false;
  }
}

/// A movie is done when every output asked for is complete: a run killed between two of its
/// writes (each atomic on its own) is redone, not skipped with an output missing.
bool all_outputs_complete(const OutputPaths& out) {
  for (const std::string* p : {&out.alignment, &out.micrograph, &out.micrograph_nodw, &out.initial, &out.aligned_stack,
                               &out.psd, &out.relion_motion, &out.thumbnail, &out.psd_picture, &out.drift_plot})
    if (!p->empty() && !output_complete(*p)) return false;
  return out.halves_root.empty() ||
         (output_complete(out.halves_root + "_EVN.mrc") && output_complete(out.halves_root + "_ODD.mrc"));
}

} // namespace

int run_batch(const std::vector<std::string>& movies, const AlignOptions& options, const OutputPaths& pattern) {
  int failed = 0, skipped = 0, first_code = 0;
  for (std::size_t i = 0; i < movies.size(); ++i) {
    const std::string& movie = movies[i];
    OutputPaths out = outputs_for_movie(pattern, movie);
    if (out.alignment.empty()) out.alignment = default_alignment_path(movie, out);
    const std::string tag = "[" + std::to_string(i + 1) + "/" + std::to_string(movies.size()) + "] " + movie;
    if (!options.overwrite && all_outputs_complete(out)) {
      log_info(tag + ": outputs exist, skipped (--overwrite to redo)");
      ++skipped;
      continue;
    }
    try {
      const MovieSummary s = align_movie(movie, options, out);
      std::cout << tag << ": " << s.frames << " frames, " << (s.local_model ? "B-spline" : "global") << " model, "
                << s.seconds << " s\n";
    } catch (const Error& e) {
      log_error(tag + ": " + e.what());
      if (first_code == 0) first_code = static_cast<int>(e.code());
      ++failed;
    } catch (const std::exception& e) { // e.g. out of memory on one large movie: the batch goes on
      log_error(tag + ": " + e.what());
      if (first_code == 0) first_code = static_cast<int>(ExitCode::Runtime);
      ++failed;
    }
  }
  std::cout << movies.size() - static_cast<std::size_t>(failed + skipped) << " aligned, " << skipped << " skipped, "
            << failed << " failed\n";
  return failed > 0 ? first_code : 0;
}

} // namespace frost::movie_align
