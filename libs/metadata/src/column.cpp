#include "frost/metadata/column.hpp"

#include <cmath>

#include "frost/core/error.hpp"
#include "frost/metadata/value_text.hpp"

namespace frost::meta {

Column::Column(std::string label, Kind kind) : label_(std::move(label)), kind_(kind) {}

std::size_t Column::size() const noexcept {
  switch (kind_) {
  case Kind::Text: return cells_.size();
  case Kind::Double: return doubles_.size();
  case Kind::Int: return ints_.size();
  }
  return 0;
}

void Column::bad_raw_access(std::size_t row) const {
  FROST_EXPECTS(kind_ == Kind::Text, "Column::raw on a numeric column '" + label_ + "'");
  FROST_EXPECTS(row < cells_.size(), "row out of range in column '" + label_ + "'");
  FROST_THROW(ExitCode::Runtime, "Column::raw: bad access");
}

std::string Column::text(std::size_t row) const {
  FROST_EXPECTS(row < size(), "row out of range in column '" + label_ + "'");
  switch (kind_) {
  case Kind::Text: return std::string(raw(row));
  case Kind::Double: return format_shortest(doubles_[row]);
  case Kind::Int: return std::to_string(ints_[row]);
  }
  return {};
}

bool Column::to_double(std::size_t row, double& out) const noexcept {
  if (row >= size()) return false;
  switch (kind_) {
  case Kind::Text: {
    const std::uint64_t cell = cells_[row];
    return parse_double(std::string_view(arena_).substr(cell >> kSizeBits, cell & kMaxTokenSize), out);
  }
  case Kind::Double: out = doubles_[row]; return true;
  case Kind::Int: out = static_cast<double>(ints_[row]); return true;
  }
  return false;
}

bool Column::to_int(std::size_t row, std::int64_t& out) const noexcept {
  if (row >= size()) return false;
  switch (kind_) {
  case Kind::Text: {
    const std::uint64_t cell = cells_[row];
    return parse_int(std::string_view(arena_).substr(cell >> kSizeBits, cell & kMaxTokenSize), out);
  }
  case Kind::Double: {
    const double d = doubles_[row];
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.2e18) return false;
    out = static_cast<std::int64_t>(d);
    return true;
  }
  case Kind::Int: out = ints_[row]; return true;
  }
  return false;
}

bool Column::all_numeric() const noexcept {
  if (kind_ != Kind::Text) return true;
  for (std::size_t i = 0; i < cells_.size(); ++i)
    if (!looks_numeric(raw(i))) return false;
  return true;
}

void Column::too_long(std::size_t size) const {
  if (size > kMaxTokenSize) FROST_THROW(ExitCode::Input, "value of label '" + label_ + "' is longer than 16 MiB");
  FROST_THROW(ExitCode::Input, "column '" + label_ + "' holds more than 1 TiB of text");
}

void Column::not_a_number(std::string_view value) const {
  FROST_THROW(ExitCode::Input, "label '" + label_ + "' holds numbers; '" + std::string(value) +
                                   "' is not a number");
}

void Column::push_text_numeric(std::string_view value) {
  switch (kind_) {
  case Kind::Text: cells_.push_back(store_text(value)); return;
  case Kind::Double: {
    double d = 0;
    if (!parse_double(value, d)) not_a_number(value);
    doubles_.push_back(d);
    return;
  }
  case Kind::Int: {
    std::int64_t i = 0;
    if (parse_int(value, i)) {
      ints_.push_back(i);
      return;
    }
    double d = 0;
    if (!parse_double(value, d)) not_a_number(value);
    convert(Kind::Double);
    doubles_.push_back(d);
    return;
  }
  }
}

void Column::push_double(double value) {
  switch (kind_) {
  case Kind::Text: cells_.push_back(store_text(format_shortest(value))); return;
  case Kind::Double: doubles_.push_back(value); return;
  case Kind::Int:
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.2e18) {
      ints_.push_back(static_cast<std::int64_t>(value));
    } else {
      convert(Kind::Double);
      doubles_.push_back(value);
    }
    return;
  }
}

void Column::push_int(std::int64_t value) {
  switch (kind_) {
  case Kind::Text: cells_.push_back(store_text(std::to_string(value))); return;
  case Kind::Double: doubles_.push_back(static_cast<double>(value)); return;
  case Kind::Int: ints_.push_back(value); return;
  }
}

