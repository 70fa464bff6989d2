#include "tiff_test_files.hpp"

#include <cstring>
#include <vector>

#if FROST_HAVE_TIFF
#include <tiffio.h>
#endif

namespace frost::test {

bool write_counts_tiff(const std::string& path, std::uint32_t w, std::uint32_t h, int frames,
                       std::uint32_t rows_per_strip, int bits) {
#if FROST_HAVE_TIFF
  TIFF* tif = TIFFOpen(path.c_str(), "w");
  if (!tif) return false;
  std::uint32_t state = 17;
  const std::size_t bpp = std::size_t(bits) / 8;
  std::vector<unsigned char> row(w * bpp);
  for (int f = 0; f < frames; ++f) {
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, w);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, h);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, bits);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_UINT);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_LZW);
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, rows_per_strip);
    for (std::uint32_t y = 0; y < h; ++y) {
      for (std::uint32_t x = 0; x < w; ++x) {
        state = state * 1664525u + 1013904223u;
        const std::uint32_t v = (state >> 24) % 97 == 0 ? 255u : (state >> 20) % 10;
        std::memcpy(&row[x * bpp], &v, bpp); // the low bytes of v: little-endian hosts only
      }
      if (TIFFWriteScanline(tif, row.data(), y, 0) < 0) {
        TIFFClose(tif);
        return false;
      }
    }
    TIFFWriteDirectory(tif);
  }
  TIFFClose(tif);
  return true;
#else
  static_cast<void>(path), static_cast<void>(w), static_cast<void>(h), static_cast<void>(frames);
  static_cast<void>(rows_per_strip), static_cast<void>(bits);
  return false;
#endif
}

} // namespace frost::test
