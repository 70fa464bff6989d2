#pragma once
/// @file stack_source.hpp
/// @brief The images of particle metadata: items of stack files addressed by path and index,
/// every file opened once and shared by the rows that point into it. Thread-safe (the loaders of
/// frost_reconstruct_fourier read from several threads; ImageSource::read is safe so).
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "frost/io/image_source.hpp"

namespace frost::io {

class StackSource {
public:
  /// `metadata`: the file whose rows name the images, for the errors.
  explicit StackSource(std::string metadata) : metadata_(std::move(metadata)) {}

  /// The file at `path`, opened on first use; an error opening it is rethrown with
  /// " (image of <metadata> row <row + 1>)" appended.
  std::shared_ptr<const ImageSource> file(const std::string& path, std::size_t row);

  /// Item `index` (0-based) of the file at `path` into `out` (item_shape().total() floats).
  /// frost::Error(Input) naming `path` when the file holds fewer items:
  /// "image <index + 1> requested by <requested_by> but the file holds <count>".
  void read(const std::string& path, index_t index, float* out, std::size_t row, const std::string& requested_by);

  /// The index check of read(), for callers that check more before reading.
  static void check_index(const ImageSource& file, const std::string& path, index_t index,
                          const std::string& requested_by);

  const std::string& metadata() const { return metadata_; }

private:
  std::string metadata_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const ImageSource>> files_;
};

} // namespace frost::io
