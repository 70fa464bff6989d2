#pragma once
/// @file column.hpp
/// @brief One label's values in a metadata table, stored column-wise.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace frost::meta {

/// @brief The values of one label, for every row of a table.
///
/// A column read from a file keeps its tokens as text (Kind::Text) in one contiguous buffer:
/// nothing is parsed until a number is asked for, unknown labels survive a
/// read-modify-write unchanged, and the writer can reproduce the input exactly. Columns
/// filled by the program hold numbers (Kind::Double, Kind::Int) and are formatted on write
/// in the target dialect's number format.
class Column {
public:
  enum class Kind { Text, Double, Int };

  explicit Column(std::string label, Kind kind = Kind::Text);

  const std::string& label() const noexcept { return label_; }
  void set_label(std::string label) { label_ = std::move(label); }
  Kind kind() const noexcept { return kind_; }
  std::size_t size() const noexcept;

  /// @brief The cell as text: the token read (Text), shortest exact decimal (Double), or integer.
  std::string text(std::size_t row) const;
  /// @brief The token of a Text cell without copying; valid until the column changes.
  std::string_view raw(std::size_t row) const {
    if (kind_ != Kind::Text || row >= cells_.size()) bad_raw_access(row);
    const std::uint64_t cell = cells_[row];
    return std::string_view(arena_.data() + (cell >> kSizeBits), cell & kMaxTokenSize);
  }
  /// @brief The cell as a number; false if a Text token is not one.
  bool to_double(std::size_t row, double& out) const noexcept;
  /// @brief The cell as an integer; false if it is not one (integral doubles are accepted).
  bool to_int(std::size_t row, std::int64_t& out) const noexcept;
  /// @brief True when every cell reads as a number (numeric kinds always do).
  bool all_numeric() const noexcept;

  /// @brief Appends a cell. Text into a numeric column must be a number (frost::Error(Input),
  /// naming the label, otherwise); a non-integral double turns an Int column into a Double one.
  void push_text(std::string_view value) {
    if (kind_ == Kind::Text)
      cells_.push_back(store_text(value)); // the reader's hot path
    else
      push_text_numeric(value);
  }
  void push_double(double value);
  void push_int(std::int64_t value);
  /// @brief Replaces a cell, with the same conversions as the push functions.
  void set_text(std::size_t row, std::string_view value);
  void set_double(std::size_t row, double value);
  void set_int(std::size_t row, std::int64_t value);
  /// @brief Appends a copy of `other`'s cell `row` (any kinds).
  void push_from(const Column& other, std::size_t row);

  /// @brief Grows with empty text / zeros, or shrinks.
  void resize(std::size_t rows);
  /// @brief Reserves room for `rows` cells and, for text, `text_bytes` characters.
  void reserve(std::size_t rows, std::size_t text_bytes = 0);
  /// @brief Characters held for Text cells (including those of replaced values).
  std::size_t text_bytes() const noexcept { return arena_.size(); }
  /// @brief Returns memory reserved beyond the current size.
  void shrink_to_fit();
  /// @brief Keeps the given rows in the given order (selection, reordering, duplication).
  void keep_rows(const std::vector<std::size_t>& rows);
  /// @brief Changes the storage kind; Text → number throws frost::Error(Input) on a non-number.
  void convert(Kind kind);

  /// @brief Line of the file where the label was read (0 when built in memory).
  std::size_t source_line() const noexcept { return source_line_; }
  void set_source_line(std::size_t line) noexcept { source_line_ = line; }

private:
  // A text cell is packed into 64 bits: offset into arena_ (40 bits) and length (24 bits).
  static constexpr unsigned kSizeBits = 24;
  static constexpr std::uint64_t kMaxTokenSize = (std::uint64_t{1} << kSizeBits) - 1;
  std::uint64_t store_text(std::string_view value) {
    const std::uint64_t offset = arena_.size();
    if (value.size() > kMaxTokenSize || (offset >> (64 - kSizeBits)) != 0) too_long(value.size());
    arena_.append(value.data(), value.size());
    return (offset << kSizeBits) | value.size();
  }
  void push_text_numeric(std::string_view value);
  [[noreturn]] void too_long(std::size_t size) const;
  [[noreturn]] void bad_raw_access(std::size_t row) const;
  [[noreturn]] void not_a_number(std::string_view value) const;

  std::string label_;
  Kind kind_;
  std::string arena_;
  std::vector<std::uint64_t> cells_;
  std::vector<double> doubles_;
  std::vector<std::int64_t> ints_;
  std::size_t source_line_ = 0;
};

} // namespace frost::meta
