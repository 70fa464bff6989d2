// Writes small valid inputs for every fuzz target into <dir>/<target>/ with frost's own writers
// (MRC, SPIDER, STAR/XMD), libtiff (TIFF, EER) and HDF5 (EMAN2 stacks): the seed corpora that
// scripts/fuzz.sh adds to the real files of ../shared/data and the output of frost_simulate.
// Usage: frost_fuzz_seeds <dir>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/spider.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "eer_test_files.hpp"

#if FROST_HAVE_TIFF
#include <tiffio.h>
#endif
#if FROST_HAVE_HDF5
#include <hdf5.h>
#endif

namespace fs = std::filesystem;
using namespace frost;

namespace {

Image<float> ramp(Shape shape, bool integers = false) {
  Image<float> image(shape);
  for (index_t i = 0; i < image.size(); ++i) {
    const double v = std::sin(0.37 * double(i)) * 100.0;
    image.data()[i] = float(integers ? std::round(v) : v);
  }
  return image;
}

void write_text(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

void write_bytes(const fs::path& path, const std::vector<unsigned char>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

void mrc_seeds(const fs::path& dir) {
  io::MrcWriteOptions o;
  o.pixel_size = 1.5;
  io::write_image((dir / "image.mrc").string(), ramp(Shape::image(7, 5)).cview(), o);
  io::write_image((dir / "volume.mrc").string(), ramp(Shape::volume(6, 5, 4)).cview(), o);
  o.mode = io::MrcMode::Int16;
  io::write_image((dir / "stack16.mrcs").string(), ramp(Shape::image(8, 6, 3), true).cview(), o);
  o.mode = io::MrcMode::Float16;
  io::write_image((dir / "stack_half.mrcs").string(), ramp(Shape::image(4, 4, 2)).cview(), o);
  o.mode = io::MrcMode::Int8;
  io::write_image((dir / "bytes.mrcs").string(), ramp(Shape::image(5, 3, 2), true).cview(), o);
}

#if FROST_HAVE_TIFF
void write_tiff(const fs::path& path, int bits, int format, int compression, int frames) {
  TIFF* tif = TIFFOpen(path.c_str(), "w");
  if (!tif) return;
  const std::uint32_t width = 12, height = 7;
  for (int f = 0; f < frames; ++f) {
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, width);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, height);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, bits);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, format);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, compression);
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, 4u);
    std::vector<unsigned char> row(width * std::uint32_t(bits) / 8);
    for (std::uint32_t y = 0; y < height; ++y) {
      for (std::size_t i = 0; i < row.size(); ++i) row[i] = static_cast<unsigned char>(i * 7 + y * 3 + unsigned(f));
      if (format == SAMPLEFORMAT_IEEEFP)
        for (std::uint32_t x = 0; x < width; ++x) {
          const float v = float(x) - float(y) * 0.5f;
          std::memcpy(row.data() + 4 * x, &v, 4);
        }
      TIFFWriteScanline(tif, row.data(), y, 0);
    }
    TIFFWriteDirectory(tif);
  }
  TIFFClose(tif);
}

void tiff_seeds(const fs::path& dir) {
  write_tiff(dir / "u8.tif", 8, SAMPLEFORMAT_UINT, COMPRESSION_NONE, 2);
  write_tiff(dir / "u16_lzw.tif", 16, SAMPLEFORMAT_UINT, COMPRESSION_LZW, 3);
  write_tiff(dir / "f32_deflate.tif", 32, SAMPLEFORMAT_IEEEFP, COMPRESSION_ADOBE_DEFLATE, 2);
  write_tiff(dir / "i8_packbits.tif", 8, SAMPLEFORMAT_INT, COMPRESSION_PACKBITS, 1);
}

void eer_seeds(const fs::path& files, const fs::path& streams) {
  const auto frames = test::three_test_frames();
  const std::int64_t pixels = test::kTestSensorWidth * test::kTestSensorHeight;
  std::vector<std::vector<unsigned char>> seven, eight;
  test::StreamLayout layout7;
  layout7.run_bits = 7;
  layout7.max_run_has_symbol = false;
  for (const auto& frame : frames) {
    seven.push_back(test::encode_eer_frame(frame, pixels, layout7));
    eight.push_back(test::encode_eer_frame(frame, pixels, test::StreamLayout{}));
  }
  std::string why;
  test::write_eer_tiff((files / "seven.eer").string(), seven, test::kTestSensorWidth, test::kTestSensorHeight, 65001, false, &why);
  test::write_eer_tiff((files / "eight_big.eer").string(), eight, test::kTestSensorWidth, test::kTestSensorHeight, 65000, true, &why);
  test::write_legacy_eer((files / "legacy.eer").string(), seven);
  // Raw streams for fuzz_eer_stream: byte 0 picks the encoding (0: 8-bit, 1: 7-bit), byte 1
  // the 64 x 40 test sensor.
  for (std::size_t f = 0; f < frames.size(); ++f) {
    std::vector<unsigned char> e{0, 248}, s{1, 248};
    e.insert(e.end(), eight[f].begin(), eight[f].end());
    s.insert(s.end(), seven[f].begin(), seven[f].end());
    write_bytes(streams / ("eight_" + std::to_string(f)), e);
    write_bytes(streams / ("seven_" + std::to_string(f)), s);
  }
}
#endif

