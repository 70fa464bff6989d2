#pragma once
// The benchmark's uncompressed TIFF, written with libtiff from the MRC movie (tiffcp then
// compresses it): the reference against which frost's TIFF reading is timed.
#include <string>

namespace frost::bench {

/// Writes the frames of the mode-0 MRC movie `mrc` to `tiff` as uncompressed uint8, top row first
/// (so that frost, which flips TIFF rows, reads the MRC's frames).
void write_tiff_copy(const std::string& mrc, const std::string& tiff);

} // namespace frost::bench
