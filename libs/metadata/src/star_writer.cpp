// STAR writers byte-compatible with RELION (src/metadata_table.cpp layout,
// docs/formats.md#writing-star-files) and Xmipp (docs/formats.md#xmd-syntax). Text columns read
// from a file are written from their tokens, so numbers keep their digits; columns the program
// filled are formatted as the target program formats them.
#include "frost/core/atomic_file.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/value_text.hpp"

namespace frost::meta {

namespace {

/// Output buffer that hands large chunks to the file (or keeps everything for to_string).
class Out {
public:
  explicit Out(AtomicFile* file) : file_(file) { buffer_.reserve(file ? kFlushBytes + (1u << 16) : 1u << 16); }
  void put(std::string_view s) { buffer_.append(s.data(), s.size()); }
  void put(char c) { buffer_.push_back(c); }
  void spaces(std::size_t n) { buffer_.append(n, ' '); }
  /// Right-aligns `s` in `width` characters (longer values are written whole).
  void right(std::string_view s, std::size_t width) {
    if (s.size() < width) spaces(width - s.size());
    put(s);
  }
  /// Called after each row: RELION flushes in large blocks because line-wise writes were slow
  /// on network file systems; 16 MiB is about 100 000 particle rows.
  void row_done() {
    if (file_ && buffer_.size() >= kFlushBytes) flush();
  }
  void flush() {
    if (file_ && !buffer_.empty()) {
      file_->write(buffer_);
      buffer_.clear();
    }
  }
  std::string take() { return std::move(buffer_); }

private:
  static constexpr std::size_t kFlushBytes = std::size_t{16} << 20;
  AtomicFile* file_;
  std::string buffer_;
};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// RELION writes labels of string type unpadded beyond width 10 even when the value looks like
/// a number (e.g. rlnMicrographName "1"); these are the string labels frost knows.
bool is_relion_string_label(std::string_view label) {
  static constexpr std::string_view kStrings[] = {
      "rlnCtfImage", "rlnCtfPowerSpectrum", "rlnMicrographMetadata", "rlnMicrographCoordinates",
      "rlnMicrographDefectFile", "rlnReferenceImage", "rlnMicrographNameNoDW", "rlnImageNameNoDW"};
  for (std::string_view s : kStrings)
    if (label == s) return true;
  return ends_with(label, "Name");
}

bool is_integer_token(std::string_view s) {
  std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (i >= s.size()) return false;
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

/// How the cells of one column are written.
struct ColumnStyle {
  const Column* column;
  bool numeric_text; // a Text column whose tokens are numbers and are aligned as numbers
};

std::vector<ColumnStyle> styles_of(const Block& block, bool relion) {
  std::vector<ColumnStyle> styles;
  for (const Column& c : block.columns()) {
    bool numeric = false;
    if (c.kind() == Column::Kind::Text) {
      // RELION stores labels it does not know (any label without "rln") as strings.
      const bool may_be_number = !relion || (c.label().compare(0, 3, "rln") == 0 && !is_relion_string_label(c.label()));
      numeric = may_be_number && c.all_numeric();
    }
    styles.push_back({&c, numeric});
  }
  return styles;
}

// ---- RELION ----------------------------------------------------------------------------

/// A string value, quoted when needed, right-aligned in `width` (0: no padding).
void put_token(Out& out, std::string_view token, char quote, std::size_t width) {
  const std::size_t length = token.size() + (quote != '\0' ? 2 : 0);
  if (length < width) out.spaces(width - length);
  if (quote != '\0') out.put(quote);
  out.put(token);
  if (quote != '\0') out.put(quote);
}

/// One value as RELION prints it. In loops RELION sets the stream width to 10 before each
/// value, which pads short strings; numbers are already 12 wide.
void put_relion_value(Out& out, const ColumnStyle& s, std::size_t row, bool loop) {
  switch (s.column->kind()) {
  case Column::Kind::Double: {
    double v = 0;
    s.column->to_double(row, v);
    out.put(format_relion_double(v));
    return;
  }
  case Column::Kind::Int: {
    std::int64_t v = 0;
    s.column->to_int(row, v);
    out.put(format_relion_int(v));
    return;
  }
  case Column::Kind::Text: break;
  }
  const std::string_view token = s.column->raw(row);
  if (s.numeric_text)
    out.right(token, 12);
  else
    put_token(out, token, quote_needed(token, '"'), loop ? 10 : 0);
}

void write_relion_block(Out& out, const Block& block, int version) {
  if (version > 0) {
    out.put("\n# version ");
    out.put(std::to_string(version));
    out.put('\n');
  }
  out.put("\ndata_");
  out.put(block.name());
  out.put("\n\n");
  const std::vector<ColumnStyle> styles = styles_of(block, true);
  if (block.is_list()) {
    std::size_t width = 10;
    for (const ColumnStyle& s : styles) width = std::max(width, s.column->label().size());
    for (const ColumnStyle& s : styles) {
      out.put('_');
      out.put(s.column->label());
      out.spaces(12 + width - s.column->label().size());
      put_relion_value(out, s, 0, false);
      out.put('\n');
    }
    out.put(" \n");
    return;
  }
  out.put("loop_ \n");
  for (std::size_t i = 0; i < styles.size(); ++i) {
    out.put('_');
    out.put(styles[i].column->label());
    out.put(" #");
    out.put(std::to_string(i + 1));
    out.put(" \n");
  }
  for (std::size_t r = 0; r < block.rows(); ++r) {
    for (const ColumnStyle& s : styles) {
      put_relion_value(out, s, r, true);
      out.put(' ');
    }
    out.put('\n');
    out.row_done();
  }
  out.put(" \n");
}

// ---- Xmipp -----------------------------------------------------------------------------

/// One value as Xmipp prints it: reals 12 wide, integers 10 wide, strings unpadded
/// (`aligned` false: list blocks, where numbers are written without padding too).
void put_xmipp_value(Out& out, const ColumnStyle& s, std::size_t row, bool aligned) {
  std::string number;
  switch (s.column->kind()) {
  case Column::Kind::Double: {
    double v = 0;
    s.column->to_double(row, v);
    number = format_xmipp_double(v);
    break;
  }
  case Column::Kind::Int: {
    std::int64_t v = 0;
    s.column->to_int(row, v);
    number = format_xmipp_int(v);
    break;
  }
  case Column::Kind::Text: {
    const std::string_view token = s.column->raw(row);
    if (!s.numeric_text)
      put_token(out, token, quote_needed(token, '\''), 0);
    else
      out.right(token, aligned ? (is_integer_token(token) ? 10 : 12) : 0);
    return;
  }
  }
  out.put(aligned ? std::string_view(number) : std::string_view(number).substr(number.find_first_not_of(' ')));
}

void write_xmipp_block(Out& out, const Block& block) {
  out.put("data_");
  out.put(block.name());
  out.put('\n');
  const std::vector<ColumnStyle> styles = styles_of(block, false);
  if (block.is_list()) {
    for (const ColumnStyle& s : styles) {
      out.put(" _");
      out.put(s.column->label());
      out.put(' ');
      put_xmipp_value(out, s, 0, false);
      out.put('\n');
    }
    return;
  }
  out.put("loop_\n");
  for (const ColumnStyle& s : styles) {
    out.put(" _");
    out.put(s.column->label());
    out.put('\n');
  }
  for (std::size_t r = 0; r < block.rows(); ++r) {
    for (const ColumnStyle& s : styles) {
      put_xmipp_value(out, s, r, true);
      out.put(' ');
    }
    out.put('\n');
    out.row_done();
  }
}

void write_all(Out& out, const std::vector<Block>& blocks, Dialect dialect, int version) {
  if (dialect == Dialect::Xmipp) {
    out.put("# XMIPP_STAR_1 * \n# \n");
    for (const Block& b : blocks) write_xmipp_block(out, b);
  } else {
    for (const Block& b : blocks) write_relion_block(out, b, version);
  }
}

} // namespace

int MetadataFile::version_for(Dialect dialect) const noexcept {
  if (dialect == Dialect::Relion31 && version_ >= 30000 && version_ < 50000) return version_;
  if (dialect == Dialect::Relion5 && version_ >= 50000) return version_;
  return default_version(dialect);
}

std::string MetadataFile::to_string(Dialect dialect) const {
  Out out(nullptr);
  write_all(out, blocks_, dialect, version_for(dialect));
  return out.take();
}

void MetadataFile::write(const std::string& path, Dialect dialect) const {
  AtomicFile file(path);
  Out out(&file);
  write_all(out, blocks_, dialect, version_for(dialect));
  out.flush();
  file.commit();
}

} // namespace frost::meta
