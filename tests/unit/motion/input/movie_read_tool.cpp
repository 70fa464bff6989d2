// frost_movie_read_tool: what frost's movie reader makes of a file, for the interoperability test
// of TIFF movies written by other programs (tests/python/test_tiff_interop.py).
//   frost_movie_read_tool FILE [--eer-upsampling U] [--eer-group G]
//                                prints "frames N", "size W H", then per frame "frame T v0 v1 ..."
//                                as read_frame() gives it, and "stored T v0 v1 ..." as the stored
//                                form (the GPU path) converts (or "stored none"). The EER options
//                                are the reader's (tests/python/test_eer_interop.py).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <exception>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/io/mrc_codec.hpp"
#include "frost/motion/movie_reader.hpp"

namespace {

using namespace frost;

void print_values(const char* label, index_t t, const std::vector<float>& v) {
  std::printf("%s %lld", label, static_cast<long long>(t));
  for (float x : v) std::printf(" %.9g", x);
  std::printf("\n");
}

void dump(const std::string& path, const motion::MovieReadOptions& options) {
  const motion::MovieReader reader(path, options);
  const index_t n = reader.frame_count(), w = reader.raw_width(), h = reader.raw_height();
  std::printf("frames %lld\nsize %lld %lld\n", static_cast<long long>(n), static_cast<long long>(w),
              static_cast<long long>(h));
  std::vector<float> frame(static_cast<std::size_t>(w * h));
  for (index_t t = 0; t < n; ++t) {
    reader.read_frame(t, frame.data());
    print_values("frame", t, frame);
  }
  const std::optional<motion::StoredFrames> st = reader.stored_frames();
  if (!st) {
    std::printf("stored none\n");
    return;
  }
  std::vector<unsigned char> bytes(static_cast<std::size_t>(st->frame_bytes));
  for (index_t t = 0; t < n; ++t) {
    reader.read_stored(t * st->frame_bytes, bytes.size(), bytes.data());
    io::decode_mrc_rows(st->mode, bytes.data(), st->swap, st->mode0_unsigned, w, h, frame.data());
    print_values("stored", t, frame);
  }
}

} // namespace

int main(int argc, char** argv) {
  motion::MovieReadOptions options;
  bool usable = argc >= 2 && argc % 2 == 0; // FILE, then option-value pairs
  for (int i = 2; usable && i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--eer-upsampling") options.eer_upsampling = std::atoi(argv[i + 1]);
    else if (key == "--eer-group") options.eer_frames_per_fraction = std::atoi(argv[i + 1]);
    else usable = false;
  }
  if (!usable) {
    std::fprintf(stderr, "usage: %s FILE [--eer-upsampling U] [--eer-group G]\n", argv[0]);
    return 2;
  }
  try {
    dump(argv[1], options);
  } catch (const frost::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
