#include "batch.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sys/stat.h>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/io/mrc_reader.hpp"
#include "process_movie.hpp"

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

std::string substitute(std::string pattern, const std::string& key, const std::string& value) {
  for (std::size_t at = pattern.find(key); at != std::string::npos; at = pattern.find(key, at + value.size()))
    pattern.replace(at, key.size(), value);
  return pattern;
}

bool has_key(const std::string& pattern) {
  return pattern.find("{movie}") != std::string::npos || pattern.find("{movie_path}") != std::string::npos;
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

std::string movie_path_key(const std::string& movie) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path absolute = fs::absolute(fs::path(movie), ec).lexically_normal();
  const fs::path cwd = fs::current_path(ec);
  fs::path key = ec ? fs::path(movie).lexically_normal() : absolute.lexically_relative(cwd);
  const bool outside = key.empty() || *key.begin() == "..";
  if (outside) key = absolute.relative_path(); // absolute, without the root
  return key.replace_extension().string();
}

OutputPaths outputs_for_movie(const OutputPaths& p, const std::string& movie) {
  const std::string name = io::file_stem(movie);
  const std::string path = movie_path_key(movie);
  auto expand = [&](const std::string& pattern) {
    return substitute(substitute(pattern, "{movie_path}", path), "{movie}", name);
  };
  OutputPaths o = p;
  for (std::string* f : {&o.alignment, &o.micrograph, &o.micrograph_nodw, &o.initial, &o.aligned_stack,
                         &o.halves_root, &o.psd, &o.relion_motion, &o.thumbnail, &o.psd_picture, &o.drift_plot})
    *f = expand(*f);
  if (o.alignment.empty()) o.alignment = default_alignment_path(o);
  return o;
}

void check_batch_patterns(const OutputPaths& p) {
  const auto refuse = [](const std::string& option, const std::string& path) {
    throw_usage_error(option + " " + path +
                      ": in batch mode output names must contain {movie} (replaced by each movie's name) or "
                      "{movie_path} (its path without extension)");
  };
  for (const NamedPath& f : output_files(p, false))
    if (f.option.rfind("--ohalves", 0) != 0 && !has_key(f.path)) refuse(f.option, f.path);
  if (!p.halves_root.empty() && !has_key(p.halves_root)) refuse("--ohalves", p.halves_root);
}

void add_batch_run_files(RunFiles& files, const std::vector<std::string>& movies, const OutputPaths& pattern) {
  for (const std::string& movie : movies) files.input("movie " + movie + " of the list", movie);
  for (const std::string& movie : movies)
    for (const NamedPath& f : output_files(outputs_for_movie(pattern, movie), false))
      files.output(f.option + " of movie " + movie, f.path);
  OutputPaths shared;
  shared.gain_copy = pattern.gain_copy;
  shared.defects_copy = pattern.defects_copy;
  for (const NamedPath& f : output_files(shared, true)) files.output(f.option, f.path);
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

} // namespace

bool all_outputs_complete(const OutputPaths& out) {
  // A run killed between the renames of a movie's output set is redone, not skipped.
  for (const NamedPath& f : output_files(out, true))
    if (!output_complete(f.path)) return false;
  return true;
}

int run_batch(const std::vector<std::string>& movies, motion::MotionBackend& backend, const AlignOptions& options,
              const OutputPaths& pattern) {
  int failed = 0, skipped = 0, first_code = 0;
  const auto tag = [&](std::size_t i) {
    return "[" + std::to_string(i + 1) + "/" + std::to_string(movies.size()) + "] " + movies[i];
  };
  // Movies whose outputs are complete are skipped before any is loaded, so that the one loaded
  // ahead is the next one aligned.
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < movies.size(); ++i) {
    if (!options.overwrite && all_outputs_complete(outputs_for_movie(pattern, movies[i]))) {
      log_info(tag(i) + ": outputs exist, skipped (--overwrite to redo)");
      ++skipped;
    } else {
      todo.push_back(i);
    }
  }
  motion::LoadAhead loader(options.align, backend);
  // The gain (and defect image) as applied go with the first movie aligned, once per batch.
  bool copies_written = false;
  for (std::size_t k = 0; k < todo.size(); ++k) {
    const std::string& movie = movies[todo[k]];
    OutputPaths out = outputs_for_movie(pattern, movie);
    out.write_reference_copies = !copies_written;
    const std::string next = k + 1 < todo.size() ? movies[todo[k + 1]] : std::string();
    try {
      const MovieSummary s = process_movie(movie, loader, options, out, {}, next);
      copies_written = true;
      std::cout << tag(todo[k]) << ": " << s.frames << " frames, " << (s.local_model ? "B-spline" : "global")
                << " model, " << s.seconds << " s\n";
    } catch (const Error& e) {
      log_error(tag(todo[k]) + ": " + e.what());
      if (first_code == 0) first_code = static_cast<int>(e.code());
      ++failed;
    } catch (const std::exception& e) { // e.g. out of memory on one large movie: the batch goes on
      log_error(tag(todo[k]) + ": " + e.what());
      if (first_code == 0) first_code = static_cast<int>(ExitCode::Runtime);
      ++failed;
    }
  }
  std::cout << movies.size() - static_cast<std::size_t>(failed + skipped) << " aligned, " << skipped << " skipped, "
            << failed << " failed\n";
  return failed > 0 ? first_code : 0;
}

} // namespace frost::movie_align
