#pragma once
// Synthetic TIFF movies for the tests, written with libtiff as camera software writes them.
#include <cstdint>
#include <string>

namespace frost::test {

/// Writes `frames` LZW-compressed frames of w x h unsigned counts (`bits` 8, 16 or 32; values
/// 0..9 with a few 255, from a fixed seed) in strips of `rows_per_strip` rows. False when frost
/// was built without libtiff.
bool write_counts_tiff(const std::string& path, std::uint32_t w, std::uint32_t h, int frames,
                       std::uint32_t rows_per_strip, int bits);

} // namespace frost::test
