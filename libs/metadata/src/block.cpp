#include "frost/metadata/block.hpp"

#include "frost/core/error.hpp"
#include "frost/metadata/value_text.hpp"

namespace frost::meta {

Block::Block(std::string name, bool is_list) : name_(std::move(name)), is_list_(is_list) {}

void Block::set_list(bool is_list) {
  FROST_EXPECTS(!is_list || rows_ <= 1, "a list block has one row; data_" + name_ + " has " +
                                             std::to_string(rows_));
  is_list_ = is_list;
}

std::vector<std::string> Block::labels() const {
  std::vector<std::string> out;
  out.reserve(columns_.size());
  for (const Column& c : columns_) out.push_back(c.label());
  return out;
}

const Column* Block::find(std::string_view label) const noexcept {
  for (const Column& c : columns_)
    if (c.label() == label) return &c;
  return nullptr;
}

Column* Block::find(std::string_view label) noexcept {
  for (Column& c : columns_)
    if (c.label() == label) return &c;
  return nullptr;
}

std::string Block::describe() const {
  return "data_" + name_ + " in " + (origin_.empty() ? std::string("<memory>") : origin_);
}

const Column& Block::column(std::string_view label) const {
  if (const Column* c = find(label)) return *c;
  std::string known;
  for (const Column& c : columns_) known += (known.empty() ? "" : ", ") + c.label();
  throw_input_error(origin_.empty() ? std::string("<memory>") : origin_,
                    "data_" + name_ + " has no label '" + std::string(label) + "' (labels: " +
                        (known.empty() ? std::string("none") : known) + ")");
}

Column& Block::column(std::string_view label) {
  return const_cast<Column&>(static_cast<const Block*>(this)->column(label));
}

std::size_t Block::source_line(std::size_t row) const noexcept {
  return row < source_lines_.size() ? source_lines_[row] : 0;
}

void Block::fail_at(std::size_t row, std::string_view label, const std::string& problem) const {
  std::size_t line = source_line(row);
  if (line == 0 && is_list_)
    if (const Column* c = find(label)) line = c->source_line();
  std::string where = origin_.empty() ? std::string("<memory>") : origin_;
  if (line > 0) where += ":" + std::to_string(line);
  std::string message = "data_" + name_ + ", label '" + std::string(label) + "'";
  if (!is_list_) message += ", row " + std::to_string(row + 1);
  throw_input_error(where, message + ": " + problem);
}

std::vector<double> Block::doubles(std::string_view label) const {
  const Column& c = column(label);
  std::vector<double> out(rows_);
  for (std::size_t r = 0; r < rows_; ++r)
    if (!c.to_double(r, out[r])) fail_at(r, label, "'" + c.text(r) + "' is not a number");
  return out;
}

std::vector<std::int64_t> Block::ints(std::string_view label) const {
  const Column& c = column(label);
  std::vector<std::int64_t> out(rows_);
  for (std::size_t r = 0; r < rows_; ++r)
    if (!c.to_int(r, out[r])) fail_at(r, label, "'" + c.text(r) + "' is not an integer");
  return out;
}

std::vector<std::string> Block::strings(std::string_view label) const {
  const Column& c = column(label);
  std::vector<std::string> out;
  out.reserve(rows_);
  for (std::size_t r = 0; r < rows_; ++r) out.push_back(c.text(r));
  return out;
}

std::vector<double> Block::doubles_or(std::string_view label, double fallback) const {
  if (!has(label)) return std::vector<double>(rows_, fallback);
  return doubles(label);
}

double Block::get_double(std::string_view label, std::size_t row) const {
  const Column& c = column(label);
  FROST_EXPECTS(row < rows_, "row out of range in " + describe());
  double v = 0;
  if (!c.to_double(row, v)) fail_at(row, label, "'" + c.text(row) + "' is not a number");
  return v;
}

std::int64_t Block::get_int(std::string_view label, std::size_t row) const {
  const Column& c = column(label);
  FROST_EXPECTS(row < rows_, "row out of range in " + describe());
  std::int64_t v = 0;
  if (!c.to_int(row, v)) fail_at(row, label, "'" + c.text(row) + "' is not an integer");
  return v;
}

std::string Block::get_string(std::string_view label, std::size_t row) const {
  const Column& c = column(label);
  FROST_EXPECTS(row < rows_, "row out of range in " + describe());
  return c.text(row);
}

std::vector<double> Block::get_vector(std::string_view label, std::size_t row) const {
  const std::string text = get_string(label, row);
  auto v = parse_vector(text);
  if (!v) fail_at(row, label, "'" + text + "' is not a vector of numbers");
  return *v;
}

Column& Block::add_column(std::string label, Column::Kind kind) {
  FROST_EXPECTS(!has(label), "label '" + label + "' already exists in " + describe());
  FROST_EXPECTS(!label.empty(), "empty label in " + describe());
  if (is_list_ && columns_.empty() && rows_ == 0) rows_ = 1;
  columns_.emplace_back(std::move(label), kind);
  columns_.back().resize(rows_);
  return columns_.back();
}

Column& Block::insert_column(Column column) {
  FROST_EXPECTS(!has(column.label()), "label '" + column.label() + "' already exists in " + describe());
  if (columns_.empty()) {
    FROST_EXPECTS(!is_list_ || column.size() == 1, "a list block has one row: " + describe());
    if (column.size() != rows_) source_lines_.clear();
    rows_ = column.size();
  } else {
    FROST_EXPECTS(column.size() == rows_, "column '" + column.label() + "' has " + std::to_string(column.size()) +
                                              " values for " + std::to_string(rows_) + " rows in " + describe());
  }
  columns_.push_back(std::move(column));
  return columns_.back();
}

Column& Block::ensure_column(std::string_view label, Column::Kind kind) {
  if (Column* c = find(label)) return *c;
  return add_column(std::string(label), kind);
}

namespace {
template <class Fill>
void replace_column(Block& block, std::string_view label, std::size_t n, Column::Kind kind, Fill fill) {
  if (block.column_count() == 0 || (block.column_count() == 1 && block.has(label))) {
    // The first column of an empty block sets the number of rows.
    FROST_EXPECTS(!block.is_list() || n == 1, "a list block has one row");
  } else {
    FROST_EXPECTS(n == block.rows(), "column '" + std::string(label) + "' has " + std::to_string(n) +
                                         " values for " + std::to_string(block.rows()) + " rows in " +
                                         block.describe());
  }
  Column column{std::string(label), kind};
  column.reserve(n);
  fill(column);
  if (Column* existing = block.find(label)) {
    column.set_source_line(existing->source_line());
    *existing = std::move(column);
  } else {
    block.add_column(std::string(label), kind) = std::move(column);
  }
}
} // namespace

void Block::set_column(std::string_view label, std::vector<double> values) {
  const std::size_t n = values.size();
  const bool sets_rows = columns_.empty() || (columns_.size() == 1 && has(label));
  replace_column(*this, label, n, Column::Kind::Double, [&](Column& c) {
    for (double v : values) c.push_double(v);
  });
  if (sets_rows && n != rows_) source_lines_.clear();
  if (sets_rows) rows_ = n;
}

void Block::set_column(std::string_view label, const std::vector<std::int64_t>& values) {
  const bool sets_rows = columns_.empty() || (columns_.size() == 1 && has(label));
  replace_column(*this, label, values.size(), Column::Kind::Int, [&](Column& c) {
    for (std::int64_t v : values) c.push_int(v);
  });
  if (sets_rows && values.size() != rows_) source_lines_.clear();
  if (sets_rows) rows_ = values.size();
}

void Block::set_column(std::string_view label, const std::vector<std::string>& values) {
  const bool sets_rows = columns_.empty() || (columns_.size() == 1 && has(label));
  replace_column(*this, label, values.size(), Column::Kind::Text, [&](Column& c) {
    for (const std::string& v : values) c.push_text(v);
  });
  if (sets_rows && values.size() != rows_) source_lines_.clear();
  if (sets_rows) rows_ = values.size();
}

void Block::remove_column(std::string_view label) {
  for (auto it = columns_.begin(); it != columns_.end(); ++it) {
    if (it->label() == label) {
      columns_.erase(it);
      if (columns_.empty() && is_list_) rows_ = 0;
      return;
    }
  }
}

void Block::rename_column(std::string_view from, std::string to) {
  if (from == to) return;
  FROST_EXPECTS(!has(to), "label '" + to + "' already exists in " + describe());
  column(from).set_label(std::move(to));
}

void Block::set_double(std::size_t row, std::string_view label, double value) {
  FROST_EXPECTS(row < rows_, "row out of range in " + describe());
  ensure_column(label, Column::Kind::Double).set_double(row, value);
}

void Block::set_int(std::size_t row, std::string_view label, std::int64_t value) {
  FROST_EXPECTS(row < rows_, "row out of range in " + describe());
  ensure_column(label, Column::Kind::Int).set_int(row, value);
}

void Block::set_string(std::size_t row, std::string_view label, std::string_view value) {
  FROST_EXPECTS(row < rows_, "row out of range in " + describe());
  ensure_column(label, Column::Kind::Text).set_text(row, value);
}

std::size_t Block::add_row() {
  FROST_EXPECTS(!is_list_ || rows_ == 0, "a list block has one row: " + describe());
  for (Column& c : columns_) c.resize(rows_ + 1);
  if (!source_lines_.empty()) source_lines_.push_back(0);
  return rows_++;
}

std::size_t Block::append_row_from(const Block& source, std::size_t row) {
  FROST_EXPECTS(row < source.rows(), "row out of range in " + source.describe());
  FROST_EXPECTS(!is_list_ || rows_ == 0, "a list block has one row: " + describe());
  for (Column& c : columns_) {
    if (const Column* from = source.find(c.label()))
      c.push_from(*from, row);
    else
      c.resize(rows_ + 1);
  }
  if (!source_lines_.empty()) source_lines_.push_back(0);
  return rows_++;
}

void Block::add_columns_from(const Block& source) {
  for (const Column& c : source.columns())
    if (!has(c.label())) add_column(c.label(), c.kind());
}

void Block::keep_rows(const std::vector<std::size_t>& rows) {
  for (std::size_t r : rows) FROST_EXPECTS(r < rows_, "row out of range in " + describe());
  for (Column& c : columns_) c.keep_rows(rows);
  if (!source_lines_.empty()) {
    std::vector<std::size_t> lines;
    lines.reserve(rows.size());
    for (std::size_t r : rows) lines.push_back(source_lines_[r]);
    source_lines_ = std::move(lines);
  }
  rows_ = rows.size();
}

void Block::reserve_rows(std::size_t rows) {
  for (Column& c : columns_) c.reserve(rows);
}

void Block::commit_row(std::size_t line) {
  for (const Column& c : columns_)
    FROST_EXPECTS(c.size() == rows_ + 1, "commit_row: column '" + c.label() + "' was not filled");
  if (source_lines_.size() < rows_) source_lines_.resize(rows_, 0);
  source_lines_.push_back(line);
  ++rows_;
}

} // namespace frost::meta
