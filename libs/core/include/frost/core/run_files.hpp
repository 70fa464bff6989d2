#pragma once
/// @file run_files.hpp
/// @brief The files one run reads and writes, checked before any work: no output names an input
/// or another output, inputs exist, output folders exist (or are made) and can be written
/// (docs/conventions.md#outputs).
#include <string>
#include <vector>

namespace frost {

/// What a run reads and writes; `what` names the file for messages ("-o", "half map 2",
/// "image stack of particles.star").
struct RunFiles {
  struct Entry {
    std::string what, path;
  };
  std::vector<Entry> inputs, outputs;

  void input(std::string what, std::string path) { inputs.push_back({std::move(what), std::move(path)}); }
  void output(std::string what, std::string path) { outputs.push_back({std::move(what), std::move(path)}); }
};

/// Whether two paths name one file: the same device and inode where both exist, else the same
/// absolute path once symbolic links and `.`/`..` of its existing part are resolved.
bool same_file(const std::string& a, const std::string& b);

/// @brief Checks `files` before a run starts.
/// - frost::Error(Usage) when an output names an input, another output, or a folder;
/// - frost::Error(Input) when an input is missing or unreadable, or an output's folder cannot be
///   made or written.
/// `make_folders`: create missing output folders (a run); without it (--validate) only check that
/// they could be made.
void check_run_files(const RunFiles& files, bool make_folders);

} // namespace frost
