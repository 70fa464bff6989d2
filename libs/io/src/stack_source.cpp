#include "frost/io/stack_source.hpp"

#include "frost/core/error.hpp"
#include "frost/io/image_io.hpp"

namespace frost::io {

std::shared_ptr<const ImageSource> StackSource::file(const std::string& path, std::size_t row) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = files_.find(path);
  if (it != files_.end()) return it->second;
  try {
    std::shared_ptr<const ImageSource> s = open_image_source(path);
    files_.emplace(path, s);
    return s;
  } catch (const Error& e) {
    throw Error(e.code(), std::string(e.what()) + " (image of " + metadata_ + " row " + std::to_string(row + 1) + ")");
  }
}

void StackSource::check_index(const ImageSource& file, const std::string& path, index_t index,
                              const std::string& requested_by) {
  if (index >= file.count())
    throw_input_error(path, "image " + std::to_string(index + 1) + " requested by " + requested_by +
                                " but the file holds " + std::to_string(file.count()));
}

void StackSource::read(const std::string& path, index_t index, float* out, std::size_t row,
                       const std::string& requested_by) {
  const std::shared_ptr<const ImageSource> f = file(path, row);
  check_index(*f, path, index, requested_by);
  f->read(index, out);
}

} // namespace frost::io
