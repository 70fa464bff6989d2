#pragma once
/// @file spider.hpp
/// @brief SPIDER images and stacks (`.spi`, `.stk`, `.xmp`): the format Xmipp writes class
/// averages in (`--oUpdatedRefs base` → `base.stk`, docs/formats.md#spider). 2-D float32
/// images; a stack has an overall header followed by one header + data per image.
#include <memory>
#include <string>

#include "frost/core/image.hpp"
#include "frost/io/image_source.hpp"

namespace frost::io {

/// @brief Writes `data` ({x, y, 1, n}) as a SPIDER stack (n >= 1; istack = 2, maxim = n, each
/// image with its own header, imgnum 1..n), native byte order, atomically (temporary file then
/// rename). Header statistics (fmax, fmin, av, sig) are set and imami = 1: of each image in its
/// header, of the whole stack in the overall header; sig is the population standard deviation.
/// Headers are labrec = ceil(1024 / (4x)) records of 4x bytes; date, time, title, angles and
/// pixel size are left zero. Even n = 1 gives a stack (read it as `1@file`).
/// @throw frost::Error(Input) naming the file when it cannot be written, data is not 2-D, or a
/// size exceeds 2^24 (the largest integer a float32 header word holds exactly).
void write_spider_stack(const std::string& path, View<const float> data);

/// @brief Reads a SPIDER file (single 2-D image or stack, either byte order).
///
/// `path` is a plain file name (no `N@` or `:type`; read_image and the other image_io.hpp
/// functions parse those and come here for `.spi .stk .xmp`). The byte order is the one in which
/// the size words of the header are consistent. info(): format Spider, content Image (istack 0)
/// or Stack (istack > 0, maxim images), shape {nsam, nrow, 1, n}, sample Float32, pixel size 0
/// (unknown). Rows are returned in file order (SPIDER's first row is the top of the image; like
/// Xmipp, frost does not flip it). Bytes beyond the described data are ignored with a warning.
/// Reads are thread-safe (pread into the caller's buffer).
/// @throw frost::Error(Input) naming the file for a truncated or malformed header, volumes
/// (nslice > 1), complex (iform != 1) data, indexed stacks (istack < 0), or an index out of range.
std::unique_ptr<ImageSource> open_spider(const std::string& path);

} // namespace frost::io
