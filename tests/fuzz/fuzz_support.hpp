#pragma once
/// @file fuzz_support.hpp
/// @brief What the fuzz targets share: the input as a file (frost's readers take paths, as the
/// programs do) and the rule that frost::Error is the right answer to bad input while anything
/// else (a crash, a sanitizer report, another exception, an allocation beyond the limit) is a
/// finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frost/core/error.hpp"

namespace frost::io {
class ImageSource;
}

namespace frost::fuzz {

/// Writes the input to this process's scratch file ending in `extension` (the readers choose
/// by extension) and returns its path. The file is reused by every call and removed at exit.
std::string scratch_file(const std::uint8_t* data, std::size_t size, const std::string& extension);

/// Runs `body`; a frost::Error (bad input reported properly) ends it quietly, anything else
/// propagates and aborts the run, which libFuzzer and the replay driver report.
template <class Body>
void expect_errors_only(Body&& body) {
  try {
    body();
  } catch (const frost::Error&) {
  }
}

/// Largest number of pixels a target reads back from one file: the readers must reject
/// headers that claim more than the file holds, so reading everything a small input
/// describes is cheap; inputs describing more (legitimately, e.g. a compressed TIFF) are
/// only opened.
inline constexpr std::int64_t kMaxPixelsRead = std::int64_t(1) << 22;

/// Reads every item of `source` when the file describes at most kMaxPixelsRead pixels (one
/// item at a time, as the programs stream them).
void read_everything(const io::ImageSource& source);

} // namespace frost::fuzz
