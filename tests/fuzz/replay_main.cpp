// Replays saved inputs through a fuzz target without libFuzzer (any compiler): the regression
// tests of the normal suite run every input that once crashed a target, and the seed corpus.
// Usage: <target> FILE_OR_DIR...   (a directory: every regular file in it, in name order)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::fprintf(stderr, "replay: %s (%zu bytes)\n", file.c_str(), bytes.size());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

} // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::size_t count = 0;
  for (int a = 1; a < argc; ++a) {
    const fs::path arg = argv[a];
    if (fs::is_directory(arg)) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(arg))
        if (entry.is_regular_file()) files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) replay(f), ++count;
    } else if (fs::is_regular_file(arg)) {
      replay(arg), ++count;
    } else {
      std::fprintf(stderr, "replay: %s: no such file or directory\n", argv[a]);
      return 2;
    }
  }
  std::printf("replayed %zu inputs without a finding\n", count);
  return 0;
}