void Column::set_text(std::size_t row, std::string_view value) {
  FROST_EXPECTS(row < size(), "row out of range in column '" + label_ + "'");
  switch (kind_) {
  case Kind::Text: cells_[row] = store_text(value); return; // old bytes stay unused in the arena
  case Kind::Double: {
    double d = 0;
    if (!parse_double(value, d)) not_a_number(value);
    doubles_[row] = d;
    return;
  }
  case Kind::Int: {
    std::int64_t i = 0;
    if (parse_int(value, i)) {
      ints_[row] = i;
      return;
    }
    double d = 0;
    if (!parse_double(value, d)) not_a_number(value);
    convert(Kind::Double);
    doubles_[row] = d;
    return;
  }
  }
}

void Column::set_double(std::size_t row, double value) {
  FROST_EXPECTS(row < size(), "row out of range in column '" + label_ + "'");
  switch (kind_) {
  case Kind::Text: cells_[row] = store_text(format_shortest(value)); return;
  case Kind::Double: doubles_[row] = value; return;
  case Kind::Int:
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.2e18) {
      ints_[row] = static_cast<std::int64_t>(value);
    } else {
      convert(Kind::Double);
      doubles_[row] = value;
    }
    return;
  }
}

void Column::set_int(std::size_t row, std::int64_t value) {
  FROST_EXPECTS(row < size(), "row out of range in column '" + label_ + "'");
  switch (kind_) {
  case Kind::Text: cells_[row] = store_text(std::to_string(value)); return;
  case Kind::Double: doubles_[row] = static_cast<double>(value); return;
  case Kind::Int: ints_[row] = value; return;
  }
}

void Column::push_from(const Column& other, std::size_t row) {
  switch (other.kind_) {
  case Kind::Text: push_text(other.raw(row)); return;
  case Kind::Double: push_double(other.doubles_.at(row)); return;
  case Kind::Int: push_int(other.ints_.at(row)); return;
  }
}

void Column::resize(std::size_t rows) {
  switch (kind_) {
  case Kind::Text: cells_.resize(rows, 0); return; // offset 0, length 0: the empty string
  case Kind::Double: doubles_.resize(rows, 0.0); return;
  case Kind::Int: ints_.resize(rows, 0); return;
  }
}

void Column::reserve(std::size_t rows, std::size_t text_bytes) {
  switch (kind_) {
  case Kind::Text:
    cells_.reserve(rows);
    arena_.reserve(text_bytes);
    return;
  case Kind::Double: doubles_.reserve(rows); return;
  case Kind::Int: ints_.reserve(rows); return;
  }
}

void Column::shrink_to_fit() {
  arena_.shrink_to_fit();
  cells_.shrink_to_fit();
  doubles_.shrink_to_fit();
  ints_.shrink_to_fit();
}

void Column::keep_rows(const std::vector<std::size_t>& rows) {
  const std::size_t n = size();
  for (std::size_t r : rows) FROST_EXPECTS(r < n, "row out of range in column '" + label_ + "'");
  switch (kind_) {
  case Kind::Text: {
    Column kept(label_, Kind::Text);
    kept.reserve(rows.size());
    for (std::size_t r : rows) kept.cells_.push_back(kept.store_text(raw(r)));
    arena_ = std::move(kept.arena_);
    cells_ = std::move(kept.cells_);
    return;
  }
  case Kind::Double: {
    std::vector<double> kept;
    kept.reserve(rows.size());
    for (std::size_t r : rows) kept.push_back(doubles_[r]);
    doubles_ = std::move(kept);
    return;
  }
  case Kind::Int: {
    std::vector<std::int64_t> kept;
    kept.reserve(rows.size());
    for (std::size_t r : rows) kept.push_back(ints_[r]);
    ints_ = std::move(kept);
    return;
  }
  }
}

void Column::convert(Kind kind) {
  if (kind == kind_) return;
  const std::size_t n = size();
  Column out(label_, kind);
  out.source_line_ = source_line_;
  out.reserve(n);
  for (std::size_t r = 0; r < n; ++r) out.push_from(*this, r);
  // An Int column may have widened to Double while converting from text.
  *this = std::move(out);
}

} // namespace frost::meta
