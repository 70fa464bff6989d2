#pragma once
/// @file block.hpp
/// @brief One data block of a STAR/XMD file: a list (label/value pairs) or a table (loop_).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frost/metadata/column.hpp"

namespace frost::meta {

/// @brief A data block: named columns of equal length, in file order.
///
/// A list block (`_label value` lines) is stored as a table with one row. Every accessor that
/// reads user data reports problems as frost::Error(Input) naming the file, the block, the
/// label and, for a bad value, the row and its line in the file.
class Block {
public:
  Block() = default;
  explicit Block(std::string name, bool is_list = false);

  const std::string& name() const noexcept { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  /// @brief True for a list block (written as `_label value` pairs); it has one row.
  bool is_list() const noexcept { return is_list_; }
  void set_list(bool is_list);

  std::size_t rows() const noexcept { return rows_; }
  std::size_t column_count() const noexcept { return columns_.size(); }
  const std::vector<Column>& columns() const noexcept { return columns_; }
  std::vector<std::string> labels() const;

  bool has(std::string_view label) const noexcept { return find(label) != nullptr; }
  const Column* find(std::string_view label) const noexcept;
  Column* find(std::string_view label) noexcept;
  /// @brief The column of `label`; frost::Error(Input) naming file, block and label if absent.
  const Column& column(std::string_view label) const;
  Column& column(std::string_view label);
  Column& column_at(std::size_t index) { return columns_.at(index); }
  const Column& column_at(std::size_t index) const { return columns_.at(index); }

  /// @brief A whole column as numbers/integers/text; throws naming the first bad row.
  std::vector<double> doubles(std::string_view label) const;
  std::vector<std::int64_t> ints(std::string_view label) const;
  std::vector<std::string> strings(std::string_view label) const;
  /// @brief As doubles(), but `fallback` for every row when the label is absent.
  std::vector<double> doubles_or(std::string_view label, double fallback) const;
  /// @brief One cell, with the same checks.
  double get_double(std::string_view label, std::size_t row = 0) const;
  std::int64_t get_int(std::string_view label, std::size_t row = 0) const;
  std::string get_string(std::string_view label, std::size_t row = 0) const;
  /// @brief A vector-valued cell (`[a,b,c]` or Xmipp's quoted list).
  std::vector<double> get_vector(std::string_view label, std::size_t row = 0) const;

  /// @brief Adds a column filled with empty text / zeros; frost::Error(Runtime) if it exists.
  Column& add_column(std::string label, Column::Kind kind = Column::Kind::Text);
  /// @brief Appends a filled column; its size must equal rows() unless the block has no
  /// columns yet (then it sets the row count). frost::Error(Runtime) if the label exists.
  Column& insert_column(Column column);
  /// @brief The existing column of `label`, or a new one of `kind`.
  Column& ensure_column(std::string_view label, Column::Kind kind = Column::Kind::Text);
  /// @brief Replaces (or adds) a whole column; the size must equal rows() unless the block
  /// has no columns yet (then it sets the row count).
  void set_column(std::string_view label, std::vector<double> values);
  void set_column(std::string_view label, const std::vector<std::int64_t>& values);
  void set_column(std::string_view label, const std::vector<std::string>& values);
  void remove_column(std::string_view label);
  void rename_column(std::string_view from, std::string to);

  /// @brief Sets one cell, adding the column (of the value's kind) when it is missing.
  void set_double(std::size_t row, std::string_view label, double value);
  void set_int(std::size_t row, std::string_view label, std::int64_t value);
  void set_string(std::size_t row, std::string_view label, std::string_view value);

  /// @brief Appends a row of empty text / zeros and returns its index.
  std::size_t add_row();
  /// @brief Appends row `row` of `source`, matching labels by name; labels only this block
  /// has get empty text / zero, labels only `source` has are ignored (add them first with
  /// add_columns_from()).
  std::size_t append_row_from(const Block& source, std::size_t row);
  /// @brief Adds every label of `source` this block lacks, with the same kind.
  void add_columns_from(const Block& source);
  /// @brief Keeps the given rows in the given order.
  void keep_rows(const std::vector<std::size_t>& rows);
  void reserve_rows(std::size_t rows);

  /// @brief The file the block was read from ("" when built in memory), for messages.
  const std::string& origin() const noexcept { return origin_; }
  void set_origin(std::string origin) { origin_ = std::move(origin); }
  /// @brief Line of row `row` in the file it was read from (0 when unknown).
  std::size_t source_line(std::size_t row) const noexcept;
  /// @brief "data_NAME in FILE", as used in messages.
  std::string describe() const;

  /// @brief Parser hook: all columns have grown by one cell read on `line`.
  void commit_row(std::size_t line);

  /// @brief Throws frost::Error(Input): "FILE:LINE: data_NAME, label L, row R: problem".
  [[noreturn]] void fail_at(std::size_t row, std::string_view label, const std::string& problem) const;

private:
  std::string name_;
  bool is_list_ = false;
  std::size_t rows_ = 0;
  std::vector<Column> columns_;
  std::vector<std::size_t> source_lines_; // per row; empty when built in memory
  std::string origin_;
};

} // namespace frost::meta
