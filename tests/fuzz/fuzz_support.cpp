#include "fuzz_support.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <unistd.h>
#include <vector>

#include "frost/core/log.hpp"
#include "frost/io/image_source.hpp"

namespace frost::fuzz {
namespace {

// Warnings about odd but readable headers would be printed for most inputs and slow the run.
[[maybe_unused]] const bool quiet = (set_verbosity(0), true);

/// Scratch paths made so far (one per extension), removed when the process ends normally.
std::map<std::string, std::string>& scratch_paths() {
  static std::map<std::string, std::string> paths;
  static const bool registered = [] {
    std::atexit([] {
      for (const auto& kv : scratch_paths()) std::remove(kv.second.c_str());
    });
    return true;
  }();
  (void)registered;
  return paths;
}

} // namespace

std::string scratch_file(const std::uint8_t* data, std::size_t size, const std::string& extension) {
  std::string& path = scratch_paths()[extension];
  if (path.empty()) {
    const char* dir = std::getenv("TMPDIR");
    path = std::string(dir && *dir ? dir : "/tmp") + "/frost-fuzz-" + std::to_string(::getpid()) + extension;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  out.close();
  if (!out) {
    std::fprintf(stderr, "fuzz: cannot write the scratch file %s\n", path.c_str());
    std::abort();
  }
  return path;
}

void read_everything(const io::ImageSource& source) {
  const Shape shape = source.info().shape;
  if (shape.pixels_per_item() <= 0 || shape.n <= 0)
    std::abort(); // a reader must refuse empty or negative sizes, not describe them
  if (shape.total() > kMaxPixelsRead) return;
  std::vector<float> item(std::size_t(shape.pixels_per_item()));
  for (index_t i = 0; i < shape.n; ++i) source.read(i, item.data());
}

} // namespace frost::fuzz
