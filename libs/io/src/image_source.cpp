#include "frost/io/image_source.hpp"

#include "frost/core/error.hpp"

namespace frost::io {

void ImageSource::read_range(index_t first, index_t count, float* out) const {
  const index_t per_item = item_shape().total();
  for (index_t i = 0; i < count; ++i) read(first + i, out + i * per_item);
}

Image<float> ImageSource::read(index_t index) const {
  check_index(index);
  Image<float> img(item_shape());
  read(index, img.data());
  return img;
}

Image<float> ImageSource::read_range(index_t first, index_t count) const {
  if (count < 0 || first < 0 || first + count > this->count())
    throw_input_error(info().path, "items " + std::to_string(first + 1) + ".." + std::to_string(first + count) +
                                       " requested but the file holds " + std::to_string(this->count()));
  Shape s = item_shape();
  s.n = count;
  Image<float> img(s);
  if (count > 0) read_range(first, count, img.data());
  return img;
}

void ImageSource::check_index(index_t index) const {
  if (index < 0 || index >= count())
    throw_input_error(info().path, "image " + std::to_string(index + 1) + " requested but the file holds " +
                                       std::to_string(count()) + (count() == 1 ? " item" : " items"));
}

} // namespace frost::io
