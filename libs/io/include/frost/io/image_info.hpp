#pragma once
/// @file image_info.hpp
/// @brief What a reader tells about an image file, and the choices a caller can make when reading.
#include <array>
#include <string>

#include "frost/core/shape.hpp"

namespace frost::io {

/// @brief Container format of an image file (chosen from the extension,
/// docs/formats.md#image-addresses-and-file-types).
enum class FileFormat { Mrc, Tiff, EmanHdf, Spider };

/// @brief How the items of a file are organised (docs/formats.md#stacks-volumes-and-volume-stacks).
enum class Content {
  Image,       ///< one 2-D image
  Stack,       ///< n 2-D images (particles, movie frames)
  Volume,      ///< one 3-D volume
  VolumeStack  ///< n volumes of equal depth (MRC ispg 401-630)
};

/// @brief Element type as stored on disk. Every type is converted to float on load, never rescaled.
enum class SampleType { UInt4, Int8, UInt8, Int16, UInt16, Int32, UInt32, Float16, Float32 };

/// @brief What the caller intends to read; decides .mrc/.map files whose header is ambiguous
/// (docs/formats.md#stacks-volumes-and-volume-stacks). Extension, `:mrcs`/`:mrc` suffixes and ispg
/// 401 win over it.
enum class Expect {
  Auto,  ///< nz == 1: an image; nz > 1: a volume (RELION's reading of `.mrc`)
  Image, ///< a single image or an image out of a stack (nz > 1 is then a stack)
  Stack, ///< particles or movie frames: nz is the number of images
  Volume ///< a volume: nz is its depth
};

/// @brief Interpretation of MRC mode 0 bytes (docs/formats.md#modes).
enum class Mode0Sign {
  Auto,    ///< signed, unless the IMOD stamp is present with its signed flag clear
  Signed,  ///< always int8
  Unsigned ///< always uint8 (`--mode0-unsigned`)
};

/// @brief A three-way switch (`yes|no|auto`).
enum class Switch { Auto, Yes, No };

/// @brief Options that change how files are read. The defaults follow
/// docs/formats.md#image-addresses-and-file-types and docs/conventions.md#decisions.
struct ReadOptions {
  Expect expect = Expect::Auto;
  Mode0Sign mode0 = Mode0Sign::Auto;
  /// Flip TIFF rows on read so that row 0 is the bottom row, like RELION/IMOD/MotionCor2
  /// (docs/formats.md#tiff-movies); false reproduces Xmipp (`--tiff-flip-y no`).
  bool tiff_flip_y = true;
  /// IMOD 4-bit packed TIFF: Auto recognises it by the camera sizes of docs/formats.md#tiff-movies.
  Switch tiff_4bit = Switch::Auto;
};

/// @brief Facts about an opened image file, independent of its format.
///
/// `shape` describes one item (x, y, z) and the number of items n: a stack of 7 images of
/// 320x320 is {320, 320, 1, 7}, a 64^3 volume is {64, 64, 64, 1}. For permuted MRC volumes the
/// shape is the one after permutation into x-fastest order.
struct ImageInfo {
  std::string path; ///< file name (without `N@` and `:type`)
  FileFormat format = FileFormat::Mrc;
  Content content = Content::Image;
  Shape shape{0, 0, 0, 0};
  SampleType sample = SampleType::Float32;
  int mrc_mode = -1;    ///< MRC mode number, -1 for other formats
  bool big_endian = false;
  /// A/pixel along x, y, z; 0 where the file does not say (MRC cella or mx of 0, no TIFF resolution).
  std::array<double, 3> pixel_size{0, 0, 0};
  /// Origin in A: MRC origin if non-zero, else nxstart * pixel size (docs/formats.md#pixel-size-and-origin).
  std::array<double, 3> origin_A{0, 0, 0};

  /// @brief Pixel size along x in A, 0 when unknown.
  double pixel() const { return pixel_size[0]; }
  bool pixel_size_known() const { return pixel_size[0] > 0; }
  index_t count() const { return shape.n; }
};

/// @brief "MRC", "TIFF", "EMAN2 HDF" or "SPIDER" for messages.
const char* to_string(FileFormat f);
/// @brief "image", "stack", "volume" or "volume stack" for messages.
const char* to_string(Content c);
/// @brief "float32", "uint16", ... for messages.
const char* to_string(SampleType s);

} // namespace frost::io
