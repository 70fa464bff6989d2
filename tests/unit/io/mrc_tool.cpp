// frost_io_mrc_tool: a small program for the Python interoperability test
// (tests/python/test_mrc_interop.py), which checks frost's files with the `mrcfile` package and
// frost's reading of files that `mrcfile` wrote.
//   frost_io_mrc_tool write DIR   writes DIR/stack.mrcs, DIR/half.mrc, DIR/counts.mrcs, DIR/volumes.mrcs
//   frost_io_mrc_tool dump FILE   prints what frost reads from FILE (read as a stack if .mrcs)
#include <cstdio>
#include <exception>
#include <string>

#include "frost/core/error.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/image_ref.hpp"
#include "frost/io/mrc_reader.hpp"
#include "frost/io/mrc_writer.hpp"

namespace {

using namespace frost;
using namespace frost::io;

// The values are exactly representable in float16 so that every file can be compared exactly.
float value(index_t x, index_t y, index_t z, index_t n) { return 0.25f * float(x + 8 * y + 64 * z) - 3.f + float(n); }

Image<float> pattern(Shape s) {
  Image<float> img(s);
  for (index_t n = 0; n < s.n; ++n)
    for (index_t z = 0; z < s.z; ++z)
      for (index_t y = 0; y < s.y; ++y)
        for (index_t x = 0; x < s.x; ++x) img(x, y, z, n) = value(x, y, z, n);
  return img;
}

void write_all(const std::string& dir) {
  MrcWriteOptions o;
  o.pixel_size = 1.5;
  o.label = "frost_io_mrc_tool";
  {
    MrcWriter w(dir + "/stack.mrcs", Shape::image(7, 5), o); // streamed, frame by frame
    const Image<float> frames = pattern(Shape::image(7, 5, 3));
    for (index_t i = 0; i < 3; ++i) w.append(frames.view().item(i).data);
    w.commit();
  }
  MrcWriteOptions h = o;
  h.mode = MrcMode::Float16;
  h.pixel_size = 2.0;
  h.origin_A = {10.f, 20.f, 30.f};
  write_mrc(dir + "/half.mrc", pattern(Shape::volume(6, 5, 4)), h);
  MrcWriteOptions c = o;
  c.mode = MrcMode::UInt16;
  Image<float> counts = pattern(Shape::image(8, 6, 2));
  for (float& v : counts) v = float(int(4 * v + 100));
  write_mrc(dir + "/counts.mrcs", counts, c);
  write_mrc(dir + "/volumes.mrcs", pattern(Shape::volume(4, 3, 2, 3)), o);
}

void dump(const std::string& path) {
  const LoadedImage l = file_extension(path) == "mrcs" ? read_stack(path) : read_volume(path);
  const ImageInfo& i = l.info;
  std::printf("shape %lld %lld %lld %lld\n", (long long)i.shape.x, (long long)i.shape.y, (long long)i.shape.z,
              (long long)i.shape.n);
  std::printf("content %s\nmode %d\nbig_endian %d\n", to_string(i.content), i.mrc_mode, int(i.big_endian));
  std::printf("pixel %.9g %.9g %.9g\norigin %.9g %.9g %.9g\n", i.pixel_size[0], i.pixel_size[1], i.pixel_size[2],
              i.origin_A[0], i.origin_A[1], i.origin_A[2]);
  std::printf("values");
  for (float v : l.image) std::printf(" %.9g", v);
  std::printf("\n");
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s write DIR | dump FILE\n", argv[0]);
    return 2;
  }
  try {
    const std::string cmd = argv[1];
    if (cmd == "write") write_all(argv[2]);
    else if (cmd == "dump") dump(argv[2]);
    else return 2;
  } catch (const frost::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
