#pragma once
/// @file image.hpp
/// @brief Non-owning views and the owning host Image (image, volume or stack of either).
#include <type_traits>

#include "frost/core/host_buffer.hpp"
#include "frost/core/shape.hpp"

namespace frost {

/// Non-owning view of contiguous data described by a Shape. Used for host and device memory
/// alike; the owner decides where `data` points.
template <class T>
struct View {
  T* data = nullptr;
  Shape shape;

  FROST_HD T& operator()(index_t x, index_t y, index_t z = 0, index_t n = 0) const {
    return data[shape.index(x, y, z, n)];
  }
  FROST_HD T& operator[](index_t i) const { return data[i]; }
  /// View of item `i` of a stack.
  View item(index_t i) const { return {data + i * shape.pixels_per_item(), shape.item()}; }
  /// A view of mutable data converts to a read-only view (only declared for non-const T).
  template <class U = T, class = std::enable_if_t<!std::is_const_v<U>>>
  operator View<const U>() const {
    return {data, shape};
  }
};

/// Owning host array with a Shape: a 2-D image, a volume, or a stack of either.
template <class T>
class Image {
public:
  Image() = default;
  explicit Image(Shape shape, HostMemory kind = HostMemory::Pageable)
      : shape_(shape), buffer_(static_cast<std::size_t>(shape.total()), kind) {
    buffer_.zero();
  }

  const Shape& shape() const noexcept { return shape_; }
  T* data() noexcept { return buffer_.data(); }
  const T* data() const noexcept { return buffer_.data(); }
  index_t size() const noexcept { return shape_.total(); }
  T& operator()(index_t x, index_t y, index_t z = 0, index_t n = 0) { return buffer_[shape_.index(x, y, z, n)]; }
  const T& operator()(index_t x, index_t y, index_t z = 0, index_t n = 0) const {
    return buffer_[shape_.index(x, y, z, n)];
  }
  T& operator[](index_t i) { return buffer_[i]; }
  const T& operator[](index_t i) const { return buffer_[i]; }
  T* begin() noexcept { return buffer_.begin(); }
  T* end() noexcept { return buffer_.end(); }
  const T* begin() const noexcept { return buffer_.begin(); }
  const T* end() const noexcept { return buffer_.end(); }

  View<T> view() noexcept { return {data(), shape_}; }
  View<const T> view() const noexcept { return {data(), shape_}; }
  View<const T> cview() const noexcept { return {data(), shape_}; }
  HostBuffer<T>& buffer() noexcept { return buffer_; }

private:
  Shape shape_{0, 0, 0, 0};
  HostBuffer<T> buffer_;
};

} // namespace frost