#if FROST_HAVE_HDF5
void eman_seed(const fs::path& path, int count, const std::vector<hsize_t>& dims) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) return;
  H5Gclose(H5Gcreate2(file, "/MDF", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  const hid_t images = H5Gcreate2(file, "/MDF/images", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const hid_t scalar = H5Screate(H5S_SCALAR);
  const int max_id = count - 1;
  const hid_t max_attr = H5Acreate2(images, "imageid_max", H5T_NATIVE_INT, scalar, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(max_attr, H5T_NATIVE_INT, &max_id);
  H5Aclose(max_attr);
  hsize_t pixels = 1;
  for (hsize_t d : dims) pixels *= d;
  for (int i = 0; i < count; ++i) {
    const std::string name = "/MDF/images/" + std::to_string(i);
    const hid_t group = H5Gcreate2(file, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const float apix = 1.25f;
    const hid_t a = H5Acreate2(group, "EMAN.apix_x", H5T_IEEE_F32LE, scalar, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_FLOAT, &apix);
    H5Aclose(a);
    const hid_t space = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
    const hid_t ds = H5Dcreate2(group, "image", H5T_IEEE_F32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const Image<float> values = ramp(Shape::image(index_t(pixels), 1));
    H5Dwrite(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    H5Dclose(ds);
    H5Sclose(space);
    H5Gclose(group);
  }
  H5Sclose(scalar);
  H5Gclose(images);
  H5Fclose(file);
}
#endif

void star_seeds(const fs::path& dir) {
  meta::MetadataFile relion(meta::Dialect::Relion31);
  meta::Block& optics = relion.add_block("optics", false);
  optics.set_column("rlnOpticsGroup", std::vector<std::int64_t>{1});
  optics.set_column("rlnImagePixelSize", std::vector<double>{1.35});
  meta::Block& particles = relion.add_block("particles", false);
  particles.set_column("rlnImageName", std::vector<std::string>{"000001@stack.mrcs", "2@stack.mrcs:mrcs"});
  particles.set_column("rlnAngleRot", std::vector<double>{10.5, -20});
  particles.set_column("rlnAngleTilt", std::vector<double>{90, 45});
  particles.set_column("rlnAnglePsi", std::vector<double>{0, 180});
  particles.set_column("rlnOriginXAngst", std::vector<double>{1.35, -2.7});
  particles.set_column("rlnOriginYAngst", std::vector<double>{0, 4.05});
  particles.set_column("rlnOpticsGroup", std::vector<std::int64_t>{1, 1});
  write_text(dir / "relion31.star", relion.to_string());
  write_text(dir / "xmipp.xmd", relion.to_string(meta::Dialect::Xmipp));
  write_text(dir / "relion30.star", relion.to_string(meta::Dialect::Relion30));
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: frost_fuzz_seeds <dir>\n");
    return 2;
  }
  const fs::path root = argv[1];
  for (const char* t :
       {"mrc", "spider", "tiff", "eer_file", "eer_stream", "eer_metadata", "eman_hdf", "star", "symmetry", "cli"})
    fs::create_directories(root / t);
  mrc_seeds(root / "mrc");
  io::write_spider_stack((root / "spider" / "stack.stk").string(), ramp(Shape::image(6, 5, 3)).cview());
  io::write_spider_stack((root / "spider" / "image.spi").string(), ramp(Shape::image(9, 4)).cview());
#if FROST_HAVE_TIFF
  tiff_seeds(root / "tiff");
  eer_seeds(root / "eer_file", root / "eer_stream");
#endif
#if FROST_HAVE_HDF5
  eman_seed(root / "eman_hdf" / "images.hdf", 3, {6, 8});
  eman_seed(root / "eman_hdf" / "volume.hdf", 1, {3, 4, 5});
#endif
  star_seeds(root / "star");
  int n = 0;
  for (const char* name : {"c1", "C7", "c4v", "c3h", "s4", "d2", "D5v", "d2h", "t", "td", "th", "o", "oh", "i", "i1", "i2",
                           "i3", "i4", "i5", "ih", "I3h", "cn", "ci", "cs"})
    write_text(root / "symmetry" / ("name" + std::to_string(n++)), name);
  write_text(root / "eer_metadata" / "items.xml",
             "<?xml version=\"1.0\"?>\n<metadata>\n<item name=\"numberOfFrames\">1000</item>\n"
             "<item name=\"totalDose\" unit=\"e/pixel\">40</item>\n<item name=\"meanDoseRate\">9.9</item>\n"
             "<item name=\"exposureTime\" unit=\"s\">4.03</item>\n"
             "<item name=\"sensorPixelSize.height\" unit=\"m\">8e-11</item>\n"
             "<item name=\"sensorPixelSize.width\" unit=\"m\">8e-11</item>\n</metadata>\n");
  write_text(root / "eer_metadata" / "elements.xml",
             "<metadata><numberOfFrames>500</numberOfFrames><totalDose>25.5</totalDose><sensorPixelSize>"
             "<height>1.0e-10</height><width>1.0e-10</width></sensorPixelSize></metadata>");
  n = 0;
  for (const char* line : {"--count\n10\n--box\n128\n--sym\nI3", "-n=5\n--fast\n--patches\n7\n5\n--range\n0.1\n9",
                           "--count=3\n--device\n0\n1\n--tune\nauto\n--tune-budget\n20", "-n\n1\n--mode\ngrid\n-o\n12@out.mrcs:mrcs",
                           "--count\n2\n--sampling_rate\n1e-1\n--tune-seed\n42\n--tuning-cache\nblock@cache.star"})
    write_text(root / "cli" / ("line" + std::to_string(n++)), line);
  std::printf("frost_fuzz_seeds: wrote the seed corpora under %s\n", root.c_str());
  return 0;
}
