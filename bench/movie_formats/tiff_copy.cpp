#include "tiff_copy.hpp"

#include <tiffio.h>

#include <vector>

#include "frost/core/error.hpp"
#include "frost/io/mrc_reader.hpp"

namespace frost::bench {

void write_tiff_copy(const std::string& mrc, const std::string& tiff) {
  const io::MrcReader in(mrc);
  const Shape s = in.info().shape;
  FROST_EXPECTS(in.header().mode == 0, "write_tiff_copy: the movie must be MRC mode 0");
  TIFF* out = TIFFOpen(tiff.c_str(), "w8");
  if (!out) throw_input_error(tiff, "libtiff cannot create it");
  const auto w = static_cast<std::uint32_t>(s.x), h = static_cast<std::uint32_t>(s.y);
  std::vector<unsigned char> frame(static_cast<std::size_t>(w) * h);
  // A .mrc movie opens as one volume whose sections are the frames: frames are sections of items.
  const index_t frames = s.z * s.n;
  for (index_t t = 0; t < frames; ++t) {
    in.read_bytes(in.data_offset() + t * static_cast<std::int64_t>(frame.size()), frame.size(), frame.data());
    TIFFSetField(out, TIFFTAG_IMAGEWIDTH, w);
    TIFFSetField(out, TIFFTAG_IMAGELENGTH, h);
    TIFFSetField(out, TIFFTAG_BITSPERSAMPLE, 8);
    TIFFSetField(out, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(out, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_UINT);
    TIFFSetField(out, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(out, TIFFTAG_ROWSPERSTRIP, h);
    for (std::uint32_t y = 0; y < h; ++y)
      if (TIFFWriteScanline(out, frame.data() + static_cast<std::size_t>(h - 1 - y) * w, y, 0) < 0)
        throw_input_error(tiff, "libtiff could not write frame " + std::to_string(t));
    TIFFWriteDirectory(out);
  }
  TIFFClose(out);
}

} // namespace frost::bench
