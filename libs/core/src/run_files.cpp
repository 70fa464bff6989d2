#include "frost/core/run_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include "frost/core/error.hpp"

namespace frost {
namespace fs = std::filesystem;

namespace {

struct Identity {
  bool exists = false;
  bool directory = false;
  dev_t dev = 0;
  ino_t ino = 0;
  std::string resolved; ///< where it does not exist: absolute, links of the existing part resolved
};

Identity identify(const std::string& path) {
  Identity id;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    id.exists = true;
    id.directory = S_ISDIR(st.st_mode);
    id.dev = st.st_dev;
    id.ino = st.st_ino;
    return id;
  }
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path), ec);
  if (ec) p = fs::path(path);
  const fs::path canon = fs::weakly_canonical(p, ec);
  id.resolved = (ec ? p.lexically_normal() : canon).string();
  return id;
}

/// Equal for the same file: device and inode where it exists, else its resolved path (a path
/// that does not exist cannot name the file another path reaches).
std::string key_of(const Identity& id) {
  return id.exists ? "i" + std::to_string(id.dev) + ":" + std::to_string(id.ino) : "p" + id.resolved;
}

bool same(const Identity& a, const Identity& b) { return key_of(a) == key_of(b); }

std::string folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

/// The output's folder exists (or is made) and is writable; else Error(Input) naming it.
void check_output_folder(const std::string& what, const std::string& path, bool make_folders) {
  const std::string folder = folder_of(path);
  std::error_code ec;
  if (!fs::exists(folder, ec)) {
    if (make_folders) {
      fs::create_directories(folder, ec);
      if (ec) throw_input_error(folder, "cannot create the folder of " + what + " (" + ec.message() + ")");
    } else {
      // --validate: the nearest existing ancestor must let the folder be made.
      fs::path up = fs::path(folder);
      while (!up.empty() && !fs::exists(up, ec)) up = up.parent_path();
      const std::string base = up.empty() ? "." : up.string();
      if (!fs::is_directory(base, ec) || ::access(base.c_str(), W_OK | X_OK) != 0)
        throw_input_error(folder, "the folder of " + what + " does not exist and cannot be created in " + base);
      return;
    }
  }
  if (!fs::is_directory(folder, ec)) throw_input_error(folder, "the folder of " + what + " is not a folder");
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw_input_error(folder, "cannot write " + what + " into this folder (" + std::strerror(errno) + ")");
}

} // namespace

bool same_file(const std::string& a, const std::string& b) { return same(identify(a), identify(b)); }

void check_run_files(const RunFiles& files, bool make_folders) {
  // Keys of the files seen so far: index into inputs (>= 0) or outputs (-1 - index).
  std::unordered_map<std::string, long> seen;
  for (std::size_t i = 0; i < files.inputs.size(); ++i) {
    const auto& f = files.inputs[i];
    const Identity id = identify(f.path);
    if (!id.exists) throw_input_error(f.path, "cannot read " + f.what + " (no such file)");
    if (::access(f.path.c_str(), R_OK) != 0)
      throw_input_error(f.path, "cannot read " + f.what + " (" + std::strerror(errno) + ")");
    seen.emplace(key_of(id), static_cast<long>(i));
  }
  std::unordered_set<std::string> folders;
  for (std::size_t k = 0; k < files.outputs.size(); ++k) {
    const auto& o = files.outputs[k];
    if (o.path.empty()) throw_usage_error(o.what + ": empty output path");
    const Identity id = identify(o.path);
    if (id.directory) throw_usage_error(o.what + " '" + o.path + "' is a folder, not a file");
    const auto [at, fresh] = seen.emplace(key_of(id), -1 - static_cast<long>(k));
    if (!fresh && at->second >= 0) {
      const auto& f = files.inputs[static_cast<std::size_t>(at->second)];
      throw_usage_error(o.what + " '" + o.path + "' is the same file as " + f.what + " '" + f.path +
                        "': an input is never overwritten");
    }
    if (!fresh) {
      const auto& f = files.outputs[static_cast<std::size_t>(-1 - at->second)];
      throw_usage_error(o.what + " '" + o.path + "' is the same file as " + f.what + " '" + f.path +
                        "': every output needs its own name");
    }
  }
  // Folders only once every name is known to be free: a refused run makes none.
  for (const auto& o : files.outputs)
    if (folders.insert(folder_of(o.path)).second) check_output_folder(o.what, o.path, make_folders);
}

} // namespace frost
